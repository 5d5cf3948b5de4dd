#!/usr/bin/env bash
# stacks.sh: what user stacks cost (issue 19), tap beside bpftrace in one run,
# rows interleaved rep by rep (the order rotates), medians over REPS.
#
#   TAP=/path/to/tap bench/stacks.sh [unwind|profile|all]     (default all)
#
# unwind: per-hit cost of counting stacks as keys on a uprobe 25 calls deep
#   (targets/deep.c; every walk stops at 20 frames, MAXBACKTRACE and
#   ustack(20)); the probe sits on leaf+0, a push the kernel emulates, for
#   every row. deep-fp has frame pointers and no .eh_frame (tap's walk takes
#   the frame-pointer path, as the kernel's does for bpftrace's ustack);
#   deep-cfi is -O2 -fomit-frame-pointer (only CFI finds the frames).
#     ovh ns/hit  = traced ns/call - the untraced ns/call of the same binary, same rep
#     walk ns     = ovh - the same tool's empty probe (what the stack costs)
#     ratio       = ovh / bpftrace-ustack's ovh
#     check       = every hit counted under one key of 20 frames, in every rep
# profile: a 99 Hz cpu-clock event on every CPU (timer.profile's event) with
#   user stacks as keys, while targets/spin2.c keeps 2 threads busy for
#   PROFILE_SECONDS. samples% = samples counted / (99 x the target's CPU
#   seconds; the share of the CPUs the target got decides which ticks catch
#   it, so about 100, not exactly); lost = runs where the stacks' counts do
#   not add up to the probe's runs, or the tracer reported lost events;
#   ovh% = the drop in the target's rounds
#   per CPU-millisecond against the untraced run of the same rep.
set -uo pipefail
here=$(cd "$(dirname "$0")" && pwd)
BUILD=${BUILD:-$here/build}
REPS=${REPS:-5}
N=${N:-200000}
PROFILE_SECONDS=${PROFILE_SECONDS:-5}
PROFILE_REPS=${PROFILE_REPS:-3}
TAP=${TAP:-}
OUT=${OUT:-$BUILD/results/stacks-$(date +%Y%m%d-%H%M%S)}
mkdir -p "$BUILD/stacks" "$OUT"

build() {
	local d=$BUILD/stacks
	gcc -g -O2 -fno-omit-frame-pointer -o "$d/deep-fp" "$here/targets/deep.c" &&
		objcopy --remove-section=.eh_frame --remove-section=.eh_frame_hdr "$d/deep-fp" &&
		gcc -g -O2 -fomit-frame-pointer -o "$d/deep-cfi" "$here/targets/deep.c" &&
		gcc -g -O2 -pthread -o "$d/spin2" "$here/targets/spin2.c"
}

median() { sort -g | awk '{ v[NR] = $1 } END { if (!NR) print "-"; else print (NR % 2) ? v[(NR + 1) / 2] : (v[NR / 2] + v[NR / 2 + 1]) / 2 }'; }
pct() { read -r v; [[ $v =~ ^-?[0-9.]+$ ]] && printf %.1f "$v" || printf -; }
field() { sed -n "s/.*\b$1=\([0-9.]*\).*/\1/p" | head -1; }   # field NAME < output

TAP_SCRIPT='global s probe process(@1).function("leaf") { s[ubacktrace()]++ }
probe end { n = 0; foreach (k in s) n++; foreach (k in s- limit 1) { printf("keys=%d top=%d\n", n, s[k]); print_ustack(k) } }'
TAP_EMPTY='probe process(@1).function("leaf") { }'

# one_unwind ROW BINARY: runs it once, writes "ns_per_call ok" (ok: 1, 0, or - for no check)
one_unwind() {
	local row=$1 bin=$BUILD/stacks/$2 log=$OUT/$1.$rep.out
	case $row in
	baseline-*) "$bin" "$N" >"$log" 2>&1 ;;
	bpftrace-empty) bpftrace -e "uprobe:$bin:leaf { }" -c "$bin $N" >"$log" 2>&1 ;;
	bpftrace-ustack) bpftrace -e "uprobe:$bin:leaf { @[ustack(20)] = count(); }" -c "$bin $N" >"$log" 2>&1 ;;
	tap-empty) "$TAP" --no-call-sites -e "$TAP_EMPTY" "$bin" -c "$bin $N" >"$log" 2>&1 ;;
	tap-*) "$TAP" --no-call-sites -e "$TAP_SCRIPT" "$bin" -c "$bin $N" >"$log" 2>&1 ;;
	esac
	local ok=-
	case $row in
	bpftrace-ustack) ok=$(awk -v n="$N" '/^ +0x/ { f++ } /^\]: / { c = $2; k++ } END { print (k == 1 && c == n && f == 20) ? 1 : 0 }' "$log") ;;
	tap-fp|tap-cfi) ok=$(awk -v n="$N" '/^ 0x/ { f++ } /^keys=/ { split($0, a, /[= ]/); k = a[2]; c = a[4] } END { print (k == 1 && c == n && f == 20) ? 1 : 0 }' "$log") ;;
	esac
	echo "$(field ns_per_call <"$log") $ok"
}

UNWIND_ROWS="baseline-fp:deep-fp baseline-cfi:deep-cfi bpftrace-empty:deep-fp bpftrace-ustack:deep-fp
tap-empty:deep-fp tap-fp:deep-fp tap-cfi:deep-cfi"

cmd_unwind() {
	local rows=($UNWIND_ROWS) count=${#rows[@]} i r row bin
	[ -x "$TAP" ] || rows=(${rows[@]/tap-*/})
	for ((rep = 0; rep < REPS; rep++)); do
		for ((i = 0; i < count; i++)); do
			r=${rows[(i + rep) % count]}
			[ -n "$r" ] || continue
			row=${r%%:*} bin=${r#*:}
			echo "$rep $row $(one_unwind "$row" "$bin")" >>"$OUT/unwind.raw"
		done
	done
	unwind_table
}

unwind_table() {
	local raw=$OUT/unwind.raw
	# per rep: the row's ns/call minus its binary's baseline, and minus its tool's empty row
	awk '{ ns[$1, $2] = $3; ok[$2] = (ok[$2] == "" || ok[$2] == 1) ? $4 : ok[$2]; rows[$2] = 1; reps[$1] = 1 }
	     END {
		for (r in rows) for (p in reps) {
			base = (r ~ /cfi/) ? ns[p, "baseline-cfi"] : ns[p, "baseline-fp"]
			if (ns[p, r] == "" || base == "") continue
			print r, "ns", ns[p, r]
			if (r !~ /^baseline/) print r, "ovh", ns[p, r] - base
			empty = (r ~ /^tap/) ? "tap-empty" : "bpftrace-empty"
			if (r !~ /^baseline|empty$/ && ns[p, empty] != "")
				print r, "walk", ns[p, r] - base - (ns[p, empty] - ns[p, "baseline-fp"])
		}
		for (r in rows) print r, "ok", ok[r] }' "$raw" >"$OUT/unwind.values"
	local ref row ns ovh walk ok
	ref=$(awk '$1 == "bpftrace-ustack" && $2 == "ovh" { print $3 }' "$OUT/unwind.values" | median)
	printf '%-16s %10s %11s %9s %6s %6s\n' row ns/call "ovh ns/hit" "walk ns" ratio check
	for row in baseline-fp baseline-cfi bpftrace-empty bpftrace-ustack tap-empty tap-fp tap-cfi; do
		grep -q "^$row " "$OUT/unwind.values" || continue
		ns=$(awk -v r=$row '$1 == r && $2 == "ns" { print $3 }' "$OUT/unwind.values" | median)
		ovh=$(awk -v r=$row '$1 == r && $2 == "ovh" { print $3 }' "$OUT/unwind.values" | median)
		walk=$(awk -v r=$row '$1 == r && $2 == "walk" { print $3 }' "$OUT/unwind.values" | median)
		ok=$(awk -v r=$row '$1 == r && $2 == "ok" { print ($3 == 1) ? "20x" N : ($3 == 0 ? "BAD" : "-") }' N="$N" "$OUT/unwind.values")
		printf '%-16s %10.0f %11s %9s %6s %6s\n' "$row" "$ns" "$(echo "$ovh" | pct | sed 's/\.[0-9]$//')" \
			"$(echo "$walk" | pct | sed 's/\.[0-9]$//')" \
			"$(awk -v a="$ovh" -v b="$ref" 'BEGIN { if (a == "-" || b + 0 <= 0) print "-"; else printf "%.2f", a / b }')" "$ok"
	done | tee "$OUT/unwind.txt"
}

# profile: one run of ROW, "samples cpu_ms rounds_per_cpu_ms lost"
one_profile() {
	local row=$1 bin=$BUILD/stacks/spin2 log=$OUT/profile-$1.$rep.out
	case $row in
	baseline) "$bin" "$PROFILE_SECONDS" >"$log" 2>&1 ;;
	bpftrace) bpftrace -e 'profile:hz:99 /pid == cpid/ { @[ustack] = count(); @hits = count(); }' -c "$bin $PROFILE_SECONDS" >"$log" 2>&1 ;;
	tap) "$TAP" -e 'global p, hits probe perf.sw.cpu_clock.hz(99) { if (pid() == target()) { p[ubacktrace()]++; hits++ } }
		probe end { n = 0; k = 0; foreach (s in p) { n += p[s]; k++ } printf("samples=%d hits=%d keys=%d\n", n, hits, k) }' \
		-c "$bin $PROFILE_SECONDS" >"$log" 2>&1 ;;
	esac
	local samples hits
	case $row in
	bpftrace) samples=$(awk '/^\]: / { n += $2 } END { print n + 0 }' "$log"); hits=$(sed -n 's/^@hits: //p' "$log") ;;
	tap) samples=$(field samples <"$log") hits=$(field hits <"$log") ;;
	*) samples=- hits=- ;;
	esac
	# lost: probe runs not in a key (a full map), plus any report of lost events
	local lost=0
	[ "$row" = baseline ] || lost=$(( $(grep -ci 'lost' "$log") + (samples == hits ? 0 : 1) ))
	echo "$samples $(field cpu_ms <"$log") $(field rounds_per_cpu_ms <"$log") $lost"
}

cmd_profile() {
	local rows=(baseline bpftrace tap) i row
	[ -x "$TAP" ] || rows=(baseline bpftrace)
	for ((rep = 0; rep < PROFILE_REPS; rep++)); do
		for ((i = 0; i < ${#rows[@]}; i++)); do
			row=${rows[(i + rep) % ${#rows[@]}]}
			echo "$rep $row $(one_profile "$row")" >>"$OUT/profile.raw"
		done
	done
	awk '{ s[$1, $2] = $3; cpu[$1, $2] = $4; rate[$1, $2] = $5; lost[$2] += $6; rows[$2] = 1; reps[$1] = 1 }
	     END {
		for (r in rows) for (p in reps) {
			if (rate[p, r] == "") continue
			print r, "rate", rate[p, r]
			if (r != "baseline") {
				print r, "pct", (cpu[p, r] > 0 ? 100 * s[p, r] / (cpu[p, r] * 99 / 1000) : 0)
				print r, "ovh", 100 * (1 - rate[p, r] / rate[p, "baseline"])
			}
		}
		for (r in rows) print r, "lost", lost[r] }' "$OUT/profile.raw" >"$OUT/profile.values"
	printf '%-10s %16s %9s %7s %5s\n' row rounds/cpu-ms samples% ovh% lost
	for row in baseline bpftrace tap; do
		grep -q "^$row " "$OUT/profile.values" || continue
		printf '%-10s %16s %9s %7s %5s\n' "$row" \
			"$(awk -v r=$row '$1 == r && $2 == "rate" { print $3 }' "$OUT/profile.values" | median)" \
			"$(awk -v r=$row '$1 == r && $2 == "pct" { print $3 }' "$OUT/profile.values" | median | pct)" \
			"$(awk -v r=$row '$1 == r && $2 == "ovh" { print $3 }' "$OUT/profile.values" | median | pct)" \
			"$(awk -v r=$row '$1 == r && $2 == "lost" { print $3 }' "$OUT/profile.values")"
	done | tee "$OUT/profile.txt"
}

build || exit 1
echo "# $(date -u +%FT%TZ) load $(cut -d' ' -f1-3 /proc/loadavg), $(nproc) CPUs, $(uname -r); REPS=$REPS N=$N; results in $OUT"
case ${1:-all} in
unwind) cmd_unwind ;;
profile) cmd_profile ;;
all) cmd_unwind; echo; cmd_profile ;;
*) echo "usage: TAP=/path/to/tap $0 [unwind|profile|all]" >&2; exit 2 ;;
esac
