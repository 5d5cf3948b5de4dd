#!/usr/bin/env bash
# Runs the libFuzzer harnesses: run.sh SECONDS [parse|compile|format ...]
# (all three by default), one after the other, niced, each for SECONDS.
# FUZZ_BUILD names the clang build (default: build-fuzz in the source tree);
# it is configured when missing and brought up to date on every run. The corpus grows
# in $FUZZ_BUILD/fuzz-corpus/HARNESS across runs; crashes are written to
# $FUZZ_BUILD/fuzz-artifacts/ and make the script exit 1. Every run starts by
# replaying tests/fuzz/regressions/HARNESS: the inputs of crashes fixed before.
set -u
here=$(cd "$(dirname "$0")" && pwd)
root=$(cd "$here/../.." && pwd)
if (($# < 1)); then
  echo "usage: run.sh SECONDS [parse|compile|format ...]" >&2
  exit 2
fi
seconds=$1
shift
harnesses=("$@")
((${#harnesses[@]})) || harnesses=(parse compile format)
build=${FUZZ_BUILD:-$root/build-fuzz}

# Configured once, built every time (a no-op when up to date): harnesses left
# from an earlier checkout would fuzz old code.
if [[ ! -f $build/CMakeCache.txt ]]; then
  cmake -S "$root" -B "$build" -DCMAKE_C_COMPILER=clang-19 -DCMAKE_BUILD_TYPE=Debug -DTAP_FUZZ=ON >/dev/null || exit 1
fi
nice -n 10 make -C "$build" -j2 fuzz_parse fuzz_compile fuzz_format >/dev/null || exit 1

bash "$here/make_seeds.sh" "$build/fuzz-seeds"
mkdir -p "$build/fuzz-artifacts"
status=0
for h in "${harnesses[@]}"; do
  case $h in
    parse) extra=(-max_len=4096 -dict="$here/tap.dict") ;;
    compile) extra=(-max_len=2048 -dict="$here/tap.dict" -rss_limit_mb=4096) ;;
    format) extra=(-max_len=1024) ;;
    *) echo "run.sh: unknown harness '$h'" >&2; exit 2 ;;
  esac
  corpus=$build/fuzz-corpus/$h
  mkdir -p "$corpus"
  log=$build/fuzz-$h.log
  start=$(date +%s)
  # halt_on_error etc.: a sanitizer report is a crash, a leak too.
  ASAN_OPTIONS=${ASAN_OPTIONS:-detect_leaks=1} UBSAN_OPTIONS=${UBSAN_OPTIONS:-print_stacktrace=1:halt_on_error=1} \
    nice -n 10 "$build/tests/fuzz/fuzz_$h" "${extra[@]}" -timeout="${FUZZ_TIMEOUT:-30}" \
    -max_total_time="$seconds" -print_final_stats=1 \
    -artifact_prefix="$build/fuzz-artifacts/$h-" "$corpus" "$build/fuzz-seeds/$h" "$here/regressions/$h" >"$log" 2>&1
  rc=$?
  runs=$(sed -n 's/^stat::number_of_executed_units: *//p' "$log")
  echo "fuzz_$h: ${runs:-?} executions in $(($(date +%s) - start)) s, corpus $(ls "$corpus" | wc -l) files, exit $rc"
  if ((rc != 0)); then
    status=1
    grep -E '^(==[0-9]+==ERROR|SUMMARY|.*runtime error)|artifact' "$log" | head -5
    echo "full log: $log"
  fi
done
exit $status
