# A process glob's probes fire in each matched binary that runs, each with its own pp() (t_calls_nopie matches too but does not run): twice() is called 15 times a run
P=@PROGRAMS@
@TAP@ -c "bash -c '$P/t_calls; $P/t_calls_o2 x'" -e "global n probe process(\"$P/t_calls*\").function(\"twice\") { n[execname(), pp()]++ } probe end { foreach ([e, p+] in n) printf(\"%s %s %d\n\", e, p, n[e, p]) }" | sed "s|$P/|PROGRAMS/|g; s|@[^\"]*/tests/programs/|@SRC/|g"; echo "exit ${PIPESTATUS[0]}"
