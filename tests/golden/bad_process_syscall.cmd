# process.syscall's variables are SystemTap's ($syscall, $arg1..$arg6,
# $$parms; $syscall and $return at .return: tap reads the arguments at the
# entry only), plain values; a missing executable.
@TAP@ -p2 -e 'probe process.syscall { println($arg7) }'
@TAP@ -p2 -e 'probe process.syscall { println($return) }'
@TAP@ -p2 -e 'probe process.syscall.return { println($fd) }'
@TAP@ -p2 -e 'probe process.syscall.return { println($arg1) }'
@TAP@ -p2 -e 'probe process.syscall { println($arg1->x) }'
@TAP@ -p2 -e 'probe process("/nonexistent/prog").syscall { }'
