# What kernel.lsm refuses, at the place: writing (or reading) $return, which
# decides the hook (SystemTap's guru mode); members through $ctx (a number,
# as SystemTap's); an argument the hook does not have; a hook BTF lacks; a
# form without the hook's name.
@TAP@ -p2 -e 'probe lsm.socket_bind { $return = -1 }'
@TAP@ -p2 -e 'probe lsm.socket_bind { if ($return) next }'
@TAP@ -p2 -e 'probe kernel.lsm("file_open") { println($ctx->f_flags) }'
@TAP@ -p2 -e 'probe kernel.lsm("file_open") { println($inode) }'
@TAP@ -p2 -e 'probe kernel.lsm("no_such_hook") { }'
@TAP@ -p2 -e 'probe kernel.lsm { }'
