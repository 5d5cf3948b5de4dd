#!/usr/bin/env bash
# Runs inside the VM (see goldens.sh): guest-goldens.sh TAP GOLDEN_DIR PROGRAMS_DIR OUT_DIR CASE...
# Runs the cases $(nproc) at a time (GUEST_JOBS if set); each leaves OUT_DIR/CASE.log (run-golden.sh's output) and then
# OUT_DIR/CASE.rc, so a run the VM cut short can go on with the cases that have no .rc.
set -u
tap=$1 golden=$2 programs=$3 out=$4
shift 4
here=$(cd "$(dirname "${BASH_SOURCE[0]}")" && pwd)
export here tap golden programs out
echo "kernel $(uname -r): $# cases" >&2
printf '%s\n' "$@" | xargs -P "${GUEST_JOBS:-$(nproc)}" -I{} bash -c '
  bash "$here/../run-golden.sh" "$tap" "$golden" "$1" "$programs" >"$out/$1.log" 2>&1
  echo $? >"$out/$1.rc"' _ {}
