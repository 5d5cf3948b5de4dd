# -p4 without -o writes NAME.bpf.o in the current directory (NAME from -m,
# else tap) and prints its name, as SystemTap prints the module it made:
# `tap --run $(tap -p4 x.tp)` as `staprun $(stap -p4 x.stp)`.
d=$(mktemp -d /tmp/tap-p4-XXXXXX) && cd "$d" || exit 1
@TAP@ -p4 -e 'probe begin { println("default name") exit() }'; echo "status $?"
@TAP@ --run $(@TAP@ -p4 -e 'probe begin { println("default name") exit() }')
obj=$(@TAP@ -p4 -m my_trace -e 'probe begin { println("from -m") exit() }'); echo "printed $obj"
@TAP@ --run "$obj"
ls; cd / && rm -rf "$d"
