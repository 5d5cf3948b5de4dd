/* a . b . c: every part of the chain appended in turn to one slot
 * (cg_string_append), a user function's result read where it was returned. */
#include <string.h>

#include "base/strbuf.h"
#include "codegen/codegen_internal.h"

static int is_concat(const struct expr *e)
{
    return e->kind == EXPR_BINARY && e->binary.op == BINARY_CONCAT;
}

/* The operands of a chain of `.`, left to right; their number. */
static int concat_parts(struct expr *e, struct expr **parts, int count)
{
    if (!is_concat(e)) {
        if (parts)
            parts[count] = e;
        return count + 1;
    }
    return concat_parts(e->binary.rhs, parts, concat_parts(e->binary.lhs, parts, count));
}

/* A part's value, appended at once: a user function's result is read in
 * its own return slot (nothing runs before the append to reuse it). */
static LLVMValueRef part_value(struct codegen *cg, struct expr *part)
{
    if (part->kind == EXPR_CALL && !cg_is_builtin_call(part))
        return cg_call_user_result(cg, part);
    return cg_operand(cg, part);
}

static int is_plain_literal(const struct expr *e)
{
    return e->kind == EXPR_STRING && !memchr(e->string.value, 0, (size_t)e->string.len);
}

/* Part i's value, with the literals right after it when it is one: "a" .
 * "b" is appended as "ab", one copy (a pretty printer's chain has many).
 * Returns the index of the last part it took. */
static int part_run(struct codegen *cg, struct expr **parts, int count, int i, LLVMValueRef *value)
{
    int last = i;
    while (is_plain_literal(parts[i]) && last + 1 < count && is_plain_literal(parts[last + 1]))
        last++;
    if (last == i) {
        *value = part_value(cg, parts[i]);
        return i;
    }
    struct strbuf text;
    strbuf_init(&text);
    for (int k = i; k <= last; k++)
        strbuf_append(&text, parts[k]->string.value, (size_t)parts[k]->string.len);
    *value = cg_string_literal(cg, text.data ? text.data : "", (int)text.len);
    strbuf_free(&text);
    return last;
}

LLVMValueRef cg_concat(struct codegen *cg, struct expr *e, LLVMValueRef into)
{
    int count = concat_parts(e, NULL, 0);
    struct expr **parts = ARENA_ARRAY(cg->arena, struct expr *, count);
    concat_parts(e, parts, 0);
    LLVMValueRef slot = into ? into : cg_scratch_ptr(cg, cg_alloc_string_slot(cg));
    LLVMValueRef length = NULL;
    for (int i = 0; i < count; i++) {
        LLVMValueRef value;
        i = part_run(cg, parts, count, i, &value);
        cg_set_location(cg, e->span);
        length = cg_string_append(cg, slot, length, value);
    }
    return slot;
}

LLVMValueRef cg_concat_onto(struct codegen *cg, LLVMValueRef target, struct expr *e, int split)
{
    int count = split ? concat_parts(e, NULL, 0) : 1;
    struct expr **parts = ARENA_ARRAY(cg->arena, struct expr *, count);
    LLVMValueRef whole = NULL;
    if (split)
        concat_parts(e, parts, 0);
    else
        whole = cg_operand(cg, e);
    cg_set_location(cg, e->span);
    /* its length: the string copied onto itself (byte by byte, unchanged) */
    LLVMValueRef length = cg_string_append(cg, target, NULL, target);
    for (int i = 0; i < count; i++) {
        LLVMValueRef value = whole;
        if (!whole)
            i = part_run(cg, parts, count, i, &value);
        cg_set_location(cg, e->span);
        length = cg_string_append(cg, target, length, value);
    }
    return target;
}
