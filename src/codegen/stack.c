/* Backtraces. A probe that needs a stack captures it once, at its entry
 * (loop callbacks and functions lack ctx), into a scratch area: the user
 * return addresses (tap's own walk, below: DWARF CFI rows where the runtime
 * compiled them, frame pointers elsewhere), the frames of the kernel's user
 * walk as build-id + file offset with their addresses (so user space can name
 * them after the process is gone), and the kernel return addresses. Which of
 * them a probe needs is only known once its body has been generated, so the
 * entry branches to a block that is filled in last (cg_stack_finish).
 * print_ubacktrace()/print_backtrace() send the captured stack as a record;
 * user space symbolizes it (stack_records.c). */
#include <string.h>

#include <linux/bpf.h>

#include "codegen/codegen_internal.h"
#include "kinds/kinds.h"
#include "codegen/kernel_symbols.h"
#include "sema/builtins.h"
#include "sema/uprobe_site.h"

/* stack.c's state: scratch areas and maps, each 0/NULL until used. */
struct stack_state {
    uint32_t offset;                 /* captured stacks in scratch */
    int needs_in_functions;          /* stacks used inside user functions */
    LLVMValueRef symbol_maps[3];     /* tap_sym_files, _names, _paths */
    uint32_t symbol_search;          /* the symbol search's variables in scratch */
    LLVMValueRef unwind_maps[2];     /* tap_unwind_files, _rows */
    LLVMValueRef line_maps[3];       /* tap_line_files, _rows, _sources */
    LLVMValueRef origins;            /* tap_stack_origins */
};

static struct stack_state *stack_state(struct codegen *cg)
{
    if (!cg->stack)
        cg->stack = ARENA_NEW(cg->arena, struct stack_state);
    return cg->stack;
}

enum stack_need { STACK_USER = 1, STACK_USER_BUILD_ID = 2, STACK_KERNEL = 4 };

/* The capture area in scratch. BUILD_IDS and BUILD_IPS are laid out as
 * frames[] and frame_ips[] of struct record_stack, copied as one. */
#define AREA_USER_COUNT 0
#define AREA_USER_IPS 8
#define AREA_BUILD_IDS (AREA_USER_IPS + 8 * RECORD_STACK_DEPTH)
#define AREA_BUILD_IPS (AREA_BUILD_IDS + (uint32_t)sizeof(struct record_stack_frame) * RECORD_STACK_DEPTH)
#define AREA_KERNEL_COUNT (AREA_BUILD_IPS + 8 * RECORD_STACK_DEPTH)
#define AREA_KERNEL_IPS (AREA_KERNEL_COUNT + 8)
#define AREA_WALK (AREA_KERNEL_IPS + 8 * RECORD_STACK_DEPTH)
#define AREA_SIZE (AREA_WALK + 80)

/* The walk's variables (in the area, so the loop callback sees them and the
 * verifier need not track them): the registers of the frame being unwound,
 * then what it reads. */
#define WALK_PC 0
#define WALK_SP 8
#define WALK_FP 16
#define WALK_NEXT 24             /* a frame record read: saved fp, return address */
#define WALK_RET 32
#define WALK_CODE 40             /* the 8 bytes before a return address */
#define WALK_KIND 48             /* the CFI row of the pc: enum unwind_kind, CFA offset, rbp's offset */
#define WALK_CFA 56
#define WALK_RBP 64
#define WALK_OFFSET 72           /* the pc's file offset */

/* The symbol search's variables live in scratch (the 512-byte stack is too
 * small for one set per step and call site): key, low, high, path, entry,
 * offset, and the mapping last found, kept for the rest of the run. */
#define SEARCH_KEY 0
#define SEARCH_LOW 8
#define SEARCH_HIGH 16
#define SEARCH_PATH 24
#define SEARCH_ENTRY 32
#define SEARCH_OFFSET 40
#define SEARCH_WRITTEN 48
#define SEARCH_MAPPING 56        /* dev, inode (the key of tap_sym_files), start, page offset, end */
#define SEARCH_MAPPING_END (SEARCH_MAPPING + 32)
#define SEARCH_FOUND 96          /* what a lookup found, the same fields */
#define SEARCH_SIZE 136

static uint32_t area(struct codegen *cg)
{
    if (!stack_state(cg)->offset)
        stack_state(cg)->offset = cg_alloc_scratch(cg, AREA_SIZE);
    return stack_state(cg)->offset;
}

/* Records what the function being generated needs: its probe captures it;
 * a user function's needs are captured by every probe (functions are
 * generated first, so the probes know). */
static void need(struct codegen *cg, int needs)
{
    struct fn_state *root = cg->fn;
    while (root->parent)
        root = root->parent;
    if (root->kind == FN_PROBE)
        root->stack_needs |= needs;
    else
        stack_state(cg)->needs_in_functions |= needs;
}

LLVMBasicBlockRef cg_stack_begin(struct codegen *cg)
{
    LLVMBasicBlockRef capture = cg_block(cg, "stack_capture"), after = cg_block(cg, "after_capture");
    cg_branch(cg, capture);
    cg_position(cg, after);
    return capture;
}

/* Stores the number of 8-byte... entries bpf_get_stack wrote (its byte count
 * divided by the entry size; 0 on error). */
static void get_stack(struct codegen *cg, LLVMValueRef ctx, uint32_t buffer, uint32_t size, uint64_t flags,
                      int count_at, uint32_t entry_size)
{
    LLVMValueRef args[4] = {ctx, cg_scratch_ptr(cg, area(cg) + buffer), cg_const(cg, size), cg_const(cg, (int64_t)flags)};
    LLVMValueRef bytes = cg_helper(cg, BPF_FUNC_get_stack, cg->i64, args, 4);
    if (count_at < 0)
        return;
    LLVMValueRef failed = cg_compare(cg, LLVMIntSLT, bytes, 0);
    LLVMValueRef count = cg_udiv(cg, cg_select(cg, failed, cg_const(cg, 0), bytes), cg_const(cg, entry_size));
    cg_store(cg, count, cg_scratch_ptr(cg, area(cg) + (uint32_t)count_at));
}

static LLVMValueRef load_area(struct codegen *cg, uint32_t offset)
{
    return cg_load(cg, cg_scratch_ptr(cg, area(cg) + offset));
}

static void store_area(struct codegen *cg, uint32_t offset, LLVMValueRef value)
{
    cg_store(cg, value, cg_scratch_ptr(cg, area(cg) + offset));
}

/* bpf_probe_read_user of size bytes at address into the area; an i1, true
 * when it worked. */
static LLVMValueRef read_user(struct codegen *cg, LLVMValueRef address, uint32_t to, uint32_t size)
{
    LLVMValueRef args[3] = {cg_scratch_ptr(cg, area(cg) + to), LLVMConstInt(cg->i32, size, 0),
                            cg_pointer(cg, address)};
    LLVMValueRef failed = cg_helper(cg, BPF_FUNC_probe_read_user, cg->i64, args, 3);
    return cg_compare(cg, LLVMIntEQ, failed, 0);
}

static LLVMValueRef equals(struct codegen *cg, LLVMValueRef value, int64_t constant)
{
    return cg_compare(cg, LLVMIntEQ, value, constant);
}

/* The byte k bytes before the return address, from the word read before it. */
static LLVMValueRef byte_before(struct codegen *cg, LLVMValueRef word, int k)
{
    return cg_and(cg, cg_lshr(cg, word, cg_const(cg, 8 * (8 - k))), cg_const(cg, 0xff));
}

/* The length of `call *r/m` (FF /2) from its ModRM byte and the byte after
 * it (a SIB, when there is one). */
static LLVMValueRef indirect_call_length(struct codegen *cg, LLVMValueRef modrm, LLVMValueRef sib)
{
    LLVMValueRef mod = cg_lshr(cg, modrm, cg_const(cg, 6));
    LLVMValueRef rm = cg_and(cg, modrm, cg_const(cg, 7));
    LLVMValueRef has_sib = equals(cg, rm, 4);
    LLVMValueRef no_base = sib ? equals(cg, cg_and(cg, sib, cg_const(cg, 7)), 5) : LLVMConstInt(cg->i1, 0, 0);
    LLVMValueRef mod0 = cg_select(cg, has_sib, cg_select(cg, no_base, cg_const(cg, 7), cg_const(cg, 3)), cg_select(cg, equals(cg, rm, 5), cg_const(cg, 6), cg_const(cg, 2)));
    LLVMValueRef mod1 = cg_select(cg, has_sib, cg_const(cg, 4), cg_const(cg, 3));
    LLVMValueRef mod2 = cg_select(cg, has_sib, cg_const(cg, 7), cg_const(cg, 6));
    return cg_select(cg, equals(cg, mod, 3), cg_const(cg, 2), cg_select(cg, equals(cg, mod, 0), mod0, cg_select(cg, equals(cg, mod, 1), mod1, mod2)));
}

/* Branches to `yes` when `ret` is a return address: a user address whose
 * preceding bytes are readable and encode a call (call rel32, or call *r/m
 * of the length that ends there), else to `no`. Garbage read as a frame
 * (ASCII text, small integers, data pointers) fails, so the walk stops
 * there. One test a block, so the verifier sees few paths. */
static void after_call(struct codegen *cg, LLVMValueRef ret, LLVMBasicBlockRef yes, LLVMBasicBlockRef no)
{
    LLVMValueRef user = cg_and(cg, cg_compare(cg, LLVMIntUGE, ret, 4096), cg_compare(cg, LLVMIntULT, ret, 0x800000000000));
    cg_continue_if(cg, user, "ret_user", no);
    cg_continue_if(cg, read_user(cg, cg_sub(cg, ret, cg_const(cg, 8)), AREA_WALK + WALK_CODE, 8),
                   "ret_readable", no);
    cg_jump_if(cg, equals(cg, byte_before(cg, load_area(cg, AREA_WALK + WALK_CODE), 5), 0xe8), yes, "ret_indirect");
    static const int lengths[] = {2, 3, 4, 6, 7};
    size_t count = sizeof(lengths) / sizeof(lengths[0]);
    for (size_t i = 0; i < count; i++) {
        int k = lengths[i];
        LLVMValueRef word = load_area(cg, AREA_WALK + WALK_CODE);
        LLVMValueRef modrm = byte_before(cg, word, k - 1);
        LLVMValueRef length = indirect_call_length(cg, modrm, k >= 3 ? byte_before(cg, word, k - 2) : NULL);
        LLVMValueRef reg2 = equals(cg, cg_and(cg, modrm, cg_const(cg, 0x38)), 0x10);
        LLVMValueRef indirect = cg_and(cg, cg_and(cg, equals(cg, byte_before(cg, word, k), 0xff), reg2), equals(cg, length, k));
        if (i + 1 < count)
            cg_jump_if(cg, indirect, yes, "ret_indirect");
        else   /* the last test: both ways lead to blocks the caller made */
            cg_branch_if(cg, indirect, yes, no);
    }
}

/* Appends `ret` to the user frames (the count is below the depth). */
static void push_frame(struct codegen *cg, LLVMValueRef ret)
{
    LLVMValueRef count = load_area(cg, AREA_USER_COUNT);
    LLVMValueRef at = cg_mul(cg, cg_and(cg, count, cg_const(cg, 31)), cg_const(cg, 8));
    cg_store(cg, ret, cg_byte_ptr(cg, cg_scratch_ptr(cg, area(cg) + AREA_USER_IPS), at));
    store_area(cg, AREA_USER_COUNT, cg_add(cg, count, cg_const(cg, 1)));
}

static uint32_t search_area(struct codegen *cg);
static LLVMValueRef find_mapping(struct codegen *cg, LLVMValueRef address, struct span span);
static LLVMValueRef mapped_offset(struct codegen *cg, LLVMValueRef address);
static LLVMValueRef search_var(struct codegen *cg, uint32_t field);
/* A file's entries in a table: {first, count} at the start of its value. */
struct file_range {
    LLVMValueRef first, count;   /* i64 */
};

static struct file_range file_range(struct codegen *cg, LLVMValueRef file);
static LLVMValueRef search_range(struct codegen *cg, LLVMValueRef map, LLVMTypeRef start_type, int steps,
                                 struct file_range range, LLVMValueRef low, LLVMValueRef high, LLVMValueRef target);

#define ROW_SEARCH_STEPS 22      /* binary search: up to 4M rows */

/* The two unwind tables, defined together (the runtime fills them). */
static LLVMValueRef unwind_map(struct codegen *cg, int which)
{
    if (!stack_state(cg)->unwind_maps[0]) {
        stack_state(cg)->unwind_maps[0] = cg_map_global(cg, "tap_unwind_files", 4);
        cg_map_btf(cg, stack_state(cg)->unwind_maps[0], BPF_MAP_TYPE_HASH, 1, sizeof(struct symbol_map_key),
                   sizeof(struct unwind_file));
        stack_state(cg)->unwind_maps[1] = cg_map_global(cg, "tap_unwind_rows", 4);
        cg_map_btf(cg, stack_state(cg)->unwind_maps[1], BPF_MAP_TYPE_ARRAY, 1, 4, sizeof(struct unwind_row));
    }
    return stack_state(cg)->unwind_maps[which];
}

/* A file met without its table, counted by (device, inode) in `name` (a
 * HASH of `files` entries) for the runtime, which reads the most met first:
 * system-wide, a process started before or after tap maps files no index
 * holds. tap_unwind_wanted: the walk's CFI rows, so later stacks unwind
 * through it; tap_sym_wanted: usymname() & co., so later calls resolve. */
static void want_file(struct codegen *cg, const char *name, uint32_t files, LLVMValueRef mapping)
{
    LLVMValueRef map = LLVMGetNamedGlobal(cg->module, name);
    if (!map) {
        map = cg_map_global(cg, name, 4);
        cg_map_btf(cg, map, BPF_MAP_TYPE_HASH, files, sizeof(struct symbol_map_key), 8);
    }
    LLVMValueRef count = cg_map_lookup(cg, map, mapping);
    struct cg_if_else known = cg_if_present(cg, count, "want_add", "want_insert", "want_done");
    cg_atomic_add(cg, count, cg_const(cg, 1));
    cg_else(cg, &known);
    LLVMValueRef one = search_var(cg, SEARCH_FOUND);   /* free once the mapping is found */
    cg_store(cg, cg_const(cg, 1), one);
    cg_map_update(cg, map, mapping, one, BPF_NOEXIST);
    cg_end_if_else(cg, &known);
}

/* The CFI row that covers `address` into WALK_KIND, WALK_CFA, WALK_RBP:
 * its mapping (bpf_find_vma, kept while the walk stays in it), the file's
 * rows, a binary search for the last row at or before its file offset.
 * UNWIND_FRAME_POINTER when any of them is missing. */
static void find_row(struct codegen *cg, LLVMValueRef address, struct span span)
{
    LLVMBasicBlockRef done = cg_block(cg, "row_done");
    store_area(cg, AREA_WALK + WALK_KIND, cg_const(cg, UNWIND_FRAME_POINTER));
    cg_continue_if(cg, find_mapping(cg, address, span), "row_mapped", done);
    LLVMValueRef mapping = search_var(cg, SEARCH_MAPPING);
    LLVMValueRef target = mapped_offset(cg, address);
    store_area(cg, AREA_WALK + WALK_OFFSET, target);
    LLVMValueRef file = cg_map_lookup(cg, unwind_map(cg, 0), mapping);
    LLVMBasicBlockRef has_file = cg_if(cg, cg_is_null(cg, file), "row_file_wanted", "row_file");
    want_file(cg, "tap_unwind_wanted", UNWIND_WANTED_FILES, mapping);
    cg_branch(cg, done);
    cg_position(cg, has_file);
    struct file_range range = file_range(cg, file);
    LLVMValueRef first = range.first;
    LLVMValueRef low = search_var(cg, SEARCH_LOW), high = search_var(cg, SEARCH_HIGH);
    LLVMValueRef last = search_range(cg, unwind_map(cg, 1), cg->i32, ROW_SEARCH_STEPS, range, low, high, target);
    cg_continue_if(cg, cg_compare_values(cg, LLVMIntSGE, last, first), "row_check", done);
    LLVMValueRef key = search_var(cg, SEARCH_KEY);
    cg_store(cg, cg_u32(cg, last), key);
    LLVMValueRef row = cg_map_lookup(cg, unwind_map(cg, 1), key);
    cg_jump_if(cg, cg_is_null(cg, row), done, "row_found");
    LLVMValueRef kind = cg_load_as(cg, cg->i8, cg_byte_at(cg, row, offsetof(struct unwind_row, kind)), "");
    LLVMValueRef cfa = cg_load_as(cg, cg->i32, cg_byte_at(cg, row, offsetof(struct unwind_row, cfa)), "");
    LLVMValueRef rbp = cg_load_as(cg, LLVMInt16TypeInContext(cg->context),
                                      cg_byte_at(cg, row, offsetof(struct unwind_row, rbp)), "");
    store_area(cg, AREA_WALK + WALK_KIND, cg_widen(cg, kind));
    store_area(cg, AREA_WALK + WALK_CFA, cg_widen_signed(cg, cfa));
    store_area(cg, AREA_WALK + WALK_RBP, cg_widen_signed(cg, rbp));
    cg_end_if(cg, done);
}

/* A CFI step: CFA = rsp or rbp + the row's offset, above the frame's sp;
 * the return address at CFA - 8; the caller's rbp saved where the row says
 * (else unchanged); the caller's sp is the CFA. Branches to take with the
 * return address at WALK_RET. */
static void cfi_step(struct codegen *cg, LLVMBasicBlockRef take, LLVMBasicBlockRef stop)
{
    LLVMValueRef sp = load_area(cg, AREA_WALK + WALK_SP);
    LLVMValueRef base = cg_select(cg, equals(cg, load_area(cg, AREA_WALK + WALK_KIND), UNWIND_CFA_RSP), sp, load_area(cg, AREA_WALK + WALK_FP));
    LLVMValueRef cfa = cg_add(cg, base, load_area(cg, AREA_WALK + WALK_CFA));
    cg_continue_if(cg, cg_compare_values(cg, LLVMIntUGT, cfa, sp), "cfi_read", stop);
    cg_continue_if(cg, read_user(cg, cg_sub(cg, cfa, cg_const(cg, 8)), AREA_WALK + WALK_RET, 8),
                   "cfi_saved_rbp", stop);
    LLVMValueRef rbp = load_area(cg, AREA_WALK + WALK_RBP);
    LLVMBasicBlockRef next = cg_if_not(cg, equals(cg, rbp, 0), "cfi_restore_rbp", "cfi_next");
    cg_continue_if(cg, read_user(cg, cg_add(cg, cfa, rbp), AREA_WALK + WALK_NEXT, 8), "cfi_rbp_read", stop);
    store_area(cg, AREA_WALK + WALK_FP, load_area(cg, AREA_WALK + WALK_NEXT));
    cg_end_if(cg, next);
    store_area(cg, AREA_WALK + WALK_SP, cfa);
    LLVMValueRef ret = load_area(cg, AREA_WALK + WALK_RET);
    LLVMValueRef user = cg_and(cg, cg_compare(cg, LLVMIntUGE, ret, 4096), cg_compare(cg, LLVMIntULT, ret, 0x800000000000));
    cg_branch_if(cg, user, take, stop);   /* both ways to blocks the caller made */
}

/* A frame-pointer step: the record {saved fp, return address} at rbp, taken
 * when rbp is aligned and not below sp (callers' records are higher), the
 * record readable and its return address after a call; the caller's sp is
 * just above the record. */
static void frame_pointer_step(struct codegen *cg, LLVMBasicBlockRef take, LLVMBasicBlockRef stop)
{
    LLVMValueRef fp = load_area(cg, AREA_WALK + WALK_FP);
    LLVMValueRef aligned = equals(cg, cg_and(cg, fp, cg_const(cg, 7)), 0);
    LLVMValueRef above = cg_compare_values(cg, LLVMIntUGE, fp, load_area(cg, AREA_WALK + WALK_SP));
    cg_continue_if(cg, cg_and(cg, aligned, above), "walk_read", stop);
    cg_continue_if(cg, read_user(cg, fp, AREA_WALK + WALK_NEXT, 16), "walk_check", stop);
    LLVMBasicBlockRef taken = cg_block(cg, "walk_take");
    after_call(cg, load_area(cg, AREA_WALK + WALK_RET), taken, stop);
    cg_position(cg, taken);
    store_area(cg, AREA_WALK + WALK_FP, load_area(cg, AREA_WALK + WALK_NEXT));
    store_area(cg, AREA_WALK + WALK_SP, cg_add(cg, fp, cg_const(cg, 16)));
    cg_branch(cg, take);
}

/* At a function's first instruction without CFI: the return address is at
 * [sp], and rbp is still the caller's. */
static void entry_step(struct codegen *cg, LLVMBasicBlockRef take, LLVMBasicBlockRef stop)
{
    LLVMValueRef sp = load_area(cg, AREA_WALK + WALK_SP);
    cg_continue_if(cg, read_user(cg, sp, AREA_WALK + WALK_RET, 8), "entry_check", stop);
    LLVMBasicBlockRef taken = cg_block(cg, "entry_take");
    after_call(cg, load_area(cg, AREA_WALK + WALK_RET), taken, stop);
    cg_position(cg, taken);
    store_area(cg, AREA_WALK + WALK_SP, cg_add(cg, sp, cg_const(cg, 8)));
    cg_branch(cg, take);
}

struct walk {
    const struct probe *probe;
    int at_entry;                /* the probe runs at functions' first instructions */
};

/* One frame: the caller of the frame at WALK_PC/SP/FP, by the CFI row of
 * its pc (the call's address, before the return address, for callers)
 * or by frame pointers where no row covers it. */
static void walk_frame(struct codegen *cg, LLVMValueRef index, void *data)
{
    const struct walk *w = data;
    LLVMBasicBlockRef take = cg_block(cg, "walk_push"), stop = cg_block(cg, "walk_stop");
    LLVMValueRef room = cg_compare(cg, LLVMIntULT, load_area(cg, AREA_USER_COUNT), RECORD_STACK_DEPTH);
    cg_continue_if(cg, room, "walk_lookup", stop);
    LLVMValueRef first = equals(cg, index, 0);
    LLVMValueRef pc = load_area(cg, AREA_WALK + WALK_PC);
    find_row(cg, cg_sub(cg, pc, cg_widen(cg, cg_not(cg, first))), w->probe->span);
    LLVMValueRef kind = load_area(cg, AREA_WALK + WALK_KIND);
    LLVMValueRef is_cfi = cg_or(cg, equals(cg, kind, UNWIND_CFA_RSP), equals(cg, kind, UNWIND_CFA_RBP));
    LLVMBasicBlockRef not_cfi = cg_if(cg, is_cfi, "walk_cfi", "walk_not_cfi");
    cfi_step(cg, take, stop);   /* ends in take or stop */
    cg_position(cg, not_cfi);
    LLVMValueRef outermost = equals(cg, kind, UNWIND_OUTERMOST);
    if (w->at_entry) {
        cg_jump_if(cg, outermost, stop, "walk_not_outermost");
        LLVMBasicBlockRef frame_pointer = cg_if(cg, first, "walk_entry", "walk_fp");
        entry_step(cg, take, stop);
        cg_position(cg, frame_pointer);
    } else {
        cg_jump_if(cg, outermost, stop, "walk_fp");
    }
    frame_pointer_step(cg, take, stop);
    cg_position(cg, take);
    LLVMValueRef ret = load_area(cg, AREA_WALK + WALK_RET);
    push_frame(cg, ret);
    store_area(cg, AREA_WALK + WALK_PC, ret);
    cg_callback_return(cg, 0);
    cg_position(cg, stop);
    cg_callback_return(cg, 1);
}

/* Whether the probe's program runs at the first instruction of a function
 * (every site it serves): the return address is then at [sp], and rbp is
 * still the caller's, whose own return address the walk finds next. */
static int at_function_entry(const struct probe *probe)
{
    if (!probe_kind_has(probe->kind, KIND_REGS_AT_PROBED_PC))
        return 0;
    int count = probe->group_count ? probe->group_count : 1;
    for (int i = 0; i < count; i++) {
        const struct probe *p = probe->group_count ? probe->group[i] : probe;
        const struct uprobe_site *site = p->uprobe.site;
        if (!site || !site->at_entry || site->is_return || p->uprobe.site_count)
            return 0;
    }
    return 1;
}

/* The user stack from the registers the thread entered the kernel with (so
 * a timer or tracepoint in a system call sees the user pc too): the pc, then
 * each caller's return address. bpf_get_stack's walk follows frame pointers
 * only, and does not stop at garbage (a -O2 caller's rbp holds data), which
 * would split one stack into several keys. */
static void walk_user_stack(struct codegen *cg, const struct probe *probe)
{
    store_area(cg, AREA_USER_COUNT, cg_const(cg, 0));
    LLVMBasicBlockRef done = cg_if(cg, cg_compare(cg, LLVMIntNE, cg_current_mm(cg), 0), "walk_user", "walk_done");
    LLVMValueRef task = cg_helper(cg, BPF_FUNC_get_current_task_btf, cg->ptr, NULL, 0);
    LLVMValueRef regs = cg_address(cg, cg_helper(cg, BPF_FUNC_task_pt_regs, cg->ptr, &task, 1));
    LLVMValueRef pc = cg_read_kernel(cg, regs, 128, 8);
    push_frame(cg, pc);
    store_area(cg, AREA_WALK + WALK_PC, pc);
    store_area(cg, AREA_WALK + WALK_SP, cg_read_kernel(cg, regs, 152, 8));
    store_area(cg, AREA_WALK + WALK_FP, cg_read_kernel(cg, regs, 32, 8));
    struct walk w = {probe, at_function_entry(probe)};
    cg_bounded_loop(cg, probe->span, cg_const(cg, RECORD_STACK_DEPTH), walk_frame, &w);
    cg_end_if(cg, done);
}

/* A tracepoint program's kernel stack comes from the registers the event
 * passed. 6.1's syscalls:* events pass the system call's user registers
 * (6.5 and later the caller's, perf_fetch_caller_regs in perf_call_bpf_enter):
 * no kernel frames. Then the stack is the current task's, walked from the
 * helper: its frames, this program's (the first in the module area, where
 * BPF code is JITed: at or above x86-64's MODULES_VADDR under KASLR),
 * trace_call_bpf's and its caller's (the function that calls the program,
 * whose caller is where 6.5's regs start) are skipped by a second walk.
 * No program frame found: no kernel stack, as before. */
#define MODULES_VADDR_KASLR 0xffffffffc0000000ull
#define FRAMES_AFTER_PROGRAM 2

static void task_stack_when_empty(struct codegen *cg)
{
    LLVMBasicBlockRef done = cg_if(cg, equals(cg, load_area(cg, AREA_KERNEL_COUNT), 0), "task_stack",
                                   "task_stack_done");
    LLVMValueRef task = cg_helper(cg, BPF_FUNC_get_current_task_btf, cg->ptr, NULL, 0);
    LLVMValueRef buffer = cg_scratch_ptr(cg, area(cg) + AREA_KERNEL_IPS);
    uint32_t size = 8 * RECORD_STACK_DEPTH;
    LLVMValueRef args[4] = {task, buffer, cg_const(cg, size), cg_const(cg, 0)};
    LLVMValueRef bytes = cg_helper(cg, BPF_FUNC_get_task_stack, cg->i64, args, 4);
    LLVMValueRef skip = cg_const(cg, 0);   /* 0: no program frame */
    for (int i = RECORD_STACK_DEPTH - 1; i >= 0; i--) {   /* the first match wins */
        LLVMValueRef ip = load_area(cg, AREA_KERNEL_IPS + 8 * (uint32_t)i);
        LLVMValueRef is_program = cg_and(cg, cg_compare(cg, LLVMIntUGE, ip, (int64_t)MODULES_VADDR_KASLR), cg_compare(cg, LLVMIntSGT, bytes, 8 * i));
        skip = cg_select(cg, is_program, cg_const(cg, i + 1 + FRAMES_AFTER_PROGRAM), skip);
    }
    cg_continue_if(cg, cg_compare(cg, LLVMIntNE, skip, 0), "task_stack_found", done);
    LLVMValueRef again[4] = {task, buffer, cg_const(cg, size), cg_and(cg, skip, cg_const(cg, BPF_F_SKIP_FIELD_MASK))};
    bytes = cg_helper(cg, BPF_FUNC_get_task_stack, cg->i64, again, 4);
    LLVMValueRef failed = cg_compare(cg, LLVMIntSLT, bytes, 0);
    store_area(cg, AREA_KERNEL_COUNT, cg_udiv(cg, cg_select(cg, failed, cg_const(cg, 0), bytes), cg_const(cg, 8)));
    cg_end_if(cg, done);
}

void cg_stack_finish(struct codegen *cg, LLVMBasicBlockRef capture, LLVMValueRef ctx)
{
    const struct fn_state *fn = cg->fn;
    int needs = fn->stack_needs | stack_state(cg)->needs_in_functions;
    LLVMBasicBlockRef after = LLVMGetNextBasicBlock(capture);
    cg_position(cg, capture);
    cg_set_location(cg, fn->probe->span);
    if (needs & STACK_USER)
        search_area(cg);
    if (stack_state(cg)->symbol_search)   /* the mapping found by an earlier run is not this one's */
        cg_store(cg, cg_const(cg, 0), cg_scratch_ptr(cg, stack_state(cg)->symbol_search + SEARCH_MAPPING_END));
    enum probe_kind kind = fn->probe->kind;
    if (needs && probe_kind_has(kind, KIND_RUNS_ONCE)) {
        /* run by tap itself: no stack of a traced thread */
        cg_store(cg, cg_const(cg, 0), cg_scratch_ptr(cg, area(cg) + AREA_USER_COUNT));
        cg_store(cg, cg_const(cg, 0), cg_scratch_ptr(cg, area(cg) + AREA_KERNEL_COUNT));
        cg_zero(cg, cg_scratch_ptr(cg, area(cg) + AREA_BUILD_IDS), AREA_KERNEL_COUNT - AREA_BUILD_IDS);
    } else {
        if (needs & STACK_USER)
            walk_user_stack(cg, fn->probe);
        cg->program->user_frames |= (needs & STACK_USER_BUILD_ID) != 0;
        if (needs & STACK_USER_BUILD_ID) {
            get_stack(cg, ctx, AREA_BUILD_IDS, AREA_BUILD_IPS - AREA_BUILD_IDS,
                      BPF_F_USER_STACK | BPF_F_USER_BUILD_ID, -1, 0);
            get_stack(cg, ctx, AREA_BUILD_IPS, 8 * RECORD_STACK_DEPTH, BPF_F_USER_STACK, -1, 0);
        }
        if (needs & STACK_KERNEL)
            get_stack(cg, ctx, AREA_KERNEL_IPS, 8 * RECORD_STACK_DEPTH, 0, AREA_KERNEL_COUNT, 8);
        if ((needs & STACK_KERNEL) && probe_kind_has(kind, KIND_TASK_KERNEL_STACK))
            task_stack_when_empty(cg);
    }
    cg_branch(cg, after);
}

/* The pc the current thread entered the kernel with (its pt_regs), 0 for a
 * kernel thread. */
static LLVMValueRef user_entry_pc(struct codegen *cg)
{
    LLVMValueRef has_mm = cg_compare(cg, LLVMIntNE, cg_current_mm(cg), 0);
    LLVMBasicBlockRef before = cg_current_block(cg);
    LLVMBasicBlockRef done = cg_if(cg, has_mm, "user_pc", "user_pc_done");
    LLVMValueRef task = cg_helper(cg, BPF_FUNC_get_current_task_btf, cg->ptr, NULL, 0);
    LLVMValueRef regs = cg_address(cg, cg_helper(cg, BPF_FUNC_task_pt_regs, cg->ptr, &task, 1));
    LLVMValueRef pc = cg_read_kernel(cg, regs, 128, 8);
    LLVMBasicBlockRef read = cg_current_block(cg);
    cg_end_if(cg, done);
    return cg_phi2(cg, cg->i64, "", cg_const(cg, 0), before, pc, read);
}

/* uaddr() outside a process probe: the innermost user frame, 0 without one
 * (or in a probe tap runs itself, as its stacks are empty). Only the pc: a
 * timer.profile handler asking for uaddr() must not pay for (nor spend its
 * one bpf_find_vma on) a whole stack walk. */
LLVMValueRef cg_stack_user_pc(struct codegen *cg)
{
    const struct probe *probe = cg->fn->probe;
    if (probe && probe_kind_has(probe->kind, KIND_RUNS_ONCE))
        return cg_const(cg, 0);
    return user_entry_pc(cg);
}

struct stack_record {
    int kernel;
    uint32_t id;
    LLVMValueRef text;           /* print_ustack/print_stack: the addresses given */
};

static void fill_stack(struct codegen *cg, LLVMValueRef record, void *data)
{
    const struct stack_record *r = data;
    LLVMValueRef header = cg_const(cg, (int64_t)((uint64_t)(r->kernel ? RECORD_KSTACK : RECORD_USTACK) |
                                                 ((uint64_t)r->id << 32)));
    cg_store(cg, header, record);
    LLVMValueRef pid = cg_helper(cg, BPF_FUNC_get_current_pid_tgid, cg->i64, NULL, 0);
    LLVMValueRef count = load_area(cg, r->kernel ? AREA_KERNEL_COUNT : AREA_USER_COUNT);
    LLVMValueRef word = cg_or(cg, cg_lshr(cg, pid, cg_const(cg, 32)), cg_shl(cg, count, cg_const(cg, 32)));
    LLVMValueRef at = cg_const(cg, offsetof(struct record_stack, pid));
    cg_store(cg, word, cg_byte_ptr(cg, record, at));
    at = cg_const(cg, offsetof(struct record_stack, ips));
    LLVMValueRef ips = cg_byte_ptr(cg, record, at);
    cg_copy(cg, ips, cg_scratch_ptr(cg, area(cg) + (r->kernel ? AREA_KERNEL_IPS : AREA_USER_IPS)),
            8 * RECORD_STACK_DEPTH);
    uint32_t end = offsetof(struct record_stack, frames);
    if (!r->kernel) {
        at = cg_const(cg, end);
        cg_copy(cg, cg_byte_ptr(cg, record, at),
                cg_scratch_ptr(cg, area(cg) + AREA_BUILD_IDS), AREA_KERNEL_COUNT - AREA_BUILD_IDS);
        end = sizeof(struct record_stack);
    }
    if (r->text) {
        at = cg_const(cg, end);
        cg_string_copy(cg, cg_byte_ptr(cg, record, at), r->text);
    }
}

/* folded: print_ustack_folded(s)/print_stack_folded(s), one flame-graph line's frames (id + 2) */
static void print_stack(struct codegen *cg, struct expr *call, int kernel, int folded)
{
    need(cg, kernel ? STACK_KERNEL : STACK_USER | STACK_USER_BUILD_ID);
    struct stack_record r = {.kernel = kernel};
    uint32_t size = kernel ? (uint32_t)offsetof(struct record_stack, frames) : (uint32_t)sizeof(struct record_stack);
    if (call->call.args) {
        r.text = cg_operand(cg, call->call.args);
        r.id = 1;
        size += cg->string_size;
    }
    r.id |= folded ? 2 : 0;
    cg_set_location(cg, call->span);
    cg_emit_record(cg, cg->events_map, size, STATE_LOST_EVENTS, fill_stack, &r);
}

/* A user stack kept as a string (p[ubacktrace()]++) may be printed in `end`,
 * when its process is gone and the current one is tap: tap_stack_origins
 * maps the string (NUL-padded to MAXSTRINGLEN) to the process it came from,
 * so print_ustack(s) names its frames with that process's mappings. One
 * process's stack stays one key; an LRU map, so it never fills. */
#define STACK_ORIGINS 16384

static void note_origin(struct codegen *cg, LLVMValueRef text)
{
    if (!stack_state(cg)->origins) {
        stack_state(cg)->origins = cg_map_global(cg, "tap_stack_origins", 4);
        cg_map_btf(cg, stack_state(cg)->origins, BPF_MAP_TYPE_LRU_HASH, STACK_ORIGINS, (uint32_t)cg->string_size, 8);
    }
    cg->program->user_frames = 1;
    LLVMValueRef key = cg_scratch_ptr(cg, cg_alloc_string_slot(cg));
    cg_zero(cg, key, (uint32_t)cg->string_size);
    LLVMValueRef copy[3] = {key, cg_i32(cg, cg->string_size), text};
    cg_helper(cg, BPF_FUNC_probe_read_kernel_str, cg->i64, copy, 3);
    LLVMValueRef pid = cg_scratch_ptr(cg, cg_alloc_scratch(cg, 8));
    cg_store(cg, cg_lshr(cg, cg_helper(cg, BPF_FUNC_get_current_pid_tgid, cg->i64, NULL, 0), cg_const(cg, 32)), pid);
    cg_map_update(cg, stack_state(cg)->origins, key, pid, BPF_ANY);
}

/* ubacktrace()/backtrace(): the addresses as hex, separated by spaces
 * (unrolled: at most RECORD_STACK_DEPTH short bpf_snprintf calls);
 * ucallers(n): the first n callers (frames 1..n; all of them for -1). */
static LLVMValueRef hex_addresses(struct codegen *cg, int kernel, int first, LLVMValueRef limit)
{
    need(cg, kernel ? STACK_KERNEL : STACK_USER);
    LLVMValueRef slot = cg_scratch_ptr(cg, cg_alloc_string_slot(cg));
    cg_store(cg, LLVMConstInt(cg->i8, 0, 0), slot);
    LLVMValueRef length = cg_entry_alloca(cg, cg->i64, "hex_length");
    cg_store(cg, cg_const(cg, 0), length);
    LLVMValueRef count = load_area(cg, kernel ? AREA_KERNEL_COUNT : AREA_USER_COUNT);
    if (limit) {
        LLVMValueRef end = cg_add(cg, limit, cg_const(cg, first));
        LLVMValueRef shorter = cg_and(cg, cg_compare(cg, LLVMIntSGE, limit, 0), cg_compare_values(cg, LLVMIntULT, end, count));
        count = cg_select(cg, shorter, end, count);
    }
    uint32_t ips = kernel ? AREA_KERNEL_IPS : AREA_USER_IPS;
    LLVMBasicBlockRef done = cg_block(cg, "hex_done");
    for (int i = first; i < RECORD_STACK_DEPTH; i++) {
        cg_continue_if(cg, cg_compare_values(cg, LLVMIntULT, cg_const(cg, i), count), "hex_frame", done);
        LLVMValueRef used = cg_load(cg, length);
        /* masked so the verifier sees a bound; the scratch slack covers offset + room */
        LLVMValueRef offset = cg_and(cg, used, cg_const(cg, cg->string_size - 1));
        LLVMValueRef room = cg_sub(cg, cg_const(cg, cg->string_size), offset);
        const char *format = i > first ? " 0x%lx" : "0x%lx";
        LLVMValueRef args[5] = {cg_byte_ptr(cg, slot, offset),
                                cg_u32(cg, room),
                                cg_string_literal(cg, format, (int)strlen(format)),
                                cg_scratch_ptr(cg, area(cg) + ips + 8 * (uint32_t)i), cg_i32(cg, 8)};
        LLVMValueRef written = cg_helper(cg, BPF_FUNC_snprintf, cg->i64, args, 5);
        LLVMValueRef grown = cg_add(cg, used, cg_sub(cg, written, cg_const(cg, 1)));
        LLVMValueRef full = cg_compare(cg, LLVMIntSGE, grown, cg->string_size - 1);
        cg_store(cg, grown, length);
        cg_jump_if(cg, full, done, "hex_next");
    }
    cg_end_if(cg, done);
    if (!kernel)
        note_origin(cg, slot);
    return slot;
}

/* --- usymname(), usymdata(), umodname(), usymfileline() ---------------------
 * bpf_find_vma finds the mapping that holds the address in the current
 * process, its file's (device, inode) the file in tap_sym_files, and a
 * binary search in tap_sym_names (both filled by the runtime) the function,
 * so the result is a real string; usymfileline() and its kin search the
 * file's line rows the same way (tap_line_*). Addresses in no indexed file
 * get SystemTap's fallbacks (hex, "<unknown>"). */

#define SEARCH_STEPS 20          /* binary search: files of up to 2^20 functions */

/* Three tables the runtime fills together, all defined on first use: the
 * files (HASH by struct symbol_map_key), their entries and the paths (ARRAYs). */
static LLVMValueRef file_tables(struct codegen *cg, LLVMValueRef maps[3], const char *const names[3],
                                const uint32_t value_sizes[3], int which)
{
    for (int i = 0; i < 3 && !maps[2]; i++) {
        maps[i] = cg_map_global(cg, names[i], 4);
        cg_map_btf(cg, maps[i], i ? BPF_MAP_TYPE_ARRAY : BPF_MAP_TYPE_HASH, 1,
                   i ? 4 : sizeof(struct symbol_map_key), value_sizes[i]);
    }
    return maps[which];
}

static LLVMValueRef symbol_map(struct codegen *cg, int which)
{
    static const char *const names[3] = {"tap_sym_files", "tap_sym_names", "tap_sym_paths"};
    static const uint32_t value_sizes[3] = {sizeof(struct symbol_map_file), sizeof(struct symbol_map_entry),
                                            SYMBOL_PATH_SIZE};
    return file_tables(cg, stack_state(cg)->symbol_maps, names, value_sizes, which);
}

/* usymfileline() & co.: the line rows (program.h), indexed as the symbols are. */
static LLVMValueRef line_map(struct codegen *cg, int which)
{
    static const char *const names[3] = {"tap_line_files", "tap_line_rows", "tap_line_sources"};
    static const uint32_t value_sizes[3] = {sizeof(struct line_map_file), sizeof(struct line_map_row),
                                            SYMBOL_PATH_SIZE};
    return file_tables(cg, stack_state(cg)->line_maps, names, value_sizes, which);
}


static uint32_t search_area(struct codegen *cg)
{
    if (!stack_state(cg)->symbol_search)
        stack_state(cg)->symbol_search = cg_alloc_scratch(cg, SEARCH_SIZE);
    return stack_state(cg)->symbol_search;
}

static LLVMValueRef search_var(struct codegen *cg, uint32_t field)
{
    return cg_scratch_ptr(cg, search_area(cg) + field);
}

/* The value at `index` of an ARRAY table. */
static LLVMValueRef lookup_index(struct codegen *cg, LLVMValueRef map, LLVMValueRef index)
{
    LLVMValueRef key = search_var(cg, SEARCH_KEY);
    cg_store(cg, cg_u32(cg, index), key);
    return cg_map_lookup(cg, map, key);
}

/* What resolve() found: -1 where it found nothing. */
struct resolved {
    LLVMValueRef path;           /* i64 index in tap_sym_paths */
    LLVMValueRef entry;          /* i64 index in tap_sym_names */
    LLVMValueRef file_offset;
};

/* The mapping that holds `address` in the current process: bpf_find_vma's
 * callback writes {dev, inode, start, page offset, end} to SEARCH_FOUND,
 * kept in SEARCH_MAPPING when there is one. With interrupts off
 * (timer.profile, perf.*) the kernel allows one such lookup per run (the
 * mmap lock is released later, by an irq_work), so a mapping found stays for
 * the run (cg_stack_finish forgets it at the start) and serves every address
 * in it: usymname(uaddr()) and umodname(uaddr()) in one handler both resolve,
 * also after the stack walk asked in vain for another mapping. Returns an
 * i1: SEARCH_MAPPING holds the address. */
static LLVMValueRef byte_swap(struct codegen *cg, LLVMValueRef value)
{
    return cg_intrinsic(cg, "llvm.bswap", &value, 1);
}

/* The mapping of `address` in the runtime's table of this process's
 * mappings (runtime/proc_maps.c: an LPM trie keyed by tgid and address, big
 * endian), which needs no mmap lock, so it serves every frame of a walk
 * with interrupts off, where bpf_find_vma serves one: into SEARCH_MAPPING,
 * then to `found`; else to `missing`. */
static void listed_mapping(struct codegen *cg, LLVMValueRef address, LLVMBasicBlockRef found,
                           LLVMBasicBlockRef missing)
{
    LLVMValueRef map = LLVMGetNamedGlobal(cg->module, "tap_proc_maps");
    if (!map) {   /* sized by the runtime: key, value, flags */
        map = cg_map_global(cg, "tap_proc_maps", 2);
        cg_map_btf(cg, map, BPF_MAP_TYPE_LPM_TRIE, 1, 0, 0);
    }
    LLVMValueRef key = search_var(cg, SEARCH_FOUND);   /* {prefix length 96, tgid, address} */
    LLVMValueRef tgid = cg_lshr(cg, cg_helper(cg, BPF_FUNC_get_current_pid_tgid, cg->i64, NULL, 0), cg_const(cg, 32));
    cg_store(cg, cg_or(cg, byte_swap(cg, tgid), cg_const(cg, 96)), key);
    cg_store(cg, byte_swap(cg, address), search_var(cg, SEARCH_FOUND + 8));
    LLVMValueRef entry = cg_map_lookup(cg, map, key);
    cg_jump_if(cg, cg_is_null(cg, entry), missing, "mapping_listed");
    cg_copy(cg, search_var(cg, SEARCH_MAPPING), entry, 40);
    cg_branch(cg, found);
}

static LLVMValueRef find_mapping(struct codegen *cg, LLVMValueRef address, struct span span)
{
    LLVMValueRef start = cg_load(cg, search_var(cg, SEARCH_MAPPING + 16));
    LLVMValueRef end = cg_load(cg, search_var(cg, SEARCH_MAPPING_END));
    LLVMValueRef known = cg_and(cg, cg_compare_values(cg, LLVMIntUGE, address, start), cg_compare_values(cg, LLVMIntULT, address, end));
    LLVMBasicBlockRef done = cg_if_not(cg, known, "find_vma", "vma_known");
    LLVMBasicBlockRef unlisted = cg_block(cg, "find_vma_helper");
    listed_mapping(cg, address, done, unlisted);
    cg_position(cg, unlisted);
    cg_zero(cg, search_var(cg, SEARCH_FOUND), 40);
    struct fn_state state;
    /* the (map, key, value, ctx) callback shape: find_vma passes (task, vma, ctx) */
    LLVMValueRef fn = cg_begin_callback(cg, "find_vma", 1, &state);
    cg_callback_entry(cg, &state, span, 0);
    cg_read_vma_file(cg, LLVMGetParam(fn, 1), search_var(cg, SEARCH_FOUND), span);
    cg_callback_return(cg, 0);
    cg_end_callback(cg, &state);
    cg_set_location(cg, span);
    LLVMValueRef task = cg_helper(cg, BPF_FUNC_get_current_task_btf, cg->ptr, NULL, 0);
    LLVMValueRef args[5] = {task, address, fn, LLVMConstNull(cg->ptr), cg_const(cg, 0)};
    cg_helper(cg, BPF_FUNC_find_vma, cg->i64, args, 5);
    LLVMValueRef found_end = cg_load(cg, search_var(cg, SEARCH_FOUND + 32));
    cg_continue_if(cg, cg_compare(cg, LLVMIntNE, found_end, 0), "vma_found", done);
    cg_copy(cg, search_var(cg, SEARCH_MAPPING), search_var(cg, SEARCH_FOUND), 40);
    cg_end_if(cg, done);
    start = cg_load(cg, search_var(cg, SEARCH_MAPPING + 16));
    end = cg_load(cg, search_var(cg, SEARCH_MAPPING_END));
    return cg_and(cg, cg_compare_values(cg, LLVMIntUGE, address, start), cg_compare_values(cg, LLVMIntULT, address, end));
}

/* The file offset of `address` in the mapping find_mapping found. */
static LLVMValueRef mapped_offset(struct codegen *cg, LLVMValueRef address)
{
    LLVMValueRef mapping = search_var(cg, SEARCH_MAPPING);
    LLVMValueRef start = cg_load(cg, cg_byte_at(cg, mapping, 16));
    LLVMValueRef page_offset = cg_load(cg, cg_byte_at(cg, mapping, 24));
    return cg_add(cg, cg_sub(cg, address, start), cg_shl(cg, page_offset, cg_const(cg, 12)));
}

/* One step of the search, in `map` (an ARRAY whose values start with their
 * start, of start_type), for the last entry starting at or before target. */
static void search_step(struct codegen *cg, LLVMValueRef map, LLVMTypeRef start_type, LLVMValueRef low,
                        LLVMValueRef high, LLVMValueRef target)
{
    LLVMValueRef lo = cg_load(cg, low), hi = cg_load(cg, high);
    LLVMBasicBlockRef next = cg_if(cg, cg_compare_values(cg, LLVMIntULT, lo, hi), "search_step", "search_next");
    LLVMValueRef mid = cg_lshr(cg, cg_add(cg, lo, hi), cg_const(cg, 1));
    LLVMValueRef key = search_var(cg, SEARCH_KEY);
    cg_store(cg, cg_u32(cg, mid), key);
    LLVMValueRef entry = cg_map_lookup(cg, map, key);
    cg_store(cg, mid, high);   /* a missing entry (cannot happen) ends the search */
    cg_jump_if(cg, cg_is_null(cg, entry), next, "search_compare");
    LLVMValueRef start = cg_load_unsigned(cg, start_type, entry);
    LLVMValueRef before = cg_compare_values(cg, LLVMIntULE, start, target);
    cg_store(cg, cg_select(cg, before, hi, mid), high);
    cg_store(cg, cg_select(cg, before, cg_add(cg, mid, cg_const(cg, 1)), lo), low);
    cg_end_if(cg, next);
}

static struct file_range file_range(struct codegen *cg, LLVMValueRef file)
{
    return (struct file_range){cg_load_unsigned(cg, cg->i32, file), cg_load_unsigned(cg, cg->i32, cg_byte_at(cg, file, 4))};
}

/* The last of the range's entries in `map` starting at or before target
 * (binary search between *low and *high); below range.first when none does. */
static LLVMValueRef search_range(struct codegen *cg, LLVMValueRef map, LLVMTypeRef start_type, int steps,
                                 struct file_range range, LLVMValueRef low, LLVMValueRef high, LLVMValueRef target)
{
    cg_store(cg, range.first, low);
    cg_store(cg, cg_add(cg, range.first, range.count), high);
    for (int i = 0; i < steps; i++)
        search_step(cg, map, start_type, low, high, target);
    return cg_sub(cg, cg_load(cg, low), cg_const(cg, 1));
}

/* A search under way in resolve() or resolve_line(): its variables (made
 * once, at its start), the address's file offset, the file's value in its
 * table, and the block where it ends. */
struct search {
    LLVMValueRef path, entry, offset, low, high;
    LLVMValueRef target, file;
    LLVMBasicBlockRef done;
};

/* Their start: nothing found yet (-1 in path and entry); the mapping of
 * `address`, its file offset, the file in table(cg, 0); to done when
 * either is missing, else on in the block that has the file. */
static struct search resolve_file(struct codegen *cg, LLVMValueRef address,
                                  LLVMValueRef (*table)(struct codegen *, int), struct span span)
{
    struct search r = {search_var(cg, SEARCH_PATH), search_var(cg, SEARCH_ENTRY), search_var(cg, SEARCH_OFFSET),
                       search_var(cg, SEARCH_LOW), search_var(cg, SEARCH_HIGH), NULL, NULL, NULL};
    cg_store(cg, cg_const(cg, -1), r.path);
    cg_store(cg, cg_const(cg, -1), r.entry);
    cg_store(cg, cg_const(cg, 0), r.offset);
    r.done = cg_block(cg, "sym_done");
    cg_continue_if(cg, find_mapping(cg, address, span), "sym_mapped", r.done);
    LLVMValueRef mapping = search_var(cg, SEARCH_MAPPING);
    r.target = mapped_offset(cg, address);
    cg_store(cg, r.target, r.offset);
    r.file = cg_map_lookup(cg, table(cg, 0), mapping);
    LLVMBasicBlockRef has_file = cg_if(cg, cg_is_null(cg, r.file), "sym_file_wanted", "sym_file");
    if (table == symbol_map)
        want_file(cg, "tap_sym_wanted", SYMBOL_WANTED_FILES, mapping);
    cg_branch(cg, r.done);
    cg_position(cg, has_file);
    return r;
}

/* What the search found, once it has ended at its done block. */
static struct resolved resolved_at(struct codegen *cg, const struct search *r)
{
    cg_position(cg, r->done);
    return (struct resolved){cg_load(cg, r->path),
                             cg_load(cg, r->entry),
                             cg_load(cg, r->offset)};
}

static struct resolved resolve(struct codegen *cg, LLVMValueRef address, struct span span)
{
    struct search r = resolve_file(cg, address, symbol_map, span);
    struct file_range range = file_range(cg, r.file);
    LLVMValueRef first = range.first;
    cg_store(cg, cg_load_unsigned(cg, cg->i32, cg_byte_at(cg, r.file, 8)), r.path);
    /* the last entry at or before the offset, if it covers it */
    LLVMValueRef last = search_range(cg, symbol_map(cg, 1), cg->i64, SEARCH_STEPS, range, r.low, r.high, r.target);
    LLVMValueRef after_first = cg_compare_values(cg, LLVMIntSGE, last, first);
    cg_continue_if(cg, after_first, "sym_check", r.done);
    LLVMValueRef symbol = lookup_index(cg, symbol_map(cg, 1), last);
    cg_jump_if(cg, cg_is_null(cg, symbol), r.done, "sym_read");
    LLVMValueRef function = cg_load(cg, symbol);
    LLVMValueRef size = cg_load(cg, cg_byte_at(cg, symbol, 8));
    LLVMValueRef inside = cg_compare_values(cg, LLVMIntULT, cg_sub(cg, r.target, function), size);
    cg_continue_if(cg, inside, "sym_covers", r.done);
    cg_store(cg, last, r.entry);
    cg_branch(cg, r.done);
    return resolved_at(cg, &r);
}

/* The line row covering `address` (the last at or before its file offset):
 * entry, the row when it gives a line; path, its source when it names one;
 * -1 where not (no row, or a gap between sequences). */
static struct resolved resolve_line(struct codegen *cg, LLVMValueRef address, struct span span)
{
    struct search r = resolve_file(cg, address, line_map, span);
    struct file_range range = file_range(cg, r.file);
    LLVMValueRef last = search_range(cg, line_map(cg, 1), cg->i32, ROW_SEARCH_STEPS, range, r.low, r.high, r.target);
    cg_continue_if(cg, cg_compare_values(cg, LLVMIntSGE, last, range.first), "line_check", r.done);
    LLVMValueRef row = lookup_index(cg, line_map(cg, 1), last);
    cg_jump_if(cg, cg_is_null(cg, row), r.done, "line_found");
    LLVMValueRef source = cg_load_as(cg, cg->i32, cg_byte_at(cg, row, offsetof(struct line_map_row, source)), "");
    LLVMValueRef line = cg_load_as(cg, cg->i32, cg_byte_at(cg, row, offsetof(struct line_map_row, line)), "");
    LLVMValueRef named = cg_compare_values(cg, LLVMIntNE, source, cg_i32(cg, (int32_t)LINE_NO_SOURCE));
    cg_store(cg, cg_select(cg, named, cg_widen(cg, source), cg_const(cg, -1)), r.path);
    LLVMValueRef has_line = cg_and(cg, named, cg_compare_values(cg, LLVMIntNE, line, cg_i32(cg, 0)));
    cg_store(cg, cg_select(cg, has_line, last, cg_const(cg, -1)), r.entry);
    cg_branch(cg, r.done);
    return resolved_at(cg, &r);
}

/* How a resolved address is written: a bpf_snprintf format and its values
 * for each of: a function found, only its file known, nothing known (for
 * a line: a row with a line, a row with only its source, nothing known). */
enum symbol_value { V_NAME, V_OFFSET, V_SIZE, V_PATH, V_ADDRESS, V_FILE_OFFSET, V_LINE };

struct symbol_case {
    const char *format;
    int count;
    enum symbol_value values[4];
};

struct symbol_text {
    struct symbol_case function, file, none;
};

static const struct symbol_text usymname_text = {
    {"%s", 1, {V_NAME}}, {"0x%lx", 1, {V_ADDRESS}}, {"0x%lx", 1, {V_ADDRESS}}};
static const struct symbol_text umodname_text = {
    {"%s", 1, {V_PATH}}, {"%s", 1, {V_PATH}}, {"<unknown>", 0, {0}}};
static const struct symbol_text usymdata_text = {
    {"%s+0x%lx/0x%lx [%s]", 4, {V_NAME, V_OFFSET, V_SIZE, V_PATH}},
    {"0x%lx [%s+0x%lx]", 3, {V_ADDRESS, V_PATH, V_FILE_OFFSET}}, {"0x%lx", 1, {V_ADDRESS}}};
/* SystemTap's: "file:line", the file where the line is 0, else the address */
static const struct symbol_text usymfileline_text = {
    {"%s:%lu", 2, {V_PATH, V_LINE}}, {"%s", 1, {V_PATH}}, {"0x%lx", 1, {V_ADDRESS}}};
static const struct symbol_text usymfile_text = {{"%s", 1, {V_PATH}}, {"%s", 1, {V_PATH}}, {"0x%lx", 1, {V_ADDRESS}}};
static const struct symbol_text usymline_text = {
    {"%lu", 1, {V_LINE}}, {"0x%lx", 1, {V_ADDRESS}}, {"0x%lx", 1, {V_ADDRESS}}};
/* sprint_ubacktrace(): SystemTap's simple form, one line a frame */
static const struct symbol_text frame_text = {
    {"%s+0x%lx [%s]\n", 3, {V_NAME, V_OFFSET, V_PATH}},
    {"0x%lx [%s+0x%lx]\n", 3, {V_ADDRESS, V_PATH, V_FILE_OFFSET}}, {"0x%lx\n", 1, {V_ADDRESS}}};

struct symbol_values {
    LLVMValueRef address, file_offset, symbol, path;   /* symbol, path: map values or NULL */
};

static LLVMValueRef symbol_value(struct codegen *cg, const struct symbol_values *v, enum symbol_value which)
{
    switch (which) {
    case V_NAME: return cg_byte_at(cg, v->symbol, offsetof(struct symbol_map_entry, name));
    case V_OFFSET:
        return cg_sub(cg, v->file_offset, cg_load(cg, v->symbol));
    case V_SIZE: return cg_load(cg, cg_byte_at(cg, v->symbol, 8));
    case V_PATH: return v->path;
    case V_ADDRESS: return v->address;
    case V_FILE_OFFSET: return v->file_offset;
    case V_LINE:
        return cg_load_unsigned(cg, cg->i32, cg_byte_at(cg, v->symbol, offsetof(struct line_map_row, line)));
    }
    return cg_const(cg, 0);
}

/* bpf_snprintf(dst, room, the case's format, its values); stores the count
 * it returns (with the NUL) at `written`. */
static void write_case(struct codegen *cg, LLVMValueRef dst, LLVMValueRef room, const struct symbol_case *c,
                       const struct symbol_values *v, LLVMValueRef written)
{
    uint32_t data = cg_alloc_scratch(cg, 8 * (uint32_t)(c->count ? c->count : 1));
    for (int i = 0; i < c->count; i++) {
        LLVMValueRef value = symbol_value(cg, v, c->values[i]);
        if (LLVMGetTypeKind(LLVMTypeOf(value)) == LLVMPointerTypeKind)
            value = cg_address(cg, value);
        cg_store(cg, value, cg_scratch_ptr(cg, data + 8 * (uint32_t)i));
    }
    LLVMValueRef args[5] = {dst, cg_u32(cg, room),
                            cg_string_literal(cg, c->format, (int)strlen(c->format)),
                            c->count ? cg_scratch_ptr(cg, data) : LLVMConstNull(cg->ptr), cg_i32(cg, 8 * c->count)};
    cg_store(cg, cg_helper(cg, BPF_FUNC_snprintf, cg->i64, args, 5), written);
}

/* A map value by index, branching to `missing` when absent (never, once
 * resolve() found the index; the verifier wants the check). */
static LLVMValueRef lookup_or(struct codegen *cg, LLVMValueRef map, LLVMValueRef index, LLVMBasicBlockRef missing)
{
    LLVMValueRef value = lookup_index(cg, map, index);
    cg_jump_if(cg, cg_is_null(cg, value), missing, "sym_present");
    return value;
}

/* Writes what resolve() or resolve_line() found for `address` (r indexes
 * table(cg, 1) and table(cg, 2)) into dst (room bytes) as `text` says;
 * returns what bpf_snprintf returned. */
static LLVMValueRef write_resolved(struct codegen *cg, LLVMValueRef address, struct resolved r,
                                   LLVMValueRef (*table)(struct codegen *, int), const struct symbol_text *text,
                                   LLVMValueRef dst, LLVMValueRef room)
{
    LLVMValueRef written = search_var(cg, SEARCH_WRITTEN);
    struct symbol_values v = {address, r.file_offset, NULL, NULL};
    /* none: also where a lookup misses */
    LLVMBasicBlockRef none = cg_block(cg, "sym_none"), done = cg_block(cg, "sym_written");
    LLVMBasicBlockRef not_function = cg_if(cg, cg_compare(cg, LLVMIntSGE, r.entry, 0), "sym_function", "sym_not_function");
    v.symbol = lookup_or(cg, table(cg, 1), r.entry, none);
    v.path = lookup_or(cg, table(cg, 2), r.path, none);
    write_case(cg, dst, room, &text->function, &v, written);
    cg_branch(cg, done);
    cg_position(cg, not_function);
    cg_continue_if(cg, cg_compare(cg, LLVMIntSGE, r.path, 0), "sym_file_only", none);
    v.path = lookup_or(cg, table(cg, 2), r.path, none);
    write_case(cg, dst, room, &text->file, &v, written);
    cg_branch(cg, done);
    cg_position(cg, none);
    write_case(cg, dst, room, &text->none, &v, written);
    cg_end_if(cg, done);
    return cg_load(cg, written);
}

static LLVMValueRef write_symbol(struct codegen *cg, LLVMValueRef address, const struct symbol_text *text,
                                 LLVMValueRef dst, LLVMValueRef room, struct span span)
{
    return write_resolved(cg, address, resolve(cg, address, span), symbol_map, text, dst, room);
}

/* usymname(a): the function; usymdata(a): "f+0x4/0x14 [path]"; umodname(a): the file;
 * usymfileline(a): "file:line", usymfile(a), usymline(a) its parts. */
static LLVMValueRef symbol_string(struct codegen *cg, struct expr *call, int builtin_id)
{
    LLVMValueRef address = cg_operand(cg, call->call.args);
    cg_set_location(cg, call->span);
    const struct symbol_text *text = builtin_id == BUILTIN_USYMNAME     ? &usymname_text
                                   : builtin_id == BUILTIN_UMODNAME     ? &umodname_text
                                   : builtin_id == BUILTIN_USYMFILELINE ? &usymfileline_text
                                   : builtin_id == BUILTIN_USYMFILE     ? &usymfile_text
                                   : builtin_id == BUILTIN_USYMLINE     ? &usymline_text : &usymdata_text;
    LLVMValueRef slot = cg_scratch_ptr(cg, cg_alloc_string_slot(cg));
    LLVMValueRef room = cg_const(cg, cg->string_size);
    if (text == &usymfileline_text || text == &usymfile_text || text == &usymline_text)
        write_resolved(cg, address, resolve_line(cg, address, call->span), line_map, text, slot, room);
    else
        write_symbol(cg, address, text, slot, room, call->span);
    return slot;
}

/* sprint_ubacktrace(), sprint_backtrace(): a bpf_loop over the captured
 * frames, each appending its line; the string ends when it is full. */
struct sprint_state {
    uint32_t slot, length;       /* scratch offsets */
    struct span span;
    int kernel;
};

static void sprint_frame(struct codegen *cg, LLVMValueRef index, void *data)
{
    const struct sprint_state *sp = data;
    LLVMValueRef at = cg_mul(cg, cg_and(cg, index, cg_const(cg, 31)), cg_const(cg, 8));
    uint32_t ips = area(cg) + (sp->kernel ? AREA_KERNEL_IPS : AREA_USER_IPS);
    LLVMValueRef address = cg_load(cg, cg_byte_ptr(cg, cg_scratch_ptr(cg, ips), at));
    LLVMValueRef used = cg_load(cg, cg_scratch_ptr(cg, sp->length));
    /* masked so the verifier sees a bound; the scratch slack covers offset + room */
    LLVMValueRef offset = cg_and(cg, used, cg_const(cg, cg->string_size - 1));
    LLVMValueRef room = cg_sub(cg, cg_const(cg, cg->string_size), offset);
    LLVMValueRef written;
    if (sp->kernel) {
        written = cg_kernel_symbol(cg, address, KSYM_FRAME, sp->slot, offset, room, sp->span);
    } else {
        LLVMValueRef dst = cg_byte_ptr(cg, cg_scratch_ptr(cg, sp->slot), offset);
        written = write_symbol(cg, address, &frame_text, dst, room, sp->span);
    }
    LLVMValueRef grown = cg_add(cg, used, cg_sub(cg, written, cg_const(cg, 1)));
    cg_store(cg, grown, cg_scratch_ptr(cg, sp->length));
    LLVMValueRef full = cg_compare(cg, LLVMIntSGE, grown, cg->string_size - 1);
    cg_return(cg, cg_widen(cg, full));
}

/* SystemTap's simple form: "f+0x1a [file]\n" a frame (the kernel's: "[kernel]"
 * or the module's, kernel_symbols.c). */
static LLVMValueRef sprint_backtrace(struct codegen *cg, struct expr *call, int kernel)
{
    need(cg, kernel ? STACK_KERNEL : STACK_USER);
    struct sprint_state sp = {cg_alloc_string_slot(cg), cg_alloc_scratch(cg, 8), call->span, kernel};
    cg_store(cg, LLVMConstInt(cg->i8, 0, 0), cg_scratch_ptr(cg, sp.slot));
    cg_store(cg, cg_const(cg, 0), cg_scratch_ptr(cg, sp.length));
    cg_bounded_loop(cg, call->span, load_area(cg, kernel ? AREA_KERNEL_COUNT : AREA_USER_COUNT), sprint_frame, &sp);
    return cg_scratch_ptr(cg, sp.slot);
}

LLVMValueRef cg_stack_builtin(struct codegen *cg, struct expr *call, int builtin_id)
{
    switch (builtin_id) {
    case BUILTIN_USYMNAME: case BUILTIN_USYMDATA: case BUILTIN_UMODNAME:
    case BUILTIN_USYMFILELINE: case BUILTIN_USYMFILE: case BUILTIN_USYMLINE:
        return symbol_string(cg, call, builtin_id);
    case BUILTIN_SPRINT_UBACKTRACE: case BUILTIN_SPRINT_BACKTRACE:
        return sprint_backtrace(cg, call, builtin_id == BUILTIN_SPRINT_BACKTRACE);
    case BUILTIN_PRINT_UBACKTRACE: case BUILTIN_PRINT_USTACK: case BUILTIN_PRINT_USTACK_FOLDED:
        print_stack(cg, call, 0, builtin_id == BUILTIN_PRINT_USTACK_FOLDED);
        break;
    case BUILTIN_PRINT_BACKTRACE: case BUILTIN_PRINT_STACK: case BUILTIN_PRINT_STACK_FOLDED:
        print_stack(cg, call, 1, builtin_id == BUILTIN_PRINT_STACK_FOLDED);
        break;
    case BUILTIN_UBACKTRACE:
        return hex_addresses(cg, 0, 0, NULL);
    case BUILTIN_UCALLERS:
        return hex_addresses(cg, 0, 1, cg_operand(cg, call->call.args));
    case BUILTIN_BACKTRACE:
        return hex_addresses(cg, 1, 0, NULL);
    }
    return cg_const(cg, 0);
}
