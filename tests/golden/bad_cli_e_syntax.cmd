@TAP@ -e 'probe begin { exit( }'
