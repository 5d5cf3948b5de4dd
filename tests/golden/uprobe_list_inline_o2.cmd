# An inlined instance lists its parameters in declaration order (gcc puts the constant k first among the instance's own DIEs), so scaled's out-of-line copy and its two inlined instances are one line.
for form in '' .inline .call; do @TAP@ -L "process(\"@PROGRAMS@/t_inlined_o2\").function(\"scaled\")$form"; done | sed "s|@PROGRAMS@/|PROGRAMS/|g; s|@[^\"]*/tests/programs/|@SRC/|g"
