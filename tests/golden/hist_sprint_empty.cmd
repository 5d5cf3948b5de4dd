# sprint()/sprintln() of the histogram of an empty statistic is SystemTap's
# runtime error "empty aggregate" at the call, as print() of it is
# (hist_print_empty; translate.cxx checks the aggregate's count for both):
# the output before it stays, the handler ends there, the run fails.
@TAP@ -e 'global a
probe begin {
  a["x"] <<< 3
  print(sprint(@hist_log(a["x"])))
  println("before")
  x = sprint(@hist_log(a["none"]))
  println("not reached ", x)
}'; echo "exit $?"
@TAP@ -e 'global s probe begin { s <<< 1; exit() } probe end { delete s; x = sprintln(@hist_linear(s, 0, 10, 1)); println("not reached", x) }'; echo "exit $?"
