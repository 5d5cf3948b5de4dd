# Compile once, run elsewhere (spec/cli.md): -p4 -o against a -g copy of
# t_args, then --run against a stripped copy with the same build-id at the
# same path: the same output, without DWARF. A plain compile against the
# stripped copy cannot read the parameters (no DWARF left), and a binary with
# another build-id at that path is refused with exit status 1.
d=$(mktemp -d); p=$d/t_args; cp @PROGRAMS@/t_args $p
build_id() { readelf -n "$1" | awk '/Build ID:/ { print $3 }'; }
id=$(build_id $p)
@TAP@ -p4 -o $d/trace.bpf.o users_run_stripped.stp $p || echo "compile failed"
@TAP@ --run $d/trace.bpf.o -c "$p 3" >$d/debug.out; echo "with -g: status $?"
strip --strip-all -o $d/stripped $p && mv $d/stripped $p
[[ $(build_id $p) == "$id" && -n $id ]] && echo "stripped copy keeps the build-id"
readelf -S $p | grep -q debug_info || echo "stripped copy has no .debug_info"
@TAP@ --run $d/trace.bpf.o -c "$p 3" >$d/stripped.out; echo "stripped: status $?"
cmp -s $d/debug.out $d/stripped.out && echo "same output:" && cat $d/stripped.out
@TAP@ -p4 -o /dev/null users_run_stripped.stp $p 2>&1 | grep -c "^semantic error: while resolving probe point: no match for" | sed "s/$/ probe points not found compiling against the stripped copy (no symbols, no DWARF)/"
cp @PROGRAMS@/t_loop $p; other=$(build_id $p)
@TAP@ --run $d/trace.bpf.o -c "$p 3" 2>&1 | sed "s|$d|DIR|; s/$other/OTHER/; s/$id/COMPILED/"; echo "other build-id: status ${PIPESTATUS[0]}"
rm -rf $d
