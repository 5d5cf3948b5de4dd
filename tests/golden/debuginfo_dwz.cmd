# Issue 18: t_args stripped, its debug file found by build id, its types (struct point, shared with t_args_o2) moved by dwz into a supplementary file named by .gnu_debugaltlink (a Debian path absent here) and found by its build id under the same root. -v names both; the variables and their members read through the supplementary file's types.
S=@PROGRAMS@/split/dwz
clean() { sed "s|$S/|S/|g; s|@[^\"]*/tests/programs/|@SRC/|g; s|/[0-9a-f][0-9a-f]/[0-9a-f]*\.debug|/ID.debug|; s/pc=0x[0-9a-f]*/pc=PC/"; }
export SYSTEMTAP_DEBUGINFO_PATH=$S/root
@TAP@ -v -L "process(\"$S/t_args\").function(\"use_point\")" 2>&1 | clean
@TAP@ -L "process(\"$S/t_args\").function(\"main\")" 2>&1 | clean
@TAP@ -e "probe process(\"$S/t_args\").function(\"use_point\") { printf(\"%d %d %s %s\n\", \$p->x, \$p->next->y, user_string(\$p->name), user_string(\$p->next->name)) }" -c "$S/t_args"
