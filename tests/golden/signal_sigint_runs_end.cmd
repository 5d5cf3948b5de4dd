# Ctrl-C ends the session normally: end probes run, exit status 0.
source ../kill_check.sh; d=$(mktemp -d); trap 'rm -rf $d' EXIT
@TAP@ -e 'global ticks probe begin { println("started") } probe timer.ms(10) { ticks++ } probe end { printf("end ran, ticks>0: %d\n", ticks > 0) }' >$d/out & pid=$!
# after begin: a background job ignores SIGINT until tap takes it over
wait_for_line $d/out started $pid; sleep 0.2; kill -INT $pid; wait $pid; status=$?; cat $d/out; exit $status
