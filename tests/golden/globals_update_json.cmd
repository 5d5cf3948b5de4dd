@TAP@ --format=json -e 'global n, c probe begin { n++; c["a"] += 3; c["b"]++; exit() }'
