@TAP@ -e 'probe begin { printf("%d %s %d\n", $1 + 1, @2, $#); exit() }' 41 hello
