# cmake --install into a temporary prefix puts tap in bin/, the tapsets in
# share/tap/tapsets/, the man page in share/man/man1/, the docs and examples
# in share/doc/tap/. The installed tap finds its tapsets beside itself
# (../share/tap/tapsets, from /proc/self/exe): a function added to the
# installed tapsets only is callable from it, not from the build tree's tap.
# Then the installed tap runs an example.
build=$(dirname @TAP@); p=$(mktemp -d); trap 'rm -rf $p' EXIT
cmake --install $build --prefix $p/usr >/dev/null || echo "install failed"
for f in bin/tap share/tap/tapsets/syscalls.tp share/tap/tapsets/indent.tp share/man/man1/tap.1 \
         share/doc/tap/language.md share/doc/tap/examples/funclatency.tp share/doc/tap/examples/workload.c; do
  [[ -e $p/usr/$f ]] && echo "installed $f"
done
head -1 $p/usr/share/man/man1/tap.1 | grep -q '^\.TH TAP 1' && echo "man page header ok"
echo 'function installed_marker:string() { return "from the installed tapsets" }' >$p/usr/share/tap/tapsets/zz_marker.tp
$p/usr/bin/tap -e 'probe begin { println(installed_marker()); exit() }'
@TAP@ -e 'probe begin { println(installed_marker()); exit() }' 2>&1 | head -1 | sed -E 's/ \(similar: .*\)//'
cp ../../examples/hello.tp $p/ && (cd / && $p/usr/bin/tap $p/hello.tp | tail -1)
