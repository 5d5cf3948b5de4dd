# kernel.statement(ADDRESS) at vfs_read's and vfs_write's first instruction (addresses from
# /proc/kallsyms: KASLR moves them each boot): cat reads this file and writes it to /dev/null, and
# the probes read the file (argument 1) in the registers there. An address inside an instruction
# is refused by the kernel.
read=$(awk '$3 == "vfs_read" { print "0x" $1; exit }' /proc/kallsyms)
write=$(awk '$3 == "vfs_write" { print "0x" $1; exit }' /proc/kallsyms)
@TAP@ -e "probe kernel.statement($read) {
            if (pid() == target() && @cast(pointer_arg(1), \"file\", \"kernel\")->f_path->dentry->d_iname == \"kernel_statement.cmd\")
              printf(\"%s %d\n\", ppfunc(), pp() == \"kernel.statement($read)\")
          }
          probe kernel.statement($write).absolute {
            if (pid() == target() && @cast(pointer_arg(1), \"file\", \"kernel\")->f_path->dentry->d_iname == \"null\") {
              printf(\"%s %d\n\", ppfunc(), pp() == \"kernel.statement($write).absolute\")
              exit()
            }
          }" -c 'cat kernel_statement.cmd > /dev/null'
@TAP@ -L "kernel.statement($read)" | sed "s/$read/READ/"
@TAP@ -e "probe kernel.statement($(printf '0x%x' $((read + 1)))) { exit() }" 2>&1 | sed -E 's/0x[0-9a-f]{16}/ADDRESS/g'
echo "exit ${PIPESTATUS[0]}"
