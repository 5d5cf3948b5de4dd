# An object holds what its kernel said when it was compiled (structure offsets from BTF: the target filter's task_struct, a $var's members), so --run refuses one compiled on another kernel, naming both: here the object's record of its kernel's build id is zeroed, as if it came from elsewhere. The object as written runs.
obj=$(mktemp /tmp/tap-run-XXXXXX.bpf.o); @TAP@ -p4 -o $obj -e 'probe begin { printf("ran\n"); exit() }' || exit 1
@TAP@ --run $obj; echo "status $?"
perl -pi -e 's/(kernel "[^"]*" ")([0-9a-f]+)/$1 . ("0" x length($2))/e' $obj
@TAP@ --run $obj 2>&1 | sed -E 's/kernel [^ ]+ \(build id/kernel K (build id/; s/not this one \([^)]*\)/not this one (K, build id ID)/'; echo "status ${PIPESTATUS[0]}"
rm -f $obj
