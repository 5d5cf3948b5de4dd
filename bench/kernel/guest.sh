#!/usr/bin/env bash
# Runs inside the VM (kernel-vm.sh): guest.sh TAP LOOP OUT_DIR REPS N
# Per-hit rows: the loop's ns per read(2) of 1 byte, untraced and with each tracer counting hits of
# vfs_read (bpftrace 0.17 spells fentry kfunc); attach rows: wall time of a run that attaches to every vfs_* function and
# exits at once (from the begin probe), and of the same tool's run attaching nothing.
set -u
tap=$1 loop=$2 out=$3 reps=$4 n=$5
fn=vfs_read
# row name, then the command (run by bash -c); per-hit commands print the loop's ns/call
# (a tracer's "Attaching" banner and totals go to its own files)
hit_rows=(
  "untraced|$loop $n"
  "tap fentry|$tap -e 'global n probe kernel.function(\"$fn\") { n++ }' -c '$loop $n'"
  "tap kprobe|TAP_KERNEL_PROBES=kprobe $tap -e 'global n probe kernel.function(\"$fn\") { n++ }' -c '$loop $n'"
  "bpftrace fentry|bpftrace -e 'kfunc:$fn { @n = count() }' -c '$loop $n'"
  "bpftrace kprobe|bpftrace -e 'kprobe:$fn { @n = count() }' -c '$loop $n'"
)
attach_rows=(
  "tap nothing|$tap -e 'probe begin { exit() }'"
  "tap kernel.function(vfs_*) fentry|$tap -e 'probe kernel.function(\"vfs_*\") {} probe begin { exit() }'"
  "tap kernel.function(vfs_*) kprobe|TAP_KERNEL_PROBES=kprobe $tap -e 'probe kernel.function(\"vfs_*\") {} probe begin { exit() }'"
  "bpftrace nothing|bpftrace -e 'BEGIN { exit() }'"
  "bpftrace fentry:vfs_*|bpftrace -e 'kfunc:vfs_* {} BEGIN { exit() }'"
  "bpftrace kprobe:vfs_*|bpftrace -e 'kprobe:vfs_* {} BEGIN { exit() }'"
)
echo "kernel $(uname -r); $(bpftrace --version)" >"$out/env.txt"
run_rows() { # KIND ROWS...: each rep runs every row, the order rotated by one each rep
  local kind=$1; shift
  local rows=("$@") count=$# rep i k
  for ((rep = 0; rep < reps; rep++)); do
    for ((k = 0; k < count; k++)); do
      i=$(((k + rep) % count))
      local name=${rows[i]%%|*} cmd=${rows[i]#*|} file
      file=$out/$kind.$(tr -c 'a-zA-Z0-9\n' _ <<<"$name").raw
      if [[ $kind == hit ]]; then
        bash -c "$cmd" 2>>"$out/stderr.txt" | grep -E '^[0-9.]+$' | tail -1 >>"$file"
      else
        local t0 t1
        t0=$(date +%s%N)
        bash -c "$cmd" >/dev/null 2>>"$out/stderr.txt"
        t1=$(date +%s%N)
        echo "$(((t1 - t0) / 1000000))" >>"$file"
      fi
      echo "$name" >"$out/$kind.$(tr -c 'a-zA-Z0-9\n' _ <<<"$name").name"
    done
  done
}
# one untimed run of each row first: tap's compile cache (and the page cache) warm, as in use
for row in "${hit_rows[@]}" "${attach_rows[@]}"; do bash -c "${row#*|}" >/dev/null 2>&1; done
run_rows hit "${hit_rows[@]}"
run_rows attach "${attach_rows[@]}"
