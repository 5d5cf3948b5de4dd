/* A syscall-entry handler whose user strings are not resident yet runs at
 * the syscall's exit (sema/syscall_defer.c says which probes). Its program
 * is attached at both tracepoints, the exit one first and with cookie
 * DEFER_EXIT_COOKIE (probes.c). At entry it copies the record into scratch
 * and reads each string once; when one faults, it saves {mm, the record}
 * under the thread's pid_tgid and the probe's index and stops. At exit it
 * takes a saved copy back and runs the handler on it: fields from the copy,
 * strings from pages the kernel faulted in while copying them. The handler
 * reads its fields from the scratch copy either way, so its code is
 * generated once. */
#include <linux/bpf.h>

#include "codegen/codegen_internal.h"

#define DEFER_MAP_SIZE 10240   /* threads inside a deferred syscall at once */

static uint32_t record_words(const struct probe *probe)
{
    return (uint32_t)(probe->tracepoint.record_size + 7) / 8;
}

/* One hash for the script: {pid_tgid, probe index} -> {mm, the record's
 * words}, as big as the largest record. A plain hash, not an LRU one: an
 * LRU would evict a waiting thread's record without a trace; when this one
 * is full, the handler that cannot wait counts as a skipped probe and the
 * run's end says so. Every entry is deleted at its syscall's exit, which
 * every syscall that reads a user string reaches. */
static LLVMValueRef defer_map(struct codegen *cg)
{
    LLVMValueRef map = LLVMGetNamedGlobal(cg->module, "tap_defer");
    if (map)
        return map;
    uint32_t words = 0;
    for (int i = 0; i < cg->script->probe_count; i++)
        if (probe_tracepoint(cg->script->probes[i])->user_check_count && record_words(cg->script->probes[i]) > words)
            words = record_words(cg->script->probes[i]);
    map = cg_map_global(cg, "tap_defer", 4);
    uint32_t entries = cg->options->defer_entries ? cg->options->defer_entries : DEFER_MAP_SIZE;
    cg_map_btf(cg, map, BPF_MAP_TYPE_HASH, entries, 16, 8 + words * 8);
    return map;
}

static LLVMValueRef defer_key(struct codegen *cg, const struct probe *probe)
{
    LLVMTypeRef type = LLVMArrayType2(cg->i64, 2);
    LLVMValueRef key = cg_entry_alloca(cg, type, "defer_key");
    LLVMValueRef zero = cg_i32(cg, 0), first[2] = {zero, zero}, second[2] = {zero, cg_i32(cg, 1)};
    cg_store(cg, cg_helper(cg, BPF_FUNC_get_current_pid_tgid, cg->i64, NULL, 0), cg_element_ptr(cg, type, key, first, 2, ""));
    cg_store(cg, cg_const(cg, probe->index), cg_element_ptr(cg, type, key, second, 2, ""));
    return key;
}

/* From word 1: word 0 is the common fields, which no handler reads. */
static void copy_words(struct codegen *cg, LLVMValueRef to, LLVMValueRef from, uint32_t words)
{
    for (uint32_t i = 1; i < words; i++) {
        LLVMValueRef word = cg_load(cg, cg_byte_at(cg, from, i * 8));
        LLVMSetAlignment(word, 8);
        cg_store(cg, word, cg_byte_at(cg, to, i * 8));
    }
}

/* First in the program: at the exit, the entry's saved value, or a branch
 * to `none` (nothing was deferred for this thread, the common case). */
void cg_defer_begin(struct codegen *cg, const struct probe *probe, struct defer_state *d, LLVMBasicBlockRef none)
{
    d->key = defer_key(cg, probe);
    LLVMValueRef ctx = LLVMGetParam(cg->fn->function, 0);
    LLVMValueRef cookie = cg_helper(cg, BPF_FUNC_get_attach_cookie, cg->i64, &ctx, 1);
    d->at_exit = cg_compare_named(cg, LLVMIntEQ, cookie, cg_const(cg, DEFER_EXIT_COOKIE), "at_exit");
    LLVMBasicBlockRef entry = cg_current_block(cg);
    LLVMBasicBlockRef go_on = cg_if(cg, d->at_exit, "deferred_lookup", "deferred_or_entry");
    LLVMBasicBlockRef lookup = cg_current_block(cg);
    LLVMValueRef args[2] = {defer_map(cg), d->key};
    LLVMValueRef saved = cg_helper(cg, BPF_FUNC_map_lookup_elem, cg->ptr, args, 2);
    cg_branch_if(cg, cg_is_null(cg, saved), none, go_on);
    cg_position(cg, go_on);
    d->saved = cg_phi2(cg, cg->ptr, "saved", LLVMConstNull(cg->ptr), entry, saved, lookup);
}

/* Once the scratch is ours: the record copied where the handler reads its
 * fields, from ctx or from the saved value. If execve replaced the
 * process's memory in between, the strings are gone: every user read of
 * the handler faults (cg_user_memory_read), never reading another image's
 * bytes. */
void cg_defer_record(struct codegen *cg, const struct probe *probe, const struct defer_state *d)
{
    uint32_t words = record_words(probe);
    uint32_t record = cg_alloc_scratch(cg, words * 8);
    cg->user_memory_gone = cg_alloc_scratch(cg, 8);
    cg->fn->record = cg_scratch_ptr(cg, record);
    cg_store(cg, cg_const(cg, 0), cg->fn->record);
    cg_store(cg, cg_const(cg, 0), cg_scratch_ptr(cg, cg->user_memory_gone));
    /* on the saved pointer, not at_exit: the verifier must see it non-NULL */
    struct cg_if_else branch = cg_if_else(cg, cg_is_null(cg, d->saved), "record_from_ctx", "record_from_saved",
                                          "record_copied");
    /* bpf_probe_read_kernel, not loads: a load from ctx would make the
     * kernel refuse the exit tracepoint, whose record is shorter */
    LLVMValueRef read[3] = {cg->fn->record, LLVMConstInt(cg->i32, words * 8, 0), LLVMGetParam(cg->fn->function, 0)};
    cg_helper(cg, BPF_FUNC_probe_read_kernel, cg->i64, read, 3);
    cg_else(cg, &branch);
    copy_words(cg, cg->fn->record, cg_byte_at(cg, d->saved, 8), words);
    LLVMValueRef mm = cg_load(cg, d->saved);
    LLVMValueRef replaced = cg_compare_values(cg, LLVMIntNE, mm, cg_current_mm(cg));
    cg_store(cg, cg_widen(cg, replaced), cg_scratch_ptr(cg, cg->user_memory_gone));
    cg_end_if_else(cg, &branch);
}

/* At entry, after the condition: a string that does not read (a NULL never
 * will: the handler sees it) saves the record and leaves through `done`. */
void cg_defer_check(struct codegen *cg, const struct probe *probe, const struct defer_state *d,
                    LLVMBasicBlockRef done)
{
    LLVMValueRef slot = cg_scratch_ptr(cg, cg_alloc_string_slot(cg));
    LLVMBasicBlockRef save = cg_block(cg, "defer_to_exit");
    for (int i = 0; i < probe->tracepoint.user_check_count; i++) {
        LLVMValueRef address = cg_operand(cg, probe->tracepoint.user_checks[i]);
        LLVMValueRef args[3] = {slot, LLVMConstInt(cg->i32, cg->string_size, 0),
                                cg_pointer(cg, address)};
        LLVMValueRef copied = cg_helper(cg, BPF_FUNC_probe_read_user_str, cg->i64, args, 3);
        LLVMValueRef fault = cg_and(cg, cg_compare(cg, LLVMIntSLT, copied, 0), cg_compare(cg, LLVMIntNE, address, 0));
        cg_jump_if(cg, fault, save, "resident");
    }
    LLVMBasicBlockRef run = cg_current_block(cg);
    cg_position(cg, save);
    uint32_t words = record_words(probe);
    uint32_t value = cg_alloc_scratch(cg, 8 + words * 8);
    cg_store(cg, cg_current_mm(cg), cg_scratch_ptr(cg, value));
    copy_words(cg, cg_scratch_ptr(cg, value + 8), cg->fn->record, words);
    LLVMValueRef map = defer_map(cg);
    LLVMValueRef saved = cg_map_update(cg, map, d->key, cg_scratch_ptr(cg, value), BPF_ANY);
    cg_jump_if(cg, cg_compare(cg, LLVMIntEQ, saved, 0), done, "defer_full");

    cg_atomic_add(cg, cg_state_field(cg, STATE_SKIPPED), cg_const(cg, 1));
    cg_branch(cg, done);
    cg_position(cg, run);
}

/* On every way out: at the exit, the saved value is used up. The cookie is
 * asked again rather than kept: a value live through the handler would make
 * the verifier walk the whole handler twice (entry and exit apart). */
void cg_defer_end(struct codegen *cg, const struct defer_state *d)
{
    LLVMValueRef ctx = LLVMGetParam(cg->fn->function, 0);
    LLVMValueRef cookie = cg_helper(cg, BPF_FUNC_get_attach_cookie, cg->i64, &ctx, 1);
    LLVMValueRef at_exit = cg_compare(cg, LLVMIntEQ, cookie, DEFER_EXIT_COOKIE);
    LLVMBasicBlockRef done = cg_if(cg, at_exit, "forget_deferred", "deferred_done");
    LLVMValueRef args[2] = {defer_map(cg), d->key};
    cg_helper(cg, BPF_FUNC_map_delete_elem, cg->i64, args, 2);
    cg_end_if(cg, done);
}
