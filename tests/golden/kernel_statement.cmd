# kernel.statement(ADDRESS) at vfs_read's and vfs_write's first instruction (addresses from
# /proc/kallsyms: KASLR moves them each boot): dd reads and writes 7 bytes, and the probes read the
# count (argument 3) in the registers there. An address inside an instruction is refused by the kernel.
read=$(awk '$3 == "vfs_read" { print "0x" $1; exit }' /proc/kallsyms)
write=$(awk '$3 == "vfs_write" { print "0x" $1; exit }' /proc/kallsyms)
@TAP@ -e "probe kernel.statement($read) { if (pid() == target() && ulong_arg(3) == 7) printf(\"%s %d %d\n\", ppfunc(), pp() == \"kernel.statement($read)\", ulong_arg(3)) }
          probe kernel.statement($write).absolute { if (pid() == target() && ulong_arg(3) == 7) { printf(\"%s %d %d\n\", ppfunc(), pp() == \"kernel.statement($write).absolute\", ulong_arg(3)); exit() } }" \
  -c 'dd if=/etc/hostname of=/dev/null bs=7 count=1 status=none'
@TAP@ -L "kernel.statement($read)" | sed "s/$read/READ/"
@TAP@ -e "probe kernel.statement($(printf '0x%x' $((read + 1)))) { exit() }" 2>&1 | sed -E 's/0x[0-9a-f]{16}/ADDRESS/g'
echo "exit ${PIPESTATUS[0]}"
