/* Statistics. `s <<< v` updates this CPU's element of a per-CPU hash map
 * (struct stat_value, then histogram buckets): no atomics on the hot path,
 * and every CPU's updates count exactly. Extractors read inside probes too
 * (`if (@count(s) == 2000) exit()`): they sum every CPU's element with
 * bpf_map_lookup_percpu_elem (kernel >= 5.19) in a loop bounded by the
 * number of possible CPUs. Printing a histogram sends a RECORD_HIST record
 * carrying the summed buckets: user space formats it, in order with other
 * output. */
#include <stddef.h>
#include <stdio.h>

#include <bpf/libbpf.h>
#include <linux/bpf.h>

#include "codegen/codegen_internal.h"

/* stats.c's state. */
struct stats_state {
    uint32_t hist_record, hist_key;  /* a printed histogram's image and key in scratch, shared by
                                      * every print (one ends before the next starts), 0 until used */
};

static struct stats_state *stats_state(struct codegen *cg)
{
    if (!cg->stats)
        cg->stats = ARENA_NEW(cg->arena, struct stats_state);
    return cg->stats;
}


static LLVMValueRef log_bucket(struct codegen *cg, LLVMValueRef v)
{
    LLVMValueRef negative = cg_compare(cg, LLVMIntSLT, v, 0);
    LLVMValueRef magnitude = cg_select(cg, negative, cg_neg(cg, v), v);
    LLVMValueRef args[2] = {magnitude, LLVMConstInt(cg->i1, 0, 0)};
    LLVMValueRef zeros = cg_intrinsic(cg, "llvm.ctlz", args, 2);
    LLVMValueRef bits = cg_sub(cg, cg_const(cg, 64), zeros);
    LLVMValueRef index = cg_select(cg, negative, cg_sub(cg, cg_const(cg, 64), bits), cg_add(cg, cg_const(cg, 64), bits));
    return cg_opaque_clamp(cg, index, 128);
}

static LLVMValueRef linear_bucket(struct codegen *cg, struct cg_array *a, LLVMValueRef v)
{
    int64_t last = a->bucket_count - 1;
    LLVMValueRef below = cg_compare(cg, LLVMIntSLT, v, a->hist_start);
    LLVMValueRef offset = cg_sub(cg, v, cg_const(cg, a->hist_start));
    LLVMValueRef index = cg_add(cg, cg_udiv(cg, offset, cg_const(cg, a->hist_interval)), cg_const(cg, 1));
    index = cg_select(cg, below, cg_const(cg, 0), index);
    return cg_opaque_clamp(cg, index, last);
}

static LLVMValueRef stat_key(struct codegen *cg, struct cg_array *a, struct expr *operand)
{
    return cg_array_key(cg, a, operand->kind == EXPR_INDEX ? operand->index.indices : NULL);
}

/* stap's __stp_stat_add: Welford's algorithm on values scaled by 2^shift,
 * in integers, with the difference truncated to an int as stap's is. */
static void welford_add(struct codegen *cg, struct cg_array *a, LLVMValueRef elem, LLVMValueRef count, LLVMValueRef v)
{
    LLVMValueRef first = cg_compare(cg, LLVMIntEQ, count, 0);
    LLVMValueRef scaled = cg_shl(cg, v, cg_const(cg, a->variance_shift));
    LLVMValueRef avg = cg_load(cg, cg_stat_field(cg, elem, STAT_FIELD_AVG_S));
    LLVMValueRef delta = cg_widen_signed(cg, cg_u32(cg, cg_sub(cg, scaled, avg)));
    LLVMValueRef new_avg = cg_add(cg, avg, cg_signed_divide(cg, delta, cg_add(cg, count, cg_const(cg, 1)), 0));
    new_avg = cg_select(cg, first, scaled, new_avg);
    LLVMValueRef m2 = cg_add(cg, cg_load(cg, cg_stat_field(cg, elem, STAT_FIELD_M2)), cg_mul(cg, delta, cg_sub(cg, scaled, new_avg)));
    m2 = cg_select(cg, first, cg_const(cg, 0), m2);
    LLVMValueRef divisor = cg_select(cg, first, cg_const(cg, 1), count);
    LLVMValueRef variance = cg_select(cg, first, cg_load(cg, cg_stat_field(cg, elem, STAT_FIELD_VARIANCE_S)), cg_signed_divide(cg, m2, divisor, 0));
    cg_store(cg, new_avg, cg_stat_field(cg, elem, STAT_FIELD_AVG_S));
    cg_store(cg, m2, cg_stat_field(cg, elem, STAT_FIELD_M2));
    cg_store(cg, variance, cg_stat_field(cg, elem, STAT_FIELD_VARIANCE_S));
}

void cg_stat_add(struct codegen *cg, struct expr *e)
{
    struct expr *lhs = e->aggregate.lhs;
    struct cg_array *a = cg_array_of(cg, lhs->symbol);
    if (!a) {
        diag_error(cg->diags, e->span, "<<< needs a global statistic");
        return;
    }
    cg_check_not_iterated(cg, lhs->symbol, lhs->span);
    LLVMValueRef v = cg_operand(cg, e->aggregate.rhs);
    LLVMValueRef key = stat_key(cg, a, lhs);
    cg_set_location(cg, e->span);
    LLVMValueRef elem = cg_array_element(cg, a, key, e->span);
    LLVMValueRef count = cg_load(cg, cg_stat_field(cg, elem, STAT_FIELD_COUNT));
    LLVMValueRef first = cg_compare(cg, LLVMIntEQ, count, 0);
    LLVMValueRef min = cg_load(cg, cg_stat_field(cg, elem, STAT_FIELD_MIN));
    LLVMValueRef max = cg_load(cg, cg_stat_field(cg, elem, STAT_FIELD_MAX));
    LLVMValueRef new_min = cg_select(cg, cg_or(cg, first, cg_compare_values(cg, LLVMIntSLT, v, min)), v, min);
    LLVMValueRef new_max = cg_select(cg, cg_or(cg, first, cg_compare_values(cg, LLVMIntSGT, v, max)), v, max);
    cg_store(cg, cg_add(cg, count, cg_const(cg, 1)), cg_stat_field(cg, elem, STAT_FIELD_COUNT));
    cg_store(cg, new_min, cg_stat_field(cg, elem, STAT_FIELD_MIN));
    cg_store(cg, new_max, cg_stat_field(cg, elem, STAT_FIELD_MAX));
    LLVMValueRef sum = cg_stat_field(cg, elem, STAT_FIELD_SUM);
    cg_store(cg, cg_add(cg, cg_load(cg, sum), v), sum);
    if (a->has_variance)
        welford_add(cg, a, elem, count, v);
    if (a->hist == PROGRAM_HIST_NONE)
        return;
    LLVMValueRef bucket = a->hist == PROGRAM_HIST_LOG ? log_bucket(cg, v) : linear_bucket(cg, a, v);
    LLVMValueRef index = cg_add(cg, bucket, cg_const(cg, sizeof(struct stat_value) / 8));
    LLVMValueRef slot = cg_word_at(cg, elem, index);
    cg_store(cg, cg_add(cg, cg_load(cg, slot), cg_const(cg, 1)), slot);
}

static LLVMValueRef variance(struct codegen *cg, struct cg_array *a, LLVMValueRef key, LLVMValueRef acc,
                             LLVMValueRef count);

/* An extractor's value without raising errors (sorting foreach): 0 when empty. */
LLVMValueRef cg_stat_value(struct codegen *cg, struct cg_array *a, LLVMValueRef key, enum stat_op op)
{
    LLVMValueRef acc = cg_stat_aggregate(cg, a, key, NULL);
    LLVMValueRef count = cg_load(cg, cg_stat_field(cg, acc, STAT_FIELD_COUNT));
    LLVMValueRef safe = cg_select(cg, cg_compare(cg, LLVMIntEQ, count, 0), cg_const(cg, 1), count);
    switch (op) {
    case STAT_SUM: return cg_load(cg, cg_stat_field(cg, acc, STAT_FIELD_SUM));
    case STAT_MIN: return cg_load(cg, cg_stat_field(cg, acc, STAT_FIELD_MIN));
    case STAT_MAX: return cg_load(cg, cg_stat_field(cg, acc, STAT_FIELD_MAX));
    case STAT_AVG: return cg_signed_divide(cg, cg_load(cg, cg_stat_field(cg, acc, STAT_FIELD_SUM)), safe, 0);
    case STAT_VARIANCE: return variance(cg, a, key, acc, count);
    default: return count;
    }
}

static LLVMValueRef require_values(struct codegen *cg, struct span span, LLVMValueRef acc)
{
    LLVMValueRef count = cg_load(cg, cg_stat_field(cg, acc, STAT_FIELD_COUNT));
    cg_error_if(cg, cg_compare(cg, LLVMIntEQ, count, 0), "empty_aggregate", "aggregate_ok", span, "empty aggregate",
                cg_const(cg, 0));
    return count;
}

struct variance_visit {
    LLVMValueRef mean, total;    /* the overall scaled mean; scratch i64 for the sum */
};

/* One CPU's part of the total variance: n (mean - overall)^2 + (n - 1) var. */
static void variance_one(struct codegen *cg, LLVMValueRef elem, LLVMBasicBlockRef next, void *data)
{
    struct variance_visit *v = data;
    LLVMValueRef n = cg_load(cg, cg_stat_field(cg, elem, STAT_FIELD_COUNT));
    LLVMValueRef d = cg_sub(cg, cg_load(cg, cg_stat_field(cg, elem, STAT_FIELD_AVG_S)), v->mean);
    LLVMValueRef part = cg_add(cg, cg_mul(cg, cg_mul(cg, n, d), d), cg_mul(cg, cg_sub(cg, n, cg_const(cg, 1)), cg_load(cg, cg_stat_field(cg, elem, STAT_FIELD_VARIANCE_S))));
    part = cg_select(cg, cg_compare(cg, LLVMIntEQ, n, 0), cg_const(cg, 0), part);
    cg_store(cg, cg_add(cg, cg_load(cg, v->total), part), v->total);
    cg_branch(cg, next);
}

/* stap's _stp_stat_get: the CPUs' variances combined by the total variance
 * formula, in integers scaled by 2^shift, divided by n - 1 (0 when n is 1),
 * then unscaled. */
static LLVMValueRef variance(struct codegen *cg, struct cg_array *a, LLVMValueRef key, LLVMValueRef acc,
                             LLVMValueRef count)
{
    LLVMValueRef some = cg_select(cg, cg_compare(cg, LLVMIntEQ, count, 0), cg_const(cg, 1), count);
    LLVMValueRef scaled_sum = cg_shl(cg, cg_load(cg, cg_stat_field(cg, acc, STAT_FIELD_SUM)), cg_const(cg, a->variance_shift));
    struct variance_visit visit = {cg_signed_divide(cg, scaled_sum, some, 0),
                                   cg_scratch_ptr(cg, cg_alloc_scratch(cg, 8))};
    cg_store(cg, cg_const(cg, 0), visit.total);
    cg_stat_each_cpu(cg, a, key, variance_one, &visit);
    LLVMValueRef less = cg_sub(cg, count, cg_const(cg, 1));
    LLVMValueRef single = cg_compare(cg, LLVMIntSLE, less, 0);
    LLVMValueRef scaled = cg_signed_divide(cg, cg_load(cg, visit.total),
                                        cg_select(cg, single, cg_const(cg, 1), less), 0);
    scaled = cg_select(cg, single, cg_const(cg, 0), scaled);
    return cg_ashr(cg, scaled, cg_const(cg, 2 * a->variance_shift));
}

LLVMValueRef cg_stat_extract(struct codegen *cg, struct expr *e)
{
    struct expr *operand = e->stat.operand;
    struct cg_array *a = cg_array_of(cg, operand->symbol);
    if (!a || !a->is_stats) {
        diag_error(cg->diags, e->span, "@%s needs a statistic", stat_op_name(e->stat.op));
        return cg_const(cg, 0);
    }
    if (e->stat.op == STAT_HIST_LOG || e->stat.op == STAT_HIST_LINEAR) {
        diag_error(cg->diags, e->span, "a histogram can only be printed or indexed");
        return cg_const(cg, 0);
    }
    LLVMValueRef key = stat_key(cg, a, operand);
    cg_set_location(cg, e->span);
    LLVMValueRef acc = cg_stat_aggregate(cg, a, key, NULL);
    switch (e->stat.op) {
    case STAT_COUNT: return cg_load(cg, cg_stat_field(cg, acc, STAT_FIELD_COUNT));
    case STAT_SUM: return cg_load(cg, cg_stat_field(cg, acc, STAT_FIELD_SUM));
    default: break;
    }
    LLVMValueRef count = require_values(cg, e->span, acc);
    switch (e->stat.op) {
    case STAT_MIN: return cg_load(cg, cg_stat_field(cg, acc, STAT_FIELD_MIN));
    case STAT_MAX: return cg_load(cg, cg_stat_field(cg, acc, STAT_FIELD_MAX));
    case STAT_AVG: return cg_signed_divide(cg, cg_load(cg, cg_stat_field(cg, acc, STAT_FIELD_SUM)), count, 0);
    case STAT_VARIANCE: return variance(cg, a, key, acc, count);
    default: return cg_const(cg, 0);
    }
}

/* @hist_log(s)[i], @hist_linear(s, ...)[i]: the count in bucket i of the
 * histogram as stap lays it out (log: 64 holds 0, 64 + k values of bit
 * length k, 64 - k their negatives; linear: 0 is the underflow). Out of
 * range is stap's runtime error. */
LLVMValueRef cg_hist_bucket(struct codegen *cg, struct expr *e)
{
    struct expr *hist = e->hist_bucket.hist;
    struct cg_array *a = hist->kind == EXPR_STAT ? cg_array_of(cg, hist->stat.operand->symbol) : NULL;
    if (!a || !a->bucket_count) {
        diag_error(cg->diags, e->span, "a histogram bucket needs @hist_log or @hist_linear of a statistic");
        return cg_const(cg, 0);
    }
    LLVMValueRef index = cg_operand(cg, e->hist_bucket.bucket);
    LLVMValueRef key = stat_key(cg, a, hist->stat.operand);
    cg_set_location(cg, e->span);
    cg_error_if(cg, cg_compare(cg, LLVMIntUGE, index, a->bucket_count), "bucket_out_of_range", "bucket_ok", e->span,
                "histogram index out of range", index);
    LLVMValueRef acc = cg_stat_aggregate(cg, a, key, cg_opaque_clamp(cg, index, a->bucket_count - 1));
    return cg_load(cg, cg_stat_field(cg, acc, STAT_FIELD_BUCKET));
}

/* print(@hist_*(s)) sends the buckets as they are now, summed over every
 * CPU, never a reference to the map: the statistic may change (or be
 * deleted) before user space reads the record. A bpf_loop over the CPUs
 * adds each CPU's buckets into scratch (a loop the verifier walks once per
 * bucket, not once per bucket and CPU); another finds the non-empty range,
 * and only that range is sent, so a record is a few words, not a kilobyte.
 *
 * The scratch image: lo, hi, two spare words, the buckets, then as many
 * spare words again (the verifier bounds the copied range by the largest
 * start plus the largest size). The record {header, first, counts} is
 * written over the two words before bucket lo (zero buckets, or the spare
 * words) and copied from there with bpf_ringbuf_output. */
#define HIST_LO 0
#define HIST_HI 8
#define HIST_BUCKETS 32

static LLVMValueRef hist_slot(struct codegen *cg, uint32_t offset)
{
    return cg_scratch_ptr(cg, stats_state(cg)->hist_record + offset);
}

static void add_cpu_buckets(struct codegen *cg, LLVMValueRef cpu, void *data)
{
    struct cg_array *a = data;
    LLVMValueRef args[3] = {a->map, cg_scratch_ptr(cg, stats_state(cg)->hist_key), cg_u32(cg, cpu)};
    LLVMValueRef elem = cg_helper(cg, BPF_FUNC_map_lookup_percpu_elem, cg->ptr, args, 3);
    LLVMBasicBlockRef head = cg_block(cg, "bucket_add"), done = cg_block(cg, "buckets_done");
    cg_jump_if(cg, cg_is_null(cg, elem), done, "buckets");
    LLVMValueRef from = cg_stat_field(cg, elem, (int)(sizeof(struct stat_value) / 8));
    LLVMValueRef to = hist_slot(cg, HIST_BUCKETS);
    struct cg_loop loop = cg_loop_start(cg, head, "bucket");
    LLVMValueRef slot = cg_word_at(cg, to, loop.index);
    cg_store(cg, cg_add(cg, cg_load(cg, slot), cg_load(cg, cg_word_at(cg, from, loop.index))), slot);
    cg_loop_next(cg, &loop, a->bucket_count, done);
    cg_position(cg, done);
    cg_callback_return(cg, 0);
}

/* Bucket i non-empty: the first such sets lo (which starts at the bucket
 * count: none), every one sets hi. */
static void note_bucket(struct codegen *cg, LLVMValueRef index, void *data)
{
    struct cg_array *a = data;
    LLVMValueRef i = cg_opaque_clamp(cg, index, a->bucket_count - 1);
    LLVMValueRef count = cg_load(cg, cg_word_at(cg, hist_slot(cg, HIST_BUCKETS), i));
    LLVMBasicBlockRef done = cg_if_not(cg, cg_compare(cg, LLVMIntEQ, count, 0), "bucket_used", "bucket_noted");
    LLVMValueRef lo = cg_load(cg, hist_slot(cg, HIST_LO));
    cg_store(cg, cg_select(cg, cg_compare_values(cg, LLVMIntULT, i, lo), i, lo), hist_slot(cg, HIST_LO));
    cg_store(cg, i, hist_slot(cg, HIST_HI));
    cg_end_if(cg, done);

    cg_callback_return(cg, 0);
}

/* The scratch areas every print shares, sized for the largest statistic. */
static void reserve_hist_areas(struct codegen *cg)
{
    if (stats_state(cg)->hist_record)
        return;
    uint32_t key_size = 0, buckets = 0;
    for (int i = 0; i < cg->script->global_count; i++) {
        struct cg_array *a = cg->arrays[i];
        if (a && a->is_stats) {
            key_size = a->key_size > key_size ? a->key_size : key_size;
            buckets = (uint32_t)a->bucket_count > buckets ? (uint32_t)a->bucket_count : buckets;
        }
    }
    stats_state(cg)->hist_key = cg_alloc_scratch(cg, key_size);
    stats_state(cg)->hist_record = cg_alloc_scratch(cg, HIST_BUCKETS + 2 * 8 * buckets);
}

void cg_hist_print(struct codegen *cg, struct expr *e, struct span print_span)
{
    struct cg_array *a = cg_array_of(cg, e->stat.operand->symbol);
    if (!a || !a->is_stats) {
        diag_error(cg->diags, e->span, "@%s needs a statistic", stat_op_name(e->stat.op));
        return;
    }
    if (!a->bucket_count)
        return;   /* its parameters were refused */
    LLVMValueRef key = stat_key(cg, a, e->stat.operand);
    cg_set_location(cg, e->span);
    reserve_hist_areas(cg);
    cg_copy(cg, cg_scratch_ptr(cg, stats_state(cg)->hist_key), key, a->key_size);
    cg_zero(cg, hist_slot(cg, HIST_BUCKETS), 8 * (uint32_t)a->bucket_count);
    int cpus = libbpf_num_possible_cpus();
    cg_counted_loop(cg, e->span, (uint32_t)(cpus > 0 ? cpus : 1), add_cpu_buckets, a);
    cg_store(cg, cg_const(cg, a->bucket_count), hist_slot(cg, HIST_LO));
    cg_store(cg, cg_const(cg, 0), hist_slot(cg, HIST_HI));
    cg_counted_loop(cg, e->span, (uint32_t)a->bucket_count, note_bucket, a);

    LLVMValueRef lo = cg_load(cg, hist_slot(cg, HIST_LO)), hi = cg_load(cg, hist_slot(cg, HIST_HI));
    LLVMValueRef empty = cg_compare(cg, LLVMIntEQ, lo, a->bucket_count);
    /* No bucket counts anything: the statistic is empty (every value has a
     * bucket, out of range ones too). SystemTap's print says so, an error
     * at the print, rather than print a header. */
    cg_error_if(cg, empty, "empty_histogram", "histogram", print_span, "empty aggregate", cg_const(cg, 0));
    LLVMValueRef first = cg_opaque_clamp(cg, cg_select(cg, empty, cg_const(cg, 0), lo), a->bucket_count - 1);
    LLVMValueRef span = cg_select(cg, empty, cg_const(cg, 0), cg_add(cg, cg_sub(cg, hi, lo), cg_const(cg, 1)));
    LLVMValueRef counts = cg_opaque_clamp(cg, span, a->bucket_count);
    LLVMValueRef start = cg_add(cg, cg_const(cg, stats_state(cg)->hist_record + HIST_BUCKETS - 16), cg_shl(cg, first, cg_const(cg, 3)));
    LLVMValueRef record = cg_scratch_at(cg, start);
    cg_store(cg, cg_const(cg, (int64_t)(RECORD_HIST | ((uint64_t)a->map_index << 32))), record);
    LLVMValueRef eight = cg_const(cg, 8);
    cg_store(cg, first, cg_byte_ptr(cg, record, eight));
    LLVMValueRef size = cg_add(cg, cg_const(cg, 16), cg_shl(cg, counts, cg_const(cg, 3)));
    cg_emit_bytes(cg, record, size);
}
