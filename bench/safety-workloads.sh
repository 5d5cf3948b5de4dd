#!/usr/bin/env bash
# safety-workloads.sh TAP: real programs run untraced, then with every
# function of the library they use probed at entry and return (issue 20:
# tracing never changes what the traced program does). Per workload: the
# outputs' sha256 and exit statuses, untraced and traced, "same" or
# "DIFFERENT", the probe hits counted and both wall times.
#   xz       compresses and decompresses a file, all of liblzma probed
#   git      init, add, commit, gc, fsck, log, all of zlib probed
#   python3  workload.py, every Py* function of python3.11 probed (it links
#            libpython statically; no libpython.so is loaded)
#   c++      exceptions.cpp, all of libstdc++ probed (exceptions unwind through
#            probed frames: .return at the rets)
# Run by hand for the note (about 5 minutes here: python3 and c++ make ~10^6
# hits each, many single-stepped); results in RESULTS.md. Exit status: 0
# when every workload is the same, else 1.
set -uo pipefail
tap=${1:?usage: safety-workloads.sh TAP}
here=$(cd "$(dirname "$0")" && pwd)/safety
work=$(mktemp -d)
trap 'rm -rf "$work"' EXIT
lib=/usr/lib/x86_64-linux-gnu
status=0

# probes LIB PATTERN: a script counting entries and returns of LIB's functions
probes() {
	printf 'global calls, rets probe process("%s").function("%s") { calls++ } probe process("%s").function("%s").return { rets++ } probe end { printf("calls=%%d returns=%%d\\n", calls, rets) }' "$1" "$2" "$1" "$2"
}

# run NAME DIR ARGV...: runs ARGV in DIR; keeps its output, exit status and wall time
run() {
	local name=$1 dir=$2 t0 t1
	shift 2
	t0=$(date +%s.%N)
	(cd "$dir" && "$@") >"$work/$name.out" 2>"$work/$name.err"
	echo $? >"$work/$name.exit"
	t1=$(date +%s.%N)
	echo "$t1 - $t0" | bc >"$work/$name.time"
}

# compare NAME LIB PATTERN SETUP COMMAND: COMMAND (bash) untraced, then traced,
# each in a directory of its own prepared by SETUP (bash)
compare() {
	local name=$1 lib=$2 pattern=$3 setup=$4 dir
	printf '%s\n' "$5" >"$work/$name.sh"
	for dir in "$work/$name.plain" "$work/$name.traced"; do
		mkdir -p "$dir" && (cd "$dir" && bash -c "$setup")
	done
	run "$name.plain" "$work/$name.plain" bash "$work/$name.sh"
	run "$name.traced" "$work/$name.traced" "$tap" -o "$work/$name.probes" -e "$(probes "$lib" "$pattern")" \
		-c "bash $work/$name.sh"
	local a b verdict=same
	a=$(cat "$work/$name.plain.out" "$work/$name.plain.exit" | sha256sum | cut -c1-16)
	b=$(cat "$work/$name.traced.out" "$work/$name.traced.exit" | sha256sum | cut -c1-16)
	[ "$a" = "$b" ] || { verdict=DIFFERENT; status=1; }
	printf '%-8s %-9s untraced %s exit %s %6.2fs | traced %s exit %s %6.2fs | %s\n' "$name" "$verdict" "$a" \
		"$(cat "$work/$name.plain.exit")" "$(cat "$work/$name.plain.time")" "$b" "$(cat "$work/$name.traced.exit")" \
		"$(cat "$work/$name.traced.time")" "$(tr '\n' ' ' <"$work/$name.probes" 2>/dev/null)"
	local skipped
	skipped=$(grep -c '^WARNING: skipping' "$work/$name.traced.err")
	[ "$skipped" = 0 ] || echo "    $skipped .return probes skipped (tail jumps: see tap -v)"
	grep -v '^WARNING: \|^ ' "$work/$name.traced.err" | head -3 | sed 's/^/    /'
}

head -c 1000000 /usr/bin/gdb /usr/bin/bash /usr/share/common-licenses/* 2>/dev/null >"$work/input"
seq 1 200000 >>"$work/input"
compare xz $lib/liblzma.so.5 '*' "cp $work/input f" \
	"xz -k -6 f && sha256sum f.xz && mv f f.orig && xz -d f.xz && cmp f f.orig && sha256sum f"
compare git $lib/libz.so.1 '*' "cp $here/../README.md $here/../../docs/ARCHITECTURE.md ." \
	"export GIT_AUTHOR_DATE='2024-01-01T00:00:00Z' GIT_COMMITTER_DATE='2024-01-01T00:00:00Z' GIT_AUTHOR_NAME=t GIT_AUTHOR_EMAIL=t@t GIT_COMMITTER_NAME=t GIT_COMMITTER_EMAIL=t@t; git init -q -b main . && git add . && git commit -qm one && seq 1 50000 > n && git add n && git commit -qm two && git gc -q && git fsck --full 2>&1 && git log --stat --format=%H%n%s && git cat-file -p HEAD:n | sha256sum"
compare python3 /usr/bin/python3.11 'Py*' "cp $here/workload.py ." "/usr/bin/python3.11 workload.py"
g++ -O1 -o "$work/exceptions" "$here/exceptions.cpp"
compare c++ $lib/libstdc++.so.6 '*' ":" "$work/exceptions 20000"
exit $status
