#!/usr/bin/env bash
# kernel-vm.sh: kernel function probes in a Debian kernel under QEMU (tests/vm/run-in-vm.sh), tap
# side by side with bpftrace in one run (rows interleaved rep by rep, order rotated):
#   per-hit cost of a probe on one kernel function (vfs_read, a 1-byte read(2) in a loop), fentry
#   against kprobe, for tap and bpftrace; and the time to attach to every vfs_* function and exit,
#   tap's kernel.function("vfs_*") (fentry, and kprobes: TAP_KERNEL_PROBES=kprobe) against
#   bpftrace's fentry:vfs_* and kprobe:vfs_*, each beside the same tool attaching nothing.
#   TAP=build/tap bench/kernel-vm.sh         VM_KVER=6.12 for Debian 12's newer kernel
# REPS (default 7) runs per row, N (default 200000) calls per per-hit run. Medians, min-max, and
# ratios; under TCG every time is emulated (about 6x slower than the host): compare rows of one run.
set -euo pipefail
here=$(cd "$(dirname "$0")" && pwd)
top=$(cd "$here/.." && pwd)
tap=$(realpath "${TAP:-$top/build/tap}")
reps=${REPS:-7} n=${N:-200000}
build=$here/build/kernel
mkdir -p "$build"
gcc -O2 -o "$build/read-loop" "$here/kernel/read-loop.c"
out=${OUT:-$build/results-$(date +%Y%m%d-%H%M%S)}
rm -rf "$out" && mkdir -p "$out"
VM_OUT=$out VM_TIMEOUT=${VM_TIMEOUT:-2400} bash "$top/tests/vm/run-in-vm.sh" \
  bash "$here/kernel/guest.sh" "$tap" "$build/read-loop" "$out" "$reps" "$n"
# KIND UNIT BASE: one line per row: median, min-max, ratio to BASE's median
table() {
  local kind=$1 unit=$2 base=$3
  printf '%-40s %10s %17s %8s\n' "$kind row" "median $unit" "min-max" "ratio"
  local base_median
  base_median=$(sort -n "$out/$kind.$base.raw" | awk '{ v[NR] = $1 } END { print v[int((NR + 1) / 2)] }')
  for raw in "$out/$kind".*.raw; do
    local key=${raw#"$out/$kind."}
    key=${key%.raw}
    sort -n "$raw" | awk -v name="$(cat "$out/$kind.$key.name")" -v base="$base_median" '
      { v[NR] = $1 } END { m = v[int((NR + 1) / 2)]; printf "%-40s %10s %8s-%-8s %8.2f\n", name, m, v[1], v[NR], m / base }'
  done
}
{
  cat "$out/env.txt"
  echo "reps: $reps, per-hit runs: $n calls"
  echo
  table hit ns/call untraced
  echo
  table attach ms tap_nothing
} | tee "$out/report.txt"
