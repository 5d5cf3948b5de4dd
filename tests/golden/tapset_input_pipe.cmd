# input.line from a pipe, read as it comes: the second line arrives after a
# pause; a last line without "\n" never fires input.line (as in SystemTap).
{ echo one; sleep 0.3; printf 'two\nthree'; } | @TAP@ -e 'probe input.line { printf("%s", line) } probe input.char { n++ } probe timer.ms(800) { printf("%d chars\n", n); exit() } global n'
