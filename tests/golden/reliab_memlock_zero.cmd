# issue 20: RLIMIT_MEMLOCK at 0: kernels since 5.11 charge BPF maps to the memory cgroup, not to RLIMIT_MEMLOCK, so tap loads its maps and programs and runs as usual (map-creation failures themselves: reliab_map_too_big).
prlimit --memlock=0:0 @TAP@ -e 'global a[100000], calls; probe process("@PROGRAMS@/t_calls").function("twice") { a[$a]++; calls++ } probe end { printf("%d calls\n", calls); foreach (k+ in a limit 3) printf("%d x%d\n", k, a[k]) }' -c @PROGRAMS@/t_calls
echo "exit $?"
