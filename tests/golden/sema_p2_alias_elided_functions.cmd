# -p2 (tracefs: runs as root): the alias stores nothing reads are elided as SystemTap elides
# them, so neither their locals (name, oldfd, argstr) nor the tapset functions only they
# called (_tap_dec, _tap_dirfd_str) are listed; newfd and the _tap_int32 it calls are.
@TAP@ -p2 -e 'probe syscall.dup2 { println(newfd) }'; echo "exit $?"
