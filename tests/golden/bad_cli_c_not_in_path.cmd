@TAP@ -c no-such-command-anywhere -e 'probe begin { println("never") }'
