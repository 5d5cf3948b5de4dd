@TAP@ -d /no/such/file -e 'probe begin { exit() }'
