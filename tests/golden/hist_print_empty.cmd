# print() of the histogram of an empty statistic (an array element that does
# not exist; a statistic never given a value) is SystemTap's runtime error
# "empty aggregate" at the print, not a header with no rows: the output
# before it stays, the handler ends there, the run fails.
@TAP@ -e 'global a
probe begin {
  a["x"] <<< 3
  print(@hist_log(a["x"]))
  println("before")
  print(@hist_log(a["none"]))
  println("not reached")
}'; echo "exit $?"
@TAP@ -e 'global s probe begin { s <<< 1; exit() } probe end { delete s; print(@hist_linear(s, 0, 10, 1)); println("not reached") }'; echo "exit $?"
