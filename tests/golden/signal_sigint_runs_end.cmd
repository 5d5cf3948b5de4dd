# Ctrl-C ends the session normally: end probes run, exit status 0.
@TAP@ -e 'global ticks probe begin { println("started") } probe timer.ms(10) { ticks++ } probe end { printf("end ran, ticks>0: %d\n", ticks > 0) }' & pid=$!; sleep 0.6; kill -INT $pid; wait $pid
