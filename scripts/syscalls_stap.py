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

# SystemTap's decoded variables (tapsets/syscall_decoders.tp), its names for
# the tracepoint's fields, and its argstr where it decodes or prints a
# pointer (%p) that the generic argstr gives in decimal.
_SOCK_STRS = ["family_str = _sock_family_str(family)", "type_str = _sock_type_str(type)",
              "protocol_str = _sock_protocol_str(family, protocol)"]
_OPT_STRS = ["level_str = _sockopt_level_str(level)", "optname_str = _sockopt_optname_str(optname)"]
_MSG = ["s = fd", "flags_str = _msg_flags_str(flags)"]
_CLOCK = ["clk_id = which_clock", "clk_id_str = _get_wc_str(clk_id)"]
_PRIO = ["policy_str = _sched_policy_str(policy)"]
DECODED = {
    "socket": _SOCK_STRS,
    "socketpair": ["sv_uaddr = usockvec_uaddr"] + _SOCK_STRS,
    "shutdown": ["s = fd", "how_str = _shutdown_how_str(how)"],
    "setsockopt": _OPT_STRS,
    "getsockopt": _OPT_STRS,
    "sendto": ["flags_str = _msg_flags_str(flags)"],
    "recvfrom": ["flags_str = _msg_flags_str(flags)"],
    "sendmsg": ["flags_str = _msg_flags_str(flags)"],
    "recvmsg": ["flags_str = _msg_flags_str(flags)"],
    "sendmmsg": _MSG,
    "recvmmsg": _MSG,
    "accept": ['flags_str = "0x0"'],
    "accept4": ["flags_str = _sock_flags_str(flags)"],
    "fcntl": ["cmd_str = _fcntl_cmd_str(cmd)"],
    "epoll_ctl": ["op_str = _opoll_op_str(op)"],
    "dup2": ["flags = 0", 'flags_str = "0x0"'],
    "dup3": ["flags_str = _dup3_flag_str(flags)"],
    "pipe": ['flag_str = ""'],
    "pipe2": ["flag_str = _sys_pipe2_flag_str(flags)"],
    "eventfd": ['flags_str = "0x0"'],
    "eventfd2": ["flags_str = _eventfd2_flag_str(flags)"],
    "rt_sigprocmask": ["how_str = _sigprocmask_how_str(how)", "set_uaddr = nset_uaddr",
                       "oldset_uaddr = oset_uaddr", "set_str = _stp_sigset_u(set_uaddr)"],
    "rt_sigsuspend": ["set_uaddr = unewset_uaddr", "set_str = _stp_sigset_u(set_uaddr)"],
    "madvise": ["length = len_in", "advice = behavior", "advice_str = _madvice_advice_str(advice)"],
    "msync": ["length = len", "flags_str = _msync_flag_str(flags)"],
    "mlockall": ["flags_str = _mlockall_flags_str(flags)"],
    "mlock": ["addr = start"],
    "mlock2": ["addr = start", "flags_str = _stp_mlock2_str(flags)"],
    "munlock": ["addr = start"],
    "mremap": ["old_address = addr", "old_size = old_len", "new_size = new_len", "new_address = new_addr",
               "flags_str = _mremap_flags(flags)"],
    "fadvise64": ["advice_str = _fadvice_advice_str(advice)"],
    "sched_setscheduler": ["p_uaddr = param_uaddr"] + _PRIO,
    "sched_get_priority_max": _PRIO,
    "sched_get_priority_min": _PRIO,
    "setrlimit": ["resource_str = _rlimit_resource_str(resource)", "rlim_str = _struct_rlimit_u(rlim_uaddr)"],
    "prlimit64": ["resource_str = _rlimit_resource_str(resource)",
                  "new_rlim_str = _struct_rlimit_u(new_rlim_uaddr)"],
    "getrusage": ["who_str = _rusage_who_str(who)", "usage_uaddr = ru_uaddr"],
    "setpriority": ["which_str = _priority_which_str(which)", "prio = niceval"],
    "wait4": ["options_str = _wait4_opt_str(options)"],
    "waitid": ["which_str = _waitid_which_str(which)", "pid = upid", "options_str = _wait4_opt_str(options)",
               "rusage_uaddr = ru_uaddr"],
    "clock_gettime": _CLOCK,
    "clock_getres": _CLOCK + ["res_uaddr = tp_uaddr"],
    "clock_settime": _CLOCK,
    "clock_nanosleep": ["clk_id_str = _get_wc_str(clk_id)", "flag_str = _stp_clock_nanosleep_flags_str(flags)",
                        "flags_str = flag_str"],
    "timer_create": ["clockid = which_clock", "clockid_str = _get_wc_str(clockid)",
                     "evp_uaddr = timer_event_spec_uaddr", "timerid_uaddr = created_timer_id_uaddr"],
    "timerfd_create": ["clockid_str = _get_wc_str(clockid)", "flags_str = _stp_timerfd_flags_str(flags)"],
    "unlinkat": ["dfd_str = _dfd_str(dfd)", "pathname_str = pathname", "pathname_str_unquoted = pathname_unquoted",
                 "flag_str = _at_flag_str(flag)"],
    "clone": ["stack_start = newsp", "parent_tid_uaddr = parent_tidptr_uaddr",
              "child_tid_uaddr = child_tidptr_uaddr"],
    "unshare": ["unshare_flags_str = __fork_flags(unshare_flags)"],
    "inotify_add_watch": ["path_uaddr = $pathname", "path = pathname", "mask_str = _inotify_watch_mask_str(mask)"],
    "rt_sigqueueinfo": ["sig_name = _signal_name(sig)"],
    "flock": ["operation = cmd"],
    "pkey_mprotect": ["addr = start", "prot_str = _mprotect_prot_str(prot)"],
}

_D = "_tap_dec"
_H = "_tap_hex"


def _join(*pieces):
    return ' . ", " . '.join(pieces)


ARGSTR = {
    "socket": _join("family_str", "type_str", "protocol_str"),
    "socketpair": _join("family_str", "type_str", "protocol_str", f"{_H}(sv_uaddr)"),
    "shutdown": _join(f"{_D}(s)", "how_str"),
    "setsockopt": _join(f"{_D}(fd)", "level_str", "optname_str", f"{_H}(optval_uaddr)",
                        f"{_D}(optlen & 0xffffffff)"),
    "getsockopt": _join(f"{_D}(fd)", "level_str", "optname_str", f"{_H}(optval_uaddr)", f"{_H}(optlen_uaddr)"),
    "recvfrom": _join(f"{_D}(s)", f"{_H}(buf_uaddr)", f"{_D}(len)", "flags_str", f"{_H}(addr_uaddr)",
                      f"{_H}(addrlen_uaddr)"),
    "sendmsg": _join(f"{_D}(s)", f"{_H}(msg_uaddr)", "flags_str"),
    "recvmsg": _join(f"{_D}(s)", f"{_H}(msg_uaddr)", "flags_str"),
    "sendmmsg": _join(f"{_D}(s)", f"{_H}(mmsg_uaddr)", f"{_D}(vlen)", "flags_str"),
    "accept4": _join(f"{_D}(sockfd)", f"{_H}(addr_uaddr)", f"{_H}(addrlen_uaddr)", "flags_str"),
    "fcntl": _join(f"{_D}(fd)", "cmd_str", f"{_H}(arg)"),
    "epoll_ctl": _join(f"{_D}(epfd)", "op_str", f"{_D}(fd)", f"{_H}(event_uaddr)"),
    "dup2": _join(f"{_D}(oldfd)", f"{_D}(newfd)"),
    "dup3": _join(f"{_D}(oldfd)", f"{_D}(newfd)", "flags_str"),
    "rt_sigprocmask": _join("how_str", "set_str", f"{_H}(oldset_uaddr)", f"{_D}(sigsetsize)"),
    "rt_sigsuspend": _join("set_str", f"{_D}(sigsetsize)"),
    "madvise": _join(f"{_H}(start)", f"{_D}(length)", "advice_str"),
    "msync": _join(f"{_H}(start)", f"{_D}(length)", "flags_str"),
    "mlockall": "flags_str",
    "mlock": _join(f"{_H}(addr)", f"{_D}(len)"),
    "mlock2": _join(f"{_H}(addr)", f"{_D}(len)", "flags_str"),
    "munlock": _join(f"{_H}(addr)", f"{_D}(len)"),
    "mremap": _join(f"{_H}(old_address)", f"{_D}(old_size)", f"{_D}(new_size)", "flags_str",
                    f"{_H}(new_address)"),
    "fadvise64": _join(f"{_D}(fd)", f"{_D}(offset)", f"{_D}(len)", "advice_str"),
    "sched_setscheduler": _join(f"{_D}(pid)", "policy_str", f"{_H}(p_uaddr)"),
    "sched_get_priority_max": "policy_str",
    "sched_get_priority_min": "policy_str",
    "setrlimit": _join("resource_str", "rlim_str"),
    "getrlimit": _join("_rlimit_resource_str(resource)", f"{_H}(rlim_uaddr)"),
    "prlimit64": _join(f"{_D}(pid)", "resource_str", "new_rlim_str", f"{_H}(old_rlim_uaddr)"),
    "getrusage": _join("who_str", f"{_H}(usage_uaddr)"),
    "setpriority": _join("which_str", f"{_D}(who)", f"{_D}(prio)"),
    "wait4": _join(f"{_D}(pid)", f"{_H}(status_uaddr)", "options_str", f"{_H}(rusage_uaddr)"),
    "waitid": _join("which_str", f"{_D}(pid)", f"{_H}(infop_uaddr)", "options_str", f"{_H}(rusage_uaddr)"),
    "clock_gettime": _join("clk_id_str", f"{_H}(tp_uaddr)"),
    "clock_getres": _join("clk_id_str", f"{_H}(res_uaddr)"),
    "timer_create": _join("clockid_str", f"{_H}(evp_uaddr)", f"{_H}(timerid_uaddr)"),
    "timerfd_create": _join("clockid_str", "flags_str"),
    "unlinkat": _join("dfd_str", "pathname_str", "flag_str"),
    "clone": _join("__fork_flags(clone_flags)", f"{_H}(stack_start)", f"{_H}(parent_tid_uaddr)",
                   f"{_H}(child_tid_uaddr)"),
    "unshare": "unshare_flags_str",
    "inotify_add_watch": _join(f"{_D}(fd)", "path", "mask_str"),
    "kill": _join(f"{_D}(pid)", "sig_name"),
    "tkill": _join(f"{_D}(pid)", "sig_str"),
    "tgkill": _join(f"{_D}(tgid)", f"{_D}(pid)", "sig_str"),
    "flock": _join(f"{_D}(fd)", "_flock_cmd_str(operation)"),
    "mmap": _join(f"{_H}(start)", f"{_D}(len)", "prot_str", "flags_str", f"{_D}(fd)", f"{_D}(offset)"),
    "mprotect": _join(f"{_H}(addr)", f"{_D}(len)", "prot_str"),
    "munmap": _join(f"{_H}(start)", f"{_D}(length)"),
    "pkey_mprotect": _join(f"{_H}(addr)", f"{_D}(len)", "prot_str", f"{_D}(pkey)"),
    "brk": f"{_H}(brk)",
    "ioctl": _join(f"{_D}(fd)", f"{_D}(request)", f"{_H}(argp)"),
    "access": _join("pathname", "mode_str"),
    "faccessat": _join("dirfd_str", "pathname", "mode_str"),
    "lseek": _join(f"{_D}(fildes)", f"{_D}(offset)", "whence_str"),
}
