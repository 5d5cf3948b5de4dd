# Issue 18: t_args stripped with a .gnu_debuglink to t_args.debug, found beside the binary and in .debug/ (the default search, as gdb's), and refused when its CRC does not match (the same DWARF, compressed: other bytes), as gdb refuses it: then only .dynsym, so no "use_point". A probe reads through the pointer with the debug file's types.
S=@PROGRAMS@/split
clean() { sed "s|$S/|S/|g; s|@[^\"]*/tests/programs/|@SRC/|g; s/pc=0x[0-9a-f]*/pc=PC/"; }
for layout in link dotdebug badcrc; do
  @TAP@ -v -L "process(\"$S/$layout/t_args\").function(\"use_point\")" 2>&1 | clean
  echo "exit ${PIPESTATUS[0]}"
done
@TAP@ -e "probe process(\"$S/link/t_args\").function(\"use_point\") { printf(\"%d %d %s\n\", \$p->x, \$p->next->y, user_string(\$p->name)) }" -c "$S/link/t_args"
