/* Arrays and statistics: one BPF hash map per global (per-CPU for
 * statistics, LRU for wrapping arrays `a%[N]`). Keys are built in scratch as
 * a struct of fields (i64, or string_size NUL-padded chars), so equal keys
 * hash equally whatever was in the slot before. */
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include <linux/bpf.h>

#include "codegen/codegen_internal.h"

/* arrays.c's state. */
struct arrays_state {
    LLVMValueRef seq_map;             /* tap_seq: the next insertion number */
    uint32_t insert_buffer;          /* scratch: a new element's value */
    const struct symbol *iterated[16];   /* arrays being walked by enclosing foreach loops */
    int iterated_depth;              /* how many of them */
};

static struct arrays_state *arrays_state(struct codegen *cg)
{
    if (!cg->arrays_state)
        cg->arrays_state = ARENA_NEW(cg->arena, struct arrays_state);
    return cg->arrays_state;
}

#define DEFAULT_MAX_ENTRIES 2048
#define E2BIG_ERRNO 7

/* Histogram kind and parameters of each statistic, and whether its variance
 * is read, from every extractor in the script: the `<<<` code must know
 * which buckets to count and whether to keep the variance's state. */
static void note_hist(struct codegen *cg, struct expr *e)
{
    struct cg_array *a = e->stat.operand->symbol ? cg_array_of(cg, e->stat.operand->symbol) : NULL;
    if (!a)
        return;
    if (e->stat.op == STAT_HIST_LOG) {
        if (a->hist == PROGRAM_HIST_LINEAR)
            diag_error(cg->diags, e->span, "statistic %s used with both @hist_log and @hist_linear",
                       a->symbol->name);
        a->hist = PROGRAM_HIST_LOG;
        return;
    }
    int64_t p[3];
    struct expr *arg = e->stat.args;
    for (int i = 0; i < 3; i++, arg = arg ? arg->next : NULL) {
        if (!ast_literal_int(arg, &p[i])) {
            diag_error(cg->diags, e->span, "@hist_linear needs literal start, stop and interval");
            return;
        }
    }
    if (p[2] <= 0 || p[1] <= p[0]) {
        diag_error(cg->diags, e->span, "@hist_linear needs start < stop and a positive interval");
        return;
    }
    /* stap's limit (STP_MAX_BUCKETS); it also keeps a per-CPU value small */
    if ((p[1] - p[0]) / p[2] > 128) {
        diag_error(cg->diags, e->span, "@hist_linear with %lld buckets: at most 128",
                   (long long)((p[1] - p[0]) / p[2]));
        return;
    }
    if (a->hist == PROGRAM_HIST_LOG ||
        (a->hist == PROGRAM_HIST_LINEAR &&
         (a->hist_start != p[0] || a->hist_stop != p[1] || a->hist_interval != p[2]))) {
        diag_error(cg->diags, e->span, "statistic %s used with different histograms", a->symbol->name);
        return;
    }
    a->hist = PROGRAM_HIST_LINEAR;
    a->hist_start = p[0];
    a->hist_stop = p[1];
    a->hist_interval = p[2];
}

/* @variance(s[, shift]): one literal shift (0 to 62) per statistic. */
static void note_variance(struct codegen *cg, struct cg_array *a, struct expr *shift, struct span span)
{
    if (!a)
        return;
    a->has_variance = 1;
    if (!shift)
        return;
    int64_t value;
    if (!ast_literal_int(shift, &value) || value < 0 || value > 62) {
        diag_error(cg->diags, shift->span, "@variance needs a literal shift from 0 to 62");
        return;
    }
    if (a->variance_shift_set && a->variance_shift != value)
        diag_error(cg->diags, span, "statistic %s used with different @variance shifts", a->symbol->name);
    a->variance_shift = (int)value;
    a->variance_shift_set = 1;
}

static void scan_expr(struct expr *e, void *data)
{
    struct codegen *cg = data;
    if (e->kind != EXPR_STAT)
        return;
    if (e->stat.op == STAT_HIST_LOG || e->stat.op == STAT_HIST_LINEAR)
        note_hist(cg, e);
    else if (e->stat.op == STAT_VARIANCE)
        note_variance(cg, cg_array_of(cg, e->stat.operand->symbol), e->stat.args, e->span);
}

static void scan_script(struct codegen *cg)
{
    const struct script *script = cg->script;
    for (int i = 0; i < script->probe_count; i++) {
        ast_visit_exprs(script->probes[i]->body, scan_expr, cg);
        ast_visit_expr(script->probes[i]->condition, scan_expr, cg);
    }
    for (int i = 0; i < script->function_count; i++)
        if (script->functions[i]->is_reachable)
            ast_visit_exprs(script->functions[i]->decl->function.body, scan_expr, cg);
}

struct cg_array *cg_array_of(struct codegen *cg, const struct symbol *sym)
{
    if (!sym || sym->kind != SYMBOL_GLOBAL || !cg->arrays)
        return NULL;
    return cg->arrays[sym->global_index];
}

void cg_define_arrays(struct codegen *cg)
{
    const struct script *script = cg->script;
    cg->arrays = ARENA_ARRAY(cg->arena, struct cg_array *, script->global_count + 1);
    int map_count = 0;
    for (int i = 0; i < script->global_count; i++) {
        const struct symbol *g = script->globals[i];
        if (!g->is_array && g->type != TYPE_STATS)
            continue;
        struct cg_array *a = ARENA_NEW(cg->arena, struct cg_array);
        cg->arrays[i] = a;
        a->symbol = g;
        a->map_index = map_count++;
        a->is_stats = g->type == TYPE_STATS;
        a->is_percpu = a->is_stats;
        uint32_t offset = 0;
        for (int k = 0; k < g->key_count; k++) {
            a->key_offsets[k] = offset;
            offset += g->key_types[k] == TYPE_STRING ? cg->string_size : 8;
        }
        a->is_scalar_stat = a->is_stats && !g->is_array;
        a->key_size = offset ? offset : 4;
        char name[64];
        snprintf(name, sizeof(name), "tap_g%d", i);
        a->map = cg_map_global(cg, name, 4);
    }
    scan_script(cg);
    uint32_t max_value = 0;
    for (int i = 0; i < script->global_count; i++) {
        struct cg_array *a = cg->arrays[i];
        if (!a)
            continue;
        if (a->hist == PROGRAM_HIST_LOG)
            a->bucket_count = 129;
        else if (a->hist == PROGRAM_HIST_LINEAR)
            a->bucket_count = (int)((a->hist_stop - a->hist_start) / a->hist_interval) + 3;
        if (a->is_stats)
            a->seq_offset = (uint32_t)(sizeof(struct stat_value) + 8 * (size_t)a->bucket_count);
        else
            a->seq_offset = a->symbol->type == TYPE_STRING ? cg->string_size : 8;
        a->value_size = a->seq_offset + 8;
        if (a->value_size > max_value)
            max_value = a->value_size;
    }
    if (!max_value)
        return;
    arrays_state(cg)->insert_buffer = cg_alloc_scratch(cg, max_value);
    arrays_state(cg)->seq_map = cg_map_global(cg, "tap_seq", 4);
}

static int64_t max_entries_of(struct codegen *cg, const struct symbol *g)
{
    if (g->max_entries > 0)
        return g->max_entries;
    if (g->type == TYPE_STATS && !g->is_array)
        return 1;
    return cg->options->max_map_entries > 0 ? cg->options->max_map_entries : DEFAULT_MAX_ENTRIES;
}

static void describe_map(struct codegen *cg, struct cg_array *a, const char *map_name)
{
    struct program *program = cg->program;
    const struct symbol *g = a->symbol;
    struct program_map *m = &program->maps[a->map_index];
    program->map_count++;
    m->name = strdup(g->name);
    m->map_name = strdup(map_name);
    m->decl_index = g->global_index;
    m->kind = a->is_stats ? PROGRAM_MAP_STATS
            : g->type == TYPE_STRING ? PROGRAM_MAP_STRING : PROGRAM_MAP_LONG;
    m->is_scalar = !g->is_array;
    m->key_count = g->key_count;
    for (int k = 0; k < g->key_count; k++) {
        m->key_kinds[k] = g->key_types[k] == TYPE_STRING ? FORMAT_ARG_STRING : FORMAT_ARG_LONG;
        m->key_offsets[k] = a->key_offsets[k];
    }
    m->key_size = a->key_size;
    m->value_size = a->value_size;
    m->seq_offset = a->seq_offset;
    m->print_at_end = sema_prints_at_end(g);
    m->hist = (enum program_hist_kind)a->hist;
    m->hist_start = a->hist_start;
    m->hist_stop = a->hist_stop;
    m->hist_interval = a->hist_interval;
    m->bucket_count = a->bucket_count;
}

/* BTF for each map, once value sizes are final; and the runtime's view. */
void cg_finish_arrays(struct codegen *cg)
{
    const struct script *script = cg->script;
    if (arrays_state(cg)->seq_map)
        cg_map_btf(cg, arrays_state(cg)->seq_map, BPF_MAP_TYPE_ARRAY, 1, 4, 8);
    cg->program->maps = calloc((size_t)script->global_count + 1, sizeof(*cg->program->maps));
    for (int i = 0; i < script->global_count; i++) {
        struct cg_array *a = cg->arrays[i];
        if (!a)
            continue;
        /* wrapping arrays evict their oldest element themselves (the kernel's
         * LRU maps evict in batches, before they are full) */
        int type = a->is_scalar_stat ? BPF_MAP_TYPE_PERCPU_ARRAY
                 : a->is_percpu ? BPF_MAP_TYPE_PERCPU_HASH : BPF_MAP_TYPE_HASH;
        cg_map_btf(cg, a->map, type, (uint64_t)max_entries_of(cg, a->symbol), a->key_size, a->value_size);
        const char *name = LLVMGetValueName(a->map);
        describe_map(cg, a, name);
    }
}

/* The key in a scratch area of its own (values first: evaluating an index
 * may use other keys' areas, never this one). */
LLVMValueRef cg_array_key(struct codegen *cg, struct cg_array *a, struct expr *indices)
{
    const struct symbol *g = a->symbol;
    LLVMValueRef values[MAX_ARRAY_KEYS];
    int count = 0;
    for (struct expr *k = indices; k && count < MAX_ARRAY_KEYS; k = k->next) {
        if (cg_is_wildcard(k))
            diag_error(cg->diags, k->span, "`*` matches keys only in foreach, delete and `in`");
        values[count++] = cg_operand(cg, k);
    }
    LLVMValueRef key = cg_scratch_ptr(cg, cg_alloc_scratch(cg, a->key_size));
    if (g->key_count == 0) {
        cg_store(cg, LLVMConstInt(cg->i32, 0, 0), key);
        return key;
    }
    for (int i = 0; i < count && i < g->key_count; i++) {
        LLVMValueRef field = cg_byte_at(cg, key, a->key_offsets[i]);
        if (g->key_types[i] == TYPE_STRING) {
            cg_zero(cg, field, cg->string_size);
            cg_string_copy(cg, field, values[i]);
        } else {
            cg_store(cg, values[i], field);
        }
    }
    return key;
}

/* stap's words: the declared limit, or MAXMAPENTRIES for the default one. */
static void raise_full(struct codegen *cg, struct cg_array *a, struct span span)
{
    char message[160];
    if (a->symbol->max_entries > 0)
        snprintf(message, sizeof(message), "Array overflow, check size limit (%lld)",
                 (long long)a->symbol->max_entries);
    else
        snprintf(message, sizeof(message), "Array overflow, check MAXMAPENTRIES");
    cg_raise_error(cg, span, message, cg_const(cg, 0));
}

/* long evict_scan(map, key, value, ctx): finds the element inserted first. */
static LLVMValueRef evict_callback(struct codegen *cg, struct cg_array *a, uint32_t best_key, uint32_t best_seq,
                                   uint32_t have, uint32_t cand_key, struct span span)
{
    struct fn_state state;
    LLVMValueRef fn = cg_begin_callback(cg, "evict_scan", 1, &state);
    cg_callback_entry(cg, &state, span, 0);
    LLVMBasicBlockRef run = cg_current_block(cg), skip = cg_block(cg, "skip"), take = cg_block(cg, "take");
    cg_position(cg, skip);
    cg_callback_return(cg, 0);
    cg_position(cg, run);
    cg_copy(cg, cg_scratch_ptr(cg, cand_key), LLVMGetParam(fn, 1), a->key_size);
    LLVMValueRef seq;
    if (a->is_stats) {
        seq = cg_stat_seq(cg, a, cg_scratch_ptr(cg, cand_key));
    } else {
        LLVMValueRef offset = cg_const(cg, a->seq_offset);
        seq = cg_load(cg, cg_byte_ptr(cg, LLVMGetParam(fn, 2), offset));
    }
    cg_jump_if(cg, cg_compare(cg, LLVMIntEQ, cg_load(cg, cg_scratch_ptr(cg, have)), 0), take, "check");
    LLVMValueRef older = cg_compare_values(cg, LLVMIntULT, seq, cg_load(cg, cg_scratch_ptr(cg, best_seq)));
    cg_branch_if(cg, older, take, skip);
    cg_position(cg, take);
    cg_store(cg, seq, cg_scratch_ptr(cg, best_seq));
    cg_store(cg, cg_const(cg, 1), cg_scratch_ptr(cg, have));
    cg_copy(cg, cg_scratch_ptr(cg, best_key), cg_scratch_ptr(cg, cand_key), a->key_size);
    cg_callback_return(cg, 0);
    cg_end_callback(cg, &state);
    cg_set_location(cg, span);
    return fn;
}

/* Evicting from a%[N]: the scan's scratch and callback, made once. */
struct eviction {
    uint32_t best_key, best_seq, have;
    LLVMValueRef callback;
};

static struct eviction eviction_of(struct codegen *cg, struct cg_array *a, struct span span)
{
    struct eviction e = {.best_key = cg_alloc_scratch(cg, a->key_size), .best_seq = cg_alloc_scratch(cg, 8),
                         .have = cg_alloc_scratch(cg, 8)};
    uint32_t cand_key = cg_alloc_scratch(cg, a->key_size);
    e.callback = evict_callback(cg, a, e.best_key, e.best_seq, e.have, cand_key, span);
    return e;
}

/* a%[N] is full: delete the element inserted first (O(N), only when full). */
static void evict_oldest(struct codegen *cg, struct cg_array *a, const struct eviction *e)
{
    cg_store(cg, cg_const(cg, 0), cg_scratch_ptr(cg, e->have));
    LLVMValueRef args[4] = {a->map, e->callback, LLVMConstNull(cg->ptr), cg_const(cg, 0)};
    cg_helper(cg, BPF_FUNC_for_each_map_elem, cg->i64, args, 4);
    LLVMValueRef found = cg_compare(cg, LLVMIntNE, cg_load(cg, cg_scratch_ptr(cg, e->have)), 0);
    LLVMBasicBlockRef done = cg_if(cg, found, "evict", "evicted");
    LLVMValueRef del[2] = {a->map, cg_scratch_ptr(cg, e->best_key)};
    cg_helper(cg, BPF_FUNC_map_delete_elem, cg->i64, del, 2);
    cg_end_if(cg, done);
}

/* map_update_elem's errno. Before 6.4 the verifier calls a map's update
 * directly and it returns int: the upper half of R0 is not its sign (6.1
 * gives -E2BIG as 0xfffffff9), so only the low 32 bits are compared. */
static LLVMValueRef is_map_full(struct codegen *cg, LLVMValueRef status)
{
    LLVMValueRef low = cg_u32(cg, status);
    return cg_compare_values(cg, LLVMIntEQ, low, LLVMConstInt(cg->i32, (uint64_t)-E2BIG_ERRNO, 1));
}

/* Evictions a wrapping array tries for one insert: CPUs inserting at once
 * find the same oldest element, and one CPU's freed slot can go to another. */
#define WRAP_EVICTIONS 4

/* The element for `key`, inserted as zero when missing; a full array is a
 * runtime error (a wrapping one evicts its oldest entry instead). The write
 * goes to a scratch copy, as if the element were made and at once deleted,
 * when another CPU deletes it between the insert and the lookup (delete
 * a[k], delete a), and when a wrapping array stays full through its
 * evictions (other CPUs took every freed slot): races, not overflows. */
LLVMValueRef cg_array_element(struct codegen *cg, struct cg_array *a, LLVMValueRef key, struct span span)
{
    LLVMValueRef found = cg_map_lookup(cg, a->map, key);
    LLVMBasicBlockRef start = cg_current_block(cg);
    LLVMBasicBlockRef insert = cg_block(cg, "elem_insert"), retry = cg_block(cg, "elem_retry"),
                      missing = cg_block(cg, "elem_missing"), done = cg_block(cg, "elem_done");
    cg_branch_if(cg, cg_is_null(cg, found), insert, done);

    cg_position(cg, insert);
    LLVMValueRef fresh = cg_scratch_ptr(cg, arrays_state(cg)->insert_buffer);
    cg_zero(cg, fresh, a->value_size);
    LLVMValueRef seq_index = cg_scratch_ptr(cg, arrays_state(cg)->insert_buffer + a->seq_offset);
    cg_store(cg, LLVMConstInt(cg->i32, 0, 0), seq_index);   /* key 0 of tap_seq */
    LLVMValueRef counter = cg_map_lookup(cg, arrays_state(cg)->seq_map, seq_index);
    cg_store(cg, cg_const(cg, 0), seq_index);
    LLVMBasicBlockRef numbered = cg_if_not(cg, cg_is_null(cg, counter), "number", "numbered");
    LLVMValueRef seq = cg_atomic_add(cg, counter, cg_const(cg, 1));
    cg_store(cg, cg_add(cg, seq, cg_const(cg, 1)), seq_index);
    cg_end_if(cg, numbered);
    LLVMValueRef status = cg_map_update(cg, a->map, key, fresh, BPF_NOEXIST);
    cg_continue_if(cg, is_map_full(cg, status), "elem_full", retry);
    if (a->symbol->wrap) {
        struct eviction eviction = eviction_of(cg, a, span);
        for (int i = 0; i < WRAP_EVICTIONS; i++) {
            evict_oldest(cg, a, &eviction);
            LLVMValueRef again = cg_map_update(cg, a->map, key, fresh, BPF_NOEXIST);
            cg_continue_if(cg, is_map_full(cg, again), "still_full", retry);
        }
        LLVMBuildBr(cg->builder, missing);
    } else {
        raise_full(cg, a, span);
    }

    cg_position(cg, retry);
    LLVMValueRef again = cg_map_lookup(cg, a->map, key);
    LLVMBasicBlockRef retry_end = cg_current_block(cg);
    cg_branch_if(cg, cg_is_null(cg, again), missing, done);
    cg_position(cg, missing);
    LLVMValueRef scratch_copy = cg_scratch_ptr(cg, arrays_state(cg)->insert_buffer);
    LLVMBasicBlockRef missing_end = cg_current_block(cg);
    LLVMBuildBr(cg->builder, done);

    cg_position(cg, done);
    LLVMValueRef phi = LLVMBuildPhi(cg->builder, cg->ptr, "elem");
    LLVMValueRef values[3] = {found, again, scratch_copy};
    LLVMBasicBlockRef blocks[3] = {start, retry_end, missing_end};
    LLVMAddIncoming(phi, values, blocks, 3);
    return phi;

}

/* A foreach over `array` generates its body: the previous nesting, for
 * cg_iteration_end(). */
int cg_iteration_begin(struct codegen *cg, const struct symbol *array)
{
    struct arrays_state *s = arrays_state(cg);
    int depth = s->iterated_depth;
    if (depth < 16)
        s->iterated[s->iterated_depth++] = array;
    return depth;
}

void cg_iteration_end(struct codegen *cg, int depth)
{
    arrays_state(cg)->iterated_depth = depth;
}

/* The spec forbids modifying an array inside its own foreach (where it can
 * be seen: the loop body itself, not functions it calls). */
void cg_check_not_iterated
(struct codegen *cg, const struct symbol *array, struct span span)
{
    for (int i = 0; i < arrays_state(cg)->iterated_depth; i++)
        if (arrays_state(cg)->iterated[i] == array) {

            diag_error(cg->diags, span, "array %s modified inside a foreach over it", array->name);
            return;
        }
}

LLVMValueRef cg_array_lvalue(struct codegen *cg, struct expr *e)
{
    struct cg_array *a = cg_array_of(cg, e->symbol);
    cg_check_not_iterated(cg, e->symbol, e->span);
    LLVMValueRef key = cg_array_key(cg, a, e->index.indices);
    cg_set_location(cg, e->span);
    return cg_array_element(cg, a, key, e->span);
}

/* a[k]: 0 or "" when missing. Strings are copied out: the element may be
 * deleted while the value is still in use. */
LLVMValueRef cg_array_read(struct codegen *cg, struct expr *e)
{
    struct cg_array *a = cg_array_of(cg, e->symbol);
    if (!a || a->is_stats) {
        diag_error(cg->diags, e->span, "statistics can only be read with an extractor such as @count");
        return cg_const(cg, 0);
    }
    LLVMValueRef key = cg_array_key(cg, a, e->index.indices);
    cg_set_location(cg, e->span);
    LLVMValueRef found = cg_map_lookup(cg, a->map, key);
    int is_string = a->symbol->type == TYPE_STRING;
    LLVMValueRef slot = is_string ? cg_scratch_ptr(cg, cg_alloc_string_slot(cg)) : NULL;
    struct cg_if_else branch = cg_if_present(cg, found, "read_hit", "read_miss", "read_done");
    LLVMValueRef value = NULL;
    if (is_string)
        cg_string_copy(cg, slot, found);
    else
        value = cg_load(cg, found);
    LLVMBasicBlockRef hit_end = cg_current_block(cg);
    cg_else(cg, &branch);
    if (is_string)
        cg_store(cg, LLVMConstInt(cg->i8, 0, 0), slot);
    cg_end_if_else(cg, &branch);
    if (is_string)
        return slot;
    return cg_phi2(cg, cg->i64, "", value, hit_end, cg_const(cg, 0), branch.otherwise);
}

int cg_is_wildcard(const struct expr *e)
{
    return e->kind == EXPR_IDENT && strcmp(e->ident.name, "*") == 0;
}

int cg_has_wildcard(const struct expr *indices)
{
    for (; indices; indices = indices->next)
        if (cg_is_wildcard(indices))
            return 1;
    return 0;
}

/* The non-wildcard indices, evaluated once, into a key of their own (in
 * scratch: the offset is returned); wildcard[k] tells which are `*`. */
uint32_t cg_slice_key(struct codegen *cg, struct cg_array *a, struct expr *indices, int *wildcard)
{
    uint32_t slice = cg_alloc_scratch(cg, a->key_size);
    int k = 0;
    for (struct expr *e = indices; e && k < MAX_ARRAY_KEYS; e = e->next, k++) {
        wildcard[k] = cg_is_wildcard(e);
        if (wildcard[k])
            continue;
        LLVMValueRef value = cg_operand(cg, e);
        LLVMValueRef field = cg_byte_at(cg, cg_scratch_ptr(cg, slice), a->key_offsets[k]);
        if (a->symbol->key_types[k] == TYPE_STRING) {
            cg_zero(cg, field, cg->string_size);
            cg_string_copy(cg, field, value);
        } else {
            cg_store(cg, value, field);
        }
    }
    return slice;
}

/* Inside a map callback: goes on when `key` has the slice's non-wildcard
 * keys, else branches to `differ`. */
void cg_slice_match(struct codegen *cg, struct cg_array *a, LLVMValueRef key, uint32_t slice, const int *wildcard,
                    LLVMBasicBlockRef differ)
{
    for (int k = 0; k < a->symbol->key_count; k++) {
        if (wildcard[k])
            continue;
        LLVMValueRef x = cg_byte_at(cg, key, a->key_offsets[k]);
        LLVMValueRef y = cg_byte_at(cg, cg_scratch_ptr(cg, slice), a->key_offsets[k]);
        LLVMValueRef same = a->symbol->key_types[k] == TYPE_STRING
            ? cg_compare(cg, LLVMIntEQ, cg_string_compare(cg, x, y), 0)
            : cg_compare_values(cg, LLVMIntEQ, cg_load(cg, x), cg_load(cg, y));
        cg_continue_if(cg, same, "slice_match", differ);
    }
}

/* `[k, *] in a` and `delete a[k, *]`: one bpf_for_each_map_elem walk whose
 * callback matches each element against the slice; it deletes every match
 * (hash maps allow deleting the element being visited), or stops at the
 * first one and notes it. Returns whether one matched (`in`). */
static LLVMValueRef slice_walk(struct codegen *cg, struct cg_array *a, struct expr *indices, struct span span,
                               int delete_matches)
{
    int wildcard[MAX_ARRAY_KEYS] = {0};
    uint32_t slice = cg_slice_key(cg, a, indices, wildcard);
    uint32_t found = cg_alloc_scratch(cg, 8);
    cg_store(cg, cg_const(cg, 0), cg_scratch_ptr(cg, found));
    struct fn_state state;
    LLVMValueRef fn = cg_begin_callback(cg, delete_matches ? "delete_slice" : "in_slice", 1, &state);
    cg_callback_entry(cg, &state, span, 0);
    LLVMBasicBlockRef run = cg_current_block(cg), skip = cg_block(cg, "skip");
    cg_position(cg, skip);
    cg_callback_return(cg, 0);
    cg_position(cg, run);
    cg_slice_match(cg, a, LLVMGetParam(fn, 1), slice, wildcard, skip);
    if (delete_matches) {
        LLVMValueRef args[2] = {LLVMGetParam(fn, 0), LLVMGetParam(fn, 1)};
        cg_helper(cg, BPF_FUNC_map_delete_elem, cg->i64, args, 2);
        cg_callback_return(cg, 0);
    } else {
        cg_store(cg, cg_const(cg, 1), cg_scratch_ptr(cg, found));
        cg_callback_return(cg, 1);
    }
    cg_end_callback(cg, &state);
    cg_set_location(cg, span);
    LLVMValueRef args[4] = {a->map, fn, LLVMConstNull(cg->ptr), cg_const(cg, 0)};
    cg_helper(cg, BPF_FUNC_for_each_map_elem, cg->i64, args, 4);
    return cg_load(cg, cg_scratch_ptr(cg, found));
}

LLVMValueRef cg_array_in(struct codegen *cg, struct expr *e)
{
    struct cg_array *a = cg_array_of(cg, e->symbol);
    if (!a) {
        diag_error(cg->diags, e->span, "`in` needs an array");
        return cg_const(cg, 0);
    }
    if (cg_has_wildcard(e->in.keys))
        return slice_walk(cg, a, e->in.keys, e->span, 0);
    LLVMValueRef key = cg_array_key(cg, a, e->in.keys);
    cg_set_location(cg, e->span);
    LLVMValueRef found = cg_map_lookup(cg, a->map, key);
    return cg_widen(cg, cg_is_not_null(cg, found));
}

/* long delete_one(map, key, value, ctx): bpf_for_each_map_elem's callback
 * for `delete a`; hash maps allow deleting the element being visited. */
static LLVMValueRef delete_callback(struct codegen *cg, struct span span)
{
    struct fn_state state;
    LLVMValueRef fn = cg_begin_callback(cg, "delete_all", 1, &state);
    cg_position(cg, cg_block(cg, "entry"));
    cg_set_location(cg, (struct span){.line = 1, .col = 1});
    LLVMValueRef args[2] = {LLVMGetParam(fn, 0), LLVMGetParam(fn, 1)};
    cg_helper(cg, BPF_FUNC_map_delete_elem, cg->i64, args, 2);
    cg_callback_return(cg, 0);
    cg_end_callback(cg, &state);
    cg_set_location(cg, span);
    return fn;
}

void cg_delete(struct codegen *cg, struct stmt *st)
{
    struct expr *e = st->expr;
    struct cg_array *a = cg_array_of(cg, e->symbol);
    if (a)
        cg_check_not_iterated(cg, e->symbol, e->span);
    if (e->kind == EXPR_INDEX && a && cg_has_wildcard(e->index.indices)) {
        slice_walk(cg, a, e->index.indices, st->span, 1);
        return;
    }
    if (e->kind == EXPR_INDEX && a) {
        LLVMValueRef key = cg_array_key(cg, a, e->index.indices);
        cg_set_location(cg, st->span);
        LLVMValueRef args[2] = {a->map, key};
        cg_helper(cg, BPF_FUNC_map_delete_elem, cg->i64, args, 2);
        return;
    }
    if (e->kind != EXPR_IDENT || !e->symbol) {
        diag_error(cg->diags, st->span, "delete needs a variable, an array or an array element");
        return;
    }
    if (a && a->symbol->is_array) {
        LLVMValueRef callback = delete_callback(cg, st->span);
        cg_set_location(cg, st->span);
        LLVMValueRef args[4] = {a->map, callback, LLVMConstNull(cg->ptr), cg_const(cg, 0)};
        cg_helper(cg, BPF_FUNC_for_each_map_elem, cg->i64, args, 4);
        return;
    }
    if (a) {   /* a scalar statistic: every CPU's element back to zero */
        cg_stat_reset(cg, a, cg_array_key(cg, a, NULL));
        return;
    }
    const struct symbol *sym = e->symbol;
    LLVMValueRef ptr = sym->kind == SYMBOL_GLOBAL ? cg_global_ptr(cg, sym) : cg_local_ptr(cg, sym);
    if (sym->type == TYPE_STRING)
        cg_store(cg, LLVMConstInt(cg->i8, 0, 0), ptr);
    else
        cg_store(cg, cg_const(cg, 0), ptr);
}
