@TAP@ -L 'kernel.function("vfs_fsync").inline'
@TAP@ -L 'module("tap_no_such_module").function("f*")'
