# input and procfs probes are run by tap itself (a byte of its standard
# input, a reader of the probe's file), not in a traced thread: as in begin
# and end, their stack functions see no stack. They printed tap's own user
# stack, which is no stack of anything the user traces, and uaddr() (begin
# too) its pc.
d=/run/tap/golden_no_stacks
printf 'a\n' | @TAP@ -T 20 -m golden_no_stacks -e '
probe input.char { printf("char %s: [%s] [%s]\n", char, sprint_ubacktrace(), sprint_backtrace()); print_ubacktrace() }
probe procfs("s").read { $value = sprintf("read: [%s] [%s] [%d]\n", sprint_ubacktrace(), sprint_backtrace(), uaddr()) }
probe begin { printf("begin: [%d]\n", uaddr()); system("sleep 0.3; cat /run/tap/golden_no_stacks/s") }
probe timer.s(3) { exit() }'
echo "rc=$?"
