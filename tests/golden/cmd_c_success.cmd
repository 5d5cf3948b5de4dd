@TAP@ -c 'sh -c "exit 0"' -e 'probe begin { println("begin") } probe end { println("end") }'
