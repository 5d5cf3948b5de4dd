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

#define FIELD_COUNT 0
#define FIELD_SUM 1
#define FIELD_MIN 2
#define FIELD_MAX 3
#define FIELD_AVG_S 4      /* Welford's running mean, scaled by 2^shift */
#define FIELD_M2 5         /* Welford's sum of squared differences, scaled */
#define FIELD_VARIANCE_S 6 /* this CPU's variance, scaled */
#define FIELD_BUCKET 7     /* aggregate(): the requested bucket */
#define FIELD_SEQ 8        /* aggregate(): the insertion number (the inserting CPU's) */
#define FIELDS 9

static LLVMValueRef field_ptr(struct codegen *cg, LLVMValueRef base, int field)
{
    LLVMValueRef index = cg_const(cg, field);
    return LLVMBuildGEP2(cg->builder, cg->i64, base, &index, 1, "");
}

static LLVMValueRef load(struct codegen *cg, LLVMValueRef ptr)
{
    return LLVMBuildLoad2(cg->builder, cg->i64, ptr, "");
}

static LLVMValueRef log_bucket(struct codegen *cg, LLVMValueRef v)
{
    LLVMBuilderRef b = cg->builder;
    LLVMValueRef negative = cg_compare(cg, LLVMIntSLT, v, 0);
    LLVMValueRef magnitude = LLVMBuildSelect(b, negative, LLVMBuildNeg(b, v, ""), v, "");
    LLVMTypeRef types[1] = {cg->i64};
    unsigned id = LLVMLookupIntrinsicID("llvm.ctlz", 9);
    LLVMValueRef ctlz = LLVMGetIntrinsicDeclaration(cg->module, id, types, 1);
    LLVMValueRef args[2] = {magnitude, LLVMConstInt(cg->i1, 0, 0)};
    LLVMValueRef zeros = LLVMBuildCall2(b, LLVMIntrinsicGetType(cg->context, id, types, 1), ctlz, args, 2, "");
    LLVMValueRef bits = LLVMBuildSub(b, cg_const(cg, 64), zeros, "");
    LLVMValueRef index = LLVMBuildSelect(b, negative, LLVMBuildSub(b, cg_const(cg, 64), bits, ""),
                                         LLVMBuildAdd(b, cg_const(cg, 64), bits, ""), "");
    return cg_opaque_clamp(cg, index, 128);
}

static LLVMValueRef linear_bucket(struct codegen *cg, struct cg_array *a, LLVMValueRef v)
{
    LLVMBuilderRef b = cg->builder;
    int64_t last = a->bucket_count - 1;
    LLVMValueRef below = cg_compare(cg, LLVMIntSLT, v, a->hist_start);
    LLVMValueRef offset = LLVMBuildSub(b, v, cg_const(cg, a->hist_start), "");
    LLVMValueRef index = LLVMBuildAdd(b, LLVMBuildUDiv(b, offset, cg_const(cg, a->hist_interval), ""),
                                      cg_const(cg, 1), "");
    index = LLVMBuildSelect(b, below, cg_const(cg, 0), index, "");
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
    LLVMBuilderRef b = cg->builder;
    LLVMValueRef first = cg_compare(cg, LLVMIntEQ, count, 0);
    LLVMValueRef scaled = LLVMBuildShl(b, v, cg_const(cg, a->variance_shift), "");
    LLVMValueRef avg = load(cg, field_ptr(cg, elem, FIELD_AVG_S));
    LLVMValueRef delta = LLVMBuildSExt(b, LLVMBuildTrunc(b, LLVMBuildSub(b, scaled, avg, ""), cg->i32, ""), cg->i64, "");
    LLVMValueRef new_avg = LLVMBuildAdd(b, avg, cg_signed_divide(cg, delta, LLVMBuildAdd(b, count, cg_const(cg, 1), ""), 0), "");
    new_avg = LLVMBuildSelect(b, first, scaled, new_avg, "");
    LLVMValueRef m2 = LLVMBuildAdd(b, load(cg, field_ptr(cg, elem, FIELD_M2)),
                                   LLVMBuildMul(b, delta, LLVMBuildSub(b, scaled, new_avg, ""), ""), "");
    m2 = LLVMBuildSelect(b, first, cg_const(cg, 0), m2, "");
    LLVMValueRef divisor = LLVMBuildSelect(b, first, cg_const(cg, 1), count, "");
    LLVMValueRef variance = LLVMBuildSelect(b, first, load(cg, field_ptr(cg, elem, FIELD_VARIANCE_S)),
                                            cg_signed_divide(cg, m2, divisor, 0), "");
    LLVMBuildStore(b, new_avg, field_ptr(cg, elem, FIELD_AVG_S));
    LLVMBuildStore(b, m2, field_ptr(cg, elem, FIELD_M2));
    LLVMBuildStore(b, variance, field_ptr(cg, elem, FIELD_VARIANCE_S));
}

void cg_stat_add(struct codegen *cg, struct expr *e)
{
    struct expr *lhs = e->aggregate.lhs;
    struct cg_array *a = cg_array_of(cg, lhs->symbol);
    LLVMBuilderRef b = cg->builder;
    if (!a) {
        diag_error(cg->diags, e->span, "<<< needs a global statistic");
        return;
    }
    cg_check_not_iterated(cg, lhs->symbol, lhs->span);
    LLVMValueRef v = cg_operand(cg, e->aggregate.rhs);
    LLVMValueRef key = stat_key(cg, a, lhs);
    cg_set_location(cg, e->span);
    LLVMValueRef elem = cg_array_element(cg, a, key, e->span);
    LLVMValueRef count = load(cg, field_ptr(cg, elem, FIELD_COUNT));
    LLVMValueRef first = cg_compare(cg, LLVMIntEQ, count, 0);
    LLVMValueRef min = load(cg, field_ptr(cg, elem, FIELD_MIN));
    LLVMValueRef max = load(cg, field_ptr(cg, elem, FIELD_MAX));
    LLVMValueRef new_min = LLVMBuildSelect(b, LLVMBuildOr(b, first, LLVMBuildICmp(b, LLVMIntSLT, v, min, ""), ""),
                                           v, min, "");
    LLVMValueRef new_max = LLVMBuildSelect(b, LLVMBuildOr(b, first, LLVMBuildICmp(b, LLVMIntSGT, v, max, ""), ""),
                                           v, max, "");
    LLVMBuildStore(b, LLVMBuildAdd(b, count, cg_const(cg, 1), ""), field_ptr(cg, elem, FIELD_COUNT));
    LLVMBuildStore(b, new_min, field_ptr(cg, elem, FIELD_MIN));
    LLVMBuildStore(b, new_max, field_ptr(cg, elem, FIELD_MAX));
    LLVMValueRef sum = field_ptr(cg, elem, FIELD_SUM);
    LLVMBuildStore(b, LLVMBuildAdd(b, load(cg, sum), v, ""), sum);
    if (a->has_variance)
        welford_add(cg, a, elem, count, v);
    if (a->hist == PROGRAM_HIST_NONE)
        return;
    LLVMValueRef bucket = a->hist == PROGRAM_HIST_LOG ? log_bucket(cg, v) : linear_bucket(cg, a, v);
    LLVMValueRef index = LLVMBuildAdd(b, bucket, cg_const(cg, sizeof(struct stat_value) / 8), "");
    LLVMValueRef slot = LLVMBuildGEP2(b, cg->i64, elem, &index, 1, "");
    LLVMBuildStore(b, LLVMBuildAdd(b, load(cg, slot), cg_const(cg, 1), ""), slot);
}

static LLVMValueRef variance(struct codegen *cg, struct cg_array *a, LLVMValueRef key, LLVMValueRef acc,
                             LLVMValueRef count);

/* Calls visit(elem) for this key's element on every possible CPU that has
 * one; visit ends by branching to the block it is given. */
typedef void (*cpu_elem_visit)(struct codegen *cg, LLVMValueRef elem, LLVMBasicBlockRef next, void *data);

static void for_each_cpu_elem(struct codegen *cg, struct cg_array *a, LLVMValueRef key, cpu_elem_visit visit,
                              void *data)
{
    LLVMBuilderRef b = cg->builder;
    int cpus = libbpf_num_possible_cpus();
    if (cpus < 1)
        cpus = 1;
    LLVMBasicBlockRef entry = LLVMGetInsertBlock(b);
    LLVMBasicBlockRef head = cg_block(cg, "cpu"), have = cg_block(cg, "cpu_have"),
                      next = cg_block(cg, "cpu_next"), done = cg_block(cg, "cpu_done");
    LLVMBuildBr(b, head);
    cg_position(cg, head);
    LLVMValueRef cpu = LLVMBuildPhi(b, cg->i64, "cpu");
    LLVMValueRef args[3] = {a->map, key, LLVMBuildTrunc(b, cpu, cg->i32, "")};
    LLVMValueRef elem = cg_helper(cg, BPF_FUNC_map_lookup_percpu_elem, cg->ptr, args, 3);
    LLVMBuildCondBr(b, LLVMBuildIsNull(b, elem, ""), next, have);
    cg_position(cg, have);
    visit(cg, elem, next, data);
    cg_position(cg, next);
    LLVMValueRef cpu_next = LLVMBuildAdd(b, cpu, cg_const(cg, 1), "");
    LLVMBuildCondBr(b, cg_compare(cg, LLVMIntULT, cpu_next, cpus), head, done);
    LLVMValueRef values[2] = {cg_const(cg, 0), cpu_next};
    LLVMBasicBlockRef blocks[2] = {entry, next};
    LLVMAddIncoming(cpu, values, blocks, 2);
    cg_position(cg, done);
}

struct aggregate_visit {
    struct cg_array *a;
    LLVMValueRef acc, bucket;
};

/* Adds one CPU's element into the accumulator; branches to `next`. */
static void aggregate_one(struct codegen *cg, LLVMValueRef elem, LLVMBasicBlockRef next, void *data)
{
    struct aggregate_visit *v = data;
    LLVMBuilderRef b = cg->builder;
    LLVMValueRef acc = v->acc, bucket = v->bucket;
    struct cg_array *a = v->a;
    LLVMBasicBlockRef merge = cg_block(cg, "agg_merge");
    LLVMValueRef count = load(cg, field_ptr(cg, elem, FIELD_COUNT));
    LLVMBuildCondBr(b, cg_compare(cg, LLVMIntEQ, count, 0), next, merge);

    cg_position(cg, merge);
    LLVMValueRef total = load(cg, field_ptr(cg, acc, FIELD_COUNT));
    LLVMValueRef first = cg_compare(cg, LLVMIntEQ, total, 0);
    LLVMValueRef min = load(cg, field_ptr(cg, elem, FIELD_MIN)), max = load(cg, field_ptr(cg, elem, FIELD_MAX));
    LLVMValueRef acc_min = load(cg, field_ptr(cg, acc, FIELD_MIN)), acc_max = load(cg, field_ptr(cg, acc, FIELD_MAX));
    LLVMBuildStore(b, LLVMBuildSelect(b, LLVMBuildOr(b, first, LLVMBuildICmp(b, LLVMIntSLT, min, acc_min, ""), ""),
                                      min, acc_min, ""), field_ptr(cg, acc, FIELD_MIN));
    LLVMBuildStore(b, LLVMBuildSelect(b, LLVMBuildOr(b, first, LLVMBuildICmp(b, LLVMIntSGT, max, acc_max, ""), ""),
                                      max, acc_max, ""), field_ptr(cg, acc, FIELD_MAX));
    LLVMBuildStore(b, LLVMBuildAdd(b, total, count, ""), field_ptr(cg, acc, FIELD_COUNT));
    LLVMValueRef sum = field_ptr(cg, acc, FIELD_SUM);
    LLVMBuildStore(b, LLVMBuildAdd(b, load(cg, sum), load(cg, field_ptr(cg, elem, FIELD_SUM)), ""), sum);
    LLVMValueRef seq = load(cg, field_ptr(cg, elem, (int)(a->seq_offset / 8)));
    LLVMValueRef acc_seq = load(cg, field_ptr(cg, acc, FIELD_SEQ));
    LLVMBuildStore(b, LLVMBuildSelect(b, LLVMBuildICmp(b, LLVMIntUGT, seq, acc_seq, ""), seq, acc_seq, ""),
                   field_ptr(cg, acc, FIELD_SEQ));
    if (bucket) {
        LLVMValueRef index = LLVMBuildAdd(b, bucket, cg_const(cg, sizeof(struct stat_value) / 8), "");
        LLVMValueRef from = LLVMBuildGEP2(b, cg->i64, elem, &index, 1, "");
        LLVMValueRef slot = field_ptr(cg, acc, FIELD_BUCKET);
        LLVMBuildStore(b, LLVMBuildAdd(b, load(cg, slot), load(cg, from), ""), slot);
    }
    LLVMBuildBr(b, next);
}

/* Sums every CPU's element into FIELDS i64s in scratch (count 0 when the
 * element does not exist); bucket: index of a bucket to sum too, or NULL. */
static LLVMValueRef aggregate(struct codegen *cg, struct cg_array *a, LLVMValueRef key, LLVMValueRef bucket)
{
    LLVMBuilderRef b = cg->builder;
    LLVMValueRef acc = cg_scratch_ptr(cg, cg_alloc_scratch(cg, FIELDS * 8));
    for (int i = 0; i < FIELDS; i++)
        LLVMBuildStore(b, cg_const(cg, 0), field_ptr(cg, acc, i));
    struct aggregate_visit visit = {a, acc, bucket};
    for_each_cpu_elem(cg, a, key, aggregate_one, &visit);
    return acc;
}

static void zero_one(struct codegen *cg, LLVMValueRef elem, LLVMBasicBlockRef next, void *data)
{
    cg_zero(cg, elem, *(uint32_t *)data);
    LLVMBuildBr(cg->builder, next);
}

/* delete s: a scalar statistic is a PERCPU_ARRAY element, which cannot be
 * deleted: zero it on every CPU. */
void cg_stat_reset(struct codegen *cg, struct cg_array *a)
{
    LLVMValueRef key = cg_array_key(cg, a, NULL);
    for_each_cpu_elem(cg, a, key, zero_one, &a->value_size);
}

LLVMValueRef cg_stat_seq(struct codegen *cg, struct cg_array *a, LLVMValueRef key)
{
    return load(cg, field_ptr(cg, aggregate(cg, a, key, NULL), FIELD_SEQ));
}

/* An extractor's value without raising errors (sorting foreach): 0 when empty. */
LLVMValueRef cg_stat_value(struct codegen *cg, struct cg_array *a, LLVMValueRef key, enum stat_op op)
{
    LLVMBuilderRef b = cg->builder;
    LLVMValueRef acc = aggregate(cg, a, key, NULL);
    LLVMValueRef count = load(cg, field_ptr(cg, acc, FIELD_COUNT));
    LLVMValueRef safe = LLVMBuildSelect(b, cg_compare(cg, LLVMIntEQ, count, 0),
                                        cg_const(cg, 1), count, "");
    switch (op) {
    case STAT_SUM: return load(cg, field_ptr(cg, acc, FIELD_SUM));
    case STAT_MIN: return load(cg, field_ptr(cg, acc, FIELD_MIN));
    case STAT_MAX: return load(cg, field_ptr(cg, acc, FIELD_MAX));
    case STAT_AVG: return cg_signed_divide(cg, load(cg, field_ptr(cg, acc, FIELD_SUM)), safe, 0);
    case STAT_VARIANCE: return variance(cg, a, key, acc, count);
    default: return count;
    }
}

static LLVMValueRef require_values(struct codegen *cg, struct span span, LLVMValueRef acc)
{
    LLVMValueRef count = load(cg, field_ptr(cg, acc, FIELD_COUNT));
    LLVMBasicBlockRef empty = cg_block(cg, "empty_aggregate"), ok = cg_block(cg, "aggregate_ok");
    LLVMBuildCondBr(cg->builder, cg_compare(cg, LLVMIntEQ, count, 0), empty, ok);
    cg_position(cg, empty);
    cg_raise_error(cg, span, "empty aggregate", cg_const(cg, 0));
    cg_position(cg, ok);
    return count;
}

struct variance_visit {
    LLVMValueRef mean, total;    /* the overall scaled mean; scratch i64 for the sum */
};

/* One CPU's part of the total variance: n (mean - overall)^2 + (n - 1) var. */
static void variance_one(struct codegen *cg, LLVMValueRef elem, LLVMBasicBlockRef next, void *data)
{
    struct variance_visit *v = data;
    LLVMBuilderRef b = cg->builder;
    LLVMValueRef n = load(cg, field_ptr(cg, elem, FIELD_COUNT));
    LLVMValueRef d = LLVMBuildSub(b, load(cg, field_ptr(cg, elem, FIELD_AVG_S)), v->mean, "");
    LLVMValueRef part = LLVMBuildAdd(b, LLVMBuildMul(b, LLVMBuildMul(b, n, d, ""), d, ""),
                                     LLVMBuildMul(b, LLVMBuildSub(b, n, cg_const(cg, 1), ""),
                                                  load(cg, field_ptr(cg, elem, FIELD_VARIANCE_S)), ""), "");
    part = LLVMBuildSelect(b, cg_compare(cg, LLVMIntEQ, n, 0), cg_const(cg, 0), part, "");
    LLVMBuildStore(b, LLVMBuildAdd(b, load(cg, v->total), part, ""), v->total);
    LLVMBuildBr(b, next);
}

/* stap's _stp_stat_get: the CPUs' variances combined by the total variance
 * formula, in integers scaled by 2^shift, divided by n - 1 (0 when n is 1),
 * then unscaled. */
static LLVMValueRef variance(struct codegen *cg, struct cg_array *a, LLVMValueRef key, LLVMValueRef acc,
                             LLVMValueRef count)
{
    LLVMBuilderRef b = cg->builder;
    LLVMValueRef some = LLVMBuildSelect(b, cg_compare(cg, LLVMIntEQ, count, 0),
                                        cg_const(cg, 1), count, "");
    LLVMValueRef scaled_sum = LLVMBuildShl(b, load(cg, field_ptr(cg, acc, FIELD_SUM)),
                                           cg_const(cg, a->variance_shift), "");
    struct variance_visit visit = {cg_signed_divide(cg, scaled_sum, some, 0),
                                   cg_scratch_ptr(cg, cg_alloc_scratch(cg, 8))};
    LLVMBuildStore(b, cg_const(cg, 0), visit.total);
    for_each_cpu_elem(cg, a, key, variance_one, &visit);
    LLVMValueRef less = LLVMBuildSub(b, count, cg_const(cg, 1), "");
    LLVMValueRef single = cg_compare(cg, LLVMIntSLE, less, 0);
    LLVMValueRef scaled = cg_signed_divide(cg, load(cg, visit.total),
                                        LLVMBuildSelect(b, single, cg_const(cg, 1), less, ""), 0);
    scaled = LLVMBuildSelect(b, single, cg_const(cg, 0), scaled, "");
    return LLVMBuildAShr(b, scaled, cg_const(cg, 2 * a->variance_shift), "");
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
    LLVMValueRef acc = aggregate(cg, a, key, NULL);
    switch (e->stat.op) {
    case STAT_COUNT: return load(cg, field_ptr(cg, acc, FIELD_COUNT));
    case STAT_SUM: return load(cg, field_ptr(cg, acc, FIELD_SUM));
    default: break;
    }
    LLVMValueRef count = require_values(cg, e->span, acc);
    switch (e->stat.op) {
    case STAT_MIN: return load(cg, field_ptr(cg, acc, FIELD_MIN));
    case STAT_MAX: return load(cg, field_ptr(cg, acc, FIELD_MAX));
    case STAT_AVG: return cg_signed_divide(cg, load(cg, field_ptr(cg, acc, FIELD_SUM)), count, 0);
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
    LLVMValueRef acc = aggregate(cg, a, key, cg_opaque_clamp(cg, index, a->bucket_count - 1));
    return load(cg, field_ptr(cg, acc, FIELD_BUCKET));
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
    return cg_scratch_ptr(cg, cg->hist_record + offset);
}

static void add_cpu_buckets(struct codegen *cg, LLVMValueRef cpu, void *data)
{
    struct cg_array *a = data;
    LLVMBuilderRef b = cg->builder;
    LLVMValueRef args[3] = {a->map, cg_scratch_ptr(cg, cg->hist_key), LLVMBuildTrunc(b, cpu, cg->i32, "")};
    LLVMValueRef elem = cg_helper(cg, BPF_FUNC_map_lookup_percpu_elem, cg->ptr, args, 3);
    LLVMBasicBlockRef entry = cg_block(cg, "buckets"), head = cg_block(cg, "bucket_add"),
                      done = cg_block(cg, "buckets_done");
    LLVMBuildCondBr(b, LLVMBuildIsNull(b, elem, ""), done, entry);
    cg_position(cg, entry);
    LLVMValueRef from = field_ptr(cg, elem, (int)(sizeof(struct stat_value) / 8));
    LLVMValueRef to = hist_slot(cg, HIST_BUCKETS);
    LLVMBuildBr(b, head);
    cg_position(cg, head);
    LLVMValueRef i = LLVMBuildPhi(b, cg->i64, "bucket");
    LLVMValueRef slot = LLVMBuildGEP2(b, cg->i64, to, &i, 1, "");
    LLVMBuildStore(b, LLVMBuildAdd(b, load(cg, slot), load(cg, LLVMBuildGEP2(b, cg->i64, from, &i, 1, "")), ""),
                   slot);
    LLVMValueRef next = LLVMBuildAdd(b, i, cg_const(cg, 1), "");
    LLVMBuildCondBr(b, cg_compare(cg, LLVMIntULT, next, a->bucket_count), head, done);
    LLVMValueRef values[2] = {cg_const(cg, 0), next};
    LLVMBasicBlockRef blocks[2] = {entry, head};
    LLVMAddIncoming(i, values, blocks, 2);
    cg_position(cg, done);
    LLVMBuildRet(b, cg_const(cg, 0));
}

/* Bucket i non-empty: the first such sets lo (which starts at the bucket
 * count: none), every one sets hi. */
static void note_bucket(struct codegen *cg, LLVMValueRef index, void *data)
{
    struct cg_array *a = data;
    LLVMBuilderRef b = cg->builder;
    LLVMValueRef i = cg_opaque_clamp(cg, index, a->bucket_count - 1);
    LLVMValueRef count = load(cg, LLVMBuildGEP2(b, cg->i64, hist_slot(cg, HIST_BUCKETS), &i, 1, ""));
    LLVMBasicBlockRef set = cg_block(cg, "bucket_used"), done = cg_block(cg, "bucket_noted");
    LLVMBuildCondBr(b, cg_compare(cg, LLVMIntEQ, count, 0), done, set);
    cg_position(cg, set);
    LLVMValueRef lo = load(cg, hist_slot(cg, HIST_LO));
    LLVMBuildStore(b, LLVMBuildSelect(b, LLVMBuildICmp(b, LLVMIntULT, i, lo, ""), i, lo, ""), hist_slot(cg, HIST_LO));
    LLVMBuildStore(b, i, hist_slot(cg, HIST_HI));
    LLVMBuildBr(b, done);
    cg_position(cg, done);
    LLVMBuildRet(b, cg_const(cg, 0));
}

/* The scratch areas every print shares, sized for the largest statistic. */
static void reserve_hist_areas(struct codegen *cg)
{
    if (cg->hist_record)
        return;
    uint32_t key_size = 0, buckets = 0;
    for (int i = 0; i < cg->script->global_count; i++) {
        struct cg_array *a = cg->arrays[i];
        if (a && a->is_stats) {
            key_size = a->key_size > key_size ? a->key_size : key_size;
            buckets = (uint32_t)a->bucket_count > buckets ? (uint32_t)a->bucket_count : buckets;
        }
    }
    cg->hist_key = cg_alloc_scratch(cg, key_size);
    cg->hist_record = cg_alloc_scratch(cg, HIST_BUCKETS + 2 * 8 * buckets);
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
    LLVMBuilderRef b = cg->builder;
    LLVMValueRef key = stat_key(cg, a, e->stat.operand);
    cg_set_location(cg, e->span);
    reserve_hist_areas(cg);
    cg_copy(cg, cg_scratch_ptr(cg, cg->hist_key), key, a->key_size);
    cg_zero(cg, hist_slot(cg, HIST_BUCKETS), 8 * (uint32_t)a->bucket_count);
    int cpus = libbpf_num_possible_cpus();
    cg_counted_loop(cg, e->span, (uint32_t)(cpus > 0 ? cpus : 1), add_cpu_buckets, a);
    LLVMBuildStore(b, cg_const(cg, a->bucket_count), hist_slot(cg, HIST_LO));
    LLVMBuildStore(b, cg_const(cg, 0), hist_slot(cg, HIST_HI));
    cg_counted_loop(cg, e->span, (uint32_t)a->bucket_count, note_bucket, a);

    LLVMValueRef lo = load(cg, hist_slot(cg, HIST_LO)), hi = load(cg, hist_slot(cg, HIST_HI));
    LLVMValueRef empty = cg_compare(cg, LLVMIntEQ, lo, a->bucket_count);
    /* No bucket counts anything: the statistic is empty (every value has a
     * bucket, out of range ones too). SystemTap's print says so, an error
     * at the print, rather than print a header. */
    cg_error_if(cg, empty, "empty_histogram", "histogram", print_span, "empty aggregate", cg_const(cg, 0));
    LLVMValueRef first = cg_opaque_clamp(cg, LLVMBuildSelect(b, empty, cg_const(cg, 0), lo, ""), a->bucket_count - 1);
    LLVMValueRef span = LLVMBuildSelect(b, empty, cg_const(cg, 0),
                                        LLVMBuildAdd(b, LLVMBuildSub(b, hi, lo, ""), cg_const(cg, 1), ""), "");
    LLVMValueRef counts = cg_opaque_clamp(cg, span, a->bucket_count);
    LLVMValueRef start = LLVMBuildAdd(b, cg_const(cg, cg->hist_record + HIST_BUCKETS - 16),
                                      LLVMBuildShl(b, first, cg_const(cg, 3), ""), "");
    LLVMValueRef record = cg_scratch_at(cg, start);
    LLVMBuildStore(b, cg_const(cg, (int64_t)(RECORD_HIST | ((uint64_t)a->map_index << 32))), record);
    LLVMValueRef eight = cg_const(cg, 8);
    LLVMBuildStore(b, first, LLVMBuildGEP2(b, cg->i8, record, &eight, 1, ""));
    LLVMValueRef size = LLVMBuildAdd(b, cg_const(cg, 16), LLVMBuildShl(b, counts, cg_const(cg, 3), ""), "");
    cg_emit_bytes(cg, record, size);
}
