# usymname() and umodname() in a system-wide timer.profile, of a program
# started after tap (system() in begin, after a pause): no index built at
# start has its files. The first call in a file it has no symbols for
# records the file (tap_sym_wanted) and tap adds it, so later calls resolve
# (they all printed hex and <unknown>). The samples taken before tap has
# read the file stay hex: how many depends on the machine's speed (under
# emulation they can outnumber cold()'s), so only the named ones count here;
# hot() runs nine times as long as cold(). t_stack exits before -T ends the
# run: the names were made while it ran.
@TAP@ -T 4 -e 'global hits probe timer.profile { if (execname() != "t_stack") next; name = usymname(uaddr()); if (substr(name, 0, 2) != "0x") hits[name, umodname(uaddr())]++ } probe begin { system("sleep 0.2; exec @PROGRAMS@/t_stack 60") } probe end { foreach ([f, m] in hits- limit 2) printf("%s %s\n", f, m) }' | sed "s|$(realpath @PROGRAMS@)|PROGRAMS|"
