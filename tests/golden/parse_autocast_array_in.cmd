@TAP@ -p1 -e 'probe begin { ( foo in bar -> baz ) }'
