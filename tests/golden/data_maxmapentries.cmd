@TAP@ -D MAXMAPENTRIES=2 -e 'global a probe begin { a[1] = 1; a[2] = 2; a[3] = 3 } probe error { println(a[1] + a[2]) }'
