@TAP@ -l 'kernel.function("nosuch_fn_xyz")'
