# procfs("__stdin") is tap's standard input: .write only, with one target
# variable, $value; procfs's other files are kinds/procfs.c's (bad_procfs).
@TAP@ -p2 -e 'probe procfs("__stdin").read { }'; @TAP@ -p2 -e 'probe procfs("__stdin").write { println($val) }'
