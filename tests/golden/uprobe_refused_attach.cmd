# An unexpected refusal at attach time (-D TAP_DEBUG_NO_INSN_CHECK=1 leaves the instruction check to the kernel): the uprobe_multi link is halved until the refused offset stands alone, so the warning names pthread_spin_lock and the other probes attach (counts exact); an exact name is an error naming it, exit 1. Both attach paths.
for env in "" TAP_NO_UPROBE_MULTI=1; do
  env $env @TAP@ -D TAP_DEBUG_NO_INSN_CHECK=1 -e 'global n probe process("libc.so.6").function("pthread_spin_[dlt]*") { n[ppfunc()]++ } probe end { foreach (f+ in n) printf("%s %d\n", f, n[f]) }' -c '@PROGRAMS@/t_spin 3' 2>&1
  env $env @TAP@ -D TAP_DEBUG_NO_INSN_CHECK=1 -e 'probe process("libc.so.6").function("pthread_spin_lock") {}' -c true 2>&1
  echo "exit $?"
done
