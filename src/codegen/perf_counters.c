/* @perf("NAME"): the value of a perf .counter("NAME") probe's event, one
 * per-task event the runtime opens on the -c/-x target and puts in slot
 * counter_index of tap_perf_counters (kinds/perf.c). The kernel reads such
 * an event only in its own task: elsewhere (another thread) the read fails
 * and the handler raises an error rather than give a wrong count. */
#include <string.h>

#include <linux/bpf.h>

#include "codegen/codegen_internal.h"
#include "sema/sema.h"

#define COUNTERS_MAP "tap_perf_counters"

static LLVMValueRef counters_map(struct codegen *cg)
{
    LLVMValueRef map = LLVMGetNamedGlobal(cg->module, COUNTERS_MAP);
    if (map)
        return map;
    int count = 0;
    for (int i = 0; i < cg->script->probe_count; i++)
        count += cg->script->probes[i]->kind == PROBE_PERF && cg->script->probes[i]->perf.counter != NULL;
    map = cg_map_global(cg, COUNTERS_MAP, 4);
    cg_map_btf(cg, map, BPF_MAP_TYPE_PERF_EVENT_ARRAY, (uint64_t)count, 4, 4);
    return map;
}

LLVMValueRef cg_perf_read(struct codegen *cg, struct expr *e)
{
    const char *name = e->call.args->string.value;
    const struct probe *counter = sema_perf_counter(cg->script, name);
    uint32_t value = cg_alloc_scratch(cg, sizeof(struct bpf_perf_event_value));
    LLVMValueRef args[4] = {counters_map(cg), cg_const(cg, counter->perf.counter_index),
                            cg_scratch_ptr(cg, value), cg_i32(cg, sizeof(struct bpf_perf_event_value))};
    LLVMValueRef err = cg_helper(cg, BPF_FUNC_perf_event_read_value, cg->i64, args, 4);
    const char *message = arena_printf(cg->arena, "cannot read perf counter %s in this thread (error %%lld): "
                                       "it counts the -c/-x target's first thread only", name);
    cg_error_if(cg, cg_compare(cg, LLVMIntSLT, err, 0), "perf_read_failed", "perf_read_ok", e->span, message,
                cg_neg(cg, err));
    return cg_load(cg, cg_scratch_ptr(cg, value));   /* .counter */
}
