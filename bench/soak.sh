#!/usr/bin/env bash
# soak.sh: tap under a long, high event rate (issue 20): DURATION seconds
# (default 600) of a printf and a count on every call of hot's work() (a
# tight loop: hundreds of thousands of events a second), with tap's RSS
# sampled every RSS_EVERY seconds and every event accounted for: the
# events fired (counted by an aggregate in BPF) must equal the lines
# received plus the events tap reports lost (its closing warning), and the
# RSS must stay flat after the warm-up.
#
#   TAP=build/tap bench/soak.sh [DURATION]      (root; builds bench/build/hot)
# Prints one summary line per check and the RSS samples; exits 1 when an
# event is unaccounted for or the RSS grew by more than RSS_SLACK_KB.
set -uo pipefail
here=$(cd "$(dirname "${BASH_SOURCE[0]}")" && pwd)
TAP=${TAP:?set TAP to the tap binary}
DURATION=${1:-${DURATION:-600}}
RSS_EVERY=${RSS_EVERY:-10}
RSS_SLACK_KB=${RSS_SLACK_KB:-1024}
BUILD=${BUILD:-$here/build}
BUILD=$BUILD "$here/targets/build.sh" >/dev/null 2>&1 || QUICK=1 BUILD=$BUILD "$here/targets/build.sh" >/dev/null
target=$BUILD/hot
dir=$(mktemp -d); trap 'rm -rf "$dir"' EXIT

# the tracer: every line it prints goes through awk (a fifo between them,
# so $! is tap's pid), which counts the event lines and keeps the others
# (the end probe's)
mkfifo "$dir/out"
LC_ALL=C awk -v other="$dir/other" -v received="$dir/received" \
	'/^E [0-9]+$/ { n++; next } { print > other } END { print n + 0 > received }' <"$dir/out" & counter=$!
"$TAP" -e 'global fired
probe process("'"$target"'").function("work") { fired <<< 1; printf("E %d\n", $a) }
probe end { printf("fired %d\n", @count(fired)) }' >"$dir/out" 2>"$dir/err" & tap_pid=$!
sleep 2   # attached (programs loaded, uprobe placed)

"$target" 1000000000000 >/dev/null & target_pid=$!
start=$SECONDS
: >"$dir/rss"
while ((SECONDS - start < DURATION)); do
	echo "$((SECONDS - start)) $(awk '/^VmRSS:/ { print $2 }' /proc/"$tap_pid"/status)" >>"$dir/rss"
	sleep "$RSS_EVERY"
done
kill -9 "$target_pid"; wait "$target_pid" 2>/dev/null
sleep 2   # let the rings drain
kill -INT "$tap_pid"; wait "$tap_pid"; echo "tap exit: $?"; wait "$counter"

fired=$(sed -n 's/^fired //p' "$dir/other")
received=$(cat "$dir/received")
lost=$(sed -n 's/.*lost events: \([0-9]*\).*/\1/p' "$dir/err"); lost=${lost:-0}
skipped=$(sed -n 's/.*skipped probes: \([0-9]*\).*/\1/p' "$dir/err"); skipped=${skipped:-0}
# RSS: the first sample after the warm-up (one interval) against the last and the highest
read -r rss_first rss_last rss_max < <(awk 'NR == 2 { f = $2 } { l = $2; if ($2 > m) m = $2 } END { print f + 0, l + 0, m + 0 }' "$dir/rss")
echo "duration:  ${DURATION} s, $(wc -l <"$dir/rss") RSS samples, load $(cut -d' ' -f1-3 /proc/loadavg)"
echo "events:    fired $fired, received $received, reported lost $lost, skipped probes $skipped"
echo "rate:      $(( (fired + 0) / DURATION )) events/s fired, $(( received / DURATION )) received"
echo "rss (KB):  after warm-up $rss_first, last $rss_last, highest $rss_max"
grep -v 'lost events' "$dir/err" | sed 's/^/tap stderr: /'
grep -v '^fired ' "$dir/other" | sed 's/^/other line: /'
echo "samples:   $(awk '{ printf "%s%s:%s", (NR > 1 ? " " : ""), $1, $2 }' "$dir/rss")"
status=0
if [ "$fired" != $((received + lost)) ]; then
	echo "FAIL: fired != received + lost ($fired != $received + $lost)"; status=1
else
	echo "ok: every event accounted for (fired = received + lost)"
fi
if ((rss_max - rss_first > RSS_SLACK_KB)); then
	echo "FAIL: RSS grew by $((rss_max - rss_first)) KB (more than $RSS_SLACK_KB)"; status=1
else
	echo "ok: RSS flat (grew $((rss_max - rss_first)) KB at most after the warm-up)"
fi
exit $status
