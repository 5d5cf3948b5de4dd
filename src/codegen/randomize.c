/* timer.UNIT(N).randomize(M): the handler runs N plus a random amount in
 * [-M, M] after its last deadline, drawn anew each run, as SystemTap
 * re-arms its hrtimer. The probe's perf event ticks finer than M
 * (kinds/timer.c); each tick compares the time with the probe's deadline,
 * a u64 of tap_deadlines, and the first tick past it moves it on and runs
 * the handler. bpf_timer would fire at the deadline itself, but no kernel
 * lets perf_event, kprobe, tracepoint or raw_tp programs use one ("tracing
 * progs cannot use bpf_timer yet"). Without randomize none of this is
 * generated. */
#include <linux/bpf.h>

#include "codegen/codegen_internal.h"
#include "sema/sema.h"

#define DEADLINES_MAP "tap_deadlines"

/* One u64 per probe, by its index: the bpf_ktime_get_ns at or after which
 * its handler runs next; 0 before its first tick. */
static LLVMValueRef deadlines_map(struct codegen *cg)
{
    LLVMValueRef map = LLVMGetNamedGlobal(cg->module, DEADLINES_MAP);
    if (map)
        return map;
    map = cg_map_global(cg, DEADLINES_MAP, 4);
    cg_map_btf(cg, map, BPF_MAP_TYPE_ARRAY, (uint64_t)cg->script->probe_count, 4, 8);
    return map;
}

/* The next deadline: N plus a random amount in [-M, M] after the last one;
 * the first counts from a tick ago, when the event started. One already
 * past (a CPU that stalled) becomes now: the handler runs at the next tick,
 * once, not at every tick until the deadlines catch up. */
static LLVMValueRef next_deadline(struct codegen *cg, const struct perf_probe *perf, LLVMValueRef deadline,
                                  LLVMValueRef first, LLVMValueRef now)
{
    LLVMValueRef from = cg_select(cg, first, cg_sub(cg, now, cg_const(cg, (int64_t)perf->period_ns)), deadline);
    LLVMValueRef spread = cg_const(cg, (int64_t)(2 * perf->randomize_ns + 1));
    LLVMValueRef jitter = cg_binary(cg, LLVMURem, cg_random_bits(cg), spread, "jitter");
    LLVMValueRef earliest = cg_add(cg, from, cg_const(cg, (int64_t)(perf->interval_ns - perf->randomize_ns)));
    LLVMValueRef next = cg_add(cg, earliest, jitter);
    return cg_select(cg, cg_compare_values(cg, LLVMIntULT, next, now), now, next);
}

/* Before the handler: go to skip unless its deadline has passed, then move
 * the deadline on; the first tick only sets it. */
void cg_randomize_guard(struct codegen *cg, const struct probe *probe, LLVMBasicBlockRef skip)
{
    const struct perf_probe *perf = probe_perf(probe);
    if (!perf->randomize_ns)
        return;
    LLVMValueRef key = cg_entry_alloca(cg, cg->i32, "deadline_key");
    cg_store(cg, cg_i32(cg, probe->index), key);
    LLVMValueRef slot = cg_map_lookup(cg, deadlines_map(cg), key);
    cg_jump_if(cg, cg_is_null(cg, slot), skip, "deadline_slot");
    LLVMValueRef deadline = cg_load(cg, slot);
    LLVMValueRef now = cg_helper(cg, BPF_FUNC_ktime_get_ns, cg->i64, NULL, 0);
    cg_jump_if(cg, cg_compare_values(cg, LLVMIntULT, now, deadline), skip, "deadline_passed");
    LLVMValueRef first = cg_compare(cg, LLVMIntEQ, deadline, 0);
    cg_store(cg, next_deadline(cg, perf, deadline, first, now), slot);
    cg_jump_if(cg, first, skip, "deadline_set");
}
