#!/usr/bin/env bash
# Builds tap with AddressSanitizer + UBSan (-DTAP_SANITIZE=ON, gcc) and runs
# the whole suite under them: sanitize.sh [BUILD_DIR] [ctest args...]
# Leaks are errors (LeakSanitizer): no suppression is needed, LLVM's own
# allocations (command-line option registries) stay reachable through globals.
# Golden tests must run as root. Then tests/valgrind.sh runs a compile-only
# check under valgrind with a plain build (VALGRIND=0 skips it).
set -eu
here=$(cd "$(dirname "$0")" && pwd)
root=$(cd "$here/.." && pwd)
build=${1:-$root/build-sanitize}
shift || true
cmake -S "$root" -B "$build" -DCMAKE_BUILD_TYPE=Debug -DTAP_SANITIZE=ON >/dev/null
nice -n 10 make -C "$build" -j"${JOBS:-2}" >/dev/null
export ASAN_OPTIONS=detect_leaks=1:abort_on_error=0:halt_on_error=1${ASAN_OPTIONS:+:$ASAN_OPTIONS}
export UBSAN_OPTIONS=print_stacktrace=1:halt_on_error=1${UBSAN_OPTIONS:+:$UBSAN_OPTIONS}
# Sanitized runs are slower: give golden cases more time.
export GOLDEN_TIMEOUT=${GOLDEN_TIMEOUT:-90}
status=0
ctest --test-dir "$build" -j"${JOBS:-2}" --output-on-failure "$@" || status=1
if [[ ${VALGRIND:-1} != 0 ]]; then
  bash "$here/valgrind.sh" "$build-plain" || status=1
fi
exit $status
