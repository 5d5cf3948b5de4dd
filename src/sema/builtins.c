#include "sema/builtins.h"

#include <string.h>

#define FIXED0(n, id, ret) {n, id, ret, BUILTIN_ARGS_FIXED, 0, {0}}
#define FIXED1(n, id, ret, a) {n, id, ret, BUILTIN_ARGS_FIXED, 1, {a}}
#define FIXED2(n, id, ret, a, b) {n, id, ret, BUILTIN_ARGS_FIXED, 2, {a, b}}
#define FIXED3(n, id, ret, a, b, c) {n, id, ret, BUILTIN_ARGS_FIXED, 3, {a, b, c}}
/* SystemTap's UTF readers, user_ or kernel_: (addr), (addr, err_msg) and its
 * "string2" spelling, and the quoted form. */
#define UTF_READERS(p, bits) \
    FIXED1(p "_string_utf" #bits, BUILTIN_STRING_UTF##bits, TYPE_STRING, TYPE_LONG), \
    FIXED2(p "_string_utf" #bits, BUILTIN_STRING_UTF##bits, TYPE_STRING, TYPE_LONG, TYPE_STRING), \
    FIXED2(p "_string2_utf" #bits, BUILTIN_STRING_UTF##bits, TYPE_STRING, TYPE_LONG, TYPE_STRING), \
    FIXED1(p "_string_quoted_utf" #bits, BUILTIN_STRING_QUOTED_UTF##bits, TYPE_STRING, TYPE_LONG)
#define USER_INTEGER(n) FIXED1(n, BUILTIN_USER_INTEGER, TYPE_LONG, TYPE_LONG), \
                        FIXED1(n "_error", BUILTIN_USER_INTEGER, TYPE_LONG, TYPE_LONG)

static const struct builtin builtins[] = {
    {"printf", BUILTIN_PRINTF, TYPE_VOID, BUILTIN_ARGS_FORMAT, 0, {0}},
    {"print", BUILTIN_PRINT, TYPE_VOID, BUILTIN_ARGS_ANY, 0, {0}},
    {"println", BUILTIN_PRINTLN, TYPE_VOID, BUILTIN_ARGS_ANY, 0, {0}},
    {"printd", BUILTIN_PRINTD, TYPE_VOID, BUILTIN_ARGS_DELIMITED, 0, {0}},
    {"printdln", BUILTIN_PRINTDLN, TYPE_VOID, BUILTIN_ARGS_DELIMITED, 0, {0}},
    FIXED0("exit", BUILTIN_EXIT, TYPE_VOID),
    FIXED1("error", BUILTIN_ERROR, TYPE_VOID, TYPE_STRING),
    FIXED1("warn", BUILTIN_WARN, TYPE_VOID, TYPE_STRING),
    FIXED0("abort", BUILTIN_ABORT, TYPE_VOID),
    FIXED1("system", BUILTIN_SYSTEM, TYPE_VOID, TYPE_STRING),
    FIXED0("switch_file", BUILTIN_SWITCH_FILE, TYPE_VOID),
    FIXED1("__procfs_value_set", BUILTIN_PROCFS_SET, TYPE_VOID, TYPE_STRING),
    FIXED1("__procfs_value_append", BUILTIN_PROCFS_APPEND, TYPE_VOID, TYPE_STRING),
    FIXED0("pid", BUILTIN_PID, TYPE_LONG),
    FIXED0("tid", BUILTIN_TID, TYPE_LONG),
    FIXED0("uid", BUILTIN_UID, TYPE_LONG),
    FIXED0("gid", BUILTIN_GID, TYPE_LONG),
    FIXED0("cpu", BUILTIN_CPU, TYPE_LONG),
    FIXED0("execname", BUILTIN_EXECNAME, TYPE_STRING),
    FIXED0("target", BUILTIN_TARGET, TYPE_LONG),
    FIXED0("stp_pid", BUILTIN_STP_PID, TYPE_LONG),
    FIXED0("pp", BUILTIN_PP, TYPE_STRING),
    FIXED0("pn", BUILTIN_PN, TYPE_STRING),
    FIXED0("gettimeofday_s", BUILTIN_GETTIMEOFDAY_S, TYPE_LONG),
    FIXED0("gettimeofday_ms", BUILTIN_GETTIMEOFDAY_MS, TYPE_LONG),
    FIXED0("gettimeofday_us", BUILTIN_GETTIMEOFDAY_US, TYPE_LONG),
    FIXED0("gettimeofday_ns", BUILTIN_GETTIMEOFDAY_NS, TYPE_LONG),
    FIXED0("ktime_get_ns", BUILTIN_KTIME_GET_NS, TYPE_LONG),
    FIXED0("local_clock_ns", BUILTIN_LOCAL_CLOCK_NS, TYPE_LONG),
    FIXED1("randint", BUILTIN_RANDINT, TYPE_LONG, TYPE_LONG),
    FIXED1("strlen", BUILTIN_STRLEN, TYPE_LONG, TYPE_STRING),
    FIXED1("user_string", BUILTIN_USER_STRING, TYPE_STRING, TYPE_LONG),
    FIXED2("user_string", BUILTIN_USER_STRING2, TYPE_STRING, TYPE_LONG, TYPE_STRING),
    FIXED2("user_string_n", BUILTIN_USER_STRING_N, TYPE_STRING, TYPE_LONG, TYPE_LONG),
    FIXED2("user_string2", BUILTIN_USER_STRING2, TYPE_STRING, TYPE_LONG, TYPE_STRING),
    FIXED1("user_string_quoted", BUILTIN_USER_STRING_QUOTED, TYPE_STRING, TYPE_LONG),
    FIXED2("user_string_n_quoted", BUILTIN_USER_STRING_QUOTED, TYPE_STRING, TYPE_LONG, TYPE_LONG),
    USER_INTEGER("user_char"), USER_INTEGER("user_short"), USER_INTEGER("user_ushort"),
    USER_INTEGER("user_int"), USER_INTEGER("user_uint"), USER_INTEGER("user_long"),
    USER_INTEGER("user_ulong"), USER_INTEGER("user_int8"), USER_INTEGER("user_uint8"),
    USER_INTEGER("user_int16"), USER_INTEGER("user_uint16"), USER_INTEGER("user_int32"),
    USER_INTEGER("user_uint32"), USER_INTEGER("user_int64"), USER_INTEGER("user_uint64"),
    FIXED1("kernel_string", BUILTIN_USER_STRING, TYPE_STRING, TYPE_LONG),
    /* SystemTap's user_string(addr, err_msg) / kernel_string(addr, err_msg) */
    FIXED2("kernel_string", BUILTIN_USER_STRING2, TYPE_STRING, TYPE_LONG, TYPE_STRING),
    FIXED2("kernel_string_n", BUILTIN_USER_STRING_N, TYPE_STRING, TYPE_LONG, TYPE_LONG),
    FIXED2("kernel_string2", BUILTIN_USER_STRING2, TYPE_STRING, TYPE_LONG, TYPE_STRING),
    FIXED1("kernel_string_quoted", BUILTIN_USER_STRING_QUOTED, TYPE_STRING, TYPE_LONG),
    FIXED2("kernel_string_n_quoted", BUILTIN_USER_STRING_QUOTED, TYPE_STRING, TYPE_LONG, TYPE_LONG),
    UTF_READERS("user", 16), UTF_READERS("user", 32), UTF_READERS("kernel", 16), UTF_READERS("kernel", 32),
    FIXED3("user_buffer_quoted", BUILTIN_BUFFER_QUOTED, TYPE_STRING, TYPE_LONG, TYPE_LONG, TYPE_LONG),
    FIXED3("user_buffer_quoted_error", BUILTIN_BUFFER_QUOTED_ERROR, TYPE_STRING, TYPE_LONG, TYPE_LONG, TYPE_LONG),
    FIXED2("kernel_buffer_quoted", BUILTIN_BUFFER_QUOTED, TYPE_STRING, TYPE_LONG, TYPE_LONG),
    FIXED3("kernel_buffer_quoted", BUILTIN_BUFFER_QUOTED, TYPE_STRING, TYPE_LONG, TYPE_LONG, TYPE_LONG),
    FIXED3("kernel_buffer_quoted_error", BUILTIN_BUFFER_QUOTED_ERROR, TYPE_STRING, TYPE_LONG, TYPE_LONG, TYPE_LONG),
    FIXED1("kernel_char", BUILTIN_USER_INTEGER, TYPE_LONG, TYPE_LONG),
    FIXED1("kernel_short", BUILTIN_USER_INTEGER, TYPE_LONG, TYPE_LONG),
    FIXED1("kernel_int", BUILTIN_USER_INTEGER, TYPE_LONG, TYPE_LONG),
    FIXED1("kernel_long", BUILTIN_USER_INTEGER, TYPE_LONG, TYPE_LONG),
    FIXED1("kernel_pointer", BUILTIN_USER_INTEGER, TYPE_LONG, TYPE_LONG),
    FIXED0("uaddr", BUILTIN_UADDR, TYPE_LONG),
    FIXED0("ppfunc", BUILTIN_PPFUNC, TYPE_STRING),
    FIXED0("probefunc", BUILTIN_PPFUNC, TYPE_STRING),
    FIXED0("__tap_plt_name", BUILTIN_PLT_NAME, TYPE_STRING),
    FIXED0("ppid", BUILTIN_PPID, TYPE_LONG),
    FIXED0("pexecname", BUILTIN_PEXECNAME, TYPE_STRING),
    FIXED0("euid", BUILTIN_EUID, TYPE_LONG),
    FIXED0("jiffies", BUILTIN_JIFFIES, TYPE_LONG),
    FIXED0("task_current", BUILTIN_TASK_CURRENT, TYPE_LONG),
    FIXED0("user_mode", BUILTIN_USER_MODE, TYPE_LONG),
    FIXED0("addr", BUILTIN_ADDR, TYPE_LONG),
    FIXED1("__tap_perf", BUILTIN_PERF_READ, TYPE_LONG, TYPE_STRING),   /* @perf("NAME") */
    FIXED0("__tap_arg_start", BUILTIN_ARG_START, TYPE_LONG),   /* current->mm->arg_start */
    FIXED0("__tap_arg_end", BUILTIN_ARG_END, TYPE_LONG),
    FIXED0("__tap_env_start", BUILTIN_ENV_START, TYPE_LONG),   /* current->mm->env_start */
    FIXED0("__tap_env_end", BUILTIN_ENV_END, TYPE_LONG),
    {"__tap_format", BUILTIN_TAP_FORMAT, TYPE_STRING, BUILTIN_ARGS_ANY, 0, {0}},
    {"sprintf", BUILTIN_SPRINTF, TYPE_STRING, BUILTIN_ARGS_FORMAT, 0, {0}},
    {"sprint", BUILTIN_SPRINT, TYPE_STRING, BUILTIN_ARGS_ANY, 0, {0}},
    {"sprintln", BUILTIN_SPRINTLN, TYPE_STRING, BUILTIN_ARGS_ANY, 0, {0}},
    {"substr", BUILTIN_SUBSTR, TYPE_STRING, BUILTIN_ARGS_FIXED, 3, {TYPE_STRING, TYPE_LONG, TYPE_LONG}},
    {"isinstr", BUILTIN_ISINSTR, TYPE_LONG, BUILTIN_ARGS_FIXED, 2, {TYPE_STRING, TYPE_STRING}},
    {"strpos", BUILTIN_STRPOS, TYPE_LONG, BUILTIN_ARGS_FIXED, 2, {TYPE_STRING, TYPE_STRING}},
    {"str_replace", BUILTIN_STR_REPLACE, TYPE_STRING, BUILTIN_ARGS_FIXED, 3,
     {TYPE_STRING, TYPE_STRING, TYPE_STRING}},
    {"strtol", BUILTIN_STRTOL, TYPE_LONG, BUILTIN_ARGS_FIXED, 2, {TYPE_STRING, TYPE_LONG}},
    FIXED1("isdigit", BUILTIN_ISDIGIT, TYPE_LONG, TYPE_STRING),
    FIXED2("__tap_char_at", BUILTIN_CHAR_AT, TYPE_LONG, TYPE_STRING, TYPE_LONG),   /* byte i, 0 past the end */
    FIXED1("__tap_errno_name", BUILTIN_ERRNO_NAME, TYPE_STRING, TYPE_LONG),
    {"tokenize", BUILTIN_TOKENIZE, TYPE_STRING, BUILTIN_ARGS_FIXED, 2, {TYPE_STRING, TYPE_STRING}},
    FIXED1("text_str", BUILTIN_TEXT_STR, TYPE_STRING, TYPE_STRING),
    {"text_strn", BUILTIN_TEXT_STRN, TYPE_STRING, BUILTIN_ARGS_FIXED, 3, {TYPE_STRING, TYPE_LONG, TYPE_LONG}},
    FIXED1("string_quoted", BUILTIN_STRING_QUOTED, TYPE_STRING, TYPE_STRING),
    FIXED0("ubacktrace", BUILTIN_UBACKTRACE, TYPE_STRING),
    FIXED0("print_ubacktrace", BUILTIN_PRINT_UBACKTRACE, TYPE_VOID),
    FIXED1("print_ustack", BUILTIN_PRINT_USTACK, TYPE_VOID, TYPE_STRING),
    FIXED0("backtrace", BUILTIN_BACKTRACE, TYPE_STRING),
    FIXED0("print_backtrace", BUILTIN_PRINT_BACKTRACE, TYPE_VOID),
    FIXED1("print_stack", BUILTIN_PRINT_STACK, TYPE_VOID, TYPE_STRING),
    FIXED1("print_ustack_folded", BUILTIN_PRINT_USTACK_FOLDED, TYPE_VOID, TYPE_STRING),
    FIXED1("print_stack_folded", BUILTIN_PRINT_STACK_FOLDED, TYPE_VOID, TYPE_STRING),
    FIXED1("usymname", BUILTIN_USYMNAME, TYPE_STRING, TYPE_LONG),
    FIXED1("usymdata", BUILTIN_USYMDATA, TYPE_STRING, TYPE_LONG),
    FIXED1("umodname", BUILTIN_UMODNAME, TYPE_STRING, TYPE_LONG),
    FIXED1("usymfileline", BUILTIN_USYMFILELINE, TYPE_STRING, TYPE_LONG),
    FIXED1("usymfile", BUILTIN_USYMFILE, TYPE_STRING, TYPE_LONG),
    FIXED1("usymline", BUILTIN_USYMLINE, TYPE_STRING, TYPE_LONG),
    FIXED0("sprint_ubacktrace", BUILTIN_SPRINT_UBACKTRACE, TYPE_STRING),
    FIXED1("ucallers", BUILTIN_UCALLERS, TYPE_STRING, TYPE_LONG),
    FIXED0("sprint_backtrace", BUILTIN_SPRINT_BACKTRACE, TYPE_STRING),
    FIXED1("symname", BUILTIN_SYMNAME, TYPE_STRING, TYPE_LONG),
    FIXED1("symdata", BUILTIN_SYMDATA, TYPE_STRING, TYPE_LONG),
    FIXED1("modname", BUILTIN_MODNAME, TYPE_STRING, TYPE_LONG),
};

const struct builtin *builtin_lookup(const char *name)
{
    for (size_t i = 0; i < sizeof(builtins) / sizeof(builtins[0]); i++)
        if (strcmp(builtins[i].name, name) == 0)
            return &builtins[i];
    return NULL;
}

/* The builtin of that name taking arg_count fixed arguments, else the first
 * of that name (which reports the arity). */
const struct builtin *builtin_overload(const char *name, int arg_count)
{
    for (size_t i = 0; i < sizeof(builtins) / sizeof(builtins[0]); i++)
        if (strcmp(builtins[i].name, name) == 0 && builtins[i].args == BUILTIN_ARGS_FIXED &&
            builtins[i].arg_count == arg_count)
            return &builtins[i];
    return builtin_lookup(name);
}

const struct builtin *builtin_at(int i)
{
    return i >= 0 && (size_t)i < sizeof(builtins) / sizeof(builtins[0]) ? &builtins[i] : NULL;
}

/* Whether a call does more than give its value (printing, ending the session,
 * errors, randint's and tokenize()'s state, a perf counter's read): sema's
 * elision keeps such calls. Every id is named, so a new builtin is a compile
 * error here until it is decided. */
int builtin_has_effect(enum builtin_id id)
{
    switch (id) {
    case BUILTIN_PRINTF: case BUILTIN_PRINT: case BUILTIN_PRINTLN: case BUILTIN_PRINTD: case BUILTIN_PRINTDLN:
    case BUILTIN_EXIT: case BUILTIN_ERROR: case BUILTIN_WARN: case BUILTIN_ABORT: case BUILTIN_SYSTEM:
    case BUILTIN_SWITCH_FILE: case BUILTIN_PROCFS_SET: case BUILTIN_PROCFS_APPEND: case BUILTIN_RANDINT:
    case BUILTIN_PERF_READ: case BUILTIN_TOKENIZE: case BUILTIN_PRINT_UBACKTRACE: case BUILTIN_PRINT_USTACK:
    case BUILTIN_PRINT_BACKTRACE: case BUILTIN_PRINT_STACK: case BUILTIN_PRINT_USTACK_FOLDED:
    case BUILTIN_PRINT_STACK_FOLDED:
        return 1;
    case BUILTIN_PID: case BUILTIN_TID: case BUILTIN_UID: case BUILTIN_GID: case BUILTIN_CPU:
    case BUILTIN_EXECNAME: case BUILTIN_TARGET: case BUILTIN_STP_PID: case BUILTIN_PP: case BUILTIN_PN:
    case BUILTIN_GETTIMEOFDAY_S: case BUILTIN_GETTIMEOFDAY_MS: case BUILTIN_GETTIMEOFDAY_US:
    case BUILTIN_GETTIMEOFDAY_NS: case BUILTIN_KTIME_GET_NS: case BUILTIN_LOCAL_CLOCK_NS: case BUILTIN_STRLEN:
    case BUILTIN_USER_STRING: case BUILTIN_USER_STRING_N: case BUILTIN_USER_STRING2:
    case BUILTIN_USER_STRING_QUOTED: case BUILTIN_USER_INTEGER: case BUILTIN_UADDR: case BUILTIN_PPFUNC:
    case BUILTIN_STRING_UTF16: case BUILTIN_STRING_UTF32: case BUILTIN_STRING_QUOTED_UTF16:
    case BUILTIN_STRING_QUOTED_UTF32: case BUILTIN_BUFFER_QUOTED: case BUILTIN_BUFFER_QUOTED_ERROR:
    case BUILTIN_PLT_NAME: case BUILTIN_PPID: case BUILTIN_PEXECNAME: case BUILTIN_EUID: case BUILTIN_JIFFIES:
    case BUILTIN_ARG_START: case BUILTIN_ARG_END: case BUILTIN_ENV_START: case BUILTIN_ENV_END:
    case BUILTIN_TASK_CURRENT: case BUILTIN_USER_MODE: case BUILTIN_ADDR: case BUILTIN_TAP_FORMAT:
    case BUILTIN_SPRINTF: case BUILTIN_SPRINT: case BUILTIN_SPRINTLN: case BUILTIN_SUBSTR:
    case BUILTIN_ISINSTR: case BUILTIN_STRPOS: case BUILTIN_STR_REPLACE: case BUILTIN_STRTOL:
    case BUILTIN_ISDIGIT: case BUILTIN_TEXT_STR: case BUILTIN_TEXT_STRN: case BUILTIN_STRING_QUOTED:
    case BUILTIN_CHAR_AT: case BUILTIN_ERRNO_NAME: case BUILTIN_UBACKTRACE: case BUILTIN_BACKTRACE:
    case BUILTIN_USYMNAME: case BUILTIN_USYMDATA: case BUILTIN_UMODNAME: case BUILTIN_SPRINT_UBACKTRACE:
    case BUILTIN_UCALLERS: case BUILTIN_SPRINT_BACKTRACE: case BUILTIN_USYMFILELINE: case BUILTIN_USYMFILE:
    case BUILTIN_USYMLINE: case BUILTIN_SYMNAME: case BUILTIN_SYMDATA: case BUILTIN_MODNAME:
        return 0;
    }
    return 1;
}
