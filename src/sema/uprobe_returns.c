/* A .return probe on the function's rets (uprobe_returns.h): the binary's
 * exception story from its sections and symbols, the function's exits by
 * decoding its code ranges (DWARF's, or its symbol's) with capstone. */
#include "sema/uprobe_returns.h"

#include <capstone/capstone.h>
#include <dwarf.h>
#include <gelf.h>
#include <stdlib.h>
#include <string.h>
#include <unistd.h>

#include "base/arena.h"
#include "base/demangle.h"
#include "sema/dwarf.h"
#include "sema/sema_internal.h"
#include "sema/uprobe.h"
#include "sema/uprobe_insn.h"

enum { RANGES_MAX = 16, RETS_MAX = 256, TAIL_MEMBERS_MAX = 9, TAIL_SITES_MAX = 64 };

struct code_range { uint64_t low, high; };

static int names_unwinder(const char *name)
{
    static const char *names[] = {"__cxa_throw", "__cxa_rethrow", "_Unwind_RaiseException", "_Unwind_Resume",
                                  "__gxx_personality_v0"};
    for (size_t i = 0; i < sizeof(names) / sizeof(names[0]); i++)
        if (strcmp(name, names[i]) == 0)
            return 1;
    return 0;
}

/* The first symbol of .symtab or .dynsym that `wanted` accepts, or 0. */
static int find_symbol(struct dwarf_module *m, int (*wanted)(const char *name, const GElf_Sym *sym, void *context),
                       void *context)
{
    for (Elf_Scn *scn = elf_nextscn(m->elf, NULL); scn; scn = elf_nextscn(m->elf, scn)) {
        GElf_Shdr sh;
        if (!gelf_getshdr(scn, &sh) || (sh.sh_type != SHT_SYMTAB && sh.sh_type != SHT_DYNSYM))
            continue;
        Elf_Data *data = elf_getdata(scn, NULL);
        size_t count = sh.sh_entsize ? sh.sh_size / sh.sh_entsize : 0;
        for (size_t i = 0; data && i < count; i++) {
            GElf_Sym sym;
            const char *name;
            if (gelf_getsym(data, (int)i, &sym) && (name = elf_strptr(m->elf, sh.sh_link, sym.st_name)) &&
                wanted(name, &sym, context))
                return 1;
        }
    }
    return 0;
}

static int is_unwinder(const char *name, const GElf_Sym *sym, void *context)
{
    return names_unwinder(name);
}

int uprobe_module_unwinds(struct dwarf_module *m)
{
    return find_symbol(m, is_unwinder, NULL);
}

/* A function symbol starting at the range's low address: its extent. */
static int is_function_at(const char *name, const GElf_Sym *sym, void *context)
{
    struct code_range *range = context;
    if (GELF_ST_TYPE(sym->st_info) != STT_FUNC || sym->st_value != range->low || !sym->st_size)
        return 0;
    range->high = sym->st_value + sym->st_size;
    return 1;
}

/* The function's code: DWARF's ranges (a hot/cold split has two), else the
 * extent of the function symbol at its entry. */
static int function_ranges(struct dwarf_module *m, const struct dwarf_function *f, struct code_range *out)
{
    Dwarf_Die die;
    int n = 0;
    if (f->die_offset && !f->is_inline_instance && dwarf_module_function_die(m, f, &die)) {
        Dwarf_Addr base, low, high;
        for (ptrdiff_t off = 0; n < RANGES_MAX && (off = dwarf_ranges(&die, off, &base, &low, &high)) > 0;)
            out[n++] = (struct code_range){low, high};
        if (n)
            return n;
    }
    out[0] = (struct code_range){f->entry, f->entry};
    return find_symbol(m, is_function_at, &out[0]);
}

static int in_ranges(const struct code_range *ranges, int count, uint64_t vaddr)
{
    for (int i = 0; i < count; i++)
        if (vaddr >= ranges[i].low && vaddr < ranges[i].high)
            return 1;
    return 0;
}

/* Whether the frame is gone at pc (the CFA is rsp + 8, the return address
 * on top): a jump from there may be a tail call. No CFI: assume so. */
static int frame_popped(struct dwarf_module *m, uint64_t pc)
{
    Dwarf_Frame *frame = NULL;
    Dwarf_Op *ops;
    size_t count;
    int popped = 1;
    if (m->cfi && dwarf_cfi_addrframe(m->cfi, pc, &frame) == 0 && dwarf_frame_cfa(frame, &ops, &count) == 0)
        /* libdw gives a DW_CFA_def_cfa rule as DW_OP_bregx (reg, offset) */
        popped = count == 1 && ((ops[0].atom == DW_OP_bregx && ops[0].number == 7 && ops[0].number2 == 8) ||
                                (ops[0].atom == DW_OP_breg7 && ops[0].number == 8));
    free(frame);
    return popped;
}

/* A function the probed one reaches by direct tail jumps: its entry and
 * extent (its symbol's), and its name for -v. */
struct tail_member { uint64_t entry; const char *name; struct arena *arena; };

/* What a switch's jump table looks like before its jump. */
struct recent_insn { x86_insn id; x86_reg to; cs_x86_op from; };

struct exits {
    struct arena *arena;
    struct dwarf_module *m;
    const struct code_range *ranges;     /* of the function being decoded */
    int range_count;
    struct function_exits *out;
    struct tail_member members[TAIL_MEMBERS_MAX];
    int member_count;
    struct recent_insn recent[2];        /* the last instruction, and the one before */
};

/* A switch's jump through its table, which stays in the function: `jmp
 * [table + index*8]` (non-PIC), or GCC's PIC form `movsxd r, dword ptr
 * [base + index*4]; add r, base; jmp r`. */
static int is_table_jump(const struct exits *x, const cs_x86 *x86)
{
    const cs_x86_op *op = &x86->operands[0];
    if (op->type == X86_OP_MEM)
        return op->mem.base == X86_REG_INVALID && op->mem.index != X86_REG_INVALID && op->mem.scale == 8;
    const struct recent_insn *add = &x->recent[0], *load = &x->recent[1];
    return op->type == X86_OP_REG && add->id == X86_INS_ADD && add->to == op->reg && load->id == X86_INS_MOVSXD &&
           load->to == op->reg && load->from.type == X86_OP_MEM && load->from.mem.index != X86_REG_INVALID &&
           load->from.mem.scale == 4;
}

static void remember(struct exits *x, const cs_insn *insn)
{
    const cs_x86 *x86 = &insn->detail->x86;
    x->recent[1] = x->recent[0];
    x->recent[0] = (struct recent_insn){(x86_insn)insn->id, X86_REG_INVALID, {0}};
    if (x86->op_count == 2 && x86->operands[0].type == X86_OP_REG) {
        x->recent[0].to = x86->operands[0].reg;
        x->recent[0].from = x86->operands[1];
    }
}

static const char *add_tail_site(struct exits *x, uint64_t vaddr, int kind)
{
    const char *refused = uprobe_insn_refusal(x->arena, x->m, vaddr);
    if (refused)
        return refused;
    if (x->out->tail_count == TAIL_SITES_MAX)
        return "it has too many tail jumps";
    x->out->tail_sites[x->out->tail_count] = vaddr;
    x->out->tail_kinds[x->out->tail_count++] = kind;
    return NULL;
}

/* A direct tail jump from vaddr to target: the jump is a tail site, and
 * the target a member of the chain (once), whose rets pop the caller's
 * return address at the probed function's own entry stack pointer. */
static const char *follow_tail_jump(struct exits *x, uint64_t vaddr, uint64_t target)
{
    const char *why_not = add_tail_site(x, vaddr, TAIL_SITE_JUMP);
    if (why_not)
        return why_not;
    for (int i = 0; i < x->member_count; i++)
        if (x->members[i].entry == target)
            return NULL;
    if (x->member_count == TAIL_MEMBERS_MAX)
        return arena_printf(x->arena, "its tail jumps reach more than %d functions", TAIL_MEMBERS_MAX - 1);
    x->members[x->member_count++] = (struct tail_member){target, NULL, x->arena};
    return NULL;
}

/* One instruction: a ret is an exit; a direct jump out of the function
 * once its frame is popped is a tail jump, followed; an indirect one, or a
 * direct one out while the frame is still there, cannot be followed. */
static const char *classify(struct exits *x, csh capstone, const cs_insn *insn)
{
    if (insn->id == X86_INS_CALL)
        x->out->calls = 1;
    if (insn->id == X86_INS_RET) {
        const char *refused = uprobe_insn_refusal(x->arena, x->m, insn->address);
        if (refused)
            return refused;
        if (x->out->count == RETS_MAX)
            return "it has too many rets";
        x->out->rets[x->out->count++] = insn->address;
        return NULL;
    }
    if (!cs_insn_group(capstone, insn, X86_GRP_JUMP))
        return NULL;
    const cs_x86 *x86 = &insn->detail->x86;
    int direct = x86->op_count == 1 && x86->operands[0].type == X86_OP_IMM;
    if (!direct && (x86->op_count != 1 || is_table_jump(x, x86)))
        return NULL;
    int popped = frame_popped(x->m, insn->address);
    if (direct ? in_ranges(x->ranges, x->range_count, (uint64_t)x86->operands[0].imm) : !popped)
        return NULL;
    if (direct && popped)
        return follow_tail_jump(x, insn->address, (uint64_t)x86->operands[0].imm);
    return arena_printf(x->arena, "it may leave by %s (`%s %s` at 0x%llx), which cannot be followed to the ret "
                        "that returns its value", direct ? "a jump out of its code before its frame is popped"
                                                         : "an indirect tail jump",
                        insn->mnemonic, insn->op_str, (unsigned long long)insn->address);
}

static const char *decode_range(struct exits *x, csh capstone, cs_insn *insn, struct code_range range)
{
    size_t size = range.high - range.low;
    uint8_t *bytes = malloc(size ? size : 1);
    const char *why_not = NULL;
    if (!bytes || pread(x->m->fd, bytes, size, (off_t)dwarf_module_file_offset(x->m, range.low)) != (ssize_t)size) {
        free(bytes);
        return "its code cannot be read";
    }
    const uint8_t *code = bytes;
    uint64_t address = range.low;
    memset(x->recent, 0, sizeof(x->recent));
    while (size && !why_not) {
        if (!cs_disasm_iter(capstone, &code, &size, &address, insn))
            why_not = arena_printf(x->arena, "its code at 0x%llx could not be decoded", (unsigned long long)address);
        else {
            why_not = classify(x, capstone, insn);
            remember(x, insn);
        }
    }
    free(bytes);
    return why_not;
}

static int is_named_function_at(const char *name, const GElf_Sym *sym, void *context)
{
    struct tail_member *member = context;
    struct code_range range = {member->entry, member->entry};
    if (!is_function_at(name, sym, &range))
        return 0;
    char *readable = demangle_is_mangled(name) ? demangle(name, 1) : NULL;
    member->name = readable ? arena_strdup(member->arena, readable) : name;
    free(readable);
    return 1;
}

/* A chain member: decoded like the function (its rets are exits, its
 * tail jumps followed), over its symbol's extent; its entry is a tail site. */
static const char *decode_member(struct exits *x, csh capstone, cs_insn *insn, struct tail_member *member)
{
    struct code_range range = {member->entry, member->entry};
    if (!find_symbol(x->m, is_function_at, &range))
        return arena_printf(x->arena, "no symbol tells where its tail jump's target 0x%llx ends",
                            (unsigned long long)member->entry);
    find_symbol(x->m, is_named_function_at, member);
    const char *why_not = add_tail_site(x, member->entry, TAIL_SITE_ENTRY);
    if (why_not)
        return why_not;
    x->ranges = &range;
    x->range_count = 1;
    why_not = decode_range(x, capstone, insn, range);
    if (why_not && member->name)
        why_not = arena_printf(x->arena, "%s, which it tail-jumps to: %s", member->name, why_not);
    return why_not;
}

/* "qsort_r" or "g, h": the chain's members by name, for -v. */
static const char *member_names(struct exits *x)
{
    const char *names = "";
    for (int i = 1; i < x->member_count; i++)   /* members[0] is the function itself */
        names = arena_printf(x->arena, "%s%s%s", names, i > 1 ? ", " : "",
                             x->members[i].name ? x->members[i].name
                                                : arena_printf(x->arena, "0x%llx", (unsigned long long)x->members[i].entry));
    return names;
}

void uprobe_function_exits(struct arena *arena, struct dwarf_module *m, const struct dwarf_function *f,
                           struct function_exits *out)
{
    struct code_range ranges[RANGES_MAX];
    struct exits x = {.arena = arena, .m = m, .ranges = ranges, .range_count = function_ranges(m, f, ranges), .out = out};
    csh capstone;
    memset(out, 0, sizeof(*out));
    if (!x.range_count) {
        out->why_not = "neither DWARF nor a symbol tells where its code ends";
        return;
    }
    if (cs_open(CS_ARCH_X86, CS_MODE_64, &capstone) != CS_ERR_OK) {
        out->why_not = "capstone cannot decode x86-64";
        return;
    }
    cs_option(capstone, CS_OPT_DETAIL, CS_OPT_ON);
    cs_insn *insn = cs_malloc(capstone);
    out->rets = arena_alloc(arena, sizeof(*out->rets) * RETS_MAX);
    out->tail_sites = arena_alloc(arena, sizeof(*out->tail_sites) * TAIL_SITES_MAX);
    out->tail_kinds = arena_alloc(arena, sizeof(*out->tail_kinds) * TAIL_SITES_MAX);
    x.members[x.member_count++] = (struct tail_member){f->entry, f->name, arena};   /* a jump back to it is no tail call */
    for (int i = 0; i < x.range_count && !out->why_not; i++)
        out->why_not = decode_range(&x, capstone, insn, ranges[i]);
    out->own_count = out->count;
    for (int i = 1; i < x.member_count && !out->why_not; i++)
        out->why_not = decode_member(&x, capstone, insn, &x.members[i]);
    if (x.member_count > 1)
        out->tail_names = member_names(&x);
    cs_free(insn, 1);
    cs_close(&capstone);
}

int uprobe_exits_at_returns(const struct function_exits *exits)
{
    if (exits->why_not)
        return exits->module_unwinds;
    return exits->calls;
}

static const char *uretprobe_placement(struct arena *arena, const struct function_exits *exits)
{
    if (!exits->why_not && exits->tail_names)
        return arena_printf(arena, "on a uretprobe (neither it nor %s, which it tail-jumps to, calls anything: no "
                            "exception unwinds through it)", exits->tail_names);
    if (!exits->why_not)
        return "on a uretprobe (it calls nothing: no exception unwinds through it)";
    return arena_printf(arena, "on a uretprobe (not every exit is a ret: %s; an exception unwinding through it "
                        "from a callback would end the program)", exits->why_not);
}

static const char *ret_placement(struct arena *arena, const struct function_exits *exits)
{
    int count = exits->count, own = exits->own_count;
    if (!count)
        return "nowhere: it has no ret (it never returns)";
    if (!exits->tail_count)
        return arena_printf(arena, "at its %d ret%s (single-stepped; a uretprobe would break exceptions unwinding "
                            "through it)", count, count == 1 ? "" : "s");
    const char *own_rets = own ? arena_printf(arena, "its %d ret%s and ", own, own == 1 ? "" : "s") : "";
    return arena_printf(arena, "at %sthe %d ret%s of %s, which it tail-jumps to, matched to its calls by thread and "
                        "stack pointer (single-stepped; a uretprobe would break exceptions unwinding through it)",
                        own_rets, count - own, count - own == 1 ? "" : "s", exits->tail_names);
}

/* Each .return probe: which mechanism, for -v; one at_returns gets its
 * rets (and its tail chain's sites), or becomes a refusal
 * (sema_place_entry_probes reports it). */
void sema_place_return_probes(struct sema *s)
{
    for (int i = 0; i < s->script->probe_count; i++) {
        struct probe *probe = s->script->probes[i];
        if (!probe_is_uprobe(probe))
            continue;
        struct uprobe_site *site = probe->uprobe.site;
        if (site->is_return && !probe->uprobe.at_returns)   /* a uretprobe; a .plt.return's has no function,
                                                             * no exits: its stub's */
            probe->uprobe.placement = site->exits ? uretprobe_placement(s->arena, site->exits)
                                                  : "on a uretprobe at the PLT stub";
        if (!probe->uprobe.at_returns)
            continue;
        const struct function_exits *exits = site->exits;
        int count = exits->count;
        if (exits->why_not) {
            probe->uprobe.refusal = arena_printf(s->arena, "a uretprobe would break exceptions unwinding through it, "
                                          "and not every exit is a ret: %s", exits->why_not);
            continue;
        }
        probe->uprobe.site_count = count;
        probe->uprobe.site_vaddrs = exits->rets;
        probe->uprobe.site_offsets = arena_alloc(s->arena, sizeof(*probe->uprobe.site_offsets) * (size_t)(count + 1));
        for (int k = 0; k < count; k++)
            probe->uprobe.site_offsets[k] = dwarf_module_file_offset(site->module, exits->rets[k]);
        if (count && exits->tail_count) {
            probe->uprobe.tail_count = exits->tail_count;
            probe->uprobe.tail_kinds = exits->tail_kinds;
            probe->uprobe.tail_offsets = arena_alloc(s->arena, sizeof(*probe->uprobe.tail_offsets) * (size_t)exits->tail_count);
            for (int k = 0; k < exits->tail_count; k++)
                probe->uprobe.tail_offsets[k] = dwarf_module_file_offset(site->module, exits->tail_sites[k]);
            probe->uprobe.entry_vaddr = site->function->entry;   /* as @entry's (sema/target_vars.c) */
            probe->uprobe.entry_offset = dwarf_module_file_offset(site->module, probe->uprobe.entry_vaddr);
        }
        probe->uprobe.placement = ret_placement(s->arena, exits);
    }
}
