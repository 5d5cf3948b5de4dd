#!/usr/bin/env bash
# Compile-only runs (-p4, no kernel) under valgrind: no leak, no invalid
# access, on the examples and a sample of golden scripts, good and bad.
# valgrind.sh [BUILD_DIR]: a plain Debug build (built when missing).
set -u
here=$(cd "$(dirname "$0")" && pwd)
root=$(cd "$here/.." && pwd)
build=${1:-$root/build-valgrind}
if [[ ! -x $build/tap ]]; then
  cmake -S "$root" -B "$build" -DCMAKE_BUILD_TYPE=Debug >/dev/null &&
    nice -n 10 make -C "$build" -j"${JOBS:-2}" tap >/dev/null || exit 1
fi
command -v valgrind >/dev/null || { echo "valgrind.sh: valgrind is not installed"; exit 1; }
cd "$here/golden" || exit 1
status=0
out=$(mktemp)
trap 'rm -f "$out"' EXIT
# LLVM's option registries stay "still reachable": not a leak, not reported.
for script in "$root"/examples/*.tp func_factorial.tp printf_spec_example.tp ctl_for.tp \
  globals_init.tp strings_concat.tp bad_sema_type_global_mismatch.tp bad_syntax_missing_brace.tp \
  bad_printf_too_few_args.tp bad_pp_then_missing.tp; do
  valgrind -q --leak-check=full --errors-for-leak-kinds=definite,indirect,possible \
    --error-exitcode=99 "$build/tap" -p4 -o "$out" "$script" >/dev/null 2>"$out.log"
  rc=$?
  if ((rc == 99)) || grep -q '^==[0-9]*==' "$out.log"; then
    echo "valgrind: $(basename "$script"): errors"
    grep '^==[0-9]*==' "$out.log" | head -30
    status=1
  else
    echo "valgrind: $(basename "$script"): clean (tap exit $rc)"
  fi
  rm -f "$out.log"
done
exit $status
