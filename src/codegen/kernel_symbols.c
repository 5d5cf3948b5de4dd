/* Kernel addresses as SystemTap's context-symbols tapset names them:
 * symname(a), symdata(a), modname(a), and the frames of sprint_backtrace().
 * The kernel resolves them itself: bpf_snprintf's %ps ("f", "f [mod]") and
 * %pS ("f+0x1a/0x30", "f+0x1a/0x30 [mod]") look the address up in its own
 * kallsyms (modules and BPF programs included), "0x..." when nothing covers
 * it. The text is then rewritten in BPF, one bpf_loop over its bytes, into
 * SystemTap's forms, where vmlinux is the module "kernel". They are real
 * strings, usable as map keys (pf2.stp's profile[symname(addr())]). */
#include <linux/bpf.h>
#include <string.h>

#include "codegen/codegen_internal.h"
#include "codegen/kernel_symbols.h"

/* Scratch state of one rewrite (offsets); the loop body reads it. */
struct rewrite {
    enum kernel_symbol_form form;
    uint32_t raw;                /* the kernel's text */
    uint32_t slot;               /* the output string */
    uint32_t start, room;        /* i64 variables: where in slot to write, how many bytes (NUL included) */
    uint32_t out, seen, skipping;   /* i64 variables: bytes written; '[' seen; in "/0x..." */
};

static LLVMValueRef load_var(struct codegen *cg, uint32_t offset)
{
    return cg_load(cg, cg_scratch_ptr(cg, offset));
}

static void store_var(struct codegen *cg, uint32_t offset, LLVMValueRef value)
{
    cg_store(cg, value, cg_scratch_ptr(cg, offset));
}

static LLVMValueRef masked(struct codegen *cg, LLVMValueRef i)
{
    return cg_and(cg, i, cg_const(cg, cg->string_size - 1));
}

static LLVMValueRef raw_char(struct codegen *cg, const struct rewrite *r, LLVMValueRef i)
{
    LLVMValueRef at = masked(cg, i);
    LLVMValueRef ptr = cg_byte_ptr(cg, cg_scratch_ptr(cg, r->raw), at);
    return cg_load_unsigned(cg, cg->i8, ptr);
}

/* Where byte i of the output goes (masked: the verifier sees it in slot's
 * string and the scratch's slack). */
static LLVMValueRef output_at(struct codegen *cg, const struct rewrite *r, LLVMValueRef i)
{
    LLVMValueRef at = masked(cg, cg_add(cg, load_var(cg, r->start), i));
    return cg_byte_ptr(cg, cg_scratch_ptr(cg, r->slot), at);
}

/* Appends byte c to the output while it has room for it and the NUL. */
static void put(struct codegen *cg, const struct rewrite *r, LLVMValueRef c)
{
    LLVMValueRef out = load_var(cg, r->out);
    LLVMValueRef fits = cg_compare_values(cg, LLVMIntSLT, cg_add(cg, out, cg_const(cg, 1)), load_var(cg, r->room));
    LLVMBasicBlockRef done = cg_if(cg, fits, "ksym_put", "ksym_put_done");
    cg_store(cg, cg_trunc(cg, c, cg->i8), output_at(cg, r, out));
    store_var(cg, r->out, cg_add(cg, out, cg_const(cg, 1)));
    cg_end_if(cg, done);
}

static void put_text(struct codegen *cg, const struct rewrite *r, const char *text)
{
    for (const char *p = text; *p; p++)
        put(cg, r, cg_const(cg, (unsigned char)*p));
}

static LLVMValueRef is_char(struct codegen *cg, LLVMValueRef c, char which)
{
    return cg_compare(cg, LLVMIntEQ, c, (unsigned char)which);
}

/* One byte of the kernel's text: NAME stops at " [mod]"; MODULE keeps what
 * is inside the brackets; FRAME drops "/0xSIZE"; DATA keeps all. */
static void rewrite_body(struct codegen *cg, LLVMValueRef index, void *data)
{
    const struct rewrite *r = data;
    LLVMValueRef c = raw_char(cg, r, index);
    LLVMBasicBlockRef stop = cg_block(cg, "ksym_stop"), go_on = cg_block(cg, "ksym_next");
    LLVMValueRef ends = r->form == KSYM_NAME ? is_char(cg, c, ' ')
                      : r->form == KSYM_MODULE ? is_char(cg, c, ']') : LLVMConstInt(cg->i1, 0, 0);
    cg_jump_if(cg, ends, stop, "ksym_keep");
    LLVMValueRef seen = load_var(cg, r->seen);
    if (r->form == KSYM_FRAME) {   /* "/" starts the size, the space before "[" ends it */
        LLVMValueRef skipping = cg_or(cg, cg_compare(cg, LLVMIntNE, load_var(cg, r->skipping), 0), is_char(cg, c, '/'));
        skipping = cg_and(cg, skipping, cg_not(cg, is_char(cg, c, ' ')));
        store_var(cg, r->skipping, cg_widen(cg, skipping));
        cg_jump_if(cg, skipping, go_on, "ksym_write");
        put(cg, r, c);
    } else if (r->form == KSYM_MODULE) {
        cg_continue_if(cg, cg_compare(cg, LLVMIntNE, seen, 0), "ksym_write", go_on);

        put(cg, r, c);
    } else {
        put(cg, r, c);
    }
    cg_branch(cg, go_on);
    cg_position(cg, go_on);
    store_var(cg, r->seen, cg_or(cg, seen, cg_widen(cg, is_char(cg, c, '['))));
    cg_callback_return(cg, 0);
    cg_position(cg, stop);
    cg_callback_return(cg, 1);
}

/* After the text: the module "kernel" where the kernel named none (a symbol
 * of vmlinux), not for an address it could not name ("0x..."). */
static void finish(struct codegen *cg, const struct rewrite *r, struct span span)
{
    LLVMValueRef hex = cg_and(cg, is_char(cg, raw_char(cg, r, cg_const(cg, 0)), '0'), is_char(cg, raw_char(cg, r, cg_const(cg, 1)), 'x'));
    LLVMValueRef vmlinux = cg_and(cg, cg_compare(cg, LLVMIntEQ, load_var(cg, r->seen), 0), cg_not(cg, hex));
    if (r->form == KSYM_MODULE)
        cg_error_if(cg, cg_and(cg, hex, cg_compare(cg, LLVMIntEQ, load_var(cg, r->seen), 0)),
                    "modname_unknown", "modname_known", span, "Cannot determine kernel module name",
                    cg_const(cg, 0));
    if (r->form != KSYM_NAME) {
        LLVMBasicBlockRef done = cg_if(cg, vmlinux, "ksym_kernel", "ksym_kernel_done");
        put_text(cg, r, r->form == KSYM_MODULE ? "kernel" : " [kernel]");
        cg_end_if(cg, done);
    }
    if (r->form == KSYM_FRAME)
        put_text(cg, r, "\n");
    cg_store(cg, LLVMConstInt(cg->i8, 0, 0), output_at(cg, r, load_var(cg, r->out)));
}

LLVMValueRef cg_kernel_symbol(struct codegen *cg, LLVMValueRef address, enum kernel_symbol_form form,
                              uint32_t slot, LLVMValueRef start, LLVMValueRef room, struct span span)
{
    struct rewrite r = {form, cg_alloc_string_slot(cg), slot, cg_alloc_scratch(cg, 8), cg_alloc_scratch(cg, 8),
                        cg_alloc_scratch(cg, 8), cg_alloc_scratch(cg, 8), cg_alloc_scratch(cg, 8)};
    uint32_t value = cg_alloc_scratch(cg, 8);
    store_var(cg, value, address);
    cg_store(cg, LLVMConstInt(cg->i8, 0, 0), cg_scratch_ptr(cg, r.raw));   /* read by finish() */
    const char *format = form == KSYM_NAME || form == KSYM_MODULE ? "%ps" : "%pS";
    LLVMValueRef args[5] = {cg_scratch_ptr(cg, r.raw), cg_i32(cg, (int32_t)cg->string_size),
                            cg_string_literal(cg, format, 3), cg_scratch_ptr(cg, value), cg_i32(cg, 8)};
    LLVMValueRef written = cg_helper(cg, BPF_FUNC_snprintf, cg->i64, args, 5);
    store_var(cg, r.start, start);
    store_var(cg, r.room, room);
    store_var(cg, r.out, cg_const(cg, 0));
    store_var(cg, r.seen, cg_const(cg, 0));
    store_var(cg, r.skipping, cg_const(cg, 0));
    /* bpf_snprintf counts the NUL; an error (< 0) leaves no text */
    LLVMValueRef length = cg_sub(cg, written, cg_const(cg, 1));
    LLVMValueRef empty = cg_compare(cg, LLVMIntSLE, written, 0);
    cg_bounded_loop(cg, span, cg_select(cg, empty, cg_const(cg, 0), length), rewrite_body, &r);
    finish(cg, &r, span);
    return cg_add(cg, load_var(cg, r.out), cg_const(cg, 1));
}

LLVMValueRef cg_kernel_symbol_builtin(struct codegen *cg, struct expr *call, enum kernel_symbol_form form)
{
    LLVMValueRef address = cg_operand(cg, call->call.args);
    cg_set_location(cg, call->span);
    uint32_t slot = cg_alloc_string_slot(cg);
    cg_kernel_symbol(cg, address, form, slot, cg_const(cg, 0), cg_const(cg, cg->string_size), call->span);
    return cg_scratch_ptr(cg, slot);
}
