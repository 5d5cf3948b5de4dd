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
#include "sema/dwarf.h"
#include "sema/sema_internal.h"
#include "sema/uprobe.h"
#include "sema/uprobe_insn.h"

enum { RANGES_MAX = 16, RETS_MAX = 256 };

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
        popped = count == 1 && ops[0].atom == DW_OP_breg7 && ops[0].number == 8;
    free(frame);
    return popped;
}

struct exits {
    struct arena *arena;
    struct dwarf_module *m;
    const struct code_range *ranges;
    int range_count;
    struct function_exits *out;
};

/* One instruction: a ret is an exit; a jump out of the function, or an
 * indirect one once the frame is popped, may be a tail call: why not. */
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
    if (direct ? in_ranges(x->ranges, x->range_count, (uint64_t)x86->operands[0].imm)
               : !frame_popped(x->m, insn->address))
        return NULL;
    return arena_printf(x->arena, "it may leave by %s (`%s %s` at 0x%llx), where its value is not known yet",
                        direct ? "a tail jump" : "an indirect jump after its frame is popped", insn->mnemonic,
                        insn->op_str, (unsigned long long)insn->address);
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
    while (size && !why_not) {
        if (!cs_disasm_iter(capstone, &code, &size, &address, insn))
            why_not = arena_printf(x->arena, "its code at 0x%llx could not be decoded", (unsigned long long)address);
        else
            why_not = classify(x, capstone, insn);
    }
    free(bytes);
    return why_not;
}

void uprobe_function_exits(struct arena *arena, struct dwarf_module *m, const struct dwarf_function *f,
                           struct function_exits *out)
{
    struct code_range ranges[RANGES_MAX];
    struct exits x = {arena, m, ranges, function_ranges(m, f, ranges), out};
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
    for (int i = 0; i < x.range_count && !out->why_not; i++)
        out->why_not = decode_range(&x, capstone, insn, ranges[i]);
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
    if (!exits->why_not)
        return "on a uretprobe (it calls nothing: no exception unwinds through it)";
    return arena_printf(arena, "on a uretprobe (not every exit is a ret: %s; an exception unwinding through it "
                        "from a callback would end the program)", exits->why_not);
}

/* Each .return probe: which mechanism, for -v; one at_returns gets its
 * rets, or becomes a refusal (sema_place_entry_probes reports it). */
void sema_place_return_probes(struct sema *s)
{
    for (int i = 0; i < s->script->probe_count; i++) {
        struct probe *probe = s->script->probes[i];
        struct uprobe_site *site = probe->site;
        if (probe->kind == PROBE_URETPROBE)
            probe->placement = uretprobe_placement(s->arena, site->exits);
        if (!probe->at_returns)
            continue;
        const struct function_exits *exits = site->exits;
        int count = exits->count;
        if (exits->why_not) {
            probe->refusal = arena_printf(s->arena, "a uretprobe would break exceptions unwinding through it, "
                                          "and not every exit is a ret: %s", exits->why_not);
            continue;
        }
        probe->site_count = count;
        probe->site_vaddrs = exits->rets;
        probe->site_offsets = arena_alloc(s->arena, sizeof(*probe->site_offsets) * (size_t)(count + 1));
        for (int k = 0; k < count; k++)
            probe->site_offsets[k] = dwarf_module_file_offset(site->module, exits->rets[k]);
        probe->placement = count ? arena_printf(s->arena, "at its %d ret%s (single-stepped; a uretprobe would "
                                                "break exceptions unwinding through it)", count, count == 1 ? "" : "s")
                                 : "nowhere: it has no ret (it never returns)";
    }
}
