#!/usr/bin/env bash
# Runs the golden cases inside a Debian kernel booted under QEMU (run-in-vm.sh) and reports them:
#   goldens.sh BUILD_DIR [CASE...]        default: every case of tests/golden
# VM_KVER picks the kernel (run-in-vm.sh's default: Debian 12's stock 6.1). Cases listed in
# expected-failures-SERIES.txt (SERIES: 6.1 for 6.1.0-56-amd64) are not run and are reported as
# such with their reason; any other case that fails runs once more, alone in a fresh VM (at most
# VM_RETRY_MAX=5 such cases), and fails the run if it fails there too. A VM that dies under the cases
# (exit 125: a TCG code-patching race, about one run in three on 6.12) or whose kernel oopsed is
# started again (VM_ATTEMPTS runs in all, default 3) for the cases it had not finished or that failed
# in it; a VM in which no case ends for VM_STALL seconds (default GOLDEN_TIMEOUT plus 60) is ended
# and treated the same way. Per-case logs: BUILD_DIR/vm/KVER/CASE.log; the guest's console: console.N.log beside them.
set -uo pipefail
here=$(cd "$(dirname "${BASH_SOURCE[0]}")" && pwd)
top=$(cd "$here/../.." && pwd)
build=$(cd "${1:?usage: goldens.sh BUILD_DIR [CASE...]}" && pwd) || exit 2
shift

. "$here/kver.sh"
export VM_KVER
series=$(sed -E 's/^([0-9]+\.[0-9]+).*/\1/' <<<"$VM_KVER")
expected_file=$here/expected-failures-$series.txt

# A full run leaves to the host stage the cases whose outcome no kernel decides, each of which costs
# the VM seconds: those that stop in the lexer, the preprocessor or the parser, and those of
# unprivileged.txt, which load no BPF (errors of the command line, sema and printf, -p1..-p4, listings),
# that name nothing of the kernel: a kernel probe, tapset alias or kernel type, a kernel option.
front_end_re='^(bad_syntax_|bad_lex_|bad_pp_|bad_macro_|parse_)'
kernel_re='kernel|kprobe|syscall|trace|perf|netfilter|profile|nd_|scheduler|signal|vm\.|ioblock|irq|netdev|tcp|udp|socket|kprocess|@cast|@var'
kernel_free() { # CASE: loads no BPF, names nothing of the kernel
  local c=$1
  [[ ! -f $c.needs ]] && grep -qxF -- "$c" unprivileged.txt &&
    ! cat -- "$c".tp "$c".cmd "$c".args 2>/dev/null | grep -qE -- "$kernel_re"
}
host_only() { # the names of the cases left to the host
  cd "$top/tests/golden" && ls -- *.tp *.cmd | sed -E 's/\.(tp|cmd)$//' | sort -u |
    while read -r c; do [[ $c =~ $front_end_re ]] || kernel_free "$c" && echo "$c"; done
}
if (($#)); then
  cases=("$@")
else
  # the cases that load programs first, the bad_* (mostly refused before anything loads) last
  declare -A left_to_host=()
  while read -r c; do left_to_host[$c]=1; done < <(host_only)
  front_end_count=${#left_to_host[@]}
  mapfile -t cases < <(cd "$top/tests/golden" && ls -- *.tp *.cmd | sed -E 's/\.(tp|cmd)$//' | sort -u |
                       while read -r c; do [[ -n ${left_to_host[$c]:-} ]] || echo "$c"; done |
                       awk '/^bad_/ { bad[n++] = $0; next } { print } END { for (i = 0; i < n; i++) print bad[i] }')
fi

# expected-failures file: `CASE  reason...` per line, # comments
declare -A reason=()
if [[ -f $expected_file ]]; then
  while read -r name why; do
    [[ -z $name || $name == \#* ]] || reason[$name]=$why
  done <"$expected_file"
fi
to_run=()
for c in "${cases[@]}"; do [[ -n ${reason[$c]:-} ]] || to_run+=("$c"); done
# The kernel's DWARF in the guest (run-in-vm.sh's VM_DEBUGINFO) when a case needs it, unless told
if [[ -z ${VM_DEBUGINFO:-} ]]; then
  for c in "${to_run[@]}"; do
    grep -qx 'vmlinux-dwarf' "$top/tests/golden/$c.needs" 2>/dev/null && export VM_DEBUGINFO=1 && break
  done
fi

out=$build/vm/$VM_KVER
rm -rf "$out" && mkdir -p "$out" || exit 2
start=$(date +%s)
golden_timeout=${GOLDEN_TIMEOUT:-120}

# The guest's cases share one compile cache (guest-goldens.sh, on the guest's tmpfs): under TCG a case's
# compile is seconds, and the function indexes of libc and the test programs are built once instead
# of per case. The host's own run keeps one cache per case, so there every case compiles from
# scratch. VM_SHARED_CACHE=0: one per case here too.
shared_cache=${VM_SHARED_CACHE:-1}
# A guest in which no case has ended for a case's time and a minute has hung (run-in-vm.sh's VM_STALL:
# each case ends by its timeout, so nothing under OUT changing for that long is no case ending): it is
# ended and its cases rerun in a fresh VM, as for one that died, instead of holding the stage for the
# whole VM_TIMEOUT. VM_STAGE_BUDGET (seconds, default none) bounds the whole stage, reruns included.
stall=${VM_STALL:-$((golden_timeout + 60))}
vm_time_left() {
  local t=${VM_TIMEOUT:-3000}
  if [[ -n ${VM_STAGE_BUDGET:-} ]]; then
    local left=$((start + VM_STAGE_BUDGET - $(date +%s)))
    ((left >= 120)) || return 1
    ((left < t)) && t=$left
  fi
  echo "$t"
}
# A VM that dies under the cases (exit 125), whose kernel oopsed (a TCG code-patching race at a
# text_poke site: the oops kills whichever case was patching and can take the VM down) or that hung
# (no case ended for VM_STALL seconds) is started again for the cases it left unfinished or failed,
# up to VM_ATTEMPTS runs in all. run-in-vm.sh ends it as soon as its console shows the oops or stall
# (VM_BROKEN_RE). The oops is shown, never hidden: a case that fails again in a clean VM fails the stage.
# Soft lockups, workqueue lockups, RCU stalls and hung-task reports are not oopses here: under TCG they
# mean the host did not run a vCPU's thread for a while (see run-in-vm.sh); a guest that really hangs
# is ended by VM_STALL.
oops_re='Oops:|BUG: ([^sw]|s[^o]|w[^o])|general protection fault|invalid opcode:|kernel BUG at|Kernel panic'
attempts=${VM_ATTEMPTS:-3}
for ((attempt = 1; attempt <= attempts; attempt++)); do
  pending=()
  for c in "${to_run[@]}"; do [[ -f $out/$c.rc ]] || pending+=("$c"); done
  ((${#pending[@]})) || break
  console=$out/console.$attempt.log
  vm_timeout=$(vm_time_left) || { echo "vm/$VM_KVER: the stage's ${VM_STAGE_BUDGET}s are spent; ${#pending[@]} cases not run" >&2; break; }
  VM_OUT=$out VM_KEEP_DIR=$top VM_TIMEOUT=$vm_timeout VM_STALL=$stall VM_BROKEN_RE=$oops_re VM_CONSOLE=$console \
    bash "$here/run-in-vm.sh" env GOLDEN_TIMEOUT="$golden_timeout" GUEST_SHARED_CACHE="$shared_cache" \
    bash "$here/guest-goldens.sh" "$build/tap" "$top/tests/golden" "$build/tests/programs" "$out" "${pending[@]}"
  rc=$?
  oopsed=0
  if [[ -f $console ]] && grep -Eq "$oops_re" "$console"; then
    oopsed=1
    echo "vm/$VM_KVER: the guest kernel oopsed (run $attempt):" >&2
    grep -E -A12 "$oops_re" "$console" | head -40 >&2
  fi
  ((rc == 125 || oopsed)) || break
  ((attempt < attempts)) || break
  if ((oopsed || rc == 125)); then
    # what failed in a VM whose kernel was broken, that died or hung runs again in a clean one
    for c in "${pending[@]}"; do
      [[ $(cat "$out/$c.rc" 2>/dev/null) == 0 ]] || rm -f "$out/$c.rc" "$out/$c.log"
    done
  fi
  echo "vm/$VM_KVER: the VM died, hung or its kernel oopsed (exit $rc); once more for the cases left" >&2
done

# A case that failed with the VM alive gets one more run, alone (one case at a time) in a fresh VM:
# under TCG emulation two cases at once on two vCPUs, each about 6 times slower than on the host,
# can miss a timing bound that is far from tight on real hardware (kernel_perf_sw saw no cpu_clock
# samples in 300 ms once in CI). Both runs are shown; a case that fails again fails the stage.
retry=()
for c in "${to_run[@]}"; do
  rc=$(cat "$out/$c.rc" 2>/dev/null)
  [[ -z $rc || $rc == 0 || $rc == 77 ]] || retry+=("$c")
done
if ((${#retry[@]} && ${#retry[@]} <= ${VM_RETRY_MAX:-5})); then
  echo "vm/$VM_KVER: ${#retry[@]} failed ($(printf '%s ' "${retry[@]}")); once more each, alone, in a fresh VM" >&2
  for c in "${retry[@]}"; do
    echo "--- golden/$c: the first run, in the suite:"
    cat "$out/$c.log"
    mv "$out/$c.log" "$out/$c.first.log"
    rm -f "$out/$c.rc"
  done
  vm_timeout=$(vm_time_left) || vm_timeout=120
  VM_OUT=$out VM_KEEP_DIR=$top VM_TIMEOUT=$vm_timeout VM_STALL=$stall VM_BROKEN_RE=$oops_re VM_CONSOLE=$out/console.retry.log \
    bash "$here/run-in-vm.sh" env GOLDEN_TIMEOUT="$golden_timeout" GUEST_SHARED_CACHE="$shared_cache" GUEST_JOBS=1 \
    bash "$here/guest-goldens.sh" "$build/tap" "$top/tests/golden" "$build/tests/programs" "$out" "${retry[@]}"
  for c in "${retry[@]}"; do
    [[ $(cat "$out/$c.rc" 2>/dev/null) == 0 ]] && echo "vm/$VM_KVER: golden/$c passed when run alone (failed in the suite: see above)" >&2
  done
fi

# The report ends with what a reader of a CI log's tail needs: the not-run reasons first, then each
# failed case's log, then the counts and the failed names on one line.
passed=0 failed=() lacking=() unfinished=()
for c in "${to_run[@]}"; do
  rc=$(cat "$out/$c.rc" 2>/dev/null)
  if [[ $rc == 0 ]]; then
    passed=$((passed + 1))
  elif [[ $rc == 77 ]]; then
    lacking+=("$c")   # CASE.needs names a feature this kernel lacks (or has, with !)
  else
    failed+=("$c")
    [[ -n $rc ]] || unfinished+=("$c")
  fi
done
for c in "${cases[@]}"; do
  [[ -z ${reason[$c]:-} ]] || echo "  not run: $c: ${reason[$c]}"
done
for c in "${lacking[@]}"; do echo "  not run: $c: $(head -1 "$out/$c.log")"; done
for c in "${failed[@]}"; do
  [[ -z $(cat "$out/$c.rc" 2>/dev/null) ]] || cat "$out/$c.log"
done
((${#unfinished[@]} == 0)) || echo "vm/$VM_KVER: no result for ${#unfinished[@]} cases (the VM ended before they did): ${unfinished[*]:0:20}$( ((${#unfinished[@]} <= 20)) || echo " ...")"
for c in "${retry[@]}"; do
  [[ $(cat "$out/$c.rc" 2>/dev/null) != 0 ]] || echo "  passed alone, failed in the suite: $c"
done
not_run=$((${#cases[@]} - ${#to_run[@]} + ${#lacking[@]}))
((${front_end_count:-0} == 0)) ||
  echo "vm/$VM_KVER: $front_end_count cases no kernel decides (parse errors, -p1, command-line and semantic errors) left to the host stage"
echo "vm/$VM_KVER: $passed passed, ${#failed[@]} failed, $not_run not run (expected to fail: $(basename "$expected_file"), or lacking a feature: CASE.needs), $(($(date +%s) - start)) s"
((${#failed[@]} == 0)) || echo "vm/$VM_KVER: FAILED: ${failed[*]:0:40}$( ((${#failed[@]} <= 40)) || echo " ...")"
((${#failed[@]} == 0))
