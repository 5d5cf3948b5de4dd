/* foreach, all of it in BPF. Every form is one sorted walk: the elements
 * are put in a total order (the sort column with its direction, then the
 * insertion number: without a sort column, insertion order, which is what
 * stap's unsorted foreach and its stable sort give), and each iteration
 * selects the smallest element after the previous one with one
 * bpf_for_each_map_elem scan. That is O(n^2) map visits, but it needs only
 * two keys of scratch whatever the array size, the body runs in the probe
 * with its variables (break, continue, next, nested foreach, calls), and
 * `limit N` stops after N scans. The walk is a bpf_loop (stmt.c), so the
 * verifier sees each piece once. */
#include <stdio.h>
#include <string.h>

#include <linux/bpf.h>

#include "codegen/codegen_internal.h"

enum sort_by { SORT_INSERTION, SORT_KEY, SORT_VALUE };

struct walk {
    struct stmt *st;
    struct cg_array *a;
    enum sort_by by;
    int key;                     /* SORT_KEY: which */
    int direction;               /* +1 ascending, -1 descending */
    enum stat_op stat;           /* SORT_VALUE on statistics */
    int value_is_string;
    uint32_t sort_size;          /* bytes of a sort value */
    /* scratch offsets */
    uint32_t last_key, best_key, cand_key, last_sort, best_sort, cand_sort;
    uint32_t last_seq, best_seq, cand_seq;
    uint32_t have_last, have_best, count, limit, slice;
    int has_limit;
    int wildcard[MAX_ARRAY_KEYS];
};

static LLVMValueRef at(struct codegen *cg, uint32_t offset)
{
    return cg_scratch_ptr(cg, offset);
}

static LLVMValueRef sign(struct codegen *cg, LLVMValueRef a, LLVMValueRef b)
{
    LLVMValueRef gt = cg_widen(cg, cg_compare_values(cg, LLVMIntSGT, a, b));
    LLVMValueRef lt = cg_widen(cg, cg_compare_values(cg, LLVMIntSLT, a, b));
    return cg_sub(cg, gt, lt);
}

static LLVMValueRef compare_key(struct codegen *cg, struct walk *w, int k, LLVMValueRef x, LLVMValueRef y)
{
    const struct symbol *g = w->a->symbol;
    LLVMValueRef fx = cg_byte_at(cg, x, w->a->key_offsets[k]), fy = cg_byte_at(cg, y, w->a->key_offsets[k]);
    if (g->key_types[k] == TYPE_STRING)
        return cg_string_compare(cg, fx, fy);
    return sign(cg, cg_load(cg, fx), cg_load(cg, fy));
}

/* <0, 0, >0: where element x (key, sort value, insertion number) stands
 * before element y. The insertion number is compared only when the sort
 * column ties: a chain, not a tree of paths for the verifier. */
static LLVMValueRef compare(struct codegen *cg, struct walk *w, LLVMValueRef x_key, LLVMValueRef x_sort,
                            LLVMValueRef x_seq, LLVMValueRef y_key, LLVMValueRef y_sort, LLVMValueRef y_seq)
{
    if (w->by == SORT_INSERTION)
        return sign(cg, cg_load(cg, x_seq), cg_load(cg, y_seq));
    LLVMValueRef c;
    if (w->by == SORT_VALUE)
        c = w->value_is_string ? cg_string_compare(cg, x_sort, y_sort) : sign(cg, cg_load(cg, x_sort), cg_load(cg, y_sort));
    else
        c = compare_key(cg, w, w->key, x_key, y_key);
    if (w->direction < 0)
        c = cg_neg(cg, c);
    LLVMBasicBlockRef first = cg_current_block(cg);
    LLVMBasicBlockRef done = cg_if_not(cg, cg_compare(cg, LLVMIntNE, c, 0), "compare_tie", "compared");
    LLVMBasicBlockRef tie = cg_current_block(cg);
    LLVMValueRef by_seq = sign(cg, cg_load(cg, x_seq), cg_load(cg, y_seq));
    cg_end_if(cg, done);
    return cg_phi2(cg, cg->i64, "order", c, first, by_seq, tie);
}

/* The element's sort value into cand_sort. */
static void candidate_sort_value(struct codegen *cg, struct walk *w, LLVMValueRef value)
{
    LLVMValueRef seq = w->a->is_stats ? cg_stat_seq(cg, w->a, at(cg, w->cand_key))
                                      : cg_load(cg, cg_element_ptr(cg, cg->i8, value,
                                                               (LLVMValueRef[]){cg_const(cg, w->a->seq_offset)}, 1, ""));
    cg_store(cg, seq, at(cg, w->cand_seq));
    if (w->by != SORT_VALUE)
        return;
    LLVMValueRef to = at(cg, w->cand_sort);
    if (w->a->is_stats)
        cg_store(cg, cg_stat_value(cg, w->a, at(cg, w->cand_key), w->stat), to);
    else if (w->value_is_string)
        cg_string_copy(cg, to, value);
    else
        cg_store(cg, cg_load(cg, value), to);
}

/* long scan(map, key, value, ctx): keeps the smallest element after `last`. */
static LLVMValueRef scan_callback(struct codegen *cg, struct walk *w)
{
    struct fn_state state;
    LLVMValueRef fn = cg_begin_callback(cg, "foreach_scan", 1, &state);
    cg_callback_entry(cg, &state, w->st->span, 0);
    LLVMBasicBlockRef run = cg_current_block(cg), skip = cg_block(cg, "skip");
    cg_position(cg, skip);
    cg_callback_return(cg, 0);
    cg_position(cg, run);

    LLVMValueRef cand_key = at(cg, w->cand_key);
    cg_copy(cg, cand_key, LLVMGetParam(fn, 1), w->a->key_size);
    if (w->st->foreach.slice)
        cg_slice_match(cg, w->a, cand_key, w->slice, w->wildcard, skip);
    candidate_sort_value(cg, w, LLVMGetParam(fn, 2));
    LLVMValueRef cand_sort = at(cg, w->cand_sort);

    LLVMBasicBlockRef after_last = cg_block(cg, "after_last");
    cg_continue_if(cg, cg_compare(cg, LLVMIntNE, cg_load(cg, at(cg, w->have_last)), 0), "check_last", after_last);
    LLVMValueRef cand_seq = at(cg, w->cand_seq);
    LLVMValueRef vs_last = compare(cg, w, cand_key, cand_sort, cand_seq, at(cg, w->last_key), at(cg, w->last_sort),
                                   at(cg, w->last_seq));
    cg_branch_if(cg, cg_compare(cg, LLVMIntSLE, vs_last, 0), skip, after_last);

    cg_position(cg, after_last);
    LLVMBasicBlockRef take = cg_block(cg, "take");
    cg_continue_if(cg, cg_compare(cg, LLVMIntNE, cg_load(cg, at(cg, w->have_best)), 0), "check_best", take);
    LLVMValueRef vs_best = compare(cg, w, at(cg, w->cand_key), at(cg, w->cand_sort), at(cg, w->cand_seq),
                                   at(cg, w->best_key), at(cg, w->best_sort), at(cg, w->best_seq));
    cg_branch_if(cg, cg_compare(cg, LLVMIntSGE, vs_best, 0), skip, take);

    cg_position(cg, take);
    cg_copy(cg, at(cg, w->best_key), at(cg, w->cand_key), w->a->key_size);
    cg_store(cg, cg_load(cg, at(cg, w->cand_seq)), at(cg, w->best_seq));
    if (w->by == SORT_VALUE)
        cg_copy(cg, at(cg, w->best_sort), cand_sort, w->sort_size);
    cg_store(cg, cg_const(cg, 1), at(cg, w->have_best));
    cg_callback_return(cg, 0);

    cg_end_callback(cg, &state);
    cg_set_location(cg, w->st->span);
    return fn;
}

/* Runs first in each iteration: find the next element, set the loop
 * variables; false when the walk is over. */
static LLVMValueRef next_element(struct codegen *cg, void *data)
{
    struct walk *w = data;
    struct stmt *st = w->st;
    LLVMBasicBlockRef start = cg_current_block(cg);
    LLVMBasicBlockRef scan = cg_block(cg, "foreach_scan"), found = cg_block(cg, "foreach_found"),
                      done = cg_block(cg, "foreach_next_done");
    LLVMValueRef more = cg_const(cg, 1);
    if (w->has_limit) {
        LLVMValueRef count = cg_load(cg, at(cg, w->count));
        more = cg_compare_values(cg, LLVMIntSLT, count, cg_load(cg, at(cg, w->limit)));
        cg_store(cg, cg_add(cg, count, cg_const(cg, 1)), at(cg, w->count));
    } else {
        more = LLVMConstInt(cg->i1, 1, 0);
    }
    cg_branch_if(cg, more, scan, done);

    cg_position(cg, scan);
    cg_store(cg, cg_const(cg, 0), at(cg, w->have_best));
    LLVMValueRef args[4] = {w->a->map, scan_callback(cg, w), LLVMConstNull(cg->ptr), cg_const(cg, 0)};
    cg_helper(cg, BPF_FUNC_for_each_map_elem, cg->i64, args, 4);
    LLVMValueRef have = cg_compare(cg, LLVMIntNE, cg_load(cg, at(cg, w->have_best)), 0);
    LLVMBasicBlockRef scan_end = cg_current_block(cg);
    cg_branch_if(cg, have, found, done);

    cg_position(cg, found);
    LLVMValueRef best = at(cg, w->best_key);
    cg_copy(cg, at(cg, w->last_key), best, w->a->key_size);
    cg_store(cg, cg_load(cg, at(cg, w->best_seq)), at(cg, w->last_seq));
    if (w->by == SORT_VALUE)
        cg_copy(cg, at(cg, w->last_sort), at(cg, w->best_sort), w->sort_size);
    cg_store(cg, cg_const(cg, 1), at(cg, w->have_last));
    int k = 0;
    for (struct foreach_key *fk = st->foreach.keys; fk; fk = fk->next, k++) {
        if (!fk->symbol)
            continue;
        LLVMValueRef field = cg_byte_at(cg, best, w->a->key_offsets[k]);
        if (fk->symbol->type == TYPE_STRING)
            cg_string_copy(cg, cg_local_ptr(cg, fk->symbol), field);
        else
            cg_store(cg, cg_load(cg, field), cg_local_ptr(cg, fk->symbol));
    }
    const struct symbol *v = st->foreach.value_symbol;
    if (v) {
        LLVMValueRef to = cg_local_ptr(cg, v);
        if (w->a->is_stats) {
            cg_store(cg, cg_stat_value(cg, w->a, best, w->stat), to);
        } else {
            LLVMValueRef elem = cg_map_lookup(cg, w->a->map, best);
            LLVMBasicBlockRef miss = cg_if_not(cg, cg_is_null(cg, elem), "value_hit", "value_miss");
            if (v->type == TYPE_STRING)
                cg_string_copy(cg, to, elem);
            else
                cg_store(cg, cg_load(cg, elem), to);
            cg_end_if(cg, miss);

        }
    }
    LLVMBasicBlockRef found_end = cg_current_block(cg);
    cg_branch(cg, done);

    cg_position(cg, done);
    LLVMValueRef phi = cg_phi(cg, cg->i1, "more");
    LLVMValueRef values[3] = {LLVMConstInt(cg->i1, 0, 0), LLVMConstInt(cg->i1, 0, 0), LLVMConstInt(cg->i1, 1, 0)};
    LLVMBasicBlockRef blocks[3] = {start, scan_end, found_end};
    LLVMAddIncoming(phi, values, blocks, 3);
    return phi;
}

static int plan(struct codegen *cg, struct stmt *st, struct walk *w)
{
    w->st = st;
    w->a = cg_array_of(cg, st->foreach.array->symbol);
    if (!w->a || !w->a->symbol->is_array) {
        diag_error(cg->diags, st->span, "foreach needs an array");
        return 0;
    }
    w->direction = 1;
    w->by = SORT_INSERTION;
    int k = 0;
    for (struct foreach_key *fk = st->foreach.keys; fk; fk = fk->next, k++)
        if (fk->sort) {
            w->by = SORT_KEY;
            w->key = k;
            w->direction = fk->sort;
        }
    if (st->foreach.value_sort) {
        w->by = SORT_VALUE;
        w->direction = st->foreach.value_sort;
    }
    w->stat = st->foreach.has_sort_stat ? st->foreach.sort_stat : STAT_COUNT;
    w->value_is_string = !w->a->is_stats && w->a->symbol->type == TYPE_STRING;
    w->sort_size = w->value_is_string ? cg->string_size : 8;
    uint32_t key_size = w->a->key_size;
    w->last_key = cg_alloc_scratch(cg, key_size);
    w->best_key = cg_alloc_scratch(cg, key_size);
    w->cand_key = cg_alloc_scratch(cg, key_size);
    w->last_sort = cg_alloc_scratch(cg, w->sort_size);
    w->best_sort = cg_alloc_scratch(cg, w->sort_size);
    w->cand_sort = cg_alloc_scratch(cg, w->sort_size);
    w->last_seq = cg_alloc_scratch(cg, 8);
    w->best_seq = cg_alloc_scratch(cg, 8);
    w->cand_seq = cg_alloc_scratch(cg, 8);
    w->have_last = cg_alloc_scratch(cg, 8);
    w->have_best = cg_alloc_scratch(cg, 8);
    w->count = cg_alloc_scratch(cg, 8);
    w->limit = cg_alloc_scratch(cg, 8);
    return 1;
}

void cg_foreach(struct codegen *cg, struct stmt *st)
{
    struct walk *w = ARENA_NEW(cg->arena, struct walk);
    if (!plan(cg, st, w))
        return;
    if (st->foreach.slice)
        w->slice = cg_slice_key(cg, w->a, st->foreach.slice, w->wildcard);
    if (st->foreach.limit) {
        w->has_limit = 1;
        LLVMValueRef limit = cg_operand(cg, st->foreach.limit);
        cg_store(cg, limit, at(cg, w->limit));
        cg_store(cg, cg_const(cg, 0), at(cg, w->count));
    }
    cg_set_location(cg, st->span);
    cg_store(cg, cg_const(cg, 0), at(cg, w->have_last));
    int depth = cg_iteration_begin(cg, w->a->symbol);
    cg_loop(cg, st, st->foreach.body, NULL, next_element, w);
    cg_iteration_end(cg, depth);

}
