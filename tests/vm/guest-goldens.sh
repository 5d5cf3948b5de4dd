#!/usr/bin/env bash
# Runs inside the VM (see goldens.sh): guest-goldens.sh TAP GOLDEN_DIR PROGRAMS_DIR OUT_DIR CASE...
# Runs the cases $(nproc) at a time (GUEST_JOBS if set); each leaves OUT_DIR/CASE.log (run-golden.sh's output) and then
# OUT_DIR/CASE.rc, so a run the VM cut short can go on with the cases that have no .rc.
# Cases take seconds here; GUEST_TIMEOUTS_MAX (4) of them in a row that run out of time mean a broken
# guest (a task stuck in the kernel holding what every attach needs), not four slow cases: the run
# stops there and exits 125, as a VM that died does, so goldens.sh reruns what is left in a fresh VM.
set -u
tap=$1 golden=$2 programs=$3 out=$4
shift 4
here=$(cd "$(dirname "${BASH_SOURCE[0]}")" && pwd)
timeouts=$out/.timeouts-in-a-row
echo 0 >"$timeouts"
export here tap golden programs out timeouts max=${GUEST_TIMEOUTS_MAX:-4}
# whether the user nobody can reach the tree, checked once here rather than by each case (run-golden.sh)
if ((EUID == 0)) && setpriv --reuid=65534 --regid=65534 --clear-groups \
     test -r "$here/../run-golden.sh" -a -x "$tap" -a -x "$programs" -a -r "$golden/unprivileged.txt"; then
  export GOLDEN_NOBODY_CAN_RUN=1
fi
# every case's scratch dir at once (run-golden.sh's GOLDEN_WORK_DIR), not a mktemp and an rm for each;
# they go with the guest's /tmp. Open to all: unprivileged.txt's cases run as nobody.
work=${TMPDIR:-/tmp}/golden-work.$$
mkdir -m 755 "$work" && (cd "$work" && mkdir -m 777 -- "$@") && export GOLDEN_WORK_DIR=$work
# GUEST_SHARED_CACHE=1: the root-run cases share one compile cache (run-golden.sh's GOLDEN_CACHE_DIR),
# on this tmpfs: each store lists the cache's directory, which over 9p costs a round trip an entry.
[[ ${GUEST_SHARED_CACHE:-0} == 1 ]] && export GOLDEN_CACHE_DIR=$work/.cache
echo "kernel $(uname -r): $# cases" >&2
printf '%s\n' "$@" | xargs -P "${GUEST_JOBS:-$(nproc)}" -I{} bash -c '
  bash "$here/../run-golden.sh" "$tap" "$golden" "$1" "$programs" >"$out/$1.log" 2>&1
  echo $? >"$out/$1.rc"
  n=0   # (builtins, no grep or cat: a fork costs about 150 ms under TCG)
  if [[ $(<"$out/$1.rc") != 0 && $(<"$out/$1.log") == *"golden/$1: timed out after"* ]]; then
    read -r n <"$timeouts"; n=$((n + 1))
  fi
  echo "$n" >"$timeouts"
  ((n < max)) || exit 255   # xargs stops at once' _ {}
rc=$?
if (($(cat "$timeouts") >= ${GUEST_TIMEOUTS_MAX:-4})); then
  echo "guest-goldens: $(cat "$timeouts") cases in a row ran out of time: the guest looks broken; stopping this VM" >&2
  exit 125
fi
exit "$rc"
