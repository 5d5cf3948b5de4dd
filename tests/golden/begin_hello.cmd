@TAP@ -e 'probe begin { printf("hello %s %d\n", "world", 42); exit() }'
