#include "sema/builtins.h"

#include <string.h>

#define FIXED0(n, id, ret) {n, id, ret, BUILTIN_ARGS_FIXED, 0, {0}}
#define FIXED1(n, id, ret, a) {n, id, ret, BUILTIN_ARGS_FIXED, 1, {a}}

static const struct builtin builtins[] = {
    {"printf", BUILTIN_PRINTF, TYPE_VOID, BUILTIN_ARGS_FORMAT, 0, {0}},
    {"print", BUILTIN_PRINT, TYPE_VOID, BUILTIN_ARGS_ANY, 0, {0}},
    {"println", BUILTIN_PRINTLN, TYPE_VOID, BUILTIN_ARGS_ANY, 0, {0}},
    {"printd", BUILTIN_PRINTD, TYPE_VOID, BUILTIN_ARGS_DELIMITED, 0, {0}},
    {"printdln", BUILTIN_PRINTDLN, TYPE_VOID, BUILTIN_ARGS_DELIMITED, 0, {0}},
    FIXED0("exit", BUILTIN_EXIT, TYPE_VOID),
    FIXED1("error", BUILTIN_ERROR, TYPE_VOID, TYPE_STRING),
    FIXED0("pid", BUILTIN_PID, TYPE_LONG),
    FIXED0("tid", BUILTIN_TID, TYPE_LONG),
    FIXED0("uid", BUILTIN_UID, TYPE_LONG),
    FIXED0("gid", BUILTIN_GID, TYPE_LONG),
    FIXED0("cpu", BUILTIN_CPU, TYPE_LONG),
    FIXED0("execname", BUILTIN_EXECNAME, TYPE_STRING),
    FIXED0("target", BUILTIN_TARGET, TYPE_LONG),
    FIXED0("pp", BUILTIN_PP, TYPE_STRING),
    FIXED0("gettimeofday_s", BUILTIN_GETTIMEOFDAY_S, TYPE_LONG),
    FIXED0("gettimeofday_ms", BUILTIN_GETTIMEOFDAY_MS, TYPE_LONG),
    FIXED0("gettimeofday_us", BUILTIN_GETTIMEOFDAY_US, TYPE_LONG),
    FIXED0("gettimeofday_ns", BUILTIN_GETTIMEOFDAY_NS, TYPE_LONG),
    FIXED0("ktime_get_ns", BUILTIN_KTIME_GET_NS, TYPE_LONG),
    FIXED0("local_clock_ns", BUILTIN_LOCAL_CLOCK_NS, TYPE_LONG),
    FIXED1("randint", BUILTIN_RANDINT, TYPE_LONG, TYPE_LONG),
    FIXED1("strlen", BUILTIN_STRLEN, TYPE_LONG, TYPE_STRING),
};

const struct builtin *builtin_lookup(const char *name)
{
    for (size_t i = 0; i < sizeof(builtins) / sizeof(builtins[0]); i++)
        if (strcmp(builtins[i].name, name) == 0)
            return &builtins[i];
    return NULL;
}

const struct builtin *builtin_at(int i)
{
    return i >= 0 && (size_t)i < sizeof(builtins) / sizeof(builtins[0]) ? &builtins[i] : NULL;
}
