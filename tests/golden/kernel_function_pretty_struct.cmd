# $file$ of a kernel function's struct pointer argument is its members from BTF ("{..."), and
# $file$$ prints them in full (f_mode among them); & of a pretty form is refused.
@TAP@ -e 'probe kernel.function("vfs_read") { if (pid() == target()) { println(substr($file$, 0, 1), " ", isinstr($file$$, ", .f_mode=")); exit() } }' -c "cat kernel_function_pretty_integer.tp > /dev/null"
@TAP@ -p2 -e 'probe kernel.function("vfs_read") { println(&$file$) }' 2>&1
echo "exit $?"
