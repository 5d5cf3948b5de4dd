# --dump-functions: builtins with parameter types, tapset functions with
# names and declared types, the argument-register functions; internal
# helpers (a leading _) are left out. A few lines of each kind:
@TAP@ --dump-functions | grep -E '^(printf|substr|thread_indent|ctime|ulong_arg|user_string|usymfileline|exit|_tap_dec|_generic_indent|print_syms|sprint_syms|task_open_file_handles|task_ns_pid|task_rlimit|task_ancestry|sprint_usyms|cpu_clock_us|tcp_sockopt_str|tcp_ipv6_sockopt_str):'
