for k in exported call inline; do @TAP@ -l "process(\"@PROGRAMS@/t_inline\").function(\"*\").$k" | sed "s|@PROGRAMS@/|PROGRAMS/|g; s|@[^\"]*/tests/programs/|@SRC/|g"; done
