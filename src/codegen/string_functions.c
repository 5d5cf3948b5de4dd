/* String functions in BPF. Every string they read is first copied into a
 * scratch slot of its own, so a character is `slot + (i & (MAXSTRINGLEN-1))`:
 * inside the map value for the verifier whatever i is (the scratch slack
 * covers two masked offsets). Per-character work runs in bpf_loop callbacks
 * (verified once, however long the string); a callback finds scratch again
 * and reaches the slots by their constant offsets. Results are new slots,
 * truncated at MAXSTRINGLEN like every string.
 * sprintf uses bpf_snprintf (helper 165) for what the kernel prints as stap
 * does (flags `-+ 0`, literal widths, d i u x X c s; `%#x` and `%p` become a
 * literal 0x prefix and `%.Ns` truncates its argument first); the rest (%o,
 * %b, %m, %M, `*`, integer precision, prefixes with a width) is rendered
 * here, character by character, as stap's runtime does it. */
#include <stdio.h>
#include <string.h>

#include <linux/bpf.h>

#include "base/strbuf.h"
#include "codegen/codegen_internal.h"
#include "base/format.h"
#include "sema/builtins.h"

/* string_functions.c's state, each 0/NULL until used. */
struct string_functions_state {
    uint32_t tokenize_buffer, tokenize_position;   /* tokenize()'s state in scratch */
    LLVMValueRef escape_callbacks[2];   /* text_str's and string_quoted's */
};

static struct string_functions_state *string_state(struct codegen *cg)
{
    if (!cg->string_functions)
        cg->string_functions = ARENA_NEW(cg->arena, struct string_functions_state);
    return cg->string_functions;
}

#define MAX_SNPRINTF_ARGS 12

static LLVMValueRef mask(struct codegen *cg, LLVMValueRef i)
{
    return cg_and(cg, i, cg_const(cg, cg->string_size - 1));
}

/* slot: an i64 scratch offset, a constant except in shared callbacks. */
static LLVMValueRef char_ptr_at(struct codegen *cg, LLVMValueRef slot, LLVMValueRef i)
{
    LLVMValueRef base = cg_scratch_at(cg, slot);
    LLVMValueRef index = mask(cg, i);
    return cg_byte_ptr(cg, base, index);
}

static LLVMValueRef char_ptr(struct codegen *cg, uint32_t slot, LLVMValueRef i)
{
    return char_ptr_at(cg, cg_const(cg, slot), i);
}

static LLVMValueRef char_at_of(struct codegen *cg, LLVMValueRef slot, LLVMValueRef i)
{
    return cg_load_unsigned(cg, cg->i8, char_ptr_at(cg, slot, i));
}

static LLVMValueRef char_at(struct codegen *cg, uint32_t slot, LLVMValueRef i)
{
    return char_at_of(cg, cg_const(cg, slot), i);
}

static void put_char_at(struct codegen *cg, LLVMValueRef slot, LLVMValueRef i, LLVMValueRef c)
{
    cg_store(cg, cg_trunc(cg, c, cg->i8), char_ptr_at(cg, slot, i));
}

static void put_char(struct codegen *cg, uint32_t slot, LLVMValueRef i, LLVMValueRef c)
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
static uint32_t copy_to_slot(struct codegen *cg, LLVMValueRef s, LLVMValueRef *length)
{
    uint32_t slot = cg_alloc_string_slot(cg);
    copy_into(cg, slot, s, length);
    return slot;
}

static uint32_t new_slot(struct codegen *cg)
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
    LLVMValueRef cn = char_at(cg, needle, j);
    cg_jump_if(cg, cg_compare(cg, LLVMIntEQ, cn, 0), match, "match_more");
    LLVMValueRef ch = char_at(cg, hay, cg_add(cg, mask(cg, i), j));
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
    f.hay = copy_to_slot(cg, hay, &hay_len);
    f.needle = copy_to_slot(cg, needle, &needle_len);
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
    uint32_t from = copy_to_slot(cg, s, &len);
    uint32_t out = new_slot(cg);
    LLVMValueRef bad = cg_or(cg, cg_compare(cg, LLVMIntSLT, start, 0), cg_compare_values(cg, LLVMIntSGE, start, len));
    LLVMValueRef room = cg_sub(cg, len, start);
    LLVMValueRef n = cg_select(cg, cg_compare_values(cg, LLVMIntSLT, length, room), length, room);
    bad = cg_or(cg, bad, cg_compare(cg, LLVMIntSLE, n, 0));
    LLVMBasicBlockRef done = cg_if_not(cg, bad, "substr_copy", "substr_done");
    LLVMValueRef size = cg_opaque_clamp(cg, cg_add(cg, n, cg_const(cg, 1)), cg->string_size);
    LLVMValueRef args[3] = {cg_scratch_ptr(cg, out), cg_u32(cg, size), char_ptr(cg, from, start)};
    cg_helper(cg, BPF_FUNC_probe_read_kernel_str, cg->i64, args, 3);
    cg_end_if(cg, done);
    return cg_scratch_ptr(cg, out);
}

/* ---- appending to an output slot, truncating at MAXSTRINGLEN - 1 ---- */

struct output {
    LLVMValueRef slot, length;   /* i64 scratch offsets; length: of an i64 */
};

static void output_init(struct codegen *cg, struct output *o, uint32_t slot, uint32_t length)
{
    o->slot = cg_const(cg, slot);
    o->length = cg_const(cg, length);
    cg_store(cg, LLVMConstInt(cg->i8, 0, 0), cg_scratch_ptr(cg, slot));
    cg_store(cg, cg_const(cg, 0), cg_scratch_ptr(cg, length));
}

static void output_start(struct codegen *cg, struct output *o)
{
    uint32_t slot = cg_alloc_string_slot(cg);
    output_init(cg, o, slot, cg_alloc_scratch(cg, 8));
}

static void output_char(struct codegen *cg, struct output *o, LLVMValueRef c)
{
    LLVMValueRef length_ptr = cg_scratch_at(cg, o->length);
    LLVMValueRef length = cg_load(cg, length_ptr);
    LLVMBasicBlockRef done = cg_if(cg, cg_compare(cg, LLVMIntSLT, length, cg->string_size - 1), "put", "put_done");
    put_char_at(cg, o->slot, length, c);
    cg_store(cg, cg_add(cg, length, cg_const(cg, 1)), length_ptr);
    cg_end_if(cg, done);
}

/* Appends the NUL-terminated s (a pointer into scratch or .rodata). */
static void output_cstring(struct codegen *cg, struct output *o, LLVMValueRef s)
{
    LLVMValueRef length_ptr = cg_scratch_at(cg, o->length);
    LLVMValueRef length = mask(cg, cg_load(cg, length_ptr));
    LLVMValueRef room = cg_sub(cg, cg_const(cg, cg->string_size), length);
    LLVMValueRef args[3] = {char_ptr_at(cg, o->slot, length), cg_u32(cg, room), s};
    LLVMValueRef copied = cg_helper(cg, BPF_FUNC_probe_read_kernel_str, cg->i64, args, 3);
    LLVMValueRef added = cg_select(cg, cg_compare(cg, LLVMIntSLT, copied, 1), cg_const(cg, 0), cg_sub(cg, copied, cg_const(cg, 1)));
    cg_store(cg, cg_add(cg, length, added), length_ptr);
}

static void output_string(struct codegen *cg, struct output *o, uint32_t slot)
{
    output_cstring(cg, o, cg_scratch_ptr(cg, slot));
}

static LLVMValueRef output_finish(struct codegen *cg, struct output *o)
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
    output_string(cg, &r->out, r->with);
    cg_store(cg, cg_add(cg, index, cg_load(cg, cg_scratch_ptr(cg, r->search_len))), cg_scratch_ptr(cg, r->skip));
    loop_continue(cg);
    cg_position(cg, differ);
    output_char(cg, &r->out, char_at(cg, r->from, index));
    loop_continue(cg);
    cg_position(cg, skip);
    loop_continue(cg);
}

static LLVMValueRef str_replace(struct codegen *cg, struct expr *call, LLVMValueRef s, LLVMValueRef search,
                                LLVMValueRef with)
{
    struct replace r;
    LLVMValueRef len, search_len;
    r.from = copy_to_slot(cg, s, &len);
    r.search = copy_to_slot(cg, search, &search_len);
    r.with = copy_to_slot(cg, with, NULL);
    r.skip = cg_alloc_scratch(cg, 8);
    r.search_len = cg_alloc_scratch(cg, 8);
    cg_store(cg, cg_const(cg, 0), cg_scratch_ptr(cg, r.skip));
    cg_store(cg, search_len, cg_scratch_ptr(cg, r.search_len));
    LLVMValueRef unchanged = cg_scratch_ptr(cg, r.from);
    struct cg_if_else branch = cg_if_else(cg, cg_compare(cg, LLVMIntEQ, search_len, 0), "replace_nothing",
                                          "replace_work", "replace_done");
    LLVMBasicBlockRef empty = cg_current_block(cg);
    cg_else(cg, &branch);
    output_start(cg, &r.out);
    cg_bounded_loop(cg, call->span, len, replace_body, &r);
    LLVMValueRef result = output_finish(cg, &r.out);
    LLVMBasicBlockRef work_end = cg_current_block(cg);
    cg_end_if_else(cg, &branch);
    return cg_phi2(cg, cg->ptr, "", result, work_end, unchanged, empty);
}

/* ---- text_str, text_strn, string_quoted ----
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

/* Stops the loop when the next num characters do not fit in the limit (a
 * quoted string notes it is truncated), and notes where the first escape
 * that a quoted string's `"...` could cut in half starts. */
static void escape_room(struct codegen *cg, struct escape *e, LLVMValueRef num)
{
    LLVMValueRef length = cg_load(cg, cg_scratch_at(cg, e->out.length));
    LLVMValueRef end = cg_add(cg, cg_sub(cg, length, cg_const(cg, e->quoted)), num);
    LLVMValueRef limit = cg_load(cg, cg_scratch_at(cg, e->limit));
    LLVMBasicBlockRef room = cg_if(cg, cg_compare_values(cg, LLVMIntSGT, end, limit), "escape_full", "escape_room");
    if (e->quoted)
        cg_store(cg, cg_const(cg, 1), cg_scratch_at(cg, e->truncated));
    loop_stop(cg);
    cg_position(cg, room);
    if (!e->quoted)
        return;
    LLVMValueRef start_ptr = cg_scratch_at(cg, e->escape_start);
    LLVMValueRef first = cg_and(cg, cg_compare(cg, LLVMIntSGT, num, 1), cg_compare_values(cg, LLVMIntSGT, end, cg_sub(cg, limit, cg_const(cg, 3))));
    first = cg_and(cg, first, cg_compare(cg, LLVMIntEQ, cg_load(cg, start_ptr), cg->string_size));
    cg_store(cg, cg_select(cg, first, length, cg_load(cg, start_ptr)), start_ptr);
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
        output_char(cg, o, cg_add(cg, nibble, cg_select(cg, letter, cg_const(cg, 'A' - 10), cg_const(cg, '0'))));
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
    escape_room(cg, e, cg_select(cg, small, cg_const(cg, 6), cg_const(cg, 10)));
    cg_store(cg, cg_sub(cg, n, cg_const(cg, 1)), cg_scratch_at(cg, e->skip));
    output_char(cg, &e->out, cg_const(cg, '\\'));
    LLVMBasicBlockRef big = cg_if(cg, small, "utf8_u", "utf8_U");
    output_char(cg, &e->out, cg_const(cg, 'u'));
    output_hex_digits(cg, &e->out, point, 4);
    loop_continue(cg);
    cg_position(cg, big);
    output_char(cg, &e->out, cg_const(cg, 'U'));
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
    escape_room(cg, e, num);
    LLVMBasicBlockRef plain = cg_block(cg, "plain"), octal = cg_block(cg, "octal"), other = cg_block(cg, "other");
    LLVMValueRef sw = cg_switch(cg, c, other, (unsigned)count);
    for (int i = 0; i < count; i++) {
        LLVMBasicBlockRef block = cg_block(cg, "named");
        LLVMAddCase(sw, cg_const(cg, named[i].c), block);
        cg_position(cg, block);
        output_char(cg, &e->out, cg_const(cg, '\\'));
        output_char(cg, &e->out, cg_const(cg, named[i].letter));
        loop_continue(cg);
    }
    cg_position(cg, other);
    cg_branch_if(cg, printable, plain, octal);
    cg_position(cg, plain);
    output_char(cg, &e->out, c);
    loop_continue(cg);
    cg_position(cg, octal);
    output_char(cg, &e->out, cg_const(cg, '\\'));
    for (int shift = 6; shift >= 0; shift -= 3) {
        LLVMValueRef digit = cg_and(cg, cg_lshr(cg, c, cg_const(cg, shift)), cg_const(cg, 7));
        output_char(cg, &e->out, cg_add(cg, digit, cg_const(cg, '0')));
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

/* s escaped within `limit` characters (NULL: MAXSTRINGLEN - 1), and in
 * quotes when quoted. A quoted string that does not fit ends in `"...`
 * after limit - 3 characters, or before an escape those would cut. */
static LLVMValueRef text_str(struct codegen *cg, struct span span, LLVMValueRef s, int quoted, LLVMValueRef limit)
{
    uint32_t base = cg_alloc_scratch(cg, escape_block_size(cg));
    struct escape e = escape_at(cg, cg_const(cg, base), quoted);
    LLVMValueRef len;
    copy_into(cg, base, s, &len);
    output_init(cg, &e.out, base + cg->string_size, base + 2 * cg->string_size);
    if (!limit)
        limit = cg_const(cg, cg->string_size - 1 - (quoted ? 2 : 0));
    cg_store(cg, limit, cg_scratch_at(cg, e.limit));
    cg_store(cg, cg_const(cg, 0), cg_scratch_at(cg, e.skip));
    if (quoted) {
        cg_store(cg, cg_const(cg, 0), cg_scratch_at(cg, e.truncated));
        cg_store(cg, cg_const(cg, cg->string_size), cg_scratch_at(cg, e.escape_start));
        output_char(cg, &e.out, cg_const(cg, '"'));
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
        output_char(cg, &e.out, cg_const(cg, '"'));
        for (int i = 0; i < 3; i++)
            output_char(cg, &e.out, cg_select(cg, truncated, cg_const(cg, '.'), cg_const(cg, 0)));
        /* a NUL written in place of the dots ends the string there */
    }
    return output_finish(cg, &e.out);
}

LLVMValueRef cg_string_quoted(struct codegen *cg, struct span span, LLVMValueRef s)
{
    return text_str(cg, span, s, 1, NULL);
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
        return flag->int_value ? text_str(cg, call->span, s, 1, limit_quoted) : text_str(cg, call->span, s, 0, len);
    struct cg_if_else branch = cg_if_else(cg, cg_compare(cg, LLVMIntNE, quoted, 0), "text_strn_quoted",
                                          "text_strn_plain", "text_strn_done");
    LLVMValueRef escaped = text_str(cg, call->span, s, 1, limit_quoted);
    LLVMBasicBlockRef escaped_end = cg_current_block(cg);
    cg_else(cg, &branch);
    LLVMValueRef plain = text_str(cg, call->span, s, 0, len);
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
    LLVMValueRef c = char_at(cg, t->buffer, index);
    LLVMBasicBlockRef scan = cg_if(cg, cg_compare(cg, LLVMIntEQ, c, 0), "tok_end", "tok_scan");
    cg_store(cg, index, position_ptr);
    loop_stop(cg);

    /* is c one of the delimiters? */
    cg_position(cg, scan);
    LLVMBasicBlockRef head = cg_block(cg, "delim_head"), is_delim = cg_block(cg, "is_delim"),
                      not_delim = cg_block(cg, "not_delim");
    struct cg_loop loop = cg_loop_start(cg, head, "j");
    LLVMValueRef d = char_at(cg, t->delims, loop.index);
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
    output_char(cg, &t->out, c);
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
    t.delims = copy_to_slot(cg, delims, NULL);
    t.phase = cg_alloc_scratch(cg, 8);
    cg_store(cg, cg_const(cg, 0), cg_scratch_ptr(cg, t.phase));
    LLVMValueRef input_len;
    uint32_t in = copy_to_slot(cg, input, &input_len);
    LLVMBasicBlockRef go = cg_if(cg, cg_compare(cg, LLVMIntNE, input_len, 0), "tok_restart", "tok_go");
    cg_string_copy(cg, cg_scratch_ptr(cg, t.buffer), cg_scratch_ptr(cg, in));
    cg_store(cg, cg_const(cg, 0), cg_scratch_ptr(cg, t.position));
    cg_end_if(cg, go);
    output_start(cg, &t.out);
    cg_bounded_loop(cg, call->span, cg_const(cg, cg->string_size), tokenize_body, &t);
    return output_finish(cg, &t.out);
}

/* ---- strtol, isdigit ---- */

struct strtol_state {
    uint32_t slot, start, base, value;
};

static void strtol_body(struct codegen *cg, LLVMValueRef index, void *data)
{
    struct strtol_state *t = data;
    LLVMValueRef base = cg_load(cg, cg_scratch_ptr(cg, t->base));
    LLVMValueRef c = char_at(cg, t->slot, cg_add(cg, cg_load(cg, cg_scratch_ptr(cg, t->start)), index));
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
    t.slot = copy_to_slot(cg, s, NULL);
    t.start = cg_alloc_scratch(cg, 8);
    t.base = cg_alloc_scratch(cg, 8);
    t.value = cg_alloc_scratch(cg, 8);
    LLVMValueRef zero = cg_const(cg, 0);
    LLVMValueRef first = char_at(cg, t.slot, zero);
    LLVMValueRef negative = cg_compare(cg, LLVMIntEQ, first, '-');
    LLVMValueRef signed_ = cg_or(cg, negative, cg_compare(cg, LLVMIntEQ, first, '+'));
    LLVMValueRef start = cg_widen(cg, signed_);
    LLVMValueRef c0 = char_at(cg, t.slot, start);
    LLVMValueRef c1 = cg_or(cg, char_at(cg, t.slot, cg_add(cg, start, cg_const(cg, 1))), cg_const(cg, 0x20));
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
    uint32_t slot = copy_to_slot(cg, s, NULL);
    LLVMValueRef c = char_at(cg, slot, cg_const(cg, 0));
    LLVMValueRef yes = cg_and(cg, cg_compare(cg, LLVMIntUGE, c, '0'), cg_compare(cg, LLVMIntULE, c, '9'));
    return cg_widen(cg, yes);
}

/* ---- sprintf, sprint, sprintln ---- */

/* What bpf_snprintf prints as stap does: flags, a literal width, %s with a
 * precision, d i u x X c s, and %#x/%p without a width (a literal 0x).
 * The rest is rendered here, as stap's runtime does it (number(),
 * _stp_vsprint_memory, _stp_vsprint_binary). */
static int kernel_formats(const struct format_piece *p)
{
    if (p->width_star || p->precision_star || strchr("obmM", p->conv))
        return 0;
    if (p->conv == 'c' && (p->flags & FORMAT_FLAG_HASH))
        return 0;
    if (p->precision >= 0 && p->conv != 's')
        return 0;
    int hash = (p->flags & FORMAT_FLAG_HASH) || p->conv == 'p';
    return !(strchr("xXp", p->conv) && hash && p->width >= 0);
}

/* The piece's literal text, then (when bpf_snprintf does it) its
 * conversion, in bpf_snprintf's words. */
static void translate_piece(const struct format_piece *p, struct strbuf *out, int *truncate_to)
{
    *truncate_to = -1;
    for (size_t i = 0; i < p->literal_len; i++) {
        if (p->literal[i] == '%')
            strbuf_putc(out, '%');
        strbuf_putc(out, p->literal[i]);
    }
    if (!p->conv || !kernel_formats(p))
        return;
    char conv = p->conv;
    if (conv == 'p' || (strchr("xX", conv) && (p->flags & FORMAT_FLAG_HASH)))
        strbuf_puts(out, conv == 'X' ? "0X" : "0x");
    strbuf_putc(out, '%');
    if (p->flags & FORMAT_FLAG_MINUS) strbuf_putc(out, '-');
    if (conv != 's' && conv != 'c') {
        if (p->flags & FORMAT_FLAG_PLUS) strbuf_putc(out, '+');
        if (p->flags & FORMAT_FLAG_SPACE) strbuf_putc(out, ' ');
        if (p->flags & FORMAT_FLAG_ZERO) strbuf_putc(out, '0');
    }
    if (p->width >= 0)
        strbuf_printf(out, "%d", p->width);
    switch (conv) {
    case 'd': case 'i': strbuf_puts(out, "lld"); break;
    case 'u': strbuf_puts(out, "llu"); break;
    case 'x': case 'p': strbuf_puts(out, "llx"); break;
    case 'X': strbuf_puts(out, "llX"); break;
    case 'c': strbuf_puts(out, "c"); break;
    case 's': strbuf_puts(out, "s"); *truncate_to = p->precision; break;
    }
}

struct digit_state {
    uint32_t slot, value, position;
    int base, upper;
};

#define DIGITS_END 80            /* digits are written backwards from here in their slot */

static void digit_body(struct codegen *cg, LLVMValueRef index, void *data)
{
    struct digit_state *d = data;
    (void)index;
    LLVMValueRef value_ptr = cg_scratch_ptr(cg, d->value), position_ptr = cg_scratch_ptr(cg, d->position);
    LLVMValueRef value = cg_load(cg, value_ptr);
    LLVMValueRef digit = cg_binary(cg, LLVMURem, value, cg_const(cg, d->base), "");
    LLVMValueRef letter = cg_add(cg, digit, cg_const(cg, (d->upper ? 'A' : 'a') - 10));
    LLVMValueRef c = cg_select(cg, cg_compare(cg, LLVMIntULT, digit, 10), cg_add(cg, digit, cg_const(cg, '0')), letter);
    LLVMValueRef position = cg_sub(cg, cg_load(cg, position_ptr), cg_const(cg, 1));
    put_char(cg, d->slot, position, c);
    cg_store(cg, position, position_ptr);
    LLVMValueRef rest = cg_udiv(cg, value, cg_const(cg, d->base));
    cg_store(cg, rest, value_ptr);
    LLVMBasicBlockRef done = cg_if_not(cg, cg_compare(cg, LLVMIntEQ, rest, 0), "more_digits", "digits_done");
    loop_continue(cg);
    cg_position(cg, done);
    loop_stop(cg);

}

/* The value's digits (unsigned, 64-bit) as a string pointer; their number
 * in *count. */
static LLVMValueRef render_digits(struct codegen *cg, struct span span, LLVMValueRef value, int base, int upper,
                                  LLVMValueRef *count)
{
    struct digit_state d = {.base = base, .upper = upper};
    d.slot = cg_alloc_string_slot(cg);
    d.value = cg_alloc_scratch(cg, 8);
    d.position = cg_alloc_scratch(cg, 8);
    cg_store(cg, value, cg_scratch_ptr(cg, d.value));
    cg_store(cg, cg_const(cg, DIGITS_END), cg_scratch_ptr(cg, d.position));
    put_char(cg, d.slot, cg_const(cg, DIGITS_END), cg_const(cg, 0));
    cg_bounded_loop(cg, span, cg_const(cg, 64), digit_body, &d);
    LLVMValueRef position = cg_load(cg, cg_scratch_ptr(cg, d.position));
    *count = cg_sub(cg, cg_const(cg, DIGITS_END), position);
    return char_ptr(cg, d.slot, position);
}

struct pad_state {
    struct output *out;
    int c;
};

static void pad_body(struct codegen *cg, LLVMValueRef index, void *data)
{
    struct pad_state *pad = data;
    (void)index;
    output_char(cg, pad->out, cg_const(cg, pad->c));
    loop_continue(cg);
}

/* count copies of c (none when count <= 0). */
static void output_pad(struct codegen *cg, struct span span, struct output *o, int c, LLVMValueRef count)
{
    if (LLVMIsAConstantInt(count) && LLVMConstIntGetSExtValue(count) <= 0)
        return;
    struct pad_state pad = {o, c};
    cg_bounded_loop(cg, span, count, pad_body, &pad);
}

/* A conversion's width and precision: i64 values, -1 when absent; '*'
 * values below 0 count as 0, as stap's compiled printf does. */
struct field {
    LLVMValueRef width, precision;
    struct span span;
};

static void render_number(struct codegen *cg, struct output *o, const struct format_piece *p, LLVMValueRef value,
                          struct field f)
{
    char conv = p->conv;
    int flags = p->flags & FORMAT_FLAG_MINUS ? p->flags & ~FORMAT_FLAG_ZERO : p->flags;
    int is_signed = conv == 'd' || conv == 'i';
    int base = conv == 'o' ? 8 : strchr("xXp", conv) ? 16 : 10;
    LLVMValueRef negative = is_signed ? cg_compare(cg, LLVMIntSLT, value, 0)
                                      : LLVMConstInt(cg->i1, 0, 0);
    int positive_sign = !is_signed ? 0 : flags & FORMAT_FLAG_PLUS ? '+' : flags & FORMAT_FLAG_SPACE ? ' ' : 0;
    LLVMValueRef sign = cg_select(cg, negative, cg_const(cg, '-'), cg_const(cg, positive_sign));
    LLVMValueRef has_sign = cg_compare(cg, LLVMIntNE, sign, 0);
    const char *prefix = "";
    if ((flags & FORMAT_FLAG_HASH) || conv == 'p')
        prefix = base == 16 ? (conv == 'X' ? "0X" : "0x") : base == 8 ? "0" : "";
    LLVMValueRef n;
    LLVMValueRef digits = render_digits(cg, f.span, cg_select(cg, negative, cg_neg(cg, value), value),
                                        base, conv == 'X', &n);
    LLVMValueRef precision = cg_select(cg, cg_compare_values(cg, LLVMIntSLT, f.precision, n), n, f.precision);
    LLVMValueRef size = cg_sub(cg, f.width, cg_widen(cg, has_sign));
    size = cg_sub(cg, size, cg_add(cg, cg_const(cg, (int64_t)strlen(prefix)), precision));
    if (!(flags & (FORMAT_FLAG_ZERO | FORMAT_FLAG_MINUS))) {
        output_pad(cg, f.span, o, ' ', size);
        size = cg_const(cg, 0);
    }
    LLVMBasicBlockRef after_sign = cg_if(cg, has_sign, "put_sign", "after_sign");
    output_char(cg, o, sign);
    cg_end_if(cg, after_sign);
    for (const char *c = prefix; *c; c++)
        output_char(cg, o, cg_const(cg, *c));
    if (!(flags & FORMAT_FLAG_MINUS)) {
        output_pad(cg, f.span, o, '0', size);
        size = cg_const(cg, 0);
    }
    output_pad(cg, f.span, o, '0', cg_sub(cg, precision, n));
    output_cstring(cg, o, digits);
    output_pad(cg, f.span, o, ' ', size);
}

/* Text of a known length, padded to the width (flags '-' and, for %m/%M, '0'). */
static void render_padded(struct codegen *cg, struct output *o, const struct format_piece *p, struct field f,
                          LLVMValueRef shown, void (*body)(struct codegen *cg, struct output *o, void *data),
                          void *data)
{
    LLVMValueRef room = cg_sub(cg, f.width, shown);
    if (!(p->flags & FORMAT_FLAG_MINUS))
        output_pad(cg, f.span, o, ' ', room);
    body(cg, o, data);
    if (p->flags & FORMAT_FLAG_MINUS)
        output_pad(cg, f.span, o, ' ', room);
}

static void char_body(struct codegen *cg, struct output *o, void *data)
{
    output_char(cg, o, *(LLVMValueRef *)data);
}

/* %#c: a quote, a backslash or a character that does not print is
 * escaped, by name (\n) or in octal (\001). */
struct escaped_char {
    LLVMValueRef c, name, octal;     /* name: the escape letter, or 0 */
};

static void escaped_body(struct codegen *cg, struct output *o, void *data)
{
    struct escaped_char *e = data;
    LLVMValueRef has_name = cg_compare(cg, LLVMIntNE, e->name, 0);
    struct cg_if_else escaped = cg_if_else(cg, cg_or(cg, has_name, e->octal), "char_escape", "char_plain", "char_done");
    output_char(cg, o, cg_const(cg, '\\'));
    struct cg_if_else by_name = cg_if_else(cg, has_name, "char_named", "char_octal", "char_escaped");
    output_char(cg, o, e->name);
    cg_else(cg, &by_name);
    for (int shift = 6; shift >= 0; shift -= 3) {
        LLVMValueRef digit = cg_and(cg, cg_lshr(cg, e->c, cg_const(cg, shift)), cg_const(cg, 7));
        output_char(cg, o, cg_add(cg, digit, cg_const(cg, '0')));
    }
    cg_end_if_else(cg, &by_name);
    cg_else(cg, &escaped);
    output_char(cg, o, e->c);
    cg_end_if_else(cg, &escaped);
}

static void render_escaped_char(struct codegen *cg, struct output *o, const struct format_piece *p, LLVMValueRef c,
                                struct field f)
{
    static const char from[] = "\a\b\f\n\r\t\v'\\", to[] = "abfnrtv'\\";
    struct escaped_char e = {.c = c, .name = cg_const(cg, 0)};
    for (int i = 0; from[i]; i++)
        e.name = cg_select(cg, cg_compare(cg, LLVMIntEQ, c, from[i]), cg_const(cg, to[i]), e.name);
    e.octal = cg_and(cg, cg_compare(cg, LLVMIntEQ, e.name, 0), cg_or(cg, cg_compare(cg, LLVMIntULT, c, 0x20), cg_compare(cg, LLVMIntUGE, c, 0x7f)));
    LLVMValueRef shown = cg_select(cg, e.octal, cg_const(cg, 4), cg_select(cg, cg_compare(cg, LLVMIntNE, e.name, 0), cg_const(cg, 2), cg_const(cg, 1)));
    render_padded(cg, o, p, f, shown, escaped_body, &e);
}

static void string_body(struct codegen *cg, struct output *o, void *data)
{
    output_cstring(cg, o, *(LLVMValueRef *)data);
}

/* %s with a '*' width or precision: s is a copy in a slot, cut at the precision. */
static void render_string(struct codegen *cg, struct output *o, const struct format_piece *p, LLVMValueRef s,
                          struct field f)
{
    LLVMValueRef length = cg_string_length(cg, s);
    LLVMValueRef cut = cg_and(cg, cg_compare(cg, LLVMIntSGE, f.precision, 0), cg_compare_values(cg, LLVMIntSLT, f.precision, length));
    length = cg_select(cg, cut, f.precision, length);
    LLVMValueRef end = mask(cg, length);
    cg_store(cg, LLVMConstInt(cg->i8, 0, 0), cg_byte_ptr(cg, s, end));
    render_padded(cg, o, p, f, length, string_body, &s);
}

struct bytes_state {
    struct output *out;
    uint32_t value;              /* %b: the number; %m/%M: the slot read */
    int hex;
};

static void binary_body(struct codegen *cg, LLVMValueRef index, void *data)
{
    struct bytes_state *s = data;
    LLVMValueRef shift = cg_mul(cg, index, cg_const(cg, 8));
    LLVMValueRef byte = cg_lshr(cg, cg_load(cg, cg_scratch_ptr(cg, s->value)), shift);
    output_char(cg, s->out, cg_and(cg, byte, cg_const(cg, 0xff)));
    loop_continue(cg);
}

static LLVMValueRef binary_size(struct codegen *cg, LLVMValueRef n, LLVMValueRef otherwise)
{
    LLVMValueRef ok = LLVMConstInt(cg->i1, 0, 0);
    for (int size = 1; size <= 8; size *= 2)
        ok = cg_or(cg, ok, cg_compare(cg, LLVMIntEQ, n, size));
    return cg_select(cg, ok, n, otherwise);
}

/* %b: the value's low bytes, little-endian: as many as the precision, else
 * the width, when 1, 2, 4 or 8, else 8; NULs pad to the width. */
static void render_binary(struct codegen *cg, struct output *o, const struct format_piece *p, LLVMValueRef value,
                          struct field f)
{
    LLVMValueRef size = binary_size(cg, f.precision, binary_size(cg, f.width, cg_const(cg, 8)));
    LLVMValueRef width = cg_select(cg, cg_compare(cg, LLVMIntSLT, f.width, 0), size, f.width);
    LLVMValueRef room = cg_sub(cg, width, size);
    struct bytes_state s = {o, cg_alloc_scratch(cg, 8), 0};
    cg_store(cg, value, cg_scratch_ptr(cg, s.value));
    if (!(p->flags & FORMAT_FLAG_MINUS))
        output_pad(cg, f.span, o, 0, room);
    cg_bounded_loop(cg, f.span, size, binary_body, &s);
    if (p->flags & FORMAT_FLAG_MINUS)
        output_pad(cg, f.span, o, 0, room);
}

static void memory_byte(struct codegen *cg, LLVMValueRef index, void *data)
{
    struct bytes_state *s = data;
    LLVMValueRef byte = char_at(cg, s->value, index);
    if (!s->hex) {
        output_char(cg, s->out, byte);
        loop_continue(cg);
        return;
    }
    for (int shift = 4; shift >= 0; shift -= 4) {
        LLVMValueRef digit = cg_and(cg, cg_lshr(cg, byte, cg_const(cg, shift)), cg_const(cg, 15));
        LLVMValueRef c = cg_select(cg, cg_compare(cg, LLVMIntULT, digit, 10), cg_add(cg, digit, cg_const(cg, '0')), cg_add(cg, digit, cg_const(cg, 'a' - 10)));
        output_char(cg, s->out, c);
    }
    loop_continue(cg);
}

struct memory_body {
    struct bytes_state bytes;
    LLVMValueRef count;
    struct span span;
};

static void memory_body(struct codegen *cg, struct output *o, void *data)
{
    struct memory_body *m = data;
    (void)o;
    cg_bounded_loop(cg, m->span, m->count, memory_byte, &m->bytes);
}

/* %m copies the bytes at a user address, %M writes them in hex: as many as
 * the precision (1 without one); the '0' flag adds a NUL. */
static void render_memory(struct codegen *cg, struct output *o, const struct format_piece *p, LLVMValueRef address,
                          struct field f)
{
    struct memory_body m = {.bytes = {o, 0, p->conv == 'M'}, .span = f.span};
    m.count = cg_select(cg, cg_compare(cg, LLVMIntSGT, f.precision, 0), f.precision, cg_const(cg, 1));
    m.bytes.value = cg_alloc_string_slot(cg);
    cg_user_bytes(cg, f.span, address, m.count, m.bytes.value);
    LLVMValueRef shown = p->conv == 'M' ? cg_mul(cg, m.count, cg_const(cg, 2)) : m.count;
    render_padded(cg, o, p, f, shown, memory_body, &m);
    if (p->flags & FORMAT_FLAG_ZERO)
        output_char(cg, o, cg_const(cg, 0));
}

static void render_piece(struct codegen *cg, struct output *o, const struct format_piece *p, LLVMValueRef value,
                         struct field f)
{
    switch (p->conv) {
    case 'c':
        value = cg_and(cg, value, cg_const(cg, 0xff));
        if (p->flags & FORMAT_FLAG_HASH)
            render_escaped_char(cg, o, p, value, f);
        else
            render_padded(cg, o, p, f, cg_const(cg, 1), char_body, &value);
        break;
    case 's': render_string(cg, o, p, value, f); break;
    case 'b': render_binary(cg, o, p, value, f); break;
    case 'm': case 'M': render_memory(cg, o, p, value, f); break;
    default: render_number(cg, o, p, value, f); break;
    }
}

/* A '*' value below 0 counts as 0 (stap's compiled printf); more than a
 * string holds pads or cuts no further. */
static LLVMValueRef star_value(struct codegen *cg, LLVMValueRef v)
{
    return cg_select(cg, cg_compare(cg, LLVMIntSLT, v, 0), cg_const(cg, 0), v);
}

/* One bpf_snprintf call for a run of pieces, appended to out. */
static void format_segment(struct codegen *cg, struct output *out, struct strbuf *text, uint32_t data, int count)
{
    if (!text->len)
        return;
    const char *translated = text->data;
    LLVMValueRef fmt = cg_string_literal(cg, translated, (int)strlen(translated) + 1);
    uint32_t piece = new_slot(cg);
    LLVMValueRef call_args[5] = {cg_scratch_ptr(cg, piece), LLVMConstInt(cg->i32, cg->string_size, 0), fmt,
                                 count ? cg_scratch_ptr(cg, data) : LLVMConstNull(cg->ptr),
                                 LLVMConstInt(cg->i32, 8 * (uint64_t)count, 0)};
    cg_helper(cg, BPF_FUNC_snprintf, cg->i64, call_args, 5);
    output_string(cg, out, piece);
    strbuf_reset(text);
}

/* The values of a format's arguments, in order, as the script wrote them;
 * strings copied into slots (sprintf may cut them). */
static int format_values(struct codegen *cg, struct expr *args, LLVMValueRef *values, int max)
{
    int count = 0;
    for (struct expr *arg = args; arg && count < max; arg = arg->next) {
        LLVMValueRef value = cg_operand(cg, arg);
        if (arg->type == TYPE_STRING)
            value = cg_scratch_ptr(cg, copy_to_slot(cg, value, NULL));
        values[count++] = value;
    }
    return count;
}

/* A literal width or precision, or the next value for a '*'. */
static LLVMValueRef field_value(struct codegen *cg, int star, int literal, LLVMValueRef *values, int *next, int count)
{
    if (!star)
        return cg_const(cg, literal);
    return *next < count ? star_value(cg, values[(*next)++]) : cg_const(cg, -1);
}

/* The kernel copies every %s of one bpf_snprintf call into a 512-byte
 * buffer and fails when they do not fit, so each %s gets a call of its own;
 * runs of numbers share one. */
static LLVMValueRef format_string(struct codegen *cg, struct expr *call, struct expr *format_expr,
                                  const char *format, struct expr *args)
{
    struct compiled_format compiled;
    char error[128];
    size_t offset;
    struct output out;
    output_start(cg, &out);
    if (format_compile(format, &compiled, error, sizeof(error), &offset) != 0) {
        diag_error(cg->diags, call->span, "invalid format: %s", error);
        return output_finish(cg, &out);
    }
    if (format_expr && cg_check_memory_sizes(cg, format_expr, &compiled) < 0) {
        format_free(&compiled);
        return output_finish(cg, &out);
    }
    LLVMValueRef values[64];
    int value_count = format_values(cg, args, values, 64);
    cg_set_location(cg, call->span);
    struct strbuf text;
    strbuf_init(&text);
    uint32_t data = cg_alloc_scratch(cg, 8 * MAX_SNPRINTF_ARGS);
    int count = 0, next = 0;
    for (int i = 0; i < compiled.piece_count; i++) {
        const struct format_piece *p = &compiled.pieces[i];
        int in_kernel = p->conv && kernel_formats(p);
        int alone = p->conv && (!in_kernel || p->conv == 's');
        if ((alone || count == MAX_SNPRINTF_ARGS) && text.len) {
            format_segment(cg, &out, &text, data, count);
            count = 0;
        }
        int truncate_to;
        translate_piece(p, &text, &truncate_to);
        if (!p->conv)
            continue;
        if (!in_kernel) {
            format_segment(cg, &out, &text, data, count);
            count = 0;
            struct field f = {.span = format_expr ? format_expr->span : call->span};
            f.width = field_value(cg, p->width_star, p->width, values, &next, value_count);
            f.precision = field_value(cg, p->precision_star, p->precision, values, &next, value_count);
            if (next < value_count)
                render_piece(cg, &out, p, values[next++], f);
            continue;
        }
        if (next >= value_count)
            continue;
        LLVMValueRef value = values[next++];
        if (p->conv == 's') {
            if (truncate_to >= 0 && (uint32_t)truncate_to < cg->string_size) {
                LLVMValueRef index = cg_const(cg, truncate_to);
                cg_store(cg, LLVMConstInt(cg->i8, 0, 0), cg_byte_ptr(cg, value, index));
            }
            value = cg_address(cg, value);
        }
        cg_store(cg, value, cg_scratch_ptr(cg, data + 8 * (uint32_t)count));
        count++;
        if (p->conv == 's') {
            format_segment(cg, &out, &text, data, count);
            count = 0;
        }
    }
    format_segment(cg, &out, &text, data, count);
    strbuf_free(&text);
    format_free(&compiled);
    return output_finish(cg, &out);
}

static LLVMValueRef sprint(struct codegen *cg, struct expr *call, int newline)
{
    struct strbuf format;
    strbuf_init(&format);
    for (struct expr *a = call->call.args; a; a = a->next) {
        if (a->type == TYPE_STATS) {
            diag_error(cg->diags, a->span, "a histogram makes a string alone: sprint(@hist_log(s)), with nothing else");
            strbuf_free(&format);
            return cg_string_literal(cg, "", 0);
        }
        strbuf_puts(&format, a->type == TYPE_STRING ? "%s" : "%d");
    }
    if (newline)
        strbuf_putc(&format, '\n');
    LLVMValueRef result = format_string(cg, call, NULL, format.data ? format.data : "", call->call.args);
    strbuf_free(&format);
    return result;
}

LLVMValueRef cg_string_builtin(struct codegen *cg, struct expr *call, int builtin_id)
{
    struct expr *a = call->call.args;
    LLVMValueRef v[3] = {NULL, NULL, NULL};
    switch (builtin_id) {
    case BUILTIN_SPRINTF:
        if (!a || a->kind != EXPR_STRING) {
            diag_error(cg->diags, call->span, "sprintf needs a literal format");
            return cg_string_literal(cg, "", 0);
        }
        return format_string(cg, call, a, a->string.value, a->next);
    case BUILTIN_SPRINT: return sprint(cg, call, 0);
    case BUILTIN_SPRINTLN: return sprint(cg, call, 1);
    default: break;
    }
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
        uint32_t slot = copy_to_slot(cg, v[0], &length);
        LLVMValueRef inside = cg_compare_values(cg, LLVMIntULT, v[1], length);
        return cg_select(cg, inside, char_at(cg, slot, v[1]), cg_const(cg, 0));
    }
    case BUILTIN_TOKENIZE: return tokenize(cg, call, v[0], v[1]);
    case BUILTIN_TEXT_STR: return text_str(cg, call->span, v[0], 0, NULL);
    case BUILTIN_TEXT_STRN: return text_strn(cg, call, v[0], v[1], v[2]);
    case BUILTIN_STRING_QUOTED: return text_str(cg, call->span, v[0], 1, NULL);
    }
    return cg_const(cg, 0);
}
