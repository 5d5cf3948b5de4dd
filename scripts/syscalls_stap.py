"""SystemTap's names for tap's syscall aliases (x86_64), read off SystemTap's
tapset/linux/sysc_*.stp: the alias a kernel syscall belongs to, and the
variables SystemTap's alias sets beside the tracepoint's fields. Each value
is tap code over the locals the generator makes from the fields (FIELD,
FIELD_uaddr) or the fields themselves ($FIELD)."""

# syscall.stat is the kernel's newstat; syscall.pipe also fires on pipe2.
ALIAS = {
    "newstat": "stat", "newlstat": "lstat", "newfstat": "fstat", "newfstatat": "fstatat",
    "pread64": "pread", "pwrite64": "pwrite", "sendfile64": "sendfile", "newuname": "uname",
    "pipe2": "pipe", "getdents64": "getdents", "eventfd2": "eventfd", "signalfd4": "signalfd",
    "inotify_init1": "inotify_init", "epoll_create1": "epoll_create",
}

# The name variable where it is not the alias's name nor the kernel's.
NAME = {
    "getdents64": '"getdents"',
    # SystemTap names these by the flags, not by the syscall
    "signalfd4": '$flags == 0 ? "signalfd" : "signalfd4"',
    "epoll_create1": '$flags == 0 ? "epoll_create" : "epoll_create1"',
}

# A field whose own name would hide another variable (name, the syscall's).
FIELD_VAR = {
    ("acct", "name"): "filename",
}
# Any other string field `name` (the xattr calls) is SystemTap's name_str.
STRING_NAME_FIELD = "name_str"

_STAT = ["buf_uaddr = statbuf_uaddr"]
_SOCK = ["sockfd = fd"]
_ACCEPT = _SOCK + ["addr_uaddr = upeer_sockaddr_uaddr", "addrlen_uaddr = upeer_addrlen_uaddr"]
_SLEEP = ["req_uaddr = rqtp_uaddr", "rem_uaddr = rmtp_uaddr"]
_VEC = ["vector_uaddr = vec_uaddr", "count = vlen"]

VARS = {
    "open": ["flags_str = _sys_open_flag_str(flags)"],
    "openat": ["dfd_str = _dfd_str(dfd)", "flags_str = _sys_open_flag_str(flags)"],
    "write": ["buf_uaddr = $buf"],
    "pwrite64": ["buf_uaddr = $buf", "offset = pos"],
    "pread64": ["offset = pos"],
    "newstat": ["filename_uaddr = $filename"] + _STAT,
    "newlstat": ["path = filename"] + _STAT,
    "newfstat": ["filedes = fd"] + _STAT,
    "newfstatat": ["dirfd = dfd", "dirfd_str = _dfd_str(dfd)", "path = filename", "flags = flag",
                   "flags_str = _at_flag_str(flag)"] + _STAT,
    "exit": ["status = error_code"],
    "exit_group": ["status = error_code"],
    "kill": ["sig_name = _signal_name(sig)"],
    "tkill": ["sig_str = _signal_name(sig)"],
    "tgkill": ["sig_str = _signal_name(sig)"],
    "mmap": ["fd = _tap_int32(fd)", "start = addr", "offset = off", "prot_str = _mprotect_prot_str(prot)",
             "flags_str = _mmap_flags(flags)"],
    "munmap": ["start = addr", "length = len"],
    "mprotect": ["addr = start", "prot_str = _mprotect_prot_str(prot)"],
    "poll": ["timeout = timeout_msecs"],
    "ppoll": ["fds_uaddr = ufds_uaddr"],
    "select": ["readfds_uaddr = inp_uaddr", "writefds_uaddr = outp_uaddr",
               "exceptfds_uaddr = exp_uaddr", "timeout_uaddr = tvp_uaddr"],
    "pselect6": ["nfds = n", "readfds = inp_uaddr", "writefds = outp_uaddr", "exceptfds = exp_uaddr",
                 "timeout = tsp_uaddr", "sigmask = sig_uaddr"],
    "chdir": ["path = filename"],
    "chmod": ["path = filename"],
    "chown": ["path = filename", "owner = user"],
    "fchmod": ["fildes = fd"],
    "access": ["pathname = filename", "mode_str = _access_mode_str(mode)"],
    "faccessat": ["dirfd = dfd", "dirfd_str = _dfd_str(dfd)", "pathname = filename",
                  "mode_str = _access_mode_str(mode)"],
    "rename": ["oldpath = oldname", "newpath = newname"],
    "unlink": ["pathname_uaddr = $pathname"],
    "mkdir": ["pathname_uaddr = $pathname"],
    "mkdirat": ["dirfd = dfd", "dirfd_str = _dfd_str(dfd)"],
    "truncate": ["path_uaddr = $path"],
    "readlinkat": ["dfd_str = _dfd_str(dfd)", "path = pathname"],
    "connect": _SOCK + ["serv_addr_uaddr = uservaddr_uaddr"],
    "bind": _SOCK + ["my_addr_uaddr = umyaddr_uaddr"],
    "listen": _SOCK,
    "accept": _ACCEPT + ["flags = 0"],
    "accept4": _ACCEPT,
    "nanosleep": _SLEEP,
    "clock_nanosleep": ["clk_id = which_clock"] + _SLEEP,
    "readv": _VEC,
    "writev": _VEC,
    "lseek": ["fildes = fd", "whence_str = _seek_whence_str(whence)"],
    "dup": ["oldfd = fildes"],
    "ioctl": ["request = cmd", "argp = arg"],
    "getdents": ["dirp_uaddr = dirent_uaddr"],
    "getdents64": ["dirp_uaddr = dirent_uaddr"],
    "wait4": ["pid = upid", "status_uaddr = stat_addr_uaddr", "rusage_uaddr = ru_uaddr"],
    # the merged syscalls without flags: SystemTap's zero
    "pipe": ["flags = 0"],
    "eventfd": ["flags = 0"],
    "signalfd": ["flags = 0"],
    "inotify_init": ["flags = 0"],
    "epoll_create": ["flags = 0"],
    "epoll_create1": ["size = 0"],
}
