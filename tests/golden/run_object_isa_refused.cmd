# An object compiled for BPF v4 (this kernel) is refused by --run on a kernel that takes only v3 (TAP_BPF_ISA=3 plays that kernel); it runs where v4 loads.
obj=$(mktemp /tmp/tap-run-XXXXXX.bpf.o); @TAP@ -p4 -o $obj -e 'probe begin { printf("ran\n"); exit() }' && TAP_BPF_ISA=3 @TAP@ --run $obj; echo "status $?"; @TAP@ --run $obj; rm -f $obj
