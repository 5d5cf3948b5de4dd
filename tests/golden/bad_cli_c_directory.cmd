@TAP@ -c / -e 'probe begin { println("never") }'
