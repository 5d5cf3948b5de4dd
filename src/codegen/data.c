/* Where values live: `.data` (session state and scalar globals, one struct so
 * offsets are known here), the ring buffers, and per-CPU scratch for strings;
 * and the helpers every feature moves values with (copy, zero, map lookup,
 * locals, user reads, a clamp the verifier cannot see through). */
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include <bpf/libbpf.h>
#include <linux/bpf.h>

#include "codegen/codegen_internal.h"

#define STATE_FIELDS (sizeof(struct tap_state) / sizeof(uint64_t))

void cg_define_data(struct codegen *cg)
{
    const struct script *script = cg->script;
    LLVMTypeRef *fields = ARENA_ARRAY(cg->arena, LLVMTypeRef, STATE_FIELDS + (size_t)script->global_count);
    LLVMValueRef *values = ARENA_ARRAY(cg->arena, LLVMValueRef, STATE_FIELDS + (size_t)script->global_count);
    unsigned count = 0;
    for (; count < STATE_FIELDS; count++) {
        fields[count] = cg->i64;
        values[count] = cg_const(cg, 0);
    }
    cg->global_field = ARENA_ARRAY(cg->arena, int, script->global_count + 1);
    for (int i = 0; i < script->global_count; i++) {
        const struct symbol *g = script->globals[i];
        cg->global_field[i] = -1;
        if (g->is_array || g->type == TYPE_STATS || g->type == TYPE_UNKNOWN)
            continue;
        cg->global_field[i] = (int)count;
        if (g->type == TYPE_STRING) {
            fields[count] = LLVMArrayType2(cg->i8, cg->string_size);
            char *text = ARENA_ARRAY(cg->arena, char, cg->string_size);
            if (g->init && g->init->kind == EXPR_STRING)
                strncpy(text, g->init->string.value, cg->string_size - 1);
            values[count] = LLVMConstStringInContext(cg->context, text, cg->string_size, 1);
        } else {
            fields[count] = cg->i64;
            values[count] = cg_const(cg, g->init && g->init->kind == EXPR_INT ? g->init->int_value : 0);
        }
        count++;
    }
    cg->data_type = LLVMStructTypeInContext(cg->context, fields, count, 0);
    cg->data = LLVMAddGlobal(cg->module, cg->data_type, "tap_data");
    LLVMSetInitializer(cg->data, LLVMConstNamedStruct(cg->data_type, values, count));
    LLVMSetSection(cg->data, ".data");
    LLVMSetAlignment(cg->data, 8);
}

LLVMValueRef cg_state_field(struct codegen *cg, int field)
{
    return cg_field_ptr(cg, cg->data_type, cg->data, (unsigned)field, "state");
}

LLVMValueRef cg_global_ptr(struct codegen *cg, const struct symbol *global)
{
    int field = cg->global_field[global->global_index];
    return cg_field_ptr(cg, cg->data_type, cg->data, (unsigned)field, global->name);
}

/* Records where each printable global sits, for -G and the end-of-run print. */
static void describe_globals(struct codegen *cg)
{
    const struct script *script = cg->script;
    struct program *program = cg->program;
    program->globals = calloc((size_t)script->global_count + 1, sizeof(*program->globals));
    for (int i = 0; i < script->global_count; i++) {
        const struct symbol *g = script->globals[i];
        int field = cg->global_field[i];
        if (field < 0)
            continue;
        struct program_global *out = &program->globals[program->global_count++];
        out->name = strdup(g->name);
        out->decl_index = g->global_index;
        out->kind = g->type == TYPE_STRING ? PROGRAM_GLOBAL_STRING : PROGRAM_GLOBAL_LONG;
        out->offset = (uint32_t)LLVMOffsetOfElement(cg->layout, cg->data_type, (unsigned)field);
        out->size = g->type == TYPE_STRING ? cg->string_size : 8;
        out->print_at_end = sema_prints_at_end(g);
    }
    program->state_offset = 0;
}

/* BTF-defined maps: a struct whose members encode the map's shape as
 * pointer-to-array types (libbpf reads the array lengths). */
static LLVMMetadataRef di_int_array_ptr(struct codegen *cg, uint64_t count)
{
    LLVMMetadataRef range = LLVMDIBuilderGetOrCreateSubrange(cg->di, 0, (int64_t)count);
    LLVMMetadataRef array = LLVMDIBuilderCreateArrayType(cg->di, count * 32, 32, cg->di_int, &range, 1);
    return LLVMDIBuilderCreatePointerType(cg->di, array, 64, 0, 0, "", 0);
}

static LLVMMetadataRef di_member(struct codegen *cg, const char *name, LLVMMetadataRef type, int index)
{
    return LLVMDIBuilderCreateMemberType(cg->di, cg->di_unit, name, strlen(name), cg->di_file, 0, 64, 64,
                                         (uint64_t)index * 64, LLVMDIFlagZero, type);
}

LLVMValueRef cg_map_global(struct codegen *cg, const char *name, int fields)
{
    LLVMTypeRef members[4] = {cg->ptr, cg->ptr, cg->ptr, cg->ptr};
    LLVMTypeRef type = LLVMStructTypeInContext(cg->context, members, (unsigned)fields, 0);
    LLVMValueRef map = LLVMAddGlobal(cg->module, type, name);
    LLVMSetInitializer(map, LLVMConstNull(type));
    LLVMSetSection(map, ".maps");
    LLVMSetAlignment(map, 8);
    return map;
}

static void map_debug_info(struct codegen *cg, LLVMValueRef map, const char *name,
                           LLVMMetadataRef *members, int count)
{
    LLVMMetadataRef type = LLVMDIBuilderCreateStructType(
        cg->di, cg->di_unit, "", 0, cg->di_file, 0, (uint64_t)count * 64, 64, LLVMDIFlagZero, NULL,
        members, (unsigned)count, 0, NULL, "", 0);
    LLVMMetadataRef expr = LLVMDIBuilderCreateExpression(cg->di, NULL, 0);
    LLVMMetadataRef gve = LLVMDIBuilderCreateGlobalVariableExpression(
        cg->di, cg->di_unit, name, strlen(name), name, strlen(name), cg->di_file, 0, type, 0, expr,
        NULL, 64);
    LLVMGlobalSetMetadata(map, LLVMGetMDKindIDInContext(cg->context, "dbg", 3), gve);
}

void cg_define_maps(struct codegen *cg)
{
    cg->events_map = cg_map_global(cg, "tap_events", 2);
    cg->control_map = cg_map_global(cg, "tap_control", 2);
    cg->scratch_map = cg_map_global(cg, "tap_scratch", 4);
}

static LLVMMetadataRef di_bytes(struct codegen *cg, uint64_t size)
{
    LLVMMetadataRef range = LLVMDIBuilderGetOrCreateSubrange(cg->di, 0, (int64_t)size);
    return LLVMDIBuilderCreateArrayType(cg->di, size * 8, 64, cg->di_char, &range, 1);
}

/* BTF for a map made by cg_map_global(): type and max_entries, and key and
 * value sizes unless key_size is 0 (ring buffers have neither). */
void cg_map_btf(struct codegen *cg, LLVMValueRef map, int type, uint64_t max_entries, uint32_t key_size,
                uint32_t value_size)
{
    LLVMMetadataRef members[4] = {
        di_member(cg, "type", di_int_array_ptr(cg, (uint64_t)type), 0),
        di_member(cg, "max_entries", di_int_array_ptr(cg, max_entries), 1),
    };
    int count = 2;
    if (key_size) {
        members[count++] = di_member(cg, "key", LLVMDIBuilderCreatePointerType(cg->di, di_bytes(cg, key_size),
                                                                               64, 0, 0, "", 0), 2);
        members[count++] = di_member(cg, "value", LLVMDIBuilderCreatePointerType(cg->di, di_bytes(cg, value_size),
                                                                                 64, 0, 0, "", 0), 3);
    }
    size_t len;
    const char *name = LLVMGetValueName2(map, &len);
    map_debug_info(cg, map, name, members, count);
}

/* libbpf 1.1 makes .data mmapable (live values for the runtime) only when its
 * BTF has a DATASEC with a non-static variable: describe tap_data. */
static void data_debug_info(struct codegen *cg)
{
    unsigned count = LLVMCountStructElementTypes(cg->data_type);
    LLVMMetadataRef *members = ARENA_ARRAY(cg->arena, LLVMMetadataRef, count);
    for (unsigned i = 0; i < count; i++) {
        LLVMTypeRef field = LLVMStructGetTypeAtIndex(cg->data_type, i);
        uint64_t bits = LLVMSizeOfTypeInBits(cg->layout, field);
        LLVMMetadataRef type = cg->di_long;
        if (LLVMGetTypeKind(field) == LLVMArrayTypeKind) {
            LLVMMetadataRef range = LLVMDIBuilderGetOrCreateSubrange(cg->di, 0, (int64_t)(bits / 8));
            type = LLVMDIBuilderCreateArrayType(cg->di, bits, 8, cg->di_char, &range, 1);
        }
        char name[32];
        snprintf(name, sizeof(name), "f%u", i);
        members[i] = LLVMDIBuilderCreateMemberType(
            cg->di, cg->di_unit, name, strlen(name), cg->di_file, 0, bits, 64,
            LLVMOffsetOfElement(cg->layout, cg->data_type, i) * 8, LLVMDIFlagZero, type);
    }
    uint64_t size = LLVMABISizeOfType(cg->layout, cg->data_type) * 8;
    LLVMMetadataRef type = LLVMDIBuilderCreateStructType(cg->di, cg->di_unit, "tap_data", 8, cg->di_file, 0,
                                                         size, 64, LLVMDIFlagZero, NULL, members, count, 0,
                                                         NULL, "", 0);
    LLVMMetadataRef expr = LLVMDIBuilderCreateExpression(cg->di, NULL, 0);
    LLVMMetadataRef gve = LLVMDIBuilderCreateGlobalVariableExpression(
        cg->di, cg->di_unit, "tap_data", 8, "tap_data", 8, cg->di_file, 0, type, 0, expr, NULL, 64);
    LLVMGlobalSetMetadata(cg->data, LLVMGetMDKindIDInContext(cg->context, "dbg", 3), gve);
}

/* Called when every function is generated and the scratch size is final. */
void cg_finish_data(struct codegen *cg)
{
    describe_globals(cg);
    cg_map_btf(cg, cg->events_map, BPF_MAP_TYPE_RINGBUF, cg->options->events_size, 0, 0);
    cg_map_btf(cg, cg->control_map, BPF_MAP_TYPE_RINGBUF, 64 * 1024, 0, 0);
    uint64_t scratch_size = cg->scratch_size + 2 * (uint64_t)cg->string_size;   /* slack: see codegen_internal.h */
    int cpus = libbpf_num_possible_cpus();
    cg_map_btf(cg, cg->scratch_map, BPF_MAP_TYPE_ARRAY, (uint64_t)(cpus > 0 ? cpus : 1), 4, (uint32_t)scratch_size);
    data_debug_info(cg);
}

uint32_t cg_alloc_scratch(struct codegen *cg, uint32_t size)
{
    uint32_t offset = cg->scratch_size;
    cg->scratch_size += (size + 7) & ~7u;
    return offset;
}

uint32_t cg_alloc_string_slot(struct codegen *cg)
{
    uint32_t offset = cg->scratch_size;
    cg->scratch_size += cg->string_size;
    return offset;
}

LLVMValueRef cg_scratch_at(struct codegen *cg, LLVMValueRef offset)
{
    return cg_element_ptr(cg, cg->i8, cg->fn->scratch, &offset, 1, "slot");
}

LLVMValueRef cg_scratch_ptr(struct codegen *cg, uint32_t offset)
{
    return cg_scratch_at(cg, cg_const(cg, offset));
}

/* This CPU's scratch, or NULL (checked by the caller). */
LLVMValueRef cg_load_scratch(struct codegen *cg)
{
    LLVMValueRef cpu = cg_helper(cg, BPF_FUNC_get_smp_processor_id, cg->i64, NULL, 0);
    LLVMValueRef key = cg_entry_alloca(cg, cg->i32, "cpu");
    cg_store(cg, cg_u32(cg, cpu), key);
    LLVMValueRef args[2] = {cg->scratch_map, key};
    return cg_helper(cg, BPF_FUNC_map_lookup_elem, cg->ptr, args, 2);
}

/* The verifier must see a bucket index bounded by the value size, whatever
 * LLVM proved about it: hide it behind a volatile scratch round trip, then
 * clamp. */
LLVMValueRef cg_opaque_clamp(struct codegen *cg, LLVMValueRef index, int64_t max)
{
    LLVMValueRef slot = cg_scratch_ptr(cg, cg_alloc_scratch(cg, 8));
    LLVMValueRef store = cg_store(cg, index, slot);
    LLVMSetVolatile(store, 1);
    LLVMValueRef loaded = cg_load(cg, slot);
    LLVMSetVolatile(loaded, 1);
    LLVMValueRef too_big = cg_compare(cg, LLVMIntUGT, loaded, max);
    return cg_select(cg, too_big, cg_const(cg, max), loaded);
}

LLVMValueRef cg_map_lookup(struct codegen *cg, LLVMValueRef map, LLVMValueRef key)
{
    LLVMValueRef args[2] = {map, key};
    return cg_helper(cg, BPF_FUNC_map_lookup_elem, cg->ptr, args, 2);
}

LLVMValueRef cg_map_update(struct codegen *cg, LLVMValueRef map, LLVMValueRef key, LLVMValueRef value, int flags)
{
    LLVMValueRef args[4] = {map, key, value, cg_const(cg, flags)};
    return cg_helper(cg, BPF_FUNC_map_update_elem, cg->i64, args, 4);
}

/* *(u64 *)(base + offset) from kernel memory; 0 when unreadable. */
LLVMValueRef cg_read_kernel(struct codegen *cg, LLVMValueRef base, long offset, int size)
{
    /* One slot per function: each read's value is loaded right away, and a
     * slot per read made the frame outgrow 6.1's 512 bytes across calls. */
    if (!cg->fn->kernel_read_slot)
        cg->fn->kernel_read_slot = cg_entry_alloca(cg, cg->i64, "kread");
    LLVMValueRef slot = cg->fn->kernel_read_slot;
    cg_store(cg, cg_const(cg, 0), slot);
    LLVMValueRef address = cg_add(cg, base, cg_const(cg, offset));
    LLVMValueRef args[3] = {slot, LLVMConstInt(cg->i32, (unsigned)size, 0),
                            cg_pointer(cg, address)};
    cg_helper(cg, BPF_FUNC_probe_read_kernel, cg->i64, args, 3);
    LLVMValueRef value = cg_load(cg, slot);
    return size == 8 ? value : cg_and(cg, value, cg_const(cg, (1ll << (size * 8)) - 1));
}

/* A .rodata block of zeros of at least `size` bytes: a map value, so helpers
 * accept it as a source (LLVM expands only small memsets for BPF). */
static LLVMValueRef zeros(struct codegen *cg, uint32_t size)
{
    LLVMTypeRef type = LLVMArrayType2(cg->i8, size);
    LLVMValueRef global = LLVMAddGlobal(cg->module, type, "zeros");
    LLVMSetInitializer(global, LLVMConstNull(type));
    LLVMSetGlobalConstant(global, 1);
    LLVMSetLinkage(global, LLVMPrivateLinkage);
    LLVMSetSection(global, ".rodata");
    LLVMSetAlignment(global, 8);
    return global;
}

void cg_zero(struct codegen *cg, LLVMValueRef ptr, uint32_t size)
{
    if (size <= 256) {
        LLVMBuildMemSet(cg->builder, ptr, LLVMConstInt(cg->i8, 0, 0), LLVMConstInt(cg->i64, size, 0), 8);
        return;
    }
    LLVMValueRef args[3] = {ptr, LLVMConstInt(cg->i32, size, 0), zeros(cg, size)};
    cg_helper(cg, BPF_FUNC_probe_read_kernel, cg->i64, args, 3);
}

void cg_copy(struct codegen *cg, LLVMValueRef dst, LLVMValueRef src, uint32_t size)
{
    if (size <= 256) {
        LLVMBuildMemCpy(cg->builder, dst, 8, src, 8, LLVMConstInt(cg->i64, size, 0));
        return;
    }
    LLVMValueRef args[3] = {dst, LLVMConstInt(cg->i32, size, 0), src};
    cg_helper(cg, BPF_FUNC_probe_read_kernel, cg->i64, args, 3);
}

LLVMValueRef cg_local_ptr(struct codegen *cg, const struct symbol *sym)
{
    struct fn_state *fn = cg->fn;
    if (sym->type == TYPE_STRING)
        return cg_scratch_ptr(cg, fn->string_slots[sym->local_index]);
    return cg_field_ptr(cg, fn->frame_type, fn->frame,
                               (unsigned)(FRAME_LOCALS + sym->local_index), sym->name);
}

/* A bpf_probe_read_user{,_str}(dst, size, src) call; -EFAULT without
 * reading in a deferred handler whose process image was replaced. */
LLVMValueRef cg_user_memory_read(struct codegen *cg, int helper_id, LLVMValueRef args[3])
{
    if (!cg->user_memory_gone)
        return cg_helper(cg, helper_id, cg->i64, args, 3);
    LLVMValueRef gone = cg_load(cg, cg_scratch_ptr(cg, cg->user_memory_gone));
    LLVMBasicBlockRef before = cg_current_block(cg);
    LLVMBasicBlockRef done = cg_if_not(cg, cg_compare(cg, LLVMIntNE, gone, 0), "user_memory", "user_memory_read");
    LLVMValueRef result = cg_helper(cg, helper_id, cg->i64, args, 3);
    LLVMBasicBlockRef read_end = cg_current_block(cg);
    cg_end_if(cg, done);
    return cg_phi2(cg, cg->i64, "", cg_const(cg, -14), before, result, read_end);
}
