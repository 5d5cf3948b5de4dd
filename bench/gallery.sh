#!/bin/bash
# Runs SystemTap's example gallery with tap: each example's test_check and
# test_installcheck commands (from testsuite/systemtap.examples/*/X.meta of a
# SystemTap source tree) with `stap` replaced by tap, also inside the
# gallery's wrapper scripts (a `stap` first in PATH runs tap). Prints one line
# per command (PASS/FAIL, the example, whether its script names a kernel
# function probe, and a failing command's first error line), then the counts.
#
#   bench/gallery.sh TAP SYSTEMTAP_SOURCE [FILTER_REGEX]
#
# SYSTEMTAP_SOURCE is a checkout or a bare git directory (the fetched mirror:
# its HEAD's tree is used). Needs root. GALLERY_TIMEOUT (default 30 s) bounds
# each command; a command still running then is a failure ("timeout").
set -u
tap=$(readlink -f "$1"); src=$2; filter=${3:-.}
limit=${GALLERY_TIMEOUT:-30}
work=$(mktemp -d /tmp/tap-gallery.XXXXXX)
trap 'rm -rf "$work"' EXIT
if [[ -d $src/testsuite/systemtap.examples ]]; then
    cp -r "$src/testsuite/systemtap.examples" "$work/examples"
else
    mkdir "$work/examples"
    git --git-dir="$src" archive HEAD testsuite/systemtap.examples 2>/dev/null | tar -x -C "$work/examples" --strip-components=2
fi
mkdir "$work/bin"
printf '#!/bin/sh\nexec %q "$@"\n' "$tap" > "$work/bin/stap"
chmod +x "$work/bin/stap"

# kernel.function / module(...).function / kernel.statement / kprobe points in the script
needs_kfunc() {
    grep -qE '(kernel|module\([^)]*\))\.(function|statement)|kprobe\.' "$1" 2>/dev/null
}

declare -A pass fail
for meta in $(find "$work/examples" -name '*.meta' | sort); do
    dir=$(dirname "$meta"); name=$(sed -n 's/^name: *//p' "$meta" | head -1)
    example=${dir#$work/examples/}/$name
    [[ $example =~ $filter ]] || continue
    script=$dir/$name
    kind=plain; needs_kfunc "$script" && kind=kfunc
    for field in test_check test_installcheck; do
        cmd=$(sed -n "s/^$field: *//p" "$meta" | head -1)
        [[ -n $cmd ]] || continue
        err=$(cd "$dir" && PATH="$work/bin:$PATH" timeout -k 5 "$limit" bash -c "$cmd" </dev/null 2>&1 >/dev/null)
        rc=$?
        key="$field $kind"
        if (( rc == 0 )); then
            pass[$key]=$(( ${pass[$key]:-0} + 1 )); echo "PASS $field $kind $example"
        else
            fail[$key]=$(( ${fail[$key]:-0} + 1 ))
            (( rc == 124 || rc == 137 )) && reason="timeout after ${limit}s" ||
                reason=$(grep -m1 -E 'error|ERROR|refused|not supported|unknown' <<<"$err" || head -1 <<<"$err")
            echo "FAIL $field $kind $example: ${reason:-exit $rc}"
        fi
    done
done
echo
for field in test_check test_installcheck; do
    for kind in plain kfunc; do
        key="$field $kind"; p=${pass[$key]:-0}; f=${fail[$key]:-0}
        printf '%-18s %-6s %3d of %3d pass\n' "$field" "$kind" "$p" $(( p + f ))
    done
done
