#!/usr/bin/env bash
# split-debug.sh OUT PROGRAM OTHER: stripped copies of PROGRAM (built -g, with
# a GNU build id) whose DWARF lives in separate files, in each layout tap must
# find (golden/debuginfo_*):
#   OUT/buildid/t_args       + OUT/buildid/root/.build-id/xx/rest.debug
#   OUT/link/t_args          + OUT/link/t_args.debug        (.gnu_debuglink beside it)
#   OUT/dotdebug/t_args      + OUT/dotdebug/.debug/t_args.debug
#   OUT/badcrc/t_args        + OUT/badcrc/t_args.debug      (same build id, other bytes: CRC mismatch)
#   OUT/dwz/t_args           + OUT/dwz/root/.build-id/...   (DWARF shared with OTHER moved by dwz into a
#                                                            supplementary file, found by its build id)
#   OUT/debuginfod/t_args    + OUT/debuginfod/serve/t_args.debug (for a debuginfod server)
set -euo pipefail
out=$1 program=$2 other=$3
name=$(basename "$program")
rm -rf "$out"
mkdir -p "$out"
build_id() { readelf -n "$1" | sed -n 's/^ *Build ID: //p'; }
id_path() { local id; id=$(build_id "$1"); echo "${id:0:2}/${id:2}.debug"; }

# (1) by build id under a debug root
debug=$out/buildid/root/.build-id/$(id_path "$program")
mkdir -p "$(dirname "$debug")"
objcopy --only-keep-debug "$program" "$debug"
objcopy --strip-all "$program" "$out/buildid/$name"

# (2) .gnu_debuglink beside the binary, in .debug/, and with a wrong CRC
mkdir -p "$out/link" "$out/dotdebug/.debug" "$out/badcrc"
objcopy --only-keep-debug "$program" "$out/link/$name.debug"
objcopy --strip-all --add-gnu-debuglink="$out/link/$name.debug" "$program" "$out/link/$name"
cp "$out/link/$name.debug" "$out/dotdebug/.debug/$name.debug"
cp "$out/link/$name" "$out/dotdebug/$name"
cp "$out/link/$name" "$out/badcrc/$name"
objcopy --compress-debug-sections=zlib "$out/link/$name.debug" "$out/badcrc/$name.debug"

# (3) dwz: what PROGRAM shares with OTHER goes to a supplementary file, named
# as Debian names it (a path that does not exist here) and found by build id
mkdir -p "$out/dwz/work" "$out/dwz/root/.build-id"
cp "$program" "$out/dwz/work/$name"
cp "$other" "$out/dwz/work/other"   # the same source at -O2: the same types
dwz -m "$out/dwz/work/common.debug" -M /usr/lib/debug/.dwz/x86_64-linux-gnu/tap-tests.debug \
    "$out/dwz/work/$name" "$out/dwz/work/other"
for f in "$out/dwz/work/$name" "$out/dwz/work/common.debug"; do
  debug=$out/dwz/root/.build-id/$(id_path "$f")
  mkdir -p "$(dirname "$debug")"
  if [[ $f == *common.debug ]]; then cp "$f" "$debug"; else objcopy --only-keep-debug "$f" "$debug"; fi
done
objcopy --strip-all "$out/dwz/work/$name" "$out/dwz/$name"
rm -rf "$out/dwz/work"

# (4) what a debuginfod server serves: the debug file alone
mkdir -p "$out/debuginfod/serve"
objcopy --only-keep-debug "$program" "$out/debuginfod/serve/$name.debug"
objcopy --strip-all "$program" "$out/debuginfod/$name"
