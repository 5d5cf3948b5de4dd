/* int_arg(n), ulong_arg(n), pointer_arg(n) ...: the n-th integer argument of
 * the probed function from the x86-64 calling convention, for functions
 * without debug information (libc's malloc). Rewritten into register reads
 * here, as target variables are, so codegen sees EXPR_REGISTER. */
#include <string.h>

#include "sema/dwarf.h"
#include "sema/register_args.h"
#include "sema/sema_internal.h"

/* DWARF numbers of rdi, rsi, rdx, rcx, r8, r9. */
static const int argument_registers[] = {5, 4, 1, 2, 8, 9};

const struct register_arg_function register_arg_functions[] = {
    {"int_arg", 4, 1}, {"uint_arg", 4, 0}, {"long_arg", 8, 1}, {"ulong_arg", 8, 0},
    {"pointer_arg", 8, 0}, {"s32_arg", 4, 1}, {"u32_arg", 4, 0}, {"s64_arg", 8, 1},
    {"u64_arg", 8, 0}, {NULL, 0, 0},
};

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
    struct expr *n = e->call.args;
    if (e->call.arg_count != 1 || n->kind != EXPR_INT || n->int_value < 1 || n->int_value > 6) {
        diag_error(s->diags, e->span, "%s takes an argument number from 1 to 6 (a literal)", f->name);
        return 1;
    }
    int in_probe = s->function && !s->function->decl;
    if (!in_probe || !s->probe || !s->probe->site) {
        diag_error(s->diags, e->span, "%s is only available in process probes%s", f->name,
                   in_probe ? "" : " (not in functions)");
        return 1;
    }
    struct dwarf_eval ev = {.arena = s->arena, .span = e->span};
    struct expr *value = dwarf_expr_narrow(&ev, dwarf_expr_reg(&ev, argument_registers[n->int_value - 1]),
                                           f->size, f->is_signed);
    struct expr *next = e->next;
    *e = *value;
    e->next = next;
    return 1;
}
