# t_locked's bump starts with `lock incl`, which the kernel refuses: the probe moves to bump's one call and counts every call (-v says where it sits, both attach paths); with --no-call-sites, or a handler reading the pc (uaddr()), it cannot move and the exact name is an error.
P=@PROGRAMS@/t_locked
@TAP@ -v -c "$P 3" -e "global n probe process(\"$P\").function(\"bump\") { n++ } probe end { printf(\"n=%d\n\", n) }" 2>&1 | grep -E "sits|=" | sed 's/.*function("\([a-z_]*\)@[^"]*")/\1/'
TAP_NO_UPROBE_MULTI=1 @TAP@ -c "$P 3" -e "global n probe process(\"$P\").function(\"bump\") { n++ } probe end { printf(\"n=%d\n\", n) }"
@TAP@ --no-call-sites -c "$P 3" -e "probe process(\"$P\").function(\"bump\") { }" 2>&1 | head -1 | sed 's/.*function("\([a-z_]*\)@[^"]*")/\1/; s/: identifier.*//'
@TAP@ -c "$P 3" -e "probe process(\"$P\").function(\"bump\") { println(uaddr()) }" 2>&1 | head -1 | sed 's/.*function("\([a-z_]*\)@[^"]*")/\1/; s/: identifier.*//'
