# vm.oom_kill: dd, in a memory cgroup of 8 MiB with no swap, fills a 64 MiB
# buffer and the OOM killer chooses it (task: the task chosen).
cg=/sys/fs/cgroup/tap-oom-$$
echo +memory >/sys/fs/cgroup/cgroup.subtree_control && mkdir $cg && echo 8M >$cg/memory.max || exit 1
echo 0 >$cg/memory.swap.max 2>/dev/null
@TAP@ -e 'probe vm.oom_kill { if (task_pid(task) == target()) printf("%s %s\n", name, task_execname(task)) }' \
  -c "sh -c 'echo \$\$ >$cg/cgroup.procs && exec dd if=/dev/zero of=/dev/null bs=64M count=1'"
echo "tap $?"
rmdir $cg
