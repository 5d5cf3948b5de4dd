#!/usr/bin/env bash
# A long fuzzing run measured in CPU time: long.sh CPU_SECONDS [parse|compile|format ...]
# Runs the harnesses side by side at nice 19 (they only take CPU nobody else
# wants) until each has used CPU_SECONDS of CPU, then interrupts it (libFuzzer
# prints its final stats on SIGINT). Same build, corpus and artifacts as
# run.sh (FUZZ_BUILD); prints one line per harness: CPU seconds, executions,
# and the crash, leak and timeout artifacts it wrote. At nice 19 on a busy
# machine an input may wait long for the CPU: the hang limit is 600 s of
# wall time (FUZZ_TIMEOUT), and slow inputs are not artifacts.
set -u
here=$(cd "$(dirname "$0")" && pwd)
if (($# < 1)); then
  echo "usage: long.sh CPU_SECONDS [parse|compile|format ...]" >&2
  exit 2
fi
budget=$1
shift
harnesses=("$@")
((${#harnesses[@]})) || harnesses=(parse compile format)
build=${FUZZ_BUILD:-$(cd "$here/../.." && pwd)/build-fuzz}
# run.sh builds the harnesses and seeds when missing, and replays the regressions.
bash "$here/run.sh" 1 "${harnesses[@]}" >/dev/null || exit 1

cpu_seconds() { # utime + stime of a live process, in seconds
  local fields
  read -ra fields <"/proc/$1/stat" 2>/dev/null || { echo -1; return; }
  echo $(((fields[13] + fields[14]) / $(getconf CLK_TCK)))
}

declare -A pid
for h in "${harnesses[@]}"; do
  case $h in
    parse) extra=(-max_len=4096 -dict="$here/tap.dict") ;;
    compile) extra=(-max_len=2048 -dict="$here/tap.dict" -rss_limit_mb=4096) ;;
    format) extra=(-max_len=1024) ;;
    *) echo "long.sh: unknown harness '$h'" >&2; exit 2 ;;
  esac
  ASAN_OPTIONS=${ASAN_OPTIONS:-detect_leaks=1} UBSAN_OPTIONS=${UBSAN_OPTIONS:-print_stacktrace=1:halt_on_error=1} \
    nice -n 19 "$build/tests/fuzz/fuzz_$h" "${extra[@]}" -timeout="${FUZZ_TIMEOUT:-600}" \
    -report_slow_units=600 -max_total_time=864000 -print_final_stats=1 -artifact_prefix="$build/fuzz-artifacts/$h-" \
    "$build/fuzz-corpus/$h" "$build/fuzz-seeds/$h" "$here/regressions/$h" >"$build/fuzz-long-$h.log" 2>&1 &
  pid[$h]=$!
done

status=0
while ((${#pid[@]})); do
  sleep 10
  for h in "${!pid[@]}"; do
    used=$(cpu_seconds "${pid[$h]}")
    if ((used >= budget)); then
      echo "$h $used" >"$build/fuzz-long-$h.cpu"
      kill -INT "${pid[$h]}"
    elif ((used >= 0)); then
      echo "$h $used" >"$build/fuzz-long-$h.cpu"
      continue
    fi
    wait "${pid[$h]}"
    rc=$?
    unset "pid[$h]"
    log=$build/fuzz-long-$h.log
    runs=$(sed -n 's/^stat::number_of_executed_units: *//p' "$log")
    artifacts=$(grep -c 'Test unit written to .*/[a-z]*-\(crash\|leak\|timeout\|oom\)-' "$log")
    # 72: libFuzzer's exit status when interrupted, as planned.
    ((rc == 72 && artifacts == 0)) || status=1
    echo "fuzz_$h: $(cut -d' ' -f2 "$build/fuzz-long-$h.cpu") CPU s, ${runs:-?} executions, $artifacts artifacts, exit $rc"
  done
done
exit $status
