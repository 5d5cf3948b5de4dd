# examples/profile.tp on spin (busy for 300 ms): its thread holds nearly all
# the samples of the command, at least a few whatever the tick rate. A tick
# may also catch the -c child before its exec, still named tap.
s=@PROGRAMS@/../../examples/spin; @TAP@ ../../examples/profile.tp -c "$s 300" | awk '
  NR == 1 { print; next }
  /^spin +[0-9]+ +[0-9]+ +[0-9]+%$/ { print "spin: " ($3 >= 5 ? "5 samples or more" : $3 " samples") ", " ($4 + 0 >= 80 ? "80% or more" : $4); next }
  /^tap +[0-9]+ +[0-9]+ +[0-9]+%$/ { next }
  { print "unexpected: " $0 }'
