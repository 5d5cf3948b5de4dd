semantic error: probe point kernel\.statement\("vfs_read@fs/read_write\.c:452"\): no statement of kernel function vfs_read is at line 452 of fs/read_write\.c \(its statements are on lines 379-478\): identifier 'kernel' at kernel_statement_dwarf_bad\.tp:4:7
        source: probe kernel\.statement\("vfs_read@fs/read_write\.c:452"\) \{ exit\(\) \}
                      \^
semantic error: probe point kernel\.statement\("vfs_read@fs/open\.c:456"\): kernel function vfs_read is in fs/read_write\.c, not fs/open\.c: identifier 'kernel' at kernel_statement_dwarf_bad\.tp:5:7
        source: probe kernel\.statement\("vfs_read@fs/open\.c:456"\) \{ exit\(\) \}
                      \^
semantic error: probe point kernel\.statement\("vfs_reed@fs/read_write\.c:456"\): the kernel's DWARF \(/usr/lib/debug/boot/vmlinux-[^)]+\) has no function vfs_reed: identifier 'kernel' at kernel_statement_dwarf_bad\.tp:6:7
        source: probe kernel\.statement\("vfs_reed@fs/read_write\.c:456"\) \{ exit\(\) \}
                      \^
semantic error: probe point kernel\.statement\("vfs_\*@fs/read_write\.c:456"\): tap probes kernel statements by source line as kernel\.statement\("FUNCTION@FILE:LINE"\), one function by name: identifier 'kernel' at kernel_statement_dwarf_bad\.tp:7:7
        source: probe kernel\.statement\("vfs_\*@fs/read_write\.c:456"\) \{ exit\(\) \}
                      \^
