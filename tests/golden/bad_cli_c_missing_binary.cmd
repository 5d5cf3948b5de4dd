@TAP@ -c /nonexistent/binary -e 'probe begin { println("never") } probe end { println("never") }'
