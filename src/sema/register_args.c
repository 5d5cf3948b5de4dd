/* int_arg(n), ulong_arg(n), pointer_arg(n) ...: the n-th integer argument of
 * the probed function from the x86-64 calling convention, for functions
 * without debug information (libc's malloc); register("name") and
 * u_register("name"): a register of the probed thread (at a function's
 * entry, user_long(register("rsp")) is the return address); returnval():
 * rax in a .return probe. Rewritten into register reads here, as target
 * variables are, so codegen sees EXPR_REGISTER. On a BPF trampoline
 * (kernel.function on fentry/fexit) they read the context's words; at a
 * syscall tracepoint (the syscall.* aliases), the record's argument words
 * (int_arg(n) the syscall's n-th argument, returnval() its result). */
#include <string.h>

#include <bpf/btf.h>

#include "kinds/kinds.h"
#include "sema/dwarf.h"
#include "sema/register_args.h"
#include "sema/sema_internal.h"
#include "sema/tracepoint.h"
#include "sema/uprobe.h"

/* DWARF numbers of rdi, rsi, rdx, rcx, r8, r9. */
static const int argument_registers[] = {5, 4, 1, 2, 8, 9};

const struct register_arg_function register_arg_functions[] = {
    {"int_arg", 4, 1, 0, 0}, {"uint_arg", 4, 0, 0, 0}, {"long_arg", 8, 1, 0, 0}, {"ulong_arg", 8, 0, 0, 0},
    {"pointer_arg", 8, 0, 0, 0}, {"s32_arg", 4, 1, 0, 0}, {"u32_arg", 4, 0, 0, 0}, {"s64_arg", 8, 1, 0, 0},
    {"u64_arg", 8, 0, 0, 0}, {"register", 8, 1, 1, 0}, {"u_register", 8, 0, 1, 0}, {"returnval", 8, 1, 0, 1},
    {NULL, 0, 0, 0, 0},
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
    if (f->returned) {
        if (e->call.arg_count == 0)
            return 0;   /* rax */
        diag_error(s->diags, e->span, "%s takes no arguments", f->name);
        return -1;
    }
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

/* Whether the call is where its registers mean something; 0 after
 * reporting why not. */
static int in_context(struct sema *s, struct expr *e, int needs_return)
{
    int in_probe = s->function && !s->function->decl;
    const struct probe_kind_ops *kind = in_probe && s->probe ? probe_kind_ops(s->probe->kind) : NULL;
    enum register_place place = kind && kind->register_place ? kind->register_place(s) : REGISTERS_NONE;
    if (place == REGISTERS_NONE) {
        diag_error(s->diags, e->span, "%s is only available in process, kernel function and syscall tracepoint "
                   "probes%s", e->call.name, in_probe ? "" : " (not in functions)");
        return 0;
    }
    if (needs_return && place != REGISTERS_AT_RETURN) {
        diag_error(s->diags, e->span, "%s is only available in .return probes", e->call.name);
        return 0;
    }
    return 1;
}

struct expr *register_arg_in_register(struct sema *s, const struct register_arg_function *f, struct expr *e,
                                      int reg)
{
    struct dwarf_eval ev = {.arena = s->arena, .span = e->span};
    return dwarf_expr_narrow(&ev, dwarf_expr_reg(&ev, reg), f->size, f->is_signed);
}

/* The call on a trampoline, whose context is the function's arguments as
 * u64s and, in fexit, its return value after them: int_arg(n) is word n-1,
 * returnval() the word after the last argument. There are no registers. */
struct expr *register_arg_on_trampoline(struct sema *s, const struct register_arg_function *f, struct expr *e,
                                        int reg)
{
    (void)reg;
    struct btf *btf = sema_probe_btf(s, s->probe->kprobe.module);
    const struct btf_type *func = btf ? btf__type_by_id(btf, (unsigned)s->probe->kprobe.btf_id) : NULL;
    const struct btf_type *proto = func ? btf__type_by_id(btf, func->type) : NULL;
    if (!proto) {
        diag_error(s->diags, e->span, "%s: the BTF prototype of %s cannot be read", f->name, s->probe->function);
        return NULL;
    }
    int count = btf_vlen(proto), index = f->returned ? count : 0;
    if (f->by_name) {
        diag_error(s->diags, e->span, "%s() reads a register, and %s runs on a BPF trampoline (fentry/fexit), "
                   "which has none: name the argument ($name), or probe on kprobes (TAP_KERNEL_PROBES=kprobe)",
                   f->name, s->probe->point);
        return NULL;
    }
    if (f->returned && proto->type == 0) {
        diag_error(s->diags, e->span, "%s(): %s returns void", f->name, s->probe->function);
        return NULL;
    }
    if (!f->returned && (index = (int)e->call.args->int_value - 1) >= count) {
        diag_error(s->diags, e->span, "%s(%d): %s takes %d argument%s", f->name, index + 1, s->probe->function,
                   count, count == 1 ? "" : "s");
        return NULL;
    }
    struct expr *word = ast_expr(s->arena, EXPR_CTX_READ, e->span);
    word->type = TYPE_LONG;
    word->ctx_read.kind = CTX_READ_LONG;
    word->ctx_read.offset = index * 8;
    word->ctx_read.size = f->size;
    word->ctx_read.is_signed = f->is_signed;
    return word;
}

/* The record field that holds a syscall's argument n (from 1) or, for
 * returnval(), its result: sys_enter_NAME's fields after __syscall_nr,
 * raw_syscalls:sys_enter's args[6], the sys_exit records' ret; each a word.
 * NULL when the record is no syscall's or has no such argument. */
static const struct tp_field *syscall_word(const struct tp_format *format, const struct register_arg_function *f,
                                           int n, int *offset)
{
    const struct tp_field *field = tracepoint_field(format, f->returned ? "ret" : "args");
    if (field && f->returned && field->size == 8) {
        *offset = field->offset;
        return field;
    }
    if (field && !f->returned && field->array_len == 6 && n <= 6) {
        *offset = field->offset + (n - 1) * 8;
        return field;
    }
    const struct tp_field *nr = tracepoint_field(format, "__syscall_nr");
    if (f->returned || !nr || strcmp(format->category, "syscalls") != 0)
        return NULL;
    int index = (int)(nr - format->fields) + n;
    if (index >= format->field_count)
        return NULL;
    *offset = format->fields[index].offset;
    return &format->fields[index];
}

/* The call at a tracepoint: a word of a syscall's record. */
struct expr *register_arg_at_tracepoint(struct sema *s, const struct register_arg_function *f, struct expr *e,
                                        int reg)
{
    (void)reg;
    const struct tp_format *format = s->probe->tracepoint.format;
    const char *event = arena_printf(s->arena, "%s:%s", format->category, format->name);
    if (f->by_name) {
        diag_error(s->diags, e->span, "%s() reads a register, and tracepoint %s has none", f->name, event);
        return NULL;
    }
    int n = f->returned ? 0 : (int)e->call.args->int_value, offset = 0;
    if (!f->returned && strncmp(format->name, "sys_exit", 8) == 0) {
        diag_error(s->diags, e->span, "%s(%d) at %s: the exit record has no arguments; @entry(%s(%d)) reads the "
                   "argument at the call", f->name, n, event, f->name, n);
        return NULL;
    }
    const struct tp_field *field = syscall_word(format, f, n, &offset);
    if (!field) {
        const struct tp_field *nr = tracepoint_field(format, "__syscall_nr");
        int count = nr ? format->field_count - 1 - (int)(nr - format->fields) : 0;
        if (nr && !f->returned && strcmp(format->category, "syscalls") == 0)
            diag_error(s->diags, e->span, "%s(%d): %s has %d argument%s", f->name, n, event, count,
                       count == 1 ? "" : "s");
        else
            diag_error(s->diags, e->span, "%s is only available in process, kernel function and syscall tracepoint "
                       "probes: %s is not a syscall's tracepoint", f->name, event);
        return NULL;
    }
    if (s->probe->tracepoint.raw) {
        diag_error(s->diags, e->span, "%s reads the tracefs record, but this probe also reads tracepoint "
                   "arguments: a kernel.trace probe reads one or the other", f->name);
        return NULL;
    }
    s->probe->tracepoint.reads_fields = 1;
    struct expr *word = ast_expr(s->arena, EXPR_CTX_READ, e->span);
    word->type = TYPE_LONG;
    word->ctx_read.kind = CTX_READ_LONG;
    word->ctx_read.offset = offset;
    word->ctx_read.size = f->size;
    word->ctx_read.is_signed = f->is_signed;
    return word;
}

/* The call's value where the probe is: a trampoline's or a tracepoint's
 * word, or a register. */
static struct expr *argument_value(struct sema *s, const struct register_arg_function *f, struct expr *e, int reg)
{
    const struct probe_kind_ops *kind = probe_kind_ops(s->probe->kind);
    return (kind->register_value ? kind->register_value : register_arg_in_register)(s, f, e, reg);
}

/* returnstr(format) -> return_str(format, returnval()): the tapset formats,
 * the register is read here, where the probe is known. 0: e is now a call
 * for the caller to resolve. */
static int rewrite_returnstr(struct sema *s, struct expr *e)
{
    if (e->call.arg_count != 1) {
        diag_error(s->diags, e->span, "returnstr takes one argument (1 decimal, 2 hex, 3 octal)");
        return 1;
    }
    if (!in_context(s, e, 1))
        return 1;
    e->call.name = "return_str";
    e->call.args->next = argument_value(s, find("returnval"), e, 0);
    if (!e->call.args->next)
        return 1;
    e->call.arg_count = 2;
    return 0;
}

int sema_lower_register_arg(struct sema *s, struct expr *e)
{
    if (strcmp(e->call.name, "returnstr") == 0)
        return rewrite_returnstr(s, e);
    const struct register_arg_function *f = find(e->call.name);
    if (!f)
        return 0;
    int reg = called_register(s, f, e);
    if (reg < 0 || !in_context(s, e, f->returned))
        return 1;
    struct expr *value = argument_value(s, f, e, reg);
    if (!value)
        return 1;
    struct expr *next = e->next;
    *e = *value;
    e->next = next;
    return 1;
}
