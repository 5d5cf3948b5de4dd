/* Functions tap implements itself (output, control, context). Sema checks
 * calls against this table; codegen lowers each id. */
#ifndef TAP_SEMA_BUILTINS_H
#define TAP_SEMA_BUILTINS_H

#include "parser/ast.h"

enum builtin_id {
    BUILTIN_PRINTF, BUILTIN_PRINT, BUILTIN_PRINTLN, BUILTIN_PRINTD, BUILTIN_PRINTDLN,
    BUILTIN_EXIT, BUILTIN_ERROR, BUILTIN_WARN, BUILTIN_ABORT, BUILTIN_SYSTEM, BUILTIN_SWITCH_FILE,
    BUILTIN_PROCFS_SET, BUILTIN_PROCFS_APPEND,   /* a procfs read probe's `$value =`, `$value .=` */
    BUILTIN_PID, BUILTIN_TID, BUILTIN_UID, BUILTIN_GID, BUILTIN_CPU, BUILTIN_EXECNAME,
    BUILTIN_TARGET, BUILTIN_STP_PID, BUILTIN_PP, BUILTIN_PN,
    BUILTIN_GETTIMEOFDAY_S, BUILTIN_GETTIMEOFDAY_MS, BUILTIN_GETTIMEOFDAY_US, BUILTIN_GETTIMEOFDAY_NS,
    BUILTIN_KTIME_GET_NS, BUILTIN_LOCAL_CLOCK_NS, BUILTIN_RANDINT, BUILTIN_STRLEN,
    /* user space (codegen/probed_thread.c): */
    BUILTIN_USER_STRING, BUILTIN_USER_STRING_N, BUILTIN_USER_STRING2, BUILTIN_USER_STRING_QUOTED,
    BUILTIN_USER_INTEGER,    /* user_long, user_int_error, user_uint8, kernel_int ...: width from the name */
    BUILTIN_UADDR, BUILTIN_PPFUNC,
    BUILTIN_PLT_NAME,        /* __tap_plt_name(): a .plt probe's $$name (sema/uprobe_plt.c) */
    /* user or kernel memory as text (codegen/memory_text.c), kernel_ by the name: */
    BUILTIN_STRING_UTF16, BUILTIN_STRING_UTF32,                 /* (addr) raises, (addr, err_msg) does not */
    BUILTIN_STRING_QUOTED_UTF16, BUILTIN_STRING_QUOTED_UTF32,
    BUILTIN_BUFFER_QUOTED, BUILTIN_BUFFER_QUOTED_ERROR,         /* (addr, inlen[, outlen]) */
    /* kernel and context (codegen/context.c): */
    BUILTIN_PPID, BUILTIN_PEXECNAME, BUILTIN_EUID, BUILTIN_JIFFIES, BUILTIN_ARG_START, BUILTIN_ARG_END,
    BUILTIN_ENV_START, BUILTIN_ENV_END, BUILTIN_TASK_CURRENT, BUILTIN_USER_MODE,
    BUILTIN_ADDR,            /* addr(): the interrupted instruction, user or kernel */
    BUILTIN_PERF_READ,       /* @perf("NAME"), written __tap_perf("NAME") by the preprocessor */
    BUILTIN_TAP_FORMAT,      /* __tap_format("kernel bpf_snprintf format", longs...): $$vars, $v$ */
    /* string functions (codegen/string_functions.c) */
    BUILTIN_SPRINTF, BUILTIN_SPRINT, BUILTIN_SPRINTLN, BUILTIN_SUBSTR, BUILTIN_ISINSTR, BUILTIN_STRPOS,
    BUILTIN_STR_REPLACE, BUILTIN_STRTOL, BUILTIN_ISDIGIT, BUILTIN_TOKENIZE, BUILTIN_TEXT_STR,
    BUILTIN_TEXT_STRN, BUILTIN_STRING_QUOTED, BUILTIN_CHAR_AT,
    BUILTIN_ERRNO_NAME,      /* __tap_errno_name(e): errno e's name, "" if none (codegen/errno_names.c) */
    /* backtraces (codegen/stack.c) */
    BUILTIN_UBACKTRACE, BUILTIN_PRINT_UBACKTRACE, BUILTIN_PRINT_USTACK,
    BUILTIN_BACKTRACE, BUILTIN_PRINT_BACKTRACE, BUILTIN_PRINT_STACK,
    BUILTIN_PRINT_USTACK_FOLDED, BUILTIN_PRINT_STACK_FOLDED,
    BUILTIN_USYMNAME, BUILTIN_USYMDATA, BUILTIN_UMODNAME, BUILTIN_SPRINT_UBACKTRACE, BUILTIN_UCALLERS,
    BUILTIN_SPRINT_BACKTRACE, BUILTIN_USYMFILELINE, BUILTIN_USYMFILE, BUILTIN_USYMLINE,
    /* kernel symbols (codegen/kernel_symbols.c) */
    BUILTIN_SYMNAME, BUILTIN_SYMDATA, BUILTIN_MODNAME,
};

/* How the arguments are checked. */
enum builtin_args {
    BUILTIN_ARGS_FIXED,      /* exactly arg_types[0..max_args) */
    BUILTIN_ARGS_FORMAT,     /* a literal format string, then what it asks for */
    BUILTIN_ARGS_ANY,        /* any number of long or string values */
    BUILTIN_ARGS_DELIMITED,  /* a string delimiter, then at least one long or string */
};

struct builtin {
    const char *name;
    enum builtin_id id;
    enum value_type return_type;
    enum builtin_args args;
    int arg_count;               /* BUILTIN_ARGS_FIXED */
    enum value_type arg_types[3];
};

const struct builtin *builtin_lookup(const char *name);
const struct builtin *builtin_overload(const char *name, int arg_count);
/* The i-th builtin, NULL past the last: for "similar:" suggestions. */
const struct builtin *builtin_at(int i);
/* Whether a call of it does more than give its value (elide.c keeps those). */
int builtin_has_effect(enum builtin_id id);

#endif
