#!/usr/bin/env bash
# link-order.sh BUILD_DIR: regenerates scripts/link-order.txt, the order in which
# the linker lays out the functions tap runs (CMakeLists.txt, TAP_LINK_ORDER).
#
# Why: LLVM's static constructors and the cl::opt templates they call sit in
# every one of its objects, so a default link scatters the code that every
# start runs over all 25 MB of text, and the kernel maps 64 KB around each
# touched page: 22 MB resident for `tap --version`. Listing the functions
# that typical runs execute, startup first, lets gold put them side by side.
#
# How: callgrind (valgrind) records every function that these commands run;
# the ones that have a section of their own in the link (LLVM and libstdc++
# are built with -ffunction-sections) are written as `.text.NAME`, in groups:
# what starting runs, then a first compile, then the rest. Regenerate after
# moving to another LLVM release; names that no longer exist are ignored.
set -euo pipefail
export LC_ALL=C
build=$(cd "${1:?usage: link-order.sh BUILD_DIR}" && pwd)
here=$(cd "$(dirname "$0")/.." && pwd)
tap=$build/tap target=$build/tests/programs/t_args
[[ -x $tap && -x $target ]] || { echo "link-order.sh: build tap and its tests in $build first" >&2; exit 1; }
work=$(mktemp -d)
trap 'rm -rf "$work"' EXIT

profile() { # NAME COMMAND...: the functions COMMAND runs, one mangled name a line
	local name=$1; shift
	valgrind --tool=callgrind --demangle=no --callgrind-out-file="$work/$name.cg" "$@" >/dev/null 2>&1 || true
	grep -h -E '^c?fn=' "$work/$name.cg" | sed -E 's/^c?fn=\([0-9]+\) *//' | grep -v '^$' | sort -u >"$work/$name"
}
uprobes='global n, h
probe process(@1).function("*") { n <<< 1 }
probe process(@1).function("scale").return { h <<< $return; printf("%d %d %s\n", $return, @entry($v), ppfunc()) }
probe end { print(@hist_log(h)); printf("%d\n", @count(n)) }'
cache=$work/cache
profile startup "$tap" --version
TAP_CACHE_DIR= profile begin "$tap" -p4 -o "$work/o" -e 'probe begin { printf("%d\n", 1); exit() }'
TAP_CACHE_DIR=$cache profile uprobe "$tap" -p4 -o "$work/o" -e "$uprobes" "$target"
TAP_CACHE_DIR=$cache profile cached "$tap" -p4 -o "$work/o" -e "$uprobes" "$target"
profile listing "$tap" -L "process(\"$target\").function(\"*\")"
TAP_CACHE_DIR= profile syscalls "$tap" -p4 -o "$work/o" -e 'probe syscall.openat { printf("%s %s\n", execname(), argstr) }
	probe timer.ms(100) { printf("%d %s\n", pid(), usymname(uaddr())) }'

# only names the linker can place: symbols of tap outside its own objects
nm "$tap" | awk '{ print $NF }' | sort -u >"$work/symbols"
seen=$work/seen; : >"$seen"
{
	echo .text.startup
	for group in startup begin uprobe cached listing syscalls; do
		comm -12 "$work/$group" "$work/symbols" | comm -23 - "$seen" >"$work/new"
		sed 's/^/.text./' "$work/new"
		sort -u -o "$seen" "$seen" "$work/new"
	done
} >"$here/scripts/link-order.txt"
echo "link-order.sh: $(wc -l <"$here/scripts/link-order.txt") sections in scripts/link-order.txt"
