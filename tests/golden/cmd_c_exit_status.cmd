@TAP@ -c 'sh -c "exit 3"' -e 'probe end { println("end") }'
