# vm.oom_kill: dd, in a memory cgroup of 8 MiB with no swap, fills a 64 MiB
# buffer and the OOM killer chooses it (task: the task chosen; the shell that
# -c starts reports its child "Killed"). The cgroup is made under cgroup2's
# mount (/sys/fs/cgroup, or where the system has it) and removed after.
root=$(awk '$3 == "cgroup2" { print $2; exit }' /proc/mounts)
cg=$root/tap-oom-$$
[ -n "$root" ] && echo +memory >$root/cgroup.subtree_control && mkdir $cg && echo 8M >$cg/memory.max || exit 1
echo 0 >$cg/memory.swap.max 2>/dev/null
@TAP@ -e 'probe vm.oom_kill { if (task_execname(task) == "dd") printf("%s %s\n", name, task_execname(task)) }' \
  -c "sh -c 'echo \$\$ >$cg/cgroup.procs && exec dd if=/dev/zero of=/dev/null bs=64M count=1'" 2>&1 |
  grep -v -e '^WARNING: Child process exited' -e '^Killed$'
rmdir $cg
