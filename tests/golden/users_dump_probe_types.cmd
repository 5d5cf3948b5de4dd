# --dump-probe-types: the probe-point forms, (number) and (string) for the
# arguments, sorted (the full list is checked against docs/probes.md by
# users_docs_catalogues).
@TAP@ --dump-probe-types | grep -E '^(begin|timer\.ms|timer\.profile|process\(string\)\.function|kernel)'
