# kernel.statement("FUNC@FILE:LINE") from the kernel's DWARF (/usr/lib/debug/boot/vmlinux-RELEASE,
# Debian's linux-image-RELEASE-dbg; the VM stage binds it there for 6.1): a kprobe at the line's first
# address in vfs_read, $variables in scope there read from DWARF locations over pt_regs and kernel
# memory. dd reads /dev/zero 123 bytes at a time, twice: at line 456 (the first test of file->f_mode)
# $count is the size asked for, at line 475 (`if (ret > 0)`) $ret what was read. The lines are those of
# Debian 12's 6.1 kernel.
@TAP@ -e 'global hits
probe kernel.statement("vfs_read@fs/read_write.c:456") {
  if (execname() == "dd" && kernel_string($file->f_path->dentry->d_iname) == "zero")
    printf("%s %s count=%d\n", pp(), ppfunc(), $count)
}
probe kernel.statement("vfs_read@fs/read_write.c:475") {
  if (execname() == "dd" && kernel_string($file->f_path->dentry->d_iname) == "zero") {
    printf("%s %s ret=%d\n", pp(), ppfunc(), $ret)
    if (++hits == 2) exit()
  }
}' -c 'dd if=/dev/zero of=/dev/null bs=123 count=2 status=none'
# a variable DWARF says is optimized out at the line is refused, not read as garbage
@TAP@ -e 'probe kernel.statement("vfs_read@fs/read_write.c:456") { println($ret) }' 2>&1 | sed -E 's/pc 0x[0-9a-f]+/pc ADDRESS/'
echo "exit ${PIPESTATUS[0]}"
