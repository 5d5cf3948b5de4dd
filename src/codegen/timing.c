/* -t: each handler's runs, counted and timed as SystemTap's STP_TIMING does
 * (from the handler's start to its end, whether its condition held or not).
 * BPF has no cycle counter: the time is bpf_ktime_get_ns, as SystemTap's
 * STP_TIMING_NSECS reports it. Each probe point has a slot of the per-CPU
 * array tap_timing (a group's program: one slot per member, by its cookie);
 * the runtime folds the CPUs and prints the report (runtime/timing_report.c).
 * Without -t none of this is generated. */
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include <bpf/libbpf.h>
#include <linux/bpf.h>

#include "base/strbuf.h"
#include "codegen/codegen_internal.h"

/* timing.c's state (-t). */
struct timing_state {
    LLVMValueRef map;                /* tap_timing with -t, else NULL */
    int *slot;                       /* per probe index, its program's first slot */
};

static struct timing_state *timing_state(struct codegen *cg)
{
    if (!cg->timing)
        cg->timing = ARENA_NEW(cg->arena, struct timing_state);
    return cg->timing;
}

#define FIELD_COUNT 0
#define FIELD_SUM 1
#define FIELD_MIN 2
#define FIELD_MAX 3
#define FIELD_SUM_SQUARES 4

static char *derivation_of(const struct probe *probe)
{
    struct strbuf sb;
    strbuf_init(&sb);
    if (probe->alias_point)
        strbuf_printf(&sb, " from: %s", probe->alias_point);
    if (probe->written_point && (!probe->alias_point || strcmp(probe->written_point, probe->alias_point) != 0))
        strbuf_printf(&sb, " from: %s", probe->written_point);
    char *text = strdup(sb.data ? sb.data : "");
    strbuf_free(&sb);
    return text;
}

static void describe_timed(struct codegen *cg, const struct probe *probe)
{
    struct program_timed_probe *out = &cg->program->timed[cg->program->timed_count++];
    struct strbuf location;
    strbuf_init(&location);
    span_position(&location, probe->decl_span.file ? probe->decl_span : probe->span);
    out->point = strdup(probe->point);
    out->location = strdup(location.data ? location.data : "");
    out->derivation = derivation_of(probe);
    out->index = probe->index;
    strbuf_free(&location);
}

/* The map and the report's rows: a program's slots start at
 * timing_slot[its probe's index]. */
void cg_define_timing(struct codegen *cg)
{
    const struct script *script = cg->script;
    if (!cg->options->timing || script->probe_count == 0)
        return;
    timing_state(cg)->slot = ARENA_ARRAY(cg->arena, int, script->probe_count);
    cg->program->timed = calloc((size_t)script->probe_count, sizeof(*cg->program->timed));
    for (int i = 0; i < script->probe_count; i++) {
        const struct probe *probe = script->probes[i];
        if (probe->group_leader)
            continue;   /* described with its leader */
        timing_state(cg)->slot[probe->index] = cg->program->timed_count;
        if (probe->group_count > 1)
            for (int m = 0; m < probe->group_count; m++)
                describe_timed(cg, probe->group[m]);
        else
            describe_timed(cg, probe);
    }
    timing_state(cg)->map = cg_map_global(cg, "tap_timing", 4);
    cg_map_btf(cg, timing_state(cg)->map, BPF_MAP_TYPE_PERCPU_ARRAY, (uint64_t)cg->program->timed_count, 4,
               sizeof(struct program_timing_value));
}

/* At the handler's start: the time, kept in scratch (the body's helper
 * calls would spill a register to the 512-byte stack). */
uint32_t cg_timing_start(struct codegen *cg)
{
    if (!timing_state(cg)->map)
        return 0;
    uint32_t start = cg_alloc_scratch(cg, 8);
    cg_store(cg, cg_helper(cg, BPF_FUNC_ktime_get_ns, cg->i64, NULL, 0), cg_scratch_ptr(cg, start));
    return start;
}

static LLVMValueRef field(struct codegen *cg, LLVMValueRef value, int index)
{
    LLVMValueRef offset = cg_const(cg, index);
    return cg_word_at(cg, value, offset);
}

static void add_to(struct codegen *cg, LLVMValueRef value, int index, LLVMValueRef amount)
{
    LLVMValueRef ptr = field(cg, value, index);
    cg_store(cg, cg_add(cg, cg_load(cg, ptr), amount), ptr);
}

/* Keeps the smaller (or larger) of the field and elapsed; the first run sets both. */
static void keep_extreme(struct codegen *cg, LLVMValueRef value, int index, LLVMIntPredicate better,
                         LLVMValueRef elapsed, LLVMValueRef first)
{
    LLVMValueRef ptr = field(cg, value, index);
    LLVMValueRef old = cg_load(cg, ptr);
    LLVMValueRef take = cg_or(cg, first, cg_compare_values(cg, better, elapsed, old));
    cg_store(cg, cg_select(cg, take, elapsed, old), ptr);
}

/* A block that adds this run to the probe's slot, then goes on to next. */
LLVMBasicBlockRef cg_timing_end(struct codegen *cg, uint32_t start, LLVMBasicBlockRef next)
{
    if (!start)
        return next;
    LLVMBasicBlockRef resume = cg_current_block(cg);
    LLVMBasicBlockRef timed = cg_block(cg, "timed");
    cg_position(cg, timed);
    const struct probe *probe = cg->fn->probe;
    LLVMValueRef elapsed = cg_sub(cg, cg_helper(cg, BPF_FUNC_ktime_get_ns, cg->i64, NULL, 0), cg_load(cg, cg_scratch_ptr(cg, start)));
    LLVMValueRef slot = cg_const(cg, timing_state(cg)->slot[probe->index]);
    if (probe->group_count > 1)
        slot = cg_add(cg, slot, cg_group_member(cg));
    LLVMValueRef key = cg_entry_alloca(cg, cg->i32, "timing_key");
    cg_store(cg, cg_u32(cg, slot), key);
    LLVMValueRef value = cg_map_lookup(cg, timing_state(cg)->map, key);
    cg_jump_if(cg, cg_is_null(cg, value), next, "timing_slot");
    LLVMValueRef first = cg_compare(cg, LLVMIntEQ, cg_load(cg, field(cg, value, FIELD_COUNT)), 0);
    keep_extreme(cg, value, FIELD_MIN, LLVMIntULT, elapsed, first);
    keep_extreme(cg, value, FIELD_MAX, LLVMIntUGT, elapsed, first);
    add_to(cg, value, FIELD_COUNT, cg_const(cg, 1));
    add_to(cg, value, FIELD_SUM, elapsed);
    add_to(cg, value, FIELD_SUM_SQUARES, cg_mul(cg, elapsed, elapsed));
    cg_branch(cg, next);
    cg_position(cg, resume);
    return timed;
}
