# examples/profile.tp on spin (busy for 300 ms): hot() and warm() spend their
# time in work(), so work holds nearly all the samples of the command, at
# least a few whatever the tick rate, and comes first. A tick may also catch
# the -c child before its exec (still named tap) or spin elsewhere (main,
# now_ms, the vDSO, libc).
s=@PROGRAMS@/../../examples/spin; @TAP@ ../../examples/profile.tp -c "$s 300" | awk '
  NR == 1 { print; next }
  NR == 2 && /^spin +work +[0-9]+ +[0-9]+%$/ { print "first: spin work, " ($3 >= 5 ? "5 samples or more" : $3 " samples") ", " ($4 + 0 >= 70 ? "70% or more" : $4); next }
  NR == 2 { print "first line unexpected: " $0; next }
  /^(spin|tap) +[^ ]+ +[0-9]+ +[0-9]+%$/ { next }
  { print "unexpected: " $0 }'
