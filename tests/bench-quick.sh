#!/usr/bin/env bash
# bench-quick.sh TAP BUILD_DIR: runs bench/run.sh quick with TAP and checks
# that every table came out with its tap rows and that tap's rows are correct
# (counts equal N, every case ran, nothing missing). No timing assertions:
# timings belong in bench/RESULTS.md.
set -uo pipefail
tap=$1 build=$2
here=$(cd "$(dirname "$0")" && pwd)
out=$build/results
mkdir -p "$build"
rm -rf "$out"
if ! TAP=$tap BUILD=$build OUT=$out "$here/../bench/run.sh" quick >"$build/quick.log" 2>&1; then
	cat "$build/quick.log"; echo "bench-quick: run.sh quick failed" >&2; exit 1
fi
report=$out/report.txt
fail() { cat "$report" 2>/dev/null || cat "$build/quick.log"; echo "bench-quick: $*" >&2; exit 1; }
[ -s "$report" ] || fail "no report"
for table in '== overhead' '== startup: exec to exit' '== startup: exec -> uprobe' '== listing' '== events'; do
	grep -q -- "^$table" "$report" || fail "table missing: $table"
done
# rows: name, then columns; tap's per-hit rows counted every hit
for row in floor-empty floor-ret-empty tap-empty tap-count tap-pidmap tap-uret-hist; do
	grep -Eq "^$row +[0-9]+ +[0-9.]+ .* ok 1/1 " "$report" || fail "overhead row $row missing or not ok"
done
for row in harness tap-begin tap-uprobe-c tap-wild-c tap-L-all tap-L-one tap-cold-begin tap-cold-uprobe-c \
	tap-cold-wild-c tap-cold-L-all tap-cold-L-one; do
	grep -Eq "^$row +[0-9.]+ .* 1/1 " "$report" || fail "row $row missing or not ok"
done
for row in tap-attach tap-cold-attach; do
	grep -Eq "^$row +[0-9.]+ +[0-9.]+ +[0-9.]+ .* 1/1$" "$report" || fail "$row row missing or not ok"
done
# events: received all N, missing 0, garbled 0
grep -Eq '^tap-printf +([0-9]+) +[0-9]+ +[0-9]+ +[0-9]+ +[-0-9.]+ +\1 +0 +[0-9]+ +0 ' "$report" ||
	fail "tap-printf row missing, or events missing or garbled"
grep -q 'left behind on the targets afterwards: 0 tracefs uprobe_events, 0 perf uprobes' "$report" ||
	fail "probes left behind"
grep -c 'left behind.*: 0 tracefs uprobe_events, 0 perf' "$report" | grep -qx 3 || fail "probes left behind"
echo "bench-quick: ok"
