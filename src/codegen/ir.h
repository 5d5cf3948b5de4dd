/* The codegen layer: what every feature file builds with (constants,
 * blocks, if and error-if, comparisons, helper calls, maps, scratch and
 * probe reads, ring records, callbacks and bounded loops), and the two
 * dispatch points through which a feature evaluates an operand or a
 * statement without depending on expr.c or stmt.c. Feature files use these
 * rather than raw LLVMBuild* calls where one fits. Implemented in ir.c,
 * callbacks.c, data.c and records.c, which call no feature file. */
#ifndef TAP_CODEGEN_IR_H
#define TAP_CODEGEN_IR_H

#include <llvm-c/Core.h>

#include <stdint.h>

#include "base/source.h"
#include "program/program.h"

struct codegen;
struct fn_state;
struct symbol;
struct expr;
struct stmt;

/* ir.c */
LLVMValueRef cg_helper(struct codegen *cg, int helper_id, LLVMTypeRef return_type,
                       LLVMValueRef *args, unsigned count);
LLVMValueRef cg_random_bits(struct codegen *cg);   /* 64 bits of bpf_get_prandom_u32, two draws */
LLVMValueRef cg_const(struct codegen *cg, int64_t value);
LLVMValueRef cg_i32(struct codegen *cg, int32_t value);
LLVMValueRef cg_operand(struct codegen *cg, struct expr *e);   /* cg->expr(cg, e) */
void cg_statement(struct codegen *cg, struct stmt *st);        /* cg->stmt(cg, st) */
void cg_set_location(struct codegen *cg, struct span span);
LLVMValueRef cg_new_function(struct codegen *cg, const char *name, LLVMTypeRef type,
                             const char *section, const char **param_names, int internal);
/* A noinline subprogram in .text, one copy for every caller: the builder in
 * its entry block with state as cg->fn (the caller's function, block and
 * location kept in caller); cg_end_subprogram goes back to them. */
struct subprogram_caller {
    struct fn_state *fn;
    LLVMBasicBlockRef block;
    LLVMMetadataRef location;
};
LLVMValueRef cg_begin_subprogram(struct codegen *cg, const char *name, LLVMTypeRef type, const char **param_names,
                                 struct fn_state *state, struct subprogram_caller *caller);
void cg_end_subprogram(struct codegen *cg, const struct subprogram_caller *caller);
LLVMBasicBlockRef cg_block(struct codegen *cg, const char *name);
void cg_position(struct codegen *cg, LLVMBasicBlockRef block);
int cg_block_open(struct codegen *cg);   /* current block has no terminator yet */
LLVMValueRef cg_entry_alloca(struct codegen *cg, LLVMTypeRef type, const char *name);
/* if (cond) { ... }: branches to a new then block and stays there; the
 * done block it returns is where cg_end_if() branches and goes on. */
LLVMBasicBlockRef cg_if(struct codegen *cg, LLVMValueRef cond, const char *then_name, const char *done_name);
void cg_end_if(struct codegen *cg, LLVMBasicBlockRef done);
/* if (!cond) { ... }: the same for a condition that says when to skip
 * (the branch goes to done where it holds; no negation is built). */
LLVMBasicBlockRef cg_if_not(struct codegen *cg, LLVMValueRef cond, const char *then_name, const char *done_name);
/* if (cond) { ... } else { ... }: three blocks made in that order; the
 * builder starts in then, cg_else() goes on to the else block and
 * cg_end_if_else() to done (each closing the open block with a branch). */
struct cg_if_else {
    LLVMBasicBlockRef otherwise, done;
};
struct cg_if_else cg_if_else(struct codegen *cg, LLVMValueRef cond, const char *then_name, const char *else_name,
                             const char *done_name);
/* The same for if (ptr != NULL), e.g. a map lookup's value: branches on ptr being NULL. */
struct cg_if_else cg_if_present(struct codegen *cg, LLVMValueRef ptr, const char *then_name, const char *else_name,
                                const char *done_name);
void cg_else(struct codegen *cg, const struct cg_if_else *branch);
void cg_end_if_else(struct codegen *cg, const struct cg_if_else *branch);
/* A jump to target, closing the current block (a path that rejoins a
 * block made earlier, e.g. the done block of a search). */
void cg_branch(struct codegen *cg, LLVMBasicBlockRef target);
/* Guards: go on in a new block `name` where cond holds (cg_continue_if) or
 * where it fails (cg_jump_if, which branches to target where it holds). */
void cg_continue_if(struct codegen *cg, LLVMValueRef cond, const char *name, LLVMBasicBlockRef otherwise);
void cg_jump_if(struct codegen *cg, LLVMValueRef cond, LLVMBasicBlockRef target, const char *name);
/* A two-way jump to blocks made earlier, closing the current block (the
 * paths of a loop or a search that meet again). */
void cg_branch_if(struct codegen *cg, LLVMValueRef cond, LLVMBasicBlockRef if_true, LLVMBasicBlockRef if_false);
/* A loop inside the function over index 0, 1, ... (a constant bound the
 * verifier sees): cg_loop_start() jumps to head and makes the index there;
 * cg_loop_next() ends an iteration, back to head while index + 1 < limit
 * (unsigned), else on to done. */
struct cg_loop {
    LLVMBasicBlockRef entry, head;
    LLVMValueRef index;
};
struct cg_loop cg_loop_start(struct codegen *cg, LLVMBasicBlockRef head, const char *index_name);
void cg_loop_next(struct codegen *cg, const struct cg_loop *loop, int64_t limit, LLVMBasicBlockRef done);
/* A two-way phi named name: value_a coming from block_a, value_b from block_b. */
LLVMValueRef cg_phi2(struct codegen *cg, LLVMTypeRef type, const char *name, LLVMValueRef value_a, LLVMBasicBlockRef block_a,
                     LLVMValueRef value_b, LLVMBasicBlockRef block_b);
LLVMValueRef cg_compare(struct codegen *cg, LLVMIntPredicate predicate, LLVMValueRef value, int64_t constant);
LLVMValueRef cg_compare_values(struct codegen *cg, LLVMIntPredicate predicate, LLVMValueRef lhs, LLVMValueRef rhs);
LLVMValueRef cg_is_null(struct codegen *cg, LLVMValueRef ptr);          /* an i1 */
/* *ptr += delta, atomically (a count other CPUs update too); the old value. */
LLVMValueRef cg_atomic_add(struct codegen *cg, LLVMValueRef ptr, LLVMValueRef delta);
/* ret i64 result from a callback: 0 goes on, 1 stops (bpf_loop, bpf_for_each_map_elem). */
void cg_callback_return(struct codegen *cg, int64_t result);
/* base + offset bytes: offset an i64 value, or a constant (cg_byte_at). */
LLVMValueRef cg_byte_ptr(struct codegen *cg, LLVMValueRef base, LLVMValueRef offset);
LLVMValueRef cg_byte_at(struct codegen *cg, LLVMValueRef base, int64_t offset);
/* &base[index] of an array of u64s (index an i64 value). */
LLVMValueRef cg_word_at(struct codegen *cg, LLVMValueRef base, LLVMValueRef index);
LLVMValueRef cg_load(struct codegen *cg, LLVMValueRef ptr);             /* an i64 */
/* A field of a narrower type (a table's i32 index, a char), zero-extended to an i64. */
LLVMValueRef cg_load_unsigned(struct codegen *cg, LLVMTypeRef type, LLVMValueRef ptr);
LLVMValueRef cg_store(struct codegen *cg, LLVMValueRef value, LLVMValueRef ptr);   /* the store */
/* i64 arithmetic (i1 for and, or, not, select's condition), unnamed values. */
LLVMValueRef cg_add(struct codegen *cg, LLVMValueRef lhs, LLVMValueRef rhs);
LLVMValueRef cg_sub(struct codegen *cg, LLVMValueRef lhs, LLVMValueRef rhs);
LLVMValueRef cg_mul(struct codegen *cg, LLVMValueRef lhs, LLVMValueRef rhs);
LLVMValueRef cg_and(struct codegen *cg, LLVMValueRef lhs, LLVMValueRef rhs);
LLVMValueRef cg_or(struct codegen *cg, LLVMValueRef lhs, LLVMValueRef rhs);
LLVMValueRef cg_shl(struct codegen *cg, LLVMValueRef value, LLVMValueRef bits);
LLVMValueRef cg_lshr(struct codegen *cg, LLVMValueRef value, LLVMValueRef bits);
LLVMValueRef cg_neg(struct codegen *cg, LLVMValueRef value);
LLVMValueRef cg_not(struct codegen *cg, LLVMValueRef value);
LLVMValueRef cg_select(struct codegen *cg, LLVMValueRef cond, LLVMValueRef if_true, LLVMValueRef if_false);
/* A narrower value (an i1, a char) zero-extended to an i64. */
LLVMValueRef cg_widen(struct codegen *cg, LLVMValueRef value);
LLVMValueRef cg_udiv(struct codegen *cg, LLVMValueRef lhs, LLVMValueRef rhs);
LLVMValueRef cg_ashr(struct codegen *cg, LLVMValueRef value, LLVMValueRef bits);
/* A narrower value sign-extended to an i64. */
LLVMValueRef cg_widen_signed(struct codegen *cg, LLVMValueRef value);
/* An i64 as a u32: a helper's size argument, a u32 map key. */
LLVMValueRef cg_u32(struct codegen *cg, LLVMValueRef value);
/* An i64 address as a pointer, and back. */
LLVMValueRef cg_pointer(struct codegen *cg, LLVMValueRef address);
LLVMValueRef cg_address(struct codegen *cg, LLVMValueRef ptr);
/* ret value: a program's i32, a function's result. */
void cg_return(struct codegen *cg, LLVMValueRef value);
LLVMValueRef cg_signed_divide(struct codegen *cg, LLVMValueRef lhs, LLVMValueRef rhs, int is_modulo);
/* The builder's other instructions, named where the name shows in -p3's IR
 * ("" for none): */
LLVMBasicBlockRef cg_current_block(struct codegen *cg);   /* where the builder is */
/* a load of any type (cg_load: an i64, unnamed) */
LLVMValueRef cg_load_as(struct codegen *cg, LLVMTypeRef type, LLVMValueRef ptr, const char *name);
/* &ptr->field of a struct type, and &base[indices...] of type (GEP) */
LLVMValueRef cg_field_ptr(struct codegen *cg, LLVMTypeRef struct_type, LLVMValueRef ptr, unsigned field,
                          const char *name);
LLVMValueRef cg_element_ptr(struct codegen *cg, LLVMTypeRef type, LLVMValueRef base, LLVMValueRef *indices,
                            unsigned count, const char *name);
/* lhs OP rhs for any binary opcode (xor, urem), named */
LLVMValueRef cg_binary(struct codegen *cg, LLVMOpcode op, LLVMValueRef lhs, LLVMValueRef rhs, const char *name);
LLVMValueRef cg_compare_named(struct codegen *cg, LLVMIntPredicate predicate, LLVMValueRef lhs, LLVMValueRef rhs,
                              const char *name);
LLVMValueRef cg_is_not_null(struct codegen *cg, LLVMValueRef ptr);      /* an i1 */
LLVMValueRef cg_trunc(struct codegen *cg, LLVMValueRef value, LLVMTypeRef type);
/* a phi of type: its incoming values added by the caller (LLVMAddIncoming) */
LLVMValueRef cg_phi(struct codegen *cg, LLVMTypeRef type, const char *name);
/* a switch on value, to otherwise unless a case (LLVMAddCase) matches */
LLVMValueRef cg_switch(struct codegen *cg, LLVMValueRef value, LLVMBasicBlockRef otherwise, unsigned cases);
/* a call of a function of the module (fn_type: its type), and of an LLVM
 * intrinsic ("llvm.bswap") overloaded on the i64 type */
LLVMValueRef cg_call(struct codegen *cg, LLVMTypeRef fn_type, LLVMValueRef fn, LLVMValueRef *args, unsigned count);
LLVMValueRef cg_intrinsic(struct codegen *cg, const char *name, LLVMValueRef *args, unsigned count);
/* *ptr from 0 to 1 when it is 0, atomically: an i1, whether this call did */
LLVMValueRef cg_claim(struct codegen *cg, LLVMValueRef ptr);

/* callbacks.c: a function the kernel calls back (bpf_loop: (index, ctx); with map_callback,
 * bpf_for_each_map_elem: (map, key, value, ctx)), inheriting the caller's
 * context; cg_end_callback() returns to generating the caller. */
LLVMValueRef cg_begin_callback(struct codegen *cg, const char *prefix, int map_callback, struct fn_state *state);
void cg_callback_entry(struct codegen *cg, struct fn_state *state, struct span span, int64_t miss_result);
void cg_end_callback(struct codegen *cg, struct fn_state *state);
/* bpf_loop(count <= MAXSTRINGLEN): body(cg, index, data) runs in the callback
 * and ends every path returning 0 (go on) or 1 (stop). */
typedef void (*cg_loop_body)(struct codegen *cg, LLVMValueRef index, void *data);
void cg_bounded_loop(struct codegen *cg, struct span span, LLVMValueRef count, cg_loop_body body, void *data);
/* The same for a count known at compile time (no clamp), e.g. the CPU count. */
void cg_counted_loop(struct codegen *cg, struct span span, uint32_t times, cg_loop_body body, void *data);
/* The callback of such a loop, and bpf_loop(count clamped to 0..MAXSTRINGLEN, fn, ctx). */
LLVMValueRef cg_loop_callback(struct codegen *cg, const char *prefix, struct span span, cg_loop_body body, void *data);
void cg_call_loop(struct codegen *cg, LLVMValueRef count, LLVMValueRef fn, LLVMValueRef ctx);

/* data.c: .data, maps, scratch, and the memory helpers every feature uses (copy,
 * zero, map lookup, locals, user reads, a clamp the verifier cannot see through) */
void cg_define_data(struct codegen *cg);
void cg_define_maps(struct codegen *cg);
LLVMValueRef cg_state_field(struct codegen *cg, int field);  /* ptr to a tap_state u64 */
LLVMValueRef cg_global_ptr(struct codegen *cg, const struct symbol *global);
LLVMValueRef cg_scratch_ptr(struct codegen *cg, uint32_t offset);
LLVMValueRef cg_scratch_at(struct codegen *cg, LLVMValueRef offset);   /* an i64 offset */
uint32_t cg_alloc_string_slot(struct codegen *cg);
uint32_t cg_alloc_scratch(struct codegen *cg, uint32_t size);
/* A BTF-defined map: the global (fields: 2 for ring buffers, 4 with key and
 * value) now, its BTF once sizes are final. */
LLVMValueRef cg_map_global(struct codegen *cg, const char *name, int fields);
void cg_map_btf(struct codegen *cg, LLVMValueRef map, int type, uint64_t max_entries, uint32_t key_size,
                uint32_t value_size);
LLVMValueRef cg_load_scratch(struct codegen *cg);            /* lookup this CPU's scratch */
void cg_finish_data(struct codegen *cg);
LLVMValueRef cg_opaque_clamp(struct codegen *cg, LLVMValueRef value, int64_t max);
LLVMValueRef cg_map_lookup(struct codegen *cg, LLVMValueRef map, LLVMValueRef key);
/* bpf_map_update_elem(map, key, value, flags (BPF_ANY ...)): 0 or -errno. */
LLVMValueRef cg_map_update(struct codegen *cg, LLVMValueRef map, LLVMValueRef key, LLVMValueRef value, int flags);
/* `size` bytes of kernel memory at base + offset, zero-extended (0 when unreadable). */
LLVMValueRef cg_read_kernel(struct codegen *cg, LLVMValueRef base, long offset, int size);
void cg_zero(struct codegen *cg, LLVMValueRef ptr, uint32_t size);
void cg_copy(struct codegen *cg, LLVMValueRef dst, LLVMValueRef src, uint32_t size);
LLVMValueRef cg_local_ptr(struct codegen *cg, const struct symbol *sym);
LLVMValueRef cg_user_memory_read(struct codegen *cg, int helper_id, LLVMValueRef args[3]);

/* records.c: ring records (reserve, fill, submit; a full ring counts a lost
 * event in lost_field, none when < 0) and runtime errors */
typedef void (*cg_record_filler)(struct codegen *cg, LLVMValueRef record, void *data);
void cg_emit_record(struct codegen *cg, LLVMValueRef ring, uint32_t size, int lost_field, cg_record_filler fill,
                    void *data);
void cg_emit_bytes(struct codegen *cg, LLVMValueRef bytes, LLVMValueRef size);
LLVMValueRef cg_record_header(struct codegen *cg, enum record_kind kind, uint32_t id);
LLVMValueRef cg_record_at(struct codegen *cg, LLVMValueRef record, uint32_t offset);
void cg_raise_error(struct codegen *cg, struct span span, const char *message, LLVMValueRef value);
/* The same when cond holds, the builder going on where it does not. */
void cg_error_if(struct codegen *cg, LLVMValueRef cond, const char *fail_name, const char *ok_name, struct span span,
                 const char *message, LLVMValueRef value);
void cg_unwind_if_needed(struct codegen *cg);
void cg_exit(struct codegen *cg);
void cg_string_record(struct codegen *cg, enum record_kind kind, uint32_t id, LLVMValueRef text);
void cg_procfs_value(struct codegen *cg, struct span span, int append, LLVMValueRef text);
void cg_abort(struct codegen *cg);
/* An error raised while a try is open: its message for catch, then unwind. */
void cg_catch_error(struct codegen *cg, const char *message, LLVMValueRef value);
/* try/catch, enabled once when the script has a try block: errors may
 * then be caught, their message kept in a scratch slot that catch reads. */

void cg_enable_catch(struct codegen *cg);
int cg_catch_enabled(const struct codegen *cg);
LLVMValueRef cg_caught_message(struct codegen *cg);


#endif
