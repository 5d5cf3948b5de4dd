# task_ns_pid(), task_ns_tid(), task_ns_uid(), task_ns_euid(), task_ns_gid(),
# task_ns_egid(): ids as tap's own namespaces see them. The target (the
# .cmd's python) runs in a pid namespace of its own with real and effective
# ids of four values and calls kill(self, 0) from a second thread. (A user
# namespace of its own is refused in the 6.1 VM, whose root is a chroot.)
# The target's ids against /proc (task_check.py): the NSpid lines of its
# process and thread (read through this procfs: tap's namespace first, then
# the nested one's) and its ids, as the Uid and Gid lines of its
# /proc/self/status give them (tap's user namespace, the initial one, sees
# the kernel's ids).
# Then tap itself runs in a new pid namespace, as its pid 1 (the shell before
# it says so): task_ns_pid() of tap is 1 there, of its parent (outside) 0.
probe='probe kernel.trace("sys_enter_kill") {
  if (execname() != "python3" || !target_set_pid(pid())) next
  t = task_current()
  printf("tap ns %d %d %d %d %d %d\n", task_ns_pid(t), task_ns_tid(t), task_ns_uid(t), task_ns_euid(t),
         task_ns_gid(t), task_ns_egid(t))
}'
{ @TAP@ -e "$probe" -c "unshare -p -f setpriv --ruid=65534 --euid=1000 --rgid=65533 --egid=1001 --clear-groups /usr/bin/python3 -c '
import os, threading
def nspid(path):
    return [l.split()[1:] for l in open(path) if l.startswith(\"NSpid:\")][0]
def run():
    os.kill(os.getpid(), 0)
    print(\"proc nstid\", *nspid(\"/proc/thread-self/status\"))
th = threading.Thread(target=run)
th.start()
th.join()
print(\"proc nspid\", *nspid(\"/proc/self/status\"))
ids = [l.split()[1:3] for l in open(\"/proc/self/status\") if l.startswith((\"Uid:\", \"Gid:\"))]
print(\"proc ids\", *ids[0], *ids[1])'"
} | ./task_check.py namespaces
export inner='probe begin { t = task_current(); printf("tap: task_ns_pid %d, of its parent %d, not its global pid %d\n", task_ns_pid(t), task_ns_pid(task_parent(t)), task_ns_pid(t) != task_pid(t)); exit() }'
unshare -p -f --mount-proc sh -c 'echo "shell: pid $$"; exec "$0" -e "$inner"' @TAP@
