# issue 20: -v says which mechanism each .return probe uses: the rets in a C++ binary for a function that calls (middle), a uretprobe for one that calls nothing (leaf; alone in C), the rets in C too for one that calls (t_calls' main: a C++ callback may throw through a C frame), a uretprobe for a C function that may leave by a tail jump (twice_tail at -O2, with the risk said), a refusal for a tail call at -O2 (tail_caller: its exit is a jmp; skipped with a warning under a wildcard, an error when named); the C++ program runs to its normal end.
P=@PROGRAMS@
@TAP@ -v -e "probe process(\"$P/t_exc_o2\").function(\"{middle,leaf,tail_caller}\").return, process(\"$P/t_calls\").function(\"{main,alone}\").return, process(\"$P/t_calls_o2\").function(\"twice_tail\").return { }" -c $P/t_exc_o2 2>&1 | grep -v '^Pass [1345]\|^Pass 2: analyzed\|^ ' | sed "s|$P/||g; s|@[^\"]*t_exc.cpp|@t_exc.cpp|; s|@[^\"]*t_calls.c|@t_calls.c|g; s/0x[0-9a-f]*/ADDR/g; s/: identifier .*//"
echo "exit ${PIPESTATUS[0]}"
@TAP@ -p2 -e "probe process(\"$P/t_exc_o2\").function(\"tail_caller\").return { }" 2>&1 | sed "s|$P/||g; s|@[^\"]*t_exc.cpp|@t_exc.cpp|; s/0x[0-9a-f]*/ADDR/g"
echo "exit ${PIPESTATUS[0]}"
