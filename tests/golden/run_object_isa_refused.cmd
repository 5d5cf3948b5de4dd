# An object compiled for BPF v3 is refused by --run on a kernel that takes only v2 (TAP_BPF_ISA caps what this kernel takes, so it plays both); it runs where v3 loads.
obj=$(mktemp /tmp/tap-run-XXXXXX.bpf.o); TAP_BPF_ISA=3 @TAP@ -p4 -o $obj -e 'probe begin { printf("ran\n"); exit() }' && TAP_BPF_ISA=2 @TAP@ --run $obj; echo "status $?"; TAP_BPF_ISA=3 @TAP@ --run $obj; rm -f $obj
