# Issue 18: t_args stripped (no .symtab, no DWARF), its debug file under a root by its GNU build id (root/.build-id/xx/rest.debug); SYSTEMTAP_DEBUGINFO_PATH names the root, as for SystemTap. -L lists the function with its variables, -v names the debug file, a probe reads $a and $b, and usymname() names the internal function from the debug file's .symtab. Then without the root, in the same index cache (keyed on the debug file too): only .dynsym, so no "add".
S=@PROGRAMS@/split/buildid
clean() { sed "s|$S/|S/|g; s|@[^\"]*/tests/programs/|@SRC/|g; s|/[0-9a-f][0-9a-f]/[0-9a-f]*\.debug|/ID.debug|; s/pc=0x[0-9a-f]*/pc=PC/"; }
SYSTEMTAP_DEBUGINFO_PATH=$S/root @TAP@ -v -L "process(\"$S/t_args\").function(\"add\")" 2>&1 | clean
SYSTEMTAP_DEBUGINFO_PATH=$S/root @TAP@ -e "probe process(\"$S/t_args\").function(\"add\") { printf(\"%s %d+%d\n\", usymname(uaddr()), \$a, \$b) }" -c "$S/t_args"
SYSTEMTAP_DEBUGINFO_PATH=/nonexistent @TAP@ -L "process(\"$S/t_args\").function(\"add\")" 2>&1 | clean
echo "exit ${PIPESTATUS[0]}"
