# calls is deleted in end: a count nobody wants printed at the end.
# While a session runs, bpftool shows tap's programs and maps under their BTF
# names (found through the session's file descriptors: this bpftool cannot
# list pids): one program per probe in script order (probe_N: begin and end
# are raw_tracepoint programs run by BPF_PROG_TEST_RUN, the timer a perf
# event, the tracepoint a tracepoint program); the array and the statistic
# (tap_gN), insertion numbers (tap_seq), the output rings, the scratch area,
# .data and .rodata. SIGINT then ends the session normally.
out=$(mktemp); trap 'rm -f $out' EXIT
@TAP@ -e 'global calls, sizes
probe begin { printf("ready\n") }
probe timer.ms(20) { calls[execname()]++ }
probe kernel.trace("sched:sched_switch") { sizes <<< $prev_pid }
probe end { printf("end: %d\n", @count(sizes) > 0); delete calls }' -T 30 >$out 2>&1 & pid=$!
for i in $(seq 100); do grep -q ready $out && break; sleep 0.1; done; sleep 0.5
ids() { grep -h "^$1:" /proc/$pid/fdinfo/* 2>/dev/null | awk '{ print $2 }' | sort -un; }
for id in $(ids prog_id); do bpftool prog show id $id | head -1; done |
  sed -E 's/^[0-9]+: ([a-z_]+) +name ([a-z0-9_]+) +tag [0-9a-f]+ +gpl.*$/program \1 \2/' | sort
for id in $(ids map_id); do bpftool map show id $id | head -1; done |
  sed -E 's/^[0-9]+: ([a-z_]+) +name ([a-z0-9_.]+) +flags .*$/map \1 \2/' | sort
kill -INT $pid; wait $pid; echo "status $?"; cat $out
