# Helpers for the golden cases that kill tap (tests/golden/reliab_kill_*),
# sourced by their .cmd. Other sessions may run tap on this machine at the
# same time, so a case looks only at the BPF objects its own tap held: the
# program and link ids in /proc/PID/fdinfo. A perf event or uprobe holds its
# program, so once every program id is gone nothing of tap is attached.

# wait_for_line FILE TEXT PID: waits up to 25 s, while PID lives, until
# FILE has the line TEXT; otherwise shows FILE.
wait_for_line() {
  for _ in $(seq 250); do
    grep -qx -- "$2" "$1" 2>/dev/null && return 0
    kill -0 "$3" 2>/dev/null || break
    sleep 0.1
  done
  echo "no line '$2' in $1:"
  cat "$1"
  return 1
}

# bpf_ids PID: "prog N" and "link N" for every BPF program and link PID holds.
bpf_ids() {
  cat /proc/"$1"/fdinfo/* 2>/dev/null | sed -n 's/^\(prog\|link\)_id:[[:space:]]*\([0-9]*\)$/\1 \2/p' | sort -u
}

# bpf_kinds PID: what kinds of attachment PID holds, one line each, sorted.
bpf_kinds() {
  cat /proc/"$1"/fdinfo/* 2>/dev/null | sed -n 's/^link_type:[[:space:]]*//p' | sort -u
}

# report_left_behind IDS: waits up to 10 s for every object of IDS (the
# output of bpf_ids) to be freed, then prints the ones still there (or
# "nothing left behind"). Freeing a sleepable program waits for an RCU
# tasks-trace grace period, so it is not instant.
report_left_behind() {
  local left= deadline=$((SECONDS + 10))
  while ((SECONDS < deadline)); do
    left=$(while read -r kind id; do
      [[ -n $kind ]] && bpftool "$kind" show id "$id" >/dev/null 2>&1 && echo "$kind $id"
    done <<<"$1")
    [[ -z $left ]] && break
    sleep 0.1
  done
  if [[ -n $left ]]; then
    echo "left behind:" $left
  else
    echo "nothing left behind"
  fi
}

# uprobe_events_naming PATH: the tracefs uprobe events on PATH (none expected:
# tap attaches uprobes through perf events and links, never tracefs files).
uprobe_events_naming() {
  local events
  for events in /sys/kernel/tracing/uprobe_events /sys/kernel/debug/tracing/uprobe_events; do
    [[ -r $events ]] && { grep -c -F -- "$1" "$events"; return; }
  done
  echo 0
}
