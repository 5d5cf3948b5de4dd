# procfs files need SystemTap's kernel module: only procfs("__stdin").write
# (tap's standard input) exists, with one target variable, $value.
@TAP@ -p2 -e 'probe procfs("stats").read { }'; @TAP@ -p2 -e 'probe procfs("__stdin").read { }'; @TAP@ -p2 -e 'probe procfs("__stdin").write { println($val) }'
