# usymname() and umodname() in a system-wide timer.profile, of a program
# started after tap (system() in begin, after a pause): no index built at
# start has its files. The first call in a file it has no symbols for
# records the file (tap_sym_wanted) and tap adds it, so later calls resolve
# (they all printed hex and <unknown>). hot() runs nine times as long as
# cold(); the few samples taken before tap read the file stay hex, far
# fewer than cold's. t_stack exits before -T ends the run: the names were
# made while it ran.
@TAP@ -T 4 -e 'global hits probe timer.profile { if (execname() == "t_stack") hits[usymname(uaddr()), umodname(uaddr())]++ } probe begin { system("sleep 0.2; exec @PROGRAMS@/t_stack 150") } probe end { foreach ([f, m] in hits- limit 2) printf("%s %s\n", f, m) }' | sed "s|$(realpath @PROGRAMS@)|PROGRAMS|"
