out=$(mktemp); @TAP@ -o "$out" -e 'global written probe begin { printf("to file %d\n", 7); written = 1; exit() } probe end { println("end") }'; rc=$?; echo "rc=$rc"; cat "$out"; rm -f "$out"
