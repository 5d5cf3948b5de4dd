semantic error: probe point kernel\.statement\("vfs_read@fs/read_write\.c:450"\): a kernel statement by source line needs the kernel's DWARF: no /usr/lib/debug/boot/vmlinux-([^ ]+) \(Debian: the package linux-image-[^ ]+-dbg\): identifier 'kernel' at kernel_statement_line\.tp:4:7
        source: probe kernel\.statement\("vfs_read@fs/read_write\.c:450"\) \{ exit\(\) \}
                      \^
semantic error: probe point kernel\.statement\(4096\)\.label\("x"\): tap probes kernel statements as kernel\.statement\(ADDRESS\)\[\.absolute\] only: identifier 'kernel' at kernel_statement_line\.tp:5:7
        source: probe kernel\.statement\(0x1000\)\.label\("x"\) \{ exit\(\) \}
                      \^
