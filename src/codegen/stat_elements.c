/* A statistic's per-CPU elements: visiting each CPU's element of a key,
 * summing them (extractors, foreach's sort, the eviction of a full
 * statistics array) and zeroing them. Below both arrays.c (which evicts and
 * deletes statistics) and stats.c (which updates and extracts them), so
 * neither calls the other back. */
#include <stddef.h>

#include <bpf/libbpf.h>
#include <linux/bpf.h>

#include "codegen/codegen_internal.h"

LLVMValueRef cg_stat_field(struct codegen *cg, LLVMValueRef base, int field)
{
    LLVMValueRef index = cg_const(cg, field);
    return cg_word_at(cg, base, index);
}

void cg_stat_each_cpu(struct codegen *cg, struct cg_array *a, LLVMValueRef key, cg_cpu_elem_visit visit,
                      void *data)
{
    int cpus = libbpf_num_possible_cpus();
    if (cpus < 1)
        cpus = 1;
    LLVMBasicBlockRef head = cg_block(cg, "cpu"), next = cg_block(cg, "cpu_next"), done = cg_block(cg, "cpu_done");
    struct cg_loop loop = cg_loop_start(cg, head, "cpu");
    LLVMValueRef args[3] = {a->map, key, cg_u32(cg, loop.index)};
    LLVMValueRef elem = cg_helper(cg, BPF_FUNC_map_lookup_percpu_elem, cg->ptr, args, 3);
    cg_jump_if(cg, cg_is_null(cg, elem), next, "cpu_have");
    visit(cg, elem, next, data);
    cg_position(cg, next);
    cg_loop_next(cg, &loop, cpus, done);
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
    LLVMValueRef acc = v->acc, bucket = v->bucket;
    struct cg_array *a = v->a;
    LLVMValueRef count = cg_load(cg, cg_stat_field(cg, elem, STAT_FIELD_COUNT));
    cg_jump_if(cg, cg_compare(cg, LLVMIntEQ, count, 0), next, "agg_merge");
    LLVMValueRef total = cg_load(cg, cg_stat_field(cg, acc, STAT_FIELD_COUNT));
    LLVMValueRef first = cg_compare(cg, LLVMIntEQ, total, 0);
    LLVMValueRef min = cg_load(cg, cg_stat_field(cg, elem, STAT_FIELD_MIN));
    LLVMValueRef max = cg_load(cg, cg_stat_field(cg, elem, STAT_FIELD_MAX));
    LLVMValueRef acc_min = cg_load(cg, cg_stat_field(cg, acc, STAT_FIELD_MIN));
    LLVMValueRef acc_max = cg_load(cg, cg_stat_field(cg, acc, STAT_FIELD_MAX));
    cg_store(cg, cg_select(cg, cg_or(cg, first, cg_compare_values(cg, LLVMIntSLT, min, acc_min)), min, acc_min), cg_stat_field(cg, acc, STAT_FIELD_MIN));
    cg_store(cg, cg_select(cg, cg_or(cg, first, cg_compare_values(cg, LLVMIntSGT, max, acc_max)), max, acc_max), cg_stat_field(cg, acc, STAT_FIELD_MAX));
    cg_store(cg, cg_add(cg, total, count), cg_stat_field(cg, acc, STAT_FIELD_COUNT));
    LLVMValueRef sum = cg_stat_field(cg, acc, STAT_FIELD_SUM);
    cg_store(cg, cg_add(cg, cg_load(cg, sum), cg_load(cg, cg_stat_field(cg, elem, STAT_FIELD_SUM))), sum);
    LLVMValueRef seq = cg_load(cg, cg_stat_field(cg, elem, (int)(a->seq_offset / 8)));
    LLVMValueRef acc_seq = cg_load(cg, cg_stat_field(cg, acc, STAT_FIELD_SEQ));
    cg_store(cg, cg_select(cg, cg_compare_values(cg, LLVMIntUGT, seq, acc_seq), seq, acc_seq), cg_stat_field(cg, acc, STAT_FIELD_SEQ));
    if (bucket) {
        LLVMValueRef index = cg_add(cg, bucket, cg_const(cg, sizeof(struct stat_value) / 8));
        LLVMValueRef from = cg_word_at(cg, elem, index);
        LLVMValueRef slot = cg_stat_field(cg, acc, STAT_FIELD_BUCKET);
        cg_store(cg, cg_add(cg, cg_load(cg, slot), cg_load(cg, from)), slot);
    }
    cg_branch(cg, next);
}

LLVMValueRef cg_stat_aggregate(struct codegen *cg, struct cg_array *a, LLVMValueRef key, LLVMValueRef bucket)
{
    LLVMValueRef acc = cg_scratch_ptr(cg, cg_alloc_scratch(cg, STAT_FIELDS * 8));
    for (int i = 0; i < STAT_FIELDS; i++)
        cg_store(cg, cg_const(cg, 0), cg_stat_field(cg, acc, i));
    struct aggregate_visit visit = {a, acc, bucket};
    cg_stat_each_cpu(cg, a, key, aggregate_one, &visit);
    return acc;
}

static void zero_one(struct codegen *cg, LLVMValueRef elem, LLVMBasicBlockRef next, void *data)
{
    cg_zero(cg, elem, *(uint32_t *)data);
    cg_branch(cg, next);
}

/* delete s: a scalar statistic is a PERCPU_ARRAY element, which cannot be
 * deleted: zero it on every CPU. */
void cg_stat_reset(struct codegen *cg, struct cg_array *a, LLVMValueRef key)
{
    cg_stat_each_cpu(cg, a, key, zero_one, &a->value_size);
}

LLVMValueRef cg_stat_seq(struct codegen *cg, struct cg_array *a, LLVMValueRef key)
{
    return cg_load(cg, cg_stat_field(cg, cg_stat_aggregate(cg, a, key, NULL), STAT_FIELD_SEQ));
}
