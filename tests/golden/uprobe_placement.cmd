# An entry probe reading only integer-class parameters sits on the first instruction (emulated, cheap);
# one reading a local sits after the prologue. Compared with the symbol table's function addresses.
for f in add scale; do pc=$(@TAP@ -p2 -e "probe process(\"@PROGRAMS@/t_args\").function(\"$f\") { print(\$$([ $f = add ] && echo a || echo r)) }" | sed -n 's/.*pc=0x\([0-9a-f]*\).*/\1/p'); sym=$(nm @PROGRAMS@/t_args | awk -v f=$f '$3 == f { sub(/^0+/, "", $1); print $1 }'); [ "$pc" = "$sym" ] && echo "$f: first instruction" || echo "$f: after the prologue"; done
