# tap refuses a kernel older than its floor (README "Kernels": 5.19) with one
# line and exit 1, before it loads anything; -p2 (no kernel needed) still
# runs. setarch's UNAME26 personality makes uname(2) report a 2.6 release:
# the running kernel is untouched, only what tap reads of it.
setarch "$(uname -m)" --uname-2.6 @TAP@ -e 'probe begin { println("hi"); exit() }'; echo "tap: $?"
setarch "$(uname -m)" --uname-2.6 @TAP@ -p2 -e 'probe begin { exit() }' >/dev/null; echo "tap -p2: $?"
