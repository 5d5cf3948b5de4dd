@TAP@ -e 'probe begin { x = }'
