# As bad_cli_x_no_such_process, with a script that does not end by itself (it ran until killed).
@TAP@ -x 999999 -e 'probe timer.s(1) { println("tick") }'
