/* SystemTap's readers of memory as text: UTF-16 and UTF-32 strings as
 * UTF-8 (user_string_utf16 ... kernel_string_quoted_utf32, conversions.stp
 * and uconversions.stp), and buffers of a given length quoted
 * (user_buffer_quoted ...). A string is read one code unit at a time in a
 * bpf_loop callback, as SystemTap's loop reads it, so a fault or an invalid
 * unit is found where SystemTap finds it: never past the terminator, nor
 * past the unit that fills the result. */
#include <string.h>

#include <linux/bpf.h>

#include "codegen/codegen_internal.h"
#include "codegen/string_output.h"
#include "sema/builtins.h"

enum utf_status { UTF_OK, UTF_FAULT, UTF_INVALID };

/* One call's state in scratch, which its own callback reaches at constant
 * offsets. */
struct utf_read {
    int unit;                /* bytes per code unit: 2 or 4 */
    int kernel;
    uint32_t source;         /* i64: the next unit's address */
    uint32_t out;            /* the UTF-8 string's slot */
    uint32_t length;         /* i64: its length */
    uint32_t status;         /* i64: enum utf_status */
    uint32_t bad;            /* i64: the invalid code point */
    uint32_t at;             /* i64: the address of the unit that faulted or is invalid */
    uint32_t word;           /* 8 bytes: the unit read */
};

static LLVMValueRef scratch_i64(struct codegen *cg, uint32_t offset)
{
    return cg_load(cg, cg_scratch_ptr(cg, offset));
}

/* Ends the loop with status, noting the address (and the code point). */
static void stop_with(struct codegen *cg, const struct utf_read *r, enum utf_status status, LLVMValueRef at,
                      LLVMValueRef bad)
{
    cg_store(cg, cg_const(cg, status), cg_scratch_ptr(cg, r->status));
    cg_store(cg, at, cg_scratch_ptr(cg, r->at));
    if (bad)
        cg_store(cg, bad, cg_scratch_ptr(cg, r->bad));
    cg_callback_return(cg, 1);
}

/* The unit at address, zero-extended; a fault ends the loop. */
static LLVMValueRef read_unit(struct codegen *cg, const struct utf_read *r, LLVMValueRef address)
{
    LLVMValueRef word = cg_scratch_ptr(cg, r->word);
    cg_store(cg, cg_const(cg, 0), word);
    LLVMValueRef result = cg_read_memory(cg, word, cg_i32(cg, r->unit), address, r->kernel);
    LLVMBasicBlockRef read = cg_if(cg, cg_compare(cg, LLVMIntSLT, result, 0), "unit_fault", "unit_read");
    stop_with(cg, r, UTF_FAULT, address, NULL);
    cg_position(cg, read);
    return cg_load_unsigned(cg, LLVMIntTypeInContext(cg->context, (unsigned)r->unit * 8), word);
}

static LLVMValueRef in_range(struct codegen *cg, LLVMValueRef c, int64_t low, int64_t high)
{
    return cg_and(cg, cg_compare(cg, LLVMIntUGE, c, low), cg_compare(cg, LLVMIntULE, c, high));
}

/* A high surrogate and the low one after it are one character; a high one
 * without its pair stays as it is (invalid, at its own address), as in
 * SystemTap's loop. *at: the address of the character's last unit. */
static LLVMValueRef surrogate_pair(struct codegen *cg, const struct utf_read *r, LLVMValueRef c, LLVMValueRef *at)
{
    LLVMValueRef source = *at;
    LLVMBasicBlockRef before = cg_current_block(cg);
    LLVMBasicBlockRef done = cg_if(cg, in_range(cg, c, 0xD800, 0xDBFF), "utf16_high", "utf16_char");
    LLVMValueRef next = cg_add(cg, source, cg_const(cg, 2));
    LLVMValueRef low = read_unit(cg, r, next);
    LLVMValueRef paired = in_range(cg, low, 0xDC00, 0xDFFF);
    LLVMValueRef high_bits = cg_shl(cg, cg_and(cg, c, cg_const(cg, 0x3FF)), cg_const(cg, 10));
    LLVMValueRef combined = cg_add(cg, cg_add(cg, cg_const(cg, 0x10000), high_bits), cg_and(cg, low, cg_const(cg, 0x3FF)));
    LLVMValueRef pair_c = cg_select(cg, paired, combined, c);
    LLVMValueRef pair_at = cg_select(cg, paired, next, source);
    LLVMBasicBlockRef pair_end = cg_current_block(cg);
    cg_end_if(cg, done);
    *at = cg_phi2(cg, cg->i64, "", pair_at, pair_end, source, before);
    return cg_phi2(cg, cg->i64, "", pair_c, pair_end, c, before);
}

/* c's n UTF-8 bytes at the string's end: the lead byte, then 6 bits each. */
static void put_utf8(struct codegen *cg, const struct utf_read *r, LLVMValueRef length, LLVMValueRef c,
                     LLVMValueRef n)
{
    LLVMValueRef lead_mark = cg_select(cg, cg_compare(cg, LLVMIntEQ, n, 2), cg_const(cg, 0xC0), cg_const(cg, 0));
    lead_mark = cg_select(cg, cg_compare(cg, LLVMIntEQ, n, 3), cg_const(cg, 0xE0), lead_mark);
    lead_mark = cg_select(cg, cg_compare(cg, LLVMIntEQ, n, 4), cg_const(cg, 0xF0), lead_mark);
    LLVMValueRef six = cg_const(cg, 6);
    LLVMValueRef lead_shift = cg_mul(cg, cg_sub(cg, n, cg_const(cg, 1)), six);
    cg_put_char(cg, r->out, length, cg_or(cg, lead_mark, cg_lshr(cg, c, lead_shift)));
    for (int k = 1; k <= 3; k++) {
        LLVMBasicBlockRef done = cg_if(cg, cg_compare(cg, LLVMIntSGT, n, k), "utf8_more", "utf8_next");
        LLVMValueRef shift = cg_mul(cg, cg_sub(cg, n, cg_const(cg, 1 + k)), six);
        LLVMValueRef bits = cg_and(cg, cg_lshr(cg, c, shift), cg_const(cg, 0x3F));
        cg_put_char(cg, r->out, cg_add(cg, length, cg_const(cg, k)), cg_or(cg, bits, cg_const(cg, 0x80)));
        cg_end_if(cg, done);
    }
}

/* One character: SystemTap's loop body and _stp_convert_utf32. */
static void utf_body(struct codegen *cg, LLVMValueRef index, void *data)
{
    const struct utf_read *r = data;
    (void)index;
    LLVMValueRef length = scratch_i64(cg, r->length);
    /* `len > 1`: a full string reads no further unit */
    LLVMBasicBlockRef room = cg_if(cg, cg_compare(cg, LLVMIntSGE, length, cg->string_size - 1), "utf_full",
                                   "utf_room");
    cg_callback_return(cg, 1);
    cg_position(cg, room);
    LLVMValueRef at = scratch_i64(cg, r->source);
    LLVMValueRef c = read_unit(cg, r, at);
    LLVMBasicBlockRef unit = cg_if(cg, cg_compare(cg, LLVMIntEQ, c, 0), "utf_end", "utf_unit");
    cg_callback_return(cg, 1);
    cg_position(cg, unit);
    if (r->unit == 2)
        c = surrogate_pair(cg, r, c, &at);
    LLVMValueRef invalid = cg_or(cg, in_range(cg, c, 0xD800, 0xDFFF), cg_compare(cg, LLVMIntUGT, c, 0x10FFFF));
    LLVMBasicBlockRef valid = cg_if(cg, invalid, "utf_invalid", "utf_valid");
    stop_with(cg, r, UTF_INVALID, at, c);
    cg_position(cg, valid);
    LLVMValueRef n = cg_select(cg, cg_compare(cg, LLVMIntULE, c, 0xFFFF), cg_const(cg, 3), cg_const(cg, 4));
    n = cg_select(cg, cg_compare(cg, LLVMIntULE, c, 0x7FF), cg_const(cg, 2), n);
    n = cg_select(cg, cg_compare(cg, LLVMIntULE, c, 0x7F), cg_const(cg, 1), n);
    /* a character that does not fit whole ends the string, without an error */
    LLVMValueRef end = cg_add(cg, length, n);
    LLVMBasicBlockRef fits = cg_if(cg, cg_compare(cg, LLVMIntSGE, end, cg->string_size), "utf_no_room", "utf_fits");
    cg_callback_return(cg, 1);
    cg_position(cg, fits);
    put_utf8(cg, r, length, c, n);
    cg_store(cg, end, cg_scratch_ptr(cg, r->length));
    cg_store(cg, cg_add(cg, at, cg_const(cg, r->unit)), cg_scratch_ptr(cg, r->source));
    cg_callback_return(cg, 0);
}

/* Runs the loop; the string's slot, NUL-terminated, and the status. */
static LLVMValueRef utf_convert(struct codegen *cg, struct span span, struct utf_read *r, LLVMValueRef address)
{
    r->source = cg_alloc_scratch(cg, 8);
    r->out = cg_string_new_slot(cg);
    r->length = cg_alloc_scratch(cg, 8);
    r->status = cg_alloc_scratch(cg, 8);
    r->bad = cg_alloc_scratch(cg, 8);
    r->at = cg_alloc_scratch(cg, 8);
    r->word = cg_alloc_scratch(cg, 8);
    cg_store(cg, address, cg_scratch_ptr(cg, r->source));
    cg_store(cg, cg_const(cg, 0), cg_scratch_ptr(cg, r->length));
    cg_store(cg, cg_const(cg, UTF_OK), cg_scratch_ptr(cg, r->status));
    /* each character takes a byte at least: MAXSTRINGLEN iterations end it */
    cg_bounded_loop(cg, span, cg_const(cg, cg->string_size), utf_body, r);
    cg_put_char(cg, r->out, scratch_i64(cg, r->length), cg_const(cg, 0));
    return scratch_i64(cg, r->status);
}

/* SystemTap's messages: "invalid UTF-16 character U+D800 at 0x...", or the
 * string copy fault that its other string readers raise. */
static void raise_utf_error(struct codegen *cg, struct span span, const struct utf_read *r, LLVMValueRef status)
{
    LLVMValueRef at = scratch_i64(cg, r->at);
    cg_error_if(cg, cg_compare(cg, LLVMIntEQ, status, UTF_FAULT), "utf_fault", "utf_not_fault", span,
                r->kernel ? "kernel string copy fault at 0x%llx" : "user string copy fault at 0x%llx", at);
    LLVMBasicBlockRef ok = cg_if(cg, cg_compare(cg, LLVMIntEQ, status, UTF_INVALID), "utf_invalid", "utf_ok");
    uint32_t values = cg_alloc_scratch(cg, 16);
    cg_store(cg, scratch_i64(cg, r->bad), cg_scratch_ptr(cg, values));
    cg_store(cg, at, cg_scratch_ptr(cg, values + 8));
    const char *format = r->unit == 2 ? "invalid UTF-16 character U+%llX at 0x%llx"
                                      : "invalid UTF-32 character U+%llX at 0x%llx";
    uint32_t message = cg_string_new_slot(cg);
    LLVMValueRef args[5] = {cg_scratch_ptr(cg, message), cg_i32(cg, (int32_t)cg->string_size),
                            cg_string_literal(cg, format, (int)strlen(format) + 1), cg_scratch_ptr(cg, values),
                            cg_i32(cg, 16)};
    cg_helper(cg, BPF_FUNC_snprintf, cg->i64, args, 5);
    cg_raise_error(cg, span, NULL, cg_scratch_ptr(cg, message));
    cg_position(cg, ok);
}

/* "0x%x" of the address (SystemTap's sprintf in the quoted forms' catch),
 * in at most size bytes (an i32). */
static void address_text(struct codegen *cg, LLVMValueRef slot, LLVMValueRef size, LLVMValueRef address)
{
    uint32_t value = cg_alloc_scratch(cg, 8);
    cg_store(cg, address, cg_scratch_ptr(cg, value));
    LLVMValueRef args[5] = {slot, size, cg_string_literal(cg, "0x%llx", 7), cg_scratch_ptr(cg, value), cg_i32(cg, 8)};
    cg_helper(cg, BPF_FUNC_snprintf, cg->i64, args, 5);
}

/* (addr) raises, (addr, err_msg) gives err_msg, the quoted form the string
 * escaped and quoted or the address, whatever went wrong (SystemTap's
 * try/catch around the raising form). */
static LLVMValueRef utf_string(struct codegen *cg, struct expr *call, int unit, int quoted)
{
    struct expr *address_expr = call->call.args;
    LLVMValueRef address = cg_operand(cg, address_expr);
    LLVMValueRef err_msg = address_expr->next ? cg_operand(cg, address_expr->next) : NULL;
    cg_set_location(cg, call->span);
    struct utf_read r = {.unit = unit, .kernel = cg_is_kernel_read(call)};
    LLVMValueRef status = utf_convert(cg, call->span, &r, address);
    LLVMValueRef slot = cg_scratch_ptr(cg, r.out);
    LLVMValueRef failed = cg_compare(cg, LLVMIntNE, status, UTF_OK);
    if (quoted) {
        struct cg_if_else branch = cg_if_else(cg, failed, "utf_quoted_fault", "utf_quoted", "utf_quoted_done");
        address_text(cg, slot, cg_i32(cg, (int32_t)cg->string_size), address);
        LLVMBasicBlockRef fault_end = cg_current_block(cg);
        cg_else(cg, &branch);
        LLVMValueRef escaped = cg_string_quoted(cg, call->span, slot);
        LLVMBasicBlockRef ok_end = cg_current_block(cg);
        cg_end_if_else(cg, &branch);
        return cg_phi2(cg, cg->ptr, "", slot, fault_end, escaped, ok_end);
    }
    if (err_msg) {
        LLVMBasicBlockRef done = cg_if(cg, failed, "utf_err_msg", "utf_done");
        cg_string_copy(cg, slot, err_msg);
        cg_end_if(cg, done);
        return slot;
    }
    raise_utf_error(cg, call->span, &r, status);
    return slot;
}

/* SystemTap's clamp_t(int, n, low, high): the low 32 bits, signed, clamped. */
static LLVMValueRef clamp_int(struct codegen *cg, LLVMValueRef n, int64_t low, int64_t high)
{
    LLVMValueRef i = cg_widen_signed(cg, cg_trunc(cg, n, cg->i32));
    i = cg_select(cg, cg_compare(cg, LLVMIntSLT, i, low), cg_const(cg, low), i);
    return cg_select(cg, cg_compare(cg, LLVMIntSGT, i, high), cg_const(cg, high), i);
}

/* user_buffer_quoted(addr, inlen, outlen) and the kernel's (outlen
 * MAXSTRINGLEN when left out): inlen bytes, NULs included, escaped in
 * quotes within outlen characters (SystemTap's _stp_text_str with its
 * buffer flag: an inlen of 0 or less, or past MAXSTRINGLEN - 1, reads
 * MAXSTRINGLEN - 1 bytes). The bytes are read at once: a fault anywhere
 * in them gives the address in hex (the _error form raises), where
 * SystemTap, reading byte by byte, would fault only at a byte it reached. */
static LLVMValueRef buffer_quoted(struct codegen *cg, struct expr *call, int raises)
{
    struct expr *address_expr = call->call.args, *inlen_expr = address_expr->next;
    LLVMValueRef address = cg_operand(cg, address_expr);
    LLVMValueRef inlen = cg_operand(cg, inlen_expr);
    LLVMValueRef outlen = inlen_expr->next ? cg_operand(cg, inlen_expr->next) : cg_const(cg, cg->string_size);
    cg_set_location(cg, call->span);
    int kernel = cg_is_kernel_read(call);
    int64_t most = (int64_t)cg->string_size - 1;
    outlen = clamp_int(cg, outlen, 0, (int64_t)cg->string_size);
    LLVMValueRef in = cg_widen_signed(cg, cg_trunc(cg, inlen, cg->i32));
    LLVMValueRef whole = cg_or(cg, cg_compare(cg, LLVMIntSLE, in, 0), cg_compare(cg, LLVMIntSGT, in, most));
    in = cg_and(cg, cg_select(cg, whole, cg_const(cg, most), in), cg_const(cg, most));
    uint32_t base = cg_escape_block(cg);
    LLVMValueRef read = cg_read_memory(cg, cg_scratch_ptr(cg, base), cg_u32(cg, in), address, kernel);
    LLVMValueRef failed = cg_or(cg, cg_compare(cg, LLVMIntSLT, read, 0), cg_compare(cg, LLVMIntEQ, outlen, 0));
    if (raises)
        cg_error_if(cg, failed, "buffer_fault", "buffer_read", call->span,
                    kernel ? "Unable to access kernel space data at 0x%llx" : "Unable to access user space data at 0x%llx",
                    address);
    LLVMValueRef slot = cg_scratch_ptr(cg, cg_string_new_slot(cg));
    struct cg_if_else branch = cg_if_else(cg, failed, "buffer_unread", "buffer_quote", "buffer_done");
    /* outlen 0 gives "": snprintf of size 0 writes nothing */
    address_text(cg, slot, cg_u32(cg, outlen), address);
    LLVMBasicBlockRef fault_end = cg_current_block(cg);
    cg_else(cg, &branch);
    /* _stp_text_str: outlen past MAXSTRINGLEN - 1 is MAXSTRINGLEN - 1; the quotes count in it, at least 5 */
    LLVMValueRef limit = cg_select(cg, cg_compare(cg, LLVMIntSGT, outlen, most), cg_const(cg, most), outlen);
    limit = cg_sub(cg, cg_select(cg, cg_compare(cg, LLVMIntSLT, limit, 5), cg_const(cg, 5), limit), cg_const(cg, 2));
    LLVMValueRef quoted = cg_buffer_quoted(cg, call->span, base, in, limit);
    LLVMBasicBlockRef quoted_end = cg_current_block(cg);
    cg_end_if_else(cg, &branch);
    return cg_phi2(cg, cg->ptr, "", slot, fault_end, quoted, quoted_end);
}

LLVMValueRef cg_memory_text_builtin(struct codegen *cg, struct expr *call, int builtin_id)
{
    switch (builtin_id) {
    case BUILTIN_STRING_UTF16: return utf_string(cg, call, 2, 0);
    case BUILTIN_STRING_UTF32: return utf_string(cg, call, 4, 0);
    case BUILTIN_STRING_QUOTED_UTF16: return utf_string(cg, call, 2, 1);
    case BUILTIN_STRING_QUOTED_UTF32: return utf_string(cg, call, 4, 1);
    case BUILTIN_BUFFER_QUOTED: return buffer_quoted(cg, call, 0);
    case BUILTIN_BUFFER_QUOTED_ERROR: return buffer_quoted(cg, call, 1);
    }
    return cg_const(cg, 0);
}
