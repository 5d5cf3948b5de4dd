# kernel.statement(ADDRESS) at vfs_read's and vfs_write's first instruction (addresses from
# /proc/kallsyms: KASLR moves them each boot): dd reads this file and writes it to /dev/null, and
# the probes read the file (argument 1) in the registers there. An address inside an instruction
# is refused by the kernel. (-c runs dd through sh: `=` is a shell word, so target() is sh's pid.)
read=$(awk '$3 == "vfs_read" { print "0x" $1; exit }' /proc/kallsyms)
write=$(awk '$3 == "vfs_write" { print "0x" $1; exit }' /proc/kallsyms)
@TAP@ -e "global read
          probe kernel.statement($read) {
            if (@cast(pointer_arg(1), \"file\", \"kernel\")->f_path->dentry->d_iname == \"kernel_statement.cmd\" && !read++)
              printf(\"%s %d\n\", ppfunc(), pp() == \"kernel.statement($read)\")
          }
          probe kernel.statement($write).absolute {
            if (read && execname() == \"dd\" && @cast(pointer_arg(1), \"file\", \"kernel\")->f_path->dentry->d_iname == \"null\") {
              printf(\"%s %d\n\", ppfunc(), pp() == \"kernel.statement($write).absolute\")
              exit()
            }
          }" -c 'dd if=kernel_statement.cmd of=/dev/null status=none'
@TAP@ -L "kernel.statement($read)" | sed "s/$read/READ/"
@TAP@ -e "probe kernel.statement($(printf '0x%x' $((read + 1)))) { exit() }" 2>&1 | sed -E 's/0x[0-9a-f]{16}/ADDRESS/g'
echo "exit ${PIPESTATUS[0]}"
