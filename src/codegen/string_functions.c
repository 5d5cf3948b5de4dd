/* String functions in BPF. Every string they read is first copied into a
 * scratch slot of its own, so a character is `slot + (i & (MAXSTRINGLEN-1))`:
 * inside the map value for the verifier whatever i is (the scratch slack
 * covers two masked offsets). Per-character work runs in bpf_loop callbacks
 * (verified once, however long the string); a callback finds scratch again
 * and reaches the slots by their constant offsets. Results are new slots,
 * truncated at MAXSTRINGLEN like every string. sprintf and its renderer
 * are in sprintf.c, sharing the slots and output of string_output.h. */
#include <stdio.h>
#include <string.h>

#include <linux/bpf.h>

#include "base/strbuf.h"
#include "codegen/codegen_internal.h"
#include "codegen/string_output.h"
#include "base/format.h"
#include "sema/builtins.h"

/* string_functions.c's state, each 0/NULL until used. */
struct string_functions_state {
    uint32_t tokenize_buffer, tokenize_position;   /* tokenize()'s state in scratch */
    LLVMValueRef escape_callbacks[2];   /* cg_text_str's and string_quoted's */
};

static struct string_functions_state *string_state(struct codegen *cg)
{
    if (!cg->string_functions)
        cg->string_functions = ARENA_NEW(cg->arena, struct string_functions_state);
    return cg->string_functions;
}


LLVMValueRef cg_string_mask(struct codegen *cg, LLVMValueRef i)
{
    return cg_and(cg, i, cg_const(cg, cg->string_size - 1));
}

/* slot: an i64 scratch offset, a constant except in shared callbacks. */
static LLVMValueRef char_ptr_at(struct codegen *cg, LLVMValueRef slot, LLVMValueRef i)
{
    LLVMValueRef base = cg_scratch_at(cg, slot);
    LLVMValueRef index = cg_string_mask(cg, i);
    return cg_byte_ptr(cg, base, index);
}

LLVMValueRef cg_string_char_ptr(struct codegen *cg, uint32_t slot, LLVMValueRef i)
{
    return char_ptr_at(cg, cg_const(cg, slot), i);
}

static LLVMValueRef char_at_of(struct codegen *cg, LLVMValueRef slot, LLVMValueRef i)
{
    return cg_load_unsigned(cg, cg->i8, char_ptr_at(cg, slot, i));
}

LLVMValueRef cg_string_char_at(struct codegen *cg, uint32_t slot, LLVMValueRef i)
{
    return char_at_of(cg, cg_const(cg, slot), i);
}

static void put_char_at(struct codegen *cg, LLVMValueRef slot, LLVMValueRef i, LLVMValueRef c)
{
    cg_store(cg, cg_trunc(cg, c, cg->i8), char_ptr_at(cg, slot, i));
}

void cg_put_char(struct codegen *cg, uint32_t slot, LLVMValueRef i, LLVMValueRef c)
{
    put_char_at(cg, cg_const(cg, slot), i, c);
}

/* A copy of s in the given slot; its length in *length. */
static void copy_into(struct codegen *cg, uint32_t slot, LLVMValueRef s, LLVMValueRef *length)
{
    LLVMValueRef args[3] = {cg_scratch_ptr(cg, slot), LLVMConstInt(cg->i32, cg->string_size, 0), s};
    LLVMValueRef copied = cg_helper(cg, BPF_FUNC_probe_read_kernel_str, cg->i64, args, 3);
    LLVMValueRef bad = cg_compare(cg, LLVMIntSLT, copied, 1);
    if (length)
        *length = cg_select(cg, bad, cg_const(cg, 0), cg_sub(cg, copied, cg_const(cg, 1)));
    LLVMBasicBlockRef ok = cg_if(cg, bad, "copy_bad", "copy_ok");
    cg_store(cg, LLVMConstInt(cg->i8, 0, 0), cg_scratch_ptr(cg, slot));
    cg_end_if(cg, ok);
}

/* A copy of s in a new slot; its length in *length. */
uint32_t cg_string_copy_to_slot(struct codegen *cg, LLVMValueRef s, LLVMValueRef *length)
{
    uint32_t slot = cg_alloc_string_slot(cg);
    copy_into(cg, slot, s, length);
    return slot;
}

uint32_t cg_string_new_slot(struct codegen *cg)
{
    uint32_t slot = cg_alloc_string_slot(cg);
    cg_store(cg, LLVMConstInt(cg->i8, 0, 0), cg_scratch_ptr(cg, slot));
    return slot;
}

/* bpf_loop(count, callback): body(cg, index, data) runs inside the callback
 * and must end every path with loop_continue/loop_stop. */
typedef cg_loop_body loop_body;

static void loop_continue(struct codegen *cg)
{
    cg_callback_return(cg, 0);
}

static void loop_stop(struct codegen *cg)
{
    cg_callback_return(cg, 1);
}

/* Whether `needle` (a slot) occurs in `hay` (a slot) at i: a loop bounded by
 * MAXSTRINGLEN, inside a callback. Branches to match or differ. */
static void match_at(struct codegen *cg, uint32_t hay, uint32_t needle, LLVMValueRef i,
                     LLVMBasicBlockRef match, LLVMBasicBlockRef differ)
{
    struct cg_loop loop = cg_loop_start(cg, cg_block(cg, "match_head"), "j");
    LLVMValueRef j = loop.index;
    LLVMValueRef cn = cg_string_char_at(cg, needle, j);
    cg_jump_if(cg, cg_compare(cg, LLVMIntEQ, cn, 0), match, "match_more");
    LLVMValueRef ch = cg_string_char_at(cg, hay, cg_add(cg, cg_string_mask(cg, i), j));
    cg_jump_if(cg, cg_compare_values(cg, LLVMIntNE, ch, cn), differ, "match_next");
    cg_loop_next(cg, &loop, cg->string_size, match);
}

/* ---- strpos, isinstr ---- */

struct find {
    uint32_t hay, needle, result;
};

static void find_body(struct codegen *cg, LLVMValueRef index, void *data)
{
    struct find *f = data;
    LLVMBasicBlockRef match = cg_block(cg, "found"), differ = cg_block(cg, "not_here");
    match_at(cg, f->hay, f->needle, index, match, differ);
    cg_position(cg, match);
    cg_store(cg, index, cg_scratch_ptr(cg, f->result));
    loop_stop(cg);
    cg_position(cg, differ);
    loop_continue(cg);
}

static LLVMValueRef strpos(struct codegen *cg, struct expr *call, LLVMValueRef hay, LLVMValueRef needle)
{
    struct find f;
    LLVMValueRef hay_len, needle_len;
    f.hay = cg_string_copy_to_slot(cg, hay, &hay_len);
    f.needle = cg_string_copy_to_slot(cg, needle, &needle_len);
    f.result = cg_alloc_scratch(cg, 8);
    cg_store(cg, cg_const(cg, -1), cg_scratch_ptr(cg, f.result));
    LLVMValueRef count = cg_add(cg, cg_sub(cg, hay_len, needle_len), cg_const(cg, 1));
    cg_bounded_loop(cg, call->span, count, find_body, &f);
    return cg_load(cg, cg_scratch_ptr(cg, f.result));
}

/* ---- substr ---- */

static LLVMValueRef substr(struct codegen *cg, LLVMValueRef s, LLVMValueRef start, LLVMValueRef length)
{
    LLVMValueRef len;
    uint32_t from = cg_string_copy_to_slot(cg, s, &len);
    uint32_t out = cg_string_new_slot(cg);
    LLVMValueRef bad = cg_or(cg, cg_compare(cg, LLVMIntSLT, start, 0), cg_compare_values(cg, LLVMIntSGE, start, len));
    LLVMValueRef room = cg_sub(cg, len, start);
    LLVMValueRef n = cg_select(cg, cg_compare_values(cg, LLVMIntSLT, length, room), length, room);
    bad = cg_or(cg, bad, cg_compare(cg, LLVMIntSLE, n, 0));
    LLVMBasicBlockRef done = cg_if_not(cg, bad, "substr_copy", "substr_done");
    LLVMValueRef size = cg_opaque_clamp(cg, cg_add(cg, n, cg_const(cg, 1)), cg->string_size);
    LLVMValueRef args[3] = {cg_scratch_ptr(cg, out), cg_u32(cg, size), cg_string_char_ptr(cg, from, start)};
    cg_helper(cg, BPF_FUNC_probe_read_kernel_str, cg->i64, args, 3);
    cg_end_if(cg, done);
    return cg_scratch_ptr(cg, out);
}

/* ---- appending to an output slot, truncating at MAXSTRINGLEN - 1 ---- */


static void output_init(struct codegen *cg, struct output *o, uint32_t slot, uint32_t length)
{
    o->slot = cg_const(cg, slot);
    o->length = cg_const(cg, length);
    cg_store(cg, LLVMConstInt(cg->i8, 0, 0), cg_scratch_ptr(cg, slot));
    cg_store(cg, cg_const(cg, 0), cg_scratch_ptr(cg, length));
}

void cg_output_start(struct codegen *cg, struct output *o)
{
    uint32_t slot = cg_alloc_string_slot(cg);
    output_init(cg, o, slot, cg_alloc_scratch(cg, 8));
}

void cg_output_char(struct codegen *cg, struct output *o, LLVMValueRef c)
{
    LLVMValueRef length_ptr = cg_scratch_at(cg, o->length);
    LLVMValueRef length = cg_load(cg, length_ptr);
    LLVMBasicBlockRef done = cg_if(cg, cg_compare(cg, LLVMIntSLT, length, cg->string_size - 1), "put", "put_done");
    put_char_at(cg, o->slot, length, c);
    cg_store(cg, cg_add(cg, length, cg_const(cg, 1)), length_ptr);
    cg_end_if(cg, done);
}

/* Appends the NUL-terminated s (a pointer into scratch or .rodata). */
void cg_output_cstring(struct codegen *cg, struct output *o, LLVMValueRef s)
{
    LLVMValueRef length_ptr = cg_scratch_at(cg, o->length);
    LLVMValueRef length = cg_string_mask(cg, cg_load(cg, length_ptr));
    LLVMValueRef room = cg_sub(cg, cg_const(cg, cg->string_size), length);
    LLVMValueRef args[3] = {char_ptr_at(cg, o->slot, length), cg_u32(cg, room), s};
    LLVMValueRef copied = cg_helper(cg, BPF_FUNC_probe_read_kernel_str, cg->i64, args, 3);
    LLVMValueRef added = cg_select(cg, cg_compare(cg, LLVMIntSLT, copied, 1), cg_const(cg, 0), cg_sub(cg, copied, cg_const(cg, 1)));
    cg_store(cg, cg_add(cg, length, added), length_ptr);
}

void cg_output_string(struct codegen *cg, struct output *o, uint32_t slot)
{
    cg_output_cstring(cg, o, cg_scratch_ptr(cg, slot));
}

LLVMValueRef cg_output_finish(struct codegen *cg, struct output *o)
{
    put_char_at(cg, o->slot, cg_load(cg, cg_scratch_at(cg, o->length)), cg_const(cg, 0));
    return cg_scratch_at(cg, o->slot);
}

/* ---- str_replace ---- */

struct replace {
    uint32_t from, search, with, skip;
    struct output out;
    uint32_t search_len;         /* scratch i64 */
};

static void replace_body(struct codegen *cg, LLVMValueRef index, void *data)
{
    struct replace *r = data;
    LLVMValueRef skipped = cg_compare_values(cg, LLVMIntSLT, index, cg_load(cg, cg_scratch_ptr(cg, r->skip)));
    LLVMBasicBlockRef skip = cg_if_not(cg, skipped, "replace_check", "replace_skip");
    LLVMBasicBlockRef match = cg_block(cg, "replace_match"), differ = cg_block(cg, "replace_keep");
    match_at(cg, r->from, r->search, index, match, differ);
    cg_position(cg, match);
    cg_output_string(cg, &r->out, r->with);
    cg_store(cg, cg_add(cg, index, cg_load(cg, cg_scratch_ptr(cg, r->search_len))), cg_scratch_ptr(cg, r->skip));
    loop_continue(cg);
    cg_position(cg, differ);
    cg_output_char(cg, &r->out, cg_string_char_at(cg, r->from, index));
    loop_continue(cg);
    cg_position(cg, skip);
    loop_continue(cg);
}

static LLVMValueRef str_replace(struct codegen *cg, struct expr *call, LLVMValueRef s, LLVMValueRef search,
                                LLVMValueRef with)
{
    struct replace r;
    LLVMValueRef len, search_len;
    r.from = cg_string_copy_to_slot(cg, s, &len);
    r.search = cg_string_copy_to_slot(cg, search, &search_len);
    r.with = cg_string_copy_to_slot(cg, with, NULL);
    r.skip = cg_alloc_scratch(cg, 8);
    r.search_len = cg_alloc_scratch(cg, 8);
    cg_store(cg, cg_const(cg, 0), cg_scratch_ptr(cg, r.skip));
    cg_store(cg, search_len, cg_scratch_ptr(cg, r.search_len));
    LLVMValueRef unchanged = cg_scratch_ptr(cg, r.from);
    struct cg_if_else branch = cg_if_else(cg, cg_compare(cg, LLVMIntEQ, search_len, 0), "replace_nothing",
                                          "replace_work", "replace_done");
    LLVMBasicBlockRef empty = cg_current_block(cg);
    cg_else(cg, &branch);
    cg_output_start(cg, &r.out);
    cg_bounded_loop(cg, call->span, len, replace_body, &r);
    LLVMValueRef result = cg_output_finish(cg, &r.out);
    LLVMBasicBlockRef work_end = cg_current_block(cg);
    cg_end_if_else(cg, &branch);
    return cg_phi2(cg, cg->ptr, "", result, work_end, unchanged, empty);
}

/* ---- cg_text_str, text_strn, string_quoted ----
 * One escape callback per module (and per kind) serves every call site: a
 * site's state is one block of scratch (input slot, output slot, output
 * length, truncated flag, limit, escape start) whose offset the callback
 * reads from its loop context, a u64 on the caller's stack (the verifier
 * knows it exactly). As SystemTap's _stp_text_str: a character is written
 * whole or not at all (`\n` takes 2, an octal escape 4), within `limit`
 * characters besides the quotes. */

struct escape {
    LLVMValueRef from;           /* i64 scratch offsets, from the block's base */
    struct output out;
    LLVMValueRef truncated;      /* quoted: an i64, the input did not fit */
    LLVMValueRef limit;          /* an i64: characters the escaped text may take */
    LLVMValueRef escape_start;   /* quoted: an i64, where the first escape that ends past limit - 3 starts */
    LLVMValueRef skip;           /* an i64: continuation bytes of a UTF-8 character still to pass */
    int quoted;
};

static uint32_t escape_block_size(struct codegen *cg)
{
    return 2 * cg->string_size + 40;
}

static struct escape escape_at(struct codegen *cg, LLVMValueRef base, int quoted)
{
    struct escape e = {.from = base, .quoted = quoted};
    e.out.slot = cg_add(cg, base, cg_const(cg, cg->string_size));
    e.out.length = cg_add(cg, base, cg_const(cg, 2 * cg->string_size));
    e.truncated = cg_add(cg, base, cg_const(cg, 2 * cg->string_size + 8));
    e.limit = cg_add(cg, base, cg_const(cg, 2 * cg->string_size + 16));
    e.escape_start = cg_add(cg, base, cg_const(cg, 2 * cg->string_size + 24));
    e.skip = cg_add(cg, base, cg_const(cg, 2 * cg->string_size + 32));
    return e;
}

/* Notes where the first escape that a quoted string's `"...` could cut in
 * half starts (one ending past limit - 3, whether or not it fits: SystemTap
 * notes it before its check), then stops the loop when the next num
 * characters (of character c) do not fit in the limit (a quoted string
 * notes it is truncated, unless c is a buffer's NUL: SystemTap's
 * `c && inlen > 0`). */
static void escape_room(struct codegen *cg, struct escape *e, LLVMValueRef c, LLVMValueRef num)
{
    LLVMValueRef length = cg_load(cg, cg_scratch_at(cg, e->out.length));
    LLVMValueRef end = cg_add(cg, cg_sub(cg, length, cg_const(cg, e->quoted)), num);
    LLVMValueRef limit = cg_load(cg, cg_scratch_at(cg, e->limit));
    if (e->quoted) {
        LLVMValueRef start_ptr = cg_scratch_at(cg, e->escape_start);
        LLVMValueRef first = cg_and(cg, cg_compare(cg, LLVMIntSGT, num, 1), cg_compare_values(cg, LLVMIntSGT, end, cg_sub(cg, limit, cg_const(cg, 3))));
        first = cg_and(cg, first, cg_compare(cg, LLVMIntEQ, cg_load(cg, start_ptr), cg->string_size));
        cg_store(cg, cg_select(cg, first, length, cg_load(cg, start_ptr)), start_ptr);
    }
    LLVMBasicBlockRef room = cg_if(cg, cg_compare_values(cg, LLVMIntSGT, end, limit), "escape_full", "escape_room");
    if (e->quoted)
        cg_store(cg, cg_widen(cg, cg_compare(cg, LLVMIntNE, c, 0)), cg_scratch_at(cg, e->truncated));
    loop_stop(cg);
    cg_position(cg, room);
}

static LLVMValueRef is_continuation(struct codegen *cg, LLVMValueRef byte)
{
    return cg_compare(cg, LLVMIntEQ, cg_and(cg, byte, cg_const(cg, 0xC0)), 0x80);
}

static void output_hex_digits(struct codegen *cg, struct output *o, LLVMValueRef value, int digits)
{
    for (int shift = 4 * (digits - 1); shift >= 0; shift -= 4) {
        LLVMValueRef nibble = cg_and(cg, cg_lshr(cg, value, cg_const(cg, shift)), cg_const(cg, 15));
        LLVMValueRef letter = cg_compare(cg, LLVMIntUGE, nibble, 10);
        cg_output_char(cg, o, cg_add(cg, nibble, cg_select(cg, letter, cg_const(cg, 'A' - 10), cg_const(cg, '0'))));
    }
}

/* A well-formed UTF-8 character of 2 to 4 bytes at index is \uXXXX or
 * \UXXXXXXXX, its continuation bytes skipped (SystemTap's _stp_decode_utf8:
 * not surrogates, not past U+10FFFF, not overlong); anything else goes on
 * to `single`, one byte. The string's NUL ends a short sequence. */
static void escape_utf8(struct codegen *cg, struct escape *e, LLVMValueRef index, LLVMValueRef c,
                        LLVMBasicBlockRef single)
{
    LLVMValueRef n = cg_select(cg, cg_compare(cg, LLVMIntEQ, cg_and(cg, c, cg_const(cg, 0xF8)), 0xF0), cg_const(cg, 4), cg_const(cg, 1));
    n = cg_select(cg, cg_compare(cg, LLVMIntEQ, cg_and(cg, c, cg_const(cg, 0xF0)), 0xE0), cg_const(cg, 3), n);
    n = cg_select(cg, cg_compare(cg, LLVMIntEQ, cg_and(cg, c, cg_const(cg, 0xE0)), 0xC0), cg_const(cg, 2), n);
    LLVMValueRef three = cg_compare(cg, LLVMIntSGE, n, 3);
    LLVMValueRef four = cg_compare(cg, LLVMIntEQ, n, 4);
    LLVMValueRef lead = cg_and(cg, c, cg_select(cg, four, cg_const(cg, 0x07), cg_select(cg, three, cg_const(cg, 0x0F), cg_const(cg, 0x1F))));
    LLVMValueRef valid = cg_compare(cg, LLVMIntSGT, n, 1);
    LLVMValueRef point = lead;
    for (int k = 1; k <= 3; k++) {
        LLVMValueRef byte = char_at_of(cg, e->from, cg_add(cg, index, cg_const(cg, k)));
        LLVMValueRef used = k == 1 ? LLVMConstInt(cg->i1, 1, 0) : k == 2 ? three : four;
        valid = cg_and(cg, valid, cg_or(cg, cg_not(cg, used), is_continuation(cg, byte)));
        LLVMValueRef more = cg_or(cg, cg_shl(cg, point, cg_const(cg, 6)), cg_and(cg, byte, cg_const(cg, 0x3F)));
        point = cg_select(cg, used, more, point);
    }
    LLVMValueRef surrogate = cg_and(cg, cg_compare(cg, LLVMIntUGE, point, 0xD800), cg_compare(cg, LLVMIntULE, point, 0xDFFF));
    LLVMValueRef least = cg_select(cg, four, cg_const(cg, 0x10000), cg_select(cg, three, cg_const(cg, 0x800), cg_const(cg, 0x80)));
    LLVMValueRef bad = cg_or(cg, surrogate, cg_compare(cg, LLVMIntUGT, point, 0x10FFFF));
    bad = cg_or(cg, bad, cg_compare_values(cg, LLVMIntULT, point, least));
    valid = cg_and(cg, valid, cg_not(cg, bad));
    cg_continue_if(cg, valid, "utf8", single);
    LLVMValueRef small = cg_compare(cg, LLVMIntULE, point, 0xFFFF);
    escape_room(cg, e, c, cg_select(cg, small, cg_const(cg, 6), cg_const(cg, 10)));
    cg_store(cg, cg_sub(cg, n, cg_const(cg, 1)), cg_scratch_at(cg, e->skip));
    cg_output_char(cg, &e->out, cg_const(cg, '\\'));
    LLVMBasicBlockRef big = cg_if(cg, small, "utf8_u", "utf8_U");
    cg_output_char(cg, &e->out, cg_const(cg, 'u'));
    output_hex_digits(cg, &e->out, point, 4);
    loop_continue(cg);
    cg_position(cg, big);
    cg_output_char(cg, &e->out, cg_const(cg, 'U'));
    output_hex_digits(cg, &e->out, point, 8);
    loop_continue(cg);
}

static void escape_body(struct codegen *cg, LLVMValueRef index, void *data)
{
    struct escape *e = data;
    LLVMValueRef skip_ptr = cg_scratch_at(cg, e->skip);
    LLVMValueRef skip = cg_load(cg, skip_ptr);
    LLVMBasicBlockRef next = cg_if(cg, cg_compare(cg, LLVMIntSGT, skip, 0), "utf8_continuation", "escape_char");
    cg_store(cg, cg_sub(cg, skip, cg_const(cg, 1)), skip_ptr);
    loop_continue(cg);
    cg_position(cg, next);
    LLVMValueRef c = char_at_of(cg, e->from, index);
    LLVMBasicBlockRef single = cg_block(cg, "escape_byte");
    escape_utf8(cg, e, index, c, single);
    cg_position(cg, single);
    static const struct { char c, letter; } named[] = {
        {'\a', 'a'}, {'\b', 'b'}, {'\f', 'f'}, {'\n', 'n'}, {'\r', 'r'}, {'\t', 't'}, {'\v', 'v'},
        {'"', '"'}, {'\\', '\\'},
    };
    int count = (int)(sizeof(named) / sizeof(named[0]));
    LLVMValueRef printable = cg_and(cg, cg_compare(cg, LLVMIntUGE, c, 32), cg_compare(cg, LLVMIntULE, c, 126));
    LLVMValueRef num = cg_select(cg, printable, cg_const(cg, 1), cg_const(cg, 4));
    for (int i = 0; i < count; i++)
        num = cg_select(cg, cg_compare(cg, LLVMIntEQ, c, named[i].c), cg_const(cg, 2), num);
    escape_room(cg, e, c, num);
    LLVMBasicBlockRef plain = cg_block(cg, "plain"), octal = cg_block(cg, "octal"), other = cg_block(cg, "other");
    LLVMValueRef sw = cg_switch(cg, c, other, (unsigned)count);
    for (int i = 0; i < count; i++) {
        LLVMBasicBlockRef block = cg_block(cg, "named");
        LLVMAddCase(sw, cg_const(cg, named[i].c), block);
        cg_position(cg, block);
        cg_output_char(cg, &e->out, cg_const(cg, '\\'));
        cg_output_char(cg, &e->out, cg_const(cg, named[i].letter));
        loop_continue(cg);
    }
    cg_position(cg, other);
    cg_branch_if(cg, printable, plain, octal);
    cg_position(cg, plain);
    cg_output_char(cg, &e->out, c);
    loop_continue(cg);
    cg_position(cg, octal);
    cg_output_char(cg, &e->out, cg_const(cg, '\\'));
    for (int shift = 6; shift >= 0; shift -= 3) {
        LLVMValueRef digit = cg_and(cg, cg_lshr(cg, c, cg_const(cg, shift)), cg_const(cg, 7));
        cg_output_char(cg, &e->out, cg_add(cg, digit, cg_const(cg, '0')));
    }
    loop_continue(cg);
}

static void escape_callback_body(struct codegen *cg, LLVMValueRef index, void *data)
{
    LLVMValueRef ctx = LLVMGetParam(LLVMGetBasicBlockParent(cg_current_block(cg)), 1);
    struct escape e = escape_at(cg, cg_load(cg, ctx), *(int *)data);
    escape_body(cg, index, &e);
}

static LLVMValueRef escape_callback(struct codegen *cg, struct span span, int quoted)
{
    if (!string_state(cg)->escape_callbacks[quoted])
        string_state(cg)->escape_callbacks[quoted] = cg_loop_callback(cg, quoted ? "string_quoted" : "text_str", span,
                                                            escape_callback_body, &quoted);
    return string_state(cg)->escape_callbacks[quoted];
}

/* The function's u64 on the stack that passes a block's offset to a shared
 * callback (one per function: call sites run one after the other). */
static LLVMValueRef loop_context(struct codegen *cg, uint32_t base)
{
    if (!cg->fn->loop_context)
        cg->fn->loop_context = cg_entry_alloca(cg, cg->i64, "loop_context");
    cg_store(cg, cg_const(cg, base), cg->fn->loop_context);
    return cg->fn->loop_context;
}

uint32_t cg_escape_block(struct codegen *cg)
{
    return cg_alloc_scratch(cg, escape_block_size(cg));
}

/* The len characters in the input slot of the block at base escaped within
 * `limit` characters (NULL: MAXSTRINGLEN - 1), and in quotes when quoted.
 * A quoted string that does not fit ends in `"...` after limit - 3
 * characters, or before an escape those would cut. */
static LLVMValueRef escape_block(struct codegen *cg, struct span span, uint32_t base, LLVMValueRef len, int quoted,
                                 LLVMValueRef limit)
{
    struct escape e = escape_at(cg, cg_const(cg, base), quoted);
    output_init(cg, &e.out, base + cg->string_size, base + 2 * cg->string_size);
    if (!limit)
        limit = cg_const(cg, cg->string_size - 1 - (quoted ? 2 : 0));
    cg_store(cg, limit, cg_scratch_at(cg, e.limit));
    cg_store(cg, cg_const(cg, 0), cg_scratch_at(cg, e.skip));
    if (quoted) {
        cg_store(cg, cg_const(cg, 0), cg_scratch_at(cg, e.truncated));
        cg_store(cg, cg_const(cg, cg->string_size), cg_scratch_at(cg, e.escape_start));
        cg_output_char(cg, &e.out, cg_const(cg, '"'));
    }
    LLVMValueRef callback = escape_callback(cg, span, quoted);
    cg_call_loop(cg, len, callback, loop_context(cg, base));
    if (quoted) {
        LLVMValueRef length_ptr = cg_scratch_at(cg, e.out.length);
        LLVMValueRef truncated = cg_compare(cg, LLVMIntNE, cg_load(cg, cg_scratch_at(cg, e.truncated)), 0);
        LLVMValueRef cut = cg_sub(cg, cg_load(cg, cg_scratch_at(cg, e.limit)), cg_const(cg, 2));
        LLVMValueRef escape_start = cg_load(cg, cg_scratch_at(cg, e.escape_start));
        cut = cg_select(cg, cg_compare_values(cg, LLVMIntSLT, escape_start, cut), escape_start, cut);
        cg_store(cg, cg_select(cg, truncated, cut, cg_load(cg, length_ptr)), length_ptr);
        cg_output_char(cg, &e.out, cg_const(cg, '"'));
        for (int i = 0; i < 3; i++)
            cg_output_char(cg, &e.out, cg_select(cg, truncated, cg_const(cg, '.'), cg_const(cg, 0)));
        /* a NUL written in place of the dots ends the string there */
    }
    return cg_output_finish(cg, &e.out);
}

LLVMValueRef cg_text_str(struct codegen *cg, struct span span, LLVMValueRef s, int quoted, LLVMValueRef limit)
{
    uint32_t base = cg_escape_block(cg);
    LLVMValueRef len;
    copy_into(cg, base, s, &len);
    return escape_block(cg, span, base, len, quoted, limit);
}

/* A buffer's NULs are characters like any other (an octal escape); the byte
 * after it must not be a UTF-8 continuation, so that a sequence the buffer
 * cuts short is escaped byte by byte. */
LLVMValueRef cg_buffer_quoted(struct codegen *cg, struct span span, uint32_t base, LLVMValueRef len, LLVMValueRef limit)
{
    cg_put_char(cg, base, len, cg_const(cg, 0));
    return escape_block(cg, span, base, len, 1, limit);
}

LLVMValueRef cg_string_quoted(struct codegen *cg, struct span span, LLVMValueRef s)
{
    return cg_text_str(cg, span, s, 1, NULL);
}

/* text_strn(s, len, quoted): len clamped to 0..MAXSTRINGLEN, 0 (or
 * MAXSTRINGLEN) meaning MAXSTRINGLEN - 1; quoted, the quotes count in it
 * and it is at least 5. A quoted argument not a literal chooses at run time. */
static LLVMValueRef text_strn(struct codegen *cg, struct expr *call, LLVMValueRef s, LLVMValueRef len,
                              LLVMValueRef quoted)
{
    LLVMValueRef most = cg_const(cg, cg->string_size - 1);
    LLVMValueRef whole = cg_or(cg, cg_compare(cg, LLVMIntSLE, len, 0), cg_compare_values(cg, LLVMIntSGT, len, most));
    len = cg_select(cg, whole, most, len);
    LLVMValueRef limit_quoted = cg_sub(cg, cg_select(cg, cg_compare(cg, LLVMIntSLT, len, 5), cg_const(cg, 5), len), cg_const(cg, 2));
    struct expr *flag = call->call.args->next->next;
    if (flag->kind == EXPR_INT)
        return flag->int_value ? cg_text_str(cg, call->span, s, 1, limit_quoted) : cg_text_str(cg, call->span, s, 0, len);
    struct cg_if_else branch = cg_if_else(cg, cg_compare(cg, LLVMIntNE, quoted, 0), "text_strn_quoted",
                                          "text_strn_plain", "text_strn_done");
    LLVMValueRef escaped = cg_text_str(cg, call->span, s, 1, limit_quoted);
    LLVMBasicBlockRef escaped_end = cg_current_block(cg);
    cg_else(cg, &branch);
    LLVMValueRef plain = cg_text_str(cg, call->span, s, 0, len);
    LLVMBasicBlockRef plain_end = cg_current_block(cg);
    cg_end_if_else(cg, &branch);
    return cg_phi2(cg, LLVMTypeOf(escaped), "", escaped, escaped_end, plain, plain_end);
}

/* ---- tokenize: state kept per CPU between calls, as stap keeps it ---- */

struct tokenize {
    uint32_t buffer, position, delims, phase;
    struct output out;
};

static void tokenize_body(struct codegen *cg, LLVMValueRef index, void *data)
{
    struct tokenize *t = data;
    LLVMValueRef position_ptr = cg_scratch_ptr(cg, t->position), phase_ptr = cg_scratch_ptr(cg, t->phase);
    LLVMBasicBlockRef look = cg_if(cg, cg_compare_values(cg, LLVMIntSLT, index, cg_load(cg, position_ptr)),
                                   "tok_before", "tok_look");
    loop_continue(cg);
    cg_position(cg, look);
    LLVMValueRef c = cg_string_char_at(cg, t->buffer, index);
    LLVMBasicBlockRef scan = cg_if(cg, cg_compare(cg, LLVMIntEQ, c, 0), "tok_end", "tok_scan");
    cg_store(cg, index, position_ptr);
    loop_stop(cg);

    /* is c one of the delimiters? */
    cg_position(cg, scan);
    LLVMBasicBlockRef head = cg_block(cg, "delim_head"), is_delim = cg_block(cg, "is_delim"),
                      not_delim = cg_block(cg, "not_delim");
    struct cg_loop loop = cg_loop_start(cg, head, "j");
    LLVMValueRef d = cg_string_char_at(cg, t->delims, loop.index);
    cg_jump_if(cg, cg_compare(cg, LLVMIntEQ, d, 0), not_delim, "delim_compare");
    cg_jump_if(cg, cg_compare_values(cg, LLVMIntEQ, d, c), is_delim, "delim_more");
    cg_loop_next(cg, &loop, cg->string_size, not_delim);

    cg_position(cg, is_delim);
    LLVMValueRef in_token = cg_compare(cg, LLVMIntNE, cg_load(cg, phase_ptr), 0);
    LLVMBasicBlockRef leading = cg_if(cg, in_token, "token_end", "leading_delim");
    cg_store(cg, cg_add(cg, index, cg_const(cg, 1)), position_ptr);
    loop_stop(cg);
    cg_position(cg, leading);
    loop_continue(cg);

    cg_position(cg, not_delim);
    cg_store(cg, cg_const(cg, 1), phase_ptr);
    cg_output_char(cg, &t->out, c);
    loop_continue(cg);
}

static LLVMValueRef tokenize(struct codegen *cg, struct expr *call, LLVMValueRef input, LLVMValueRef delims)
{
    struct tokenize t;
    /* One state for the whole script, like stap's: the buffer and position
     * live at fixed scratch offsets allocated on first use. */
    if (!string_state(cg)->tokenize_buffer) {
        string_state(cg)->tokenize_buffer = cg_alloc_string_slot(cg);
        string_state(cg)->tokenize_position = cg_alloc_scratch(cg, 8);
    }
    t.buffer = string_state(cg)->tokenize_buffer;
    t.position = string_state(cg)->tokenize_position;
    t.delims = cg_string_copy_to_slot(cg, delims, NULL);
    t.phase = cg_alloc_scratch(cg, 8);
    cg_store(cg, cg_const(cg, 0), cg_scratch_ptr(cg, t.phase));
    LLVMValueRef input_len;
    uint32_t in = cg_string_copy_to_slot(cg, input, &input_len);
    LLVMBasicBlockRef go = cg_if(cg, cg_compare(cg, LLVMIntNE, input_len, 0), "tok_restart", "tok_go");
    cg_string_copy(cg, cg_scratch_ptr(cg, t.buffer), cg_scratch_ptr(cg, in));
    cg_store(cg, cg_const(cg, 0), cg_scratch_ptr(cg, t.position));
    cg_end_if(cg, go);
    cg_output_start(cg, &t.out);
    cg_bounded_loop(cg, call->span, cg_const(cg, cg->string_size), tokenize_body, &t);
    return cg_output_finish(cg, &t.out);
}

/* ---- strtol, isdigit ---- */

struct strtol_state {
    uint32_t slot, start, base, value;
};

static void strtol_body(struct codegen *cg, LLVMValueRef index, void *data)
{
    struct strtol_state *t = data;
    LLVMValueRef base = cg_load(cg, cg_scratch_ptr(cg, t->base));
    LLVMValueRef c = cg_string_char_at(cg, t->slot, cg_add(cg, cg_load(cg, cg_scratch_ptr(cg, t->start)), index));
    LLVMValueRef lower = cg_or(cg, c, cg_const(cg, 0x20));
    LLVMValueRef is_num = cg_and(cg, cg_compare(cg, LLVMIntUGE, c, '0'), cg_compare(cg, LLVMIntULE, c, '9'));
    LLVMValueRef is_letter = cg_and(cg, cg_compare(cg, LLVMIntUGE, lower, 'a'), cg_compare(cg, LLVMIntULE, lower, 'z'));
    LLVMValueRef digit = cg_select(cg, is_num, cg_sub(cg, c, cg_const(cg, '0')), cg_select(cg, is_letter, cg_sub(cg, lower, cg_const(cg, 'a' - 10)), cg_const(cg, 99)));
    LLVMBasicBlockRef stop = cg_if(cg, cg_compare_values(cg, LLVMIntSLT, digit, base), "strtol_step", "strtol_stop");
    LLVMValueRef value_ptr = cg_scratch_ptr(cg, t->value);
    cg_store(cg, cg_add(cg, cg_mul(cg, cg_load(cg, value_ptr), base), digit), value_ptr);
    loop_continue(cg);
    cg_position(cg, stop);
    loop_stop(cg);

}

/* stap's strtol is the kernel's simple_strtoll: an optional sign, 0x for
 * base 16 (and 0, which also takes a leading 0 as octal), digits while
 * they are below the base. */
static LLVMValueRef strtol_(struct codegen *cg, struct expr *call, LLVMValueRef s, LLVMValueRef base)
{
    struct strtol_state t;
    t.slot = cg_string_copy_to_slot(cg, s, NULL);
    t.start = cg_alloc_scratch(cg, 8);
    t.base = cg_alloc_scratch(cg, 8);
    t.value = cg_alloc_scratch(cg, 8);
    LLVMValueRef zero = cg_const(cg, 0);
    LLVMValueRef first = cg_string_char_at(cg, t.slot, zero);
    LLVMValueRef negative = cg_compare(cg, LLVMIntEQ, first, '-');
    LLVMValueRef signed_ = cg_or(cg, negative, cg_compare(cg, LLVMIntEQ, first, '+'));
    LLVMValueRef start = cg_widen(cg, signed_);
    LLVMValueRef c0 = cg_string_char_at(cg, t.slot, start);
    LLVMValueRef c1 = cg_or(cg, cg_string_char_at(cg, t.slot, cg_add(cg, start, cg_const(cg, 1))), cg_const(cg, 0x20));
    LLVMValueRef hex_prefix = cg_and(cg, cg_compare(cg, LLVMIntEQ, c0, '0'), cg_compare(cg, LLVMIntEQ, c1, 'x'));
    LLVMValueRef base_auto = cg_compare_values(cg, LLVMIntEQ, base, zero);
    LLVMValueRef takes_hex = cg_and(cg, hex_prefix, cg_or(cg, base_auto, cg_compare(cg, LLVMIntEQ, base, 16)));
    start = cg_select(cg, takes_hex, cg_add(cg, start, cg_const(cg, 2)), start);
    LLVMValueRef auto_base = cg_select(cg, hex_prefix, cg_const(cg, 16), cg_select(cg, cg_compare(cg, LLVMIntEQ, c0, '0'), cg_const(cg, 8), cg_const(cg, 10)));
    cg_store(cg, cg_select(cg, base_auto, auto_base, base), cg_scratch_ptr(cg, t.base));
    cg_store(cg, start, cg_scratch_ptr(cg, t.start));
    cg_store(cg, zero, cg_scratch_ptr(cg, t.value));
    cg_bounded_loop(cg, call->span, cg_const(cg, cg->string_size), strtol_body, &t);
    LLVMValueRef value = cg_load(cg, cg_scratch_ptr(cg, t.value));
    return cg_select(cg, negative, cg_neg(cg, value), value);
}

static LLVMValueRef isdigit_(struct codegen *cg, LLVMValueRef s)
{
    uint32_t slot = cg_string_copy_to_slot(cg, s, NULL);
    LLVMValueRef c = cg_string_char_at(cg, slot, cg_const(cg, 0));
    LLVMValueRef yes = cg_and(cg, cg_compare(cg, LLVMIntUGE, c, '0'), cg_compare(cg, LLVMIntULE, c, '9'));
    return cg_widen(cg, yes);
}

LLVMValueRef cg_string_builtin(struct codegen *cg, struct expr *call, int builtin_id)
{
    struct expr *a = call->call.args;
    LLVMValueRef v[3] = {NULL, NULL, NULL};
    for (int i = 0; i < 3 && a; i++, a = a->next)
        v[i] = cg_operand(cg, a);
    cg_set_location(cg, call->span);
    switch (builtin_id) {
    case BUILTIN_SUBSTR: return substr(cg, v[0], v[1], v[2]);
    case BUILTIN_STRPOS: return strpos(cg, call, v[0], v[1]);
    case BUILTIN_ISINSTR:
        return cg_widen(cg, cg_compare(cg, LLVMIntSGE, strpos(cg, call, v[0], v[1]), 0));
    case BUILTIN_STR_REPLACE: return str_replace(cg, call, v[0], v[1], v[2]);
    case BUILTIN_STRTOL: return strtol_(cg, call, v[0], v[1]);
    case BUILTIN_ISDIGIT: return isdigit_(cg, v[0]);
    case BUILTIN_CHAR_AT: {
        LLVMValueRef length;
        uint32_t slot = cg_string_copy_to_slot(cg, v[0], &length);
        LLVMValueRef inside = cg_compare_values(cg, LLVMIntULT, v[1], length);
        return cg_select(cg, inside, cg_string_char_at(cg, slot, v[1]), cg_const(cg, 0));
    }
    case BUILTIN_TOKENIZE: return tokenize(cg, call, v[0], v[1]);
    case BUILTIN_TEXT_STR: return cg_text_str(cg, call->span, v[0], 0, NULL);
    case BUILTIN_TEXT_STRN: return text_strn(cg, call, v[0], v[1], v[2]);
    case BUILTIN_STRING_QUOTED: return cg_text_str(cg, call->span, v[0], 1, NULL);
    }
    return cg_const(cg, 0);
}
