@TAP@ -v -e 'probe begin { println("hi"); exit() }'
