@TAP@ -L 'module("9p").function("v9fs_vfs_l*")'
@TAP@ -L 'module("9p").function("v9fs_vfs_lookup").return'
