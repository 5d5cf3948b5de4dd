# SIGHUP (the terminal went away) ends the session as SIGTERM does: end
# probes run, exit status 0, and the procfs files are gone.
source ../kill_check.sh; d=$(mktemp -d); trap 'rm -rf $d' EXIT
@TAP@ -m golden_sighup -e 'probe procfs("f").read { $value = "x\n" } probe begin { println("started") } probe end { println("end ran") }' >$d/out & pid=$!
wait_for_line $d/out started $pid; sleep 0.2; kill -HUP $pid; wait $pid; status=$?; cat $d/out
ls /run/tap/golden_sighup 2>&1 | sed 's/^ls: //'; exit $status
