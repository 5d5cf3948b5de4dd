#!/usr/bin/env bash
# Builds the seed corpora: make_seeds.sh OUT_DIR
# OUT_DIR/parse gets every script of tests/golden and examples, OUT_DIR/compile
# an eighth of them; OUT_DIR/format gets printf formats (selector byte 0) and
# histogram shapes (selector 1: log, 2: linear), see fuzz_format.c.
set -eu
out=$1
here=$(cd "$(dirname "$0")" && pwd)
root=$(cd "$here/../.." && pwd)
rm -rf "$out/parse" "$out/compile" "$out/format"
mkdir -p "$out/parse" "$out/compile" "$out/format"
# The compile harness takes an eighth of them (about 75), a different eighth
# for each commit: replaying all through LLVM under ASan takes about 2 minutes
# (a quarter, 34 s), which left its 20 s no time to fuzz.
eighth=$(( 16#$(git -C "$root" rev-parse --short=1 HEAD 2>/dev/null || echo 0) % 8 ))
i=0
for script in "$root"/tests/golden/*.tp "$root"/examples/*.tp; do
  name=$(basename "$script")
  cp "$script" "$out/parse/$name"
  (( i++ % 8 != eighth )) || cp "$script" "$out/compile/$name"
done

n=0
seed() { printf '%b' "$1" >"$out/format/seed$((n++))"; }
# printf: selector 0, the format, NUL, then the values' bytes.
for format in '[%5d][%-5d][%05d][%x][%X][%#x][%o][%c][%s][%10s][%-10s][%.2s][%p][%%]' \
  '%d %i %u' '%+d % d %#o %#X' '%*d|%-*.*s|' '%.*d' '%b %1b %2b %4b %8b' '%m %M %.4m %.3M' \
  '%lld %ld %lx' '%s\\n' '%20.10s' '%c%c%c' '%-08d' '%.0d' '%%%%%%'; do
  seed "\\x00$format\\x00\\x2a\\x00\\x00\\x00\\x00\\x00\\x00\\x80\\x05hello\\x03abc\\xff\\xff\\xff\\xff\\xff\\xff\\xff\\xff"
done
# log histograms: selector 1, elision, then counts from bucket 0 up.
seed '\x01\x02\x00\x01\x03\x04\x05\x02\x01\x00\x00\x01'
seed '\x01\x00\x05\x00\x00\x00\x00\x00\x00\x00\x00\x00\x00\x01'
seed '\x01\xff\xf0\x10\x27\x00\x01\x02'
# linear histograms: selector 2, elision, start, span, interval (8 bytes each), counts.
seed '\x02\x02\x00\x00\x00\x00\x00\x00\x00\x00\x64\x00\x00\x00\x00\x00\x00\x00\x0a\x00\x00\x00\x00\x00\x00\x00\x01\x02\x03\x00\x00\x00\x05\x01'
seed '\x02\x00\x9c\xff\xff\xff\xff\xff\xff\xff\xc8\x00\x00\x00\x00\x00\x00\x00\x19\x00\x00\x00\x00\x00\x00\x00\x00\x01\x00\x00\x07'
