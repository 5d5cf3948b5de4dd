@TAP@ -e 'global n probe begin { n++; exit() }'
