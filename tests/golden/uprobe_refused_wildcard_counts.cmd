# libc without its separate debug info (libc6-dbg), as the output below expects: SYSTEMTAP_DEBUGINFO_PATH names no directory.
# The probes a wildcard could take fire once per call (t_spin 3: 3 destroys, 3 trylocks), the refused pthread_spin_lock is named once: libc versions these symbols twice (@GLIBC_2.2.5, @@GLIBC_2.34), which once made two probes of each function and doubled every count. Both attach paths.
for env in "" TAP_NO_UPROBE_MULTI=1; do
  env $env SYSTEMTAP_DEBUGINFO_PATH=/nonexistent @TAP@ -e 'global n probe process("libc.so.6").function("pthread_spin_[dlt]*") { n[ppfunc()]++ } probe end { foreach (f+ in n) printf("%s %d\n", f, n[f]) }' -c '@PROGRAMS@/t_spin 3' 2>&1 | sed 's/: identifier.*//' | grep -v '^  '
done
