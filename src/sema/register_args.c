/* int_arg(n), ulong_arg(n), pointer_arg(n) ...: the n-th integer argument of
 * the probed function from the x86-64 calling convention, for functions
 * without debug information (libc's malloc); register("name") and
 * u_register("name"): a register of the probed thread (at a function's
 * entry, user_long(register("rsp")) is the return address). Rewritten into
 * register reads here, as target variables are, so codegen sees
 * EXPR_REGISTER. */
#include <string.h>

#include "sema/dwarf.h"
#include "sema/register_args.h"
#include "sema/sema_internal.h"

/* DWARF numbers of rdi, rsi, rdx, rcx, r8, r9. */
static const int argument_registers[] = {5, 4, 1, 2, 8, 9};

const struct register_arg_function register_arg_functions[] = {
    {"int_arg", 4, 1, 0}, {"uint_arg", 4, 0, 0}, {"long_arg", 8, 1, 0}, {"ulong_arg", 8, 0, 0},
    {"pointer_arg", 8, 0, 0}, {"s32_arg", 4, 1, 0}, {"u32_arg", 4, 0, 0}, {"s64_arg", 8, 1, 0},
    {"u64_arg", 8, 0, 0}, {"register", 8, 1, 1}, {"u_register", 8, 0, 1}, {NULL, 0, 0, 0},
};

/* x86-64 register names in DWARF order (the numbering dwarf_expr_reg takes). */
static const char *const register_names[] = {
    "rax", "rdx", "rcx", "rbx", "rsi", "rdi", "rbp", "rsp", "r8", "r9",
    "r10", "r11", "r12", "r13", "r14", "r15", "rip",
};

static int register_number(const struct expr *name)
{
    if (name->kind != EXPR_STRING)
        return -1;
    for (int i = 0; i < (int)(sizeof register_names / sizeof register_names[0]); i++)
        if (strcmp(register_names[i], name->string.value) == 0)
            return i;
    return -1;
}

/* The DWARF register the call names, or -1 after reporting why not. */
static int called_register(struct sema *s, const struct register_arg_function *f, struct expr *e)
{
    struct expr *arg = e->call.args;
    if (f->by_name) {
        int number = e->call.arg_count == 1 ? register_number(arg) : -1;
        if (number < 0)
            diag_error(s->diags, e->span, "%s takes a register name as a string literal: "
                       "rax rbx rcx rdx rsi rdi rbp rsp r8-r15 rip", f->name);
        return number;
    }
    if (e->call.arg_count != 1 || arg->kind != EXPR_INT || arg->int_value < 1 || arg->int_value > 6) {
        diag_error(s->diags, e->span, "%s takes an argument number from 1 to 6 (a literal)", f->name);
        return -1;
    }
    return argument_registers[arg->int_value - 1];
}

static const struct register_arg_function *find(const char *name)
{
    for (const struct register_arg_function *f = register_arg_functions; f->name; f++)
        if (strcmp(f->name, name) == 0)
            return f;
    return NULL;
}

int sema_lower_register_arg(struct sema *s, struct expr *e)
{
    const struct register_arg_function *f = find(e->call.name);
    if (!f)
        return 0;
    int reg = called_register(s, f, e);
    if (reg < 0)
        return 1;
    int in_probe = s->function && !s->function->decl;
    if (!in_probe || !s->probe || !s->probe->site) {
        diag_error(s->diags, e->span, "%s is only available in process probes%s", f->name,
                   in_probe ? "" : " (not in functions)");
        return 1;
    }
    struct dwarf_eval ev = {.arena = s->arena, .span = e->span};
    struct expr *value = dwarf_expr_narrow(&ev, dwarf_expr_reg(&ev, reg),
                                           f->size, f->is_signed);
    struct expr *next = e->next;
    *e = *value;
    e->next = next;
    return 1;
}
