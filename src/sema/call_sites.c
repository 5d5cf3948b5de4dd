/* Finding every way into a function, to probe its calls instead of its
 * first instruction (call_sites.h). The proof is conservative: any doubt
 * leaves the probe at the entry, which is always exact, only slower.
 *
 * A function is entered only by direct calls and jumps when
 *  - it is not the ELF entry point and not exported (.dynsym),
 *  - no relocation and (in a non-PIE file) no data word holds its address,
 *  - no instruction names its address but a call rel32 or a jmp rel (no
 *    lea, no conditional jump, no immediate), and
 *  - the code before it does not fall through into it.
 * References are found by a byte scan for every rel32, disp32, abs32 and
 * rel8 field that could mean the entry; each hit is then decoded with
 * capstone from the start of its symbol, so a hit inside another
 * instruction's bytes is told apart from a real reference. */
#include "sema/call_sites.h"

#include <capstone/capstone.h>
#include <gelf.h>
#include <stdlib.h>
#include <string.h>
#include <unistd.h>

#include "base/arena.h"
#include "sema/dwarf.h"

struct code_section { uint64_t vaddr, size; const uint8_t *bytes; };
struct code_unit { uint64_t start, end; };     /* a function symbol's bytes, merged when overlapping */
struct reference { uint64_t at; int function; };

struct code_image {
    struct arena *arena;
    struct call_sites *functions;
    int function_count;
    int *by_entry;               /* function indices sorted by entry */
    struct code_section *sections;
    int section_count;
    struct code_unit *units;
    int unit_count;
    struct reference *refs;
    int ref_count, ref_capacity;
    csh capstone;
};

/* The first reason found is the one -v gives. */
static void refuse(struct call_sites *f, const char *why)
{
    if (!f->why_not)
        f->why_not = why;
}

static void reject(struct code_image *img, int function, const char *why)
{
    refuse(&img->functions[function], why);
}

static void reject_all(struct code_image *img, const char *why)
{
    for (int i = 0; i < img->function_count; i++)
        reject(img, i, why);
}

static int compare_by_entry(const void *a, const void *b, void *functions)
{
    const struct call_sites *f = functions;
    uint64_t x = f[*(const int *)a].entry, y = f[*(const int *)b].entry;
    return x < y ? -1 : x > y;
}

/* The function whose entry is vaddr, or -1. */
static int function_at(const struct code_image *img, uint64_t vaddr)
{
    int lo = 0, hi = img->function_count;
    while (lo < hi) {
        int mid = (lo + hi) / 2;
        uint64_t e = img->functions[img->by_entry[mid]].entry;
        if (e == vaddr)
            return img->by_entry[mid];
        if (e < vaddr)
            lo = mid + 1;
        else
            hi = mid;
    }
    return -1;
}

static int compare_units(const void *a, const void *b)
{
    const struct code_unit *x = a, *y = b;
    return x->start < y->start ? -1 : x->start > y->start;
}

/* Function symbols of .symtab, sorted and merged: where decoding may start. */
static int load_units(struct code_image *img, Elf *elf)
{
    Elf_Scn *scn = NULL;
    GElf_Shdr sh;
    int capacity = 0;
    while ((scn = elf_nextscn(elf, scn))) {
        Elf_Data *data;
        if (!gelf_getshdr(scn, &sh) || sh.sh_type != SHT_SYMTAB || !(data = elf_getdata(scn, NULL)))
            continue;
        size_t n = sh.sh_entsize ? sh.sh_size / sh.sh_entsize : 0;
        for (size_t i = 0; i < n; i++) {
            GElf_Sym sym;
            if (!gelf_getsym(data, (int)i, &sym) || GELF_ST_TYPE(sym.st_info) != STT_FUNC ||
                sym.st_shndx == SHN_UNDEF || sym.st_size == 0)
                continue;
            if (img->unit_count == capacity) {
                int grown = capacity ? capacity * 2 : 256;
                img->units = arena_realloc(img->arena, img->units, sizeof(*img->units) * (size_t)capacity,
                                           sizeof(*img->units) * (size_t)grown);
                capacity = grown;
            }
            img->units[img->unit_count++] = (struct code_unit){sym.st_value, sym.st_value + sym.st_size};
        }
    }
    if (!img->unit_count)
        return 0;
    qsort(img->units, (size_t)img->unit_count, sizeof(*img->units), compare_units);
    int merged = 0;
    for (int i = 0; i < img->unit_count; i++) {
        if (merged && img->units[i].start < img->units[merged - 1].end) {
            if (img->units[i].end > img->units[merged - 1].end)
                img->units[merged - 1].end = img->units[i].end;
            continue;
        }
        img->units[merged++] = img->units[i];
    }
    img->unit_count = merged;
    return 1;
}

/* The first unit ending after vaddr (unit_count when none). */
static int unit_ending_after(const struct code_image *img, uint64_t vaddr)
{
    int lo = 0, hi = img->unit_count;
    while (lo < hi) {
        int mid = (lo + hi) / 2;
        if (img->units[mid].end <= vaddr)
            lo = mid + 1;
        else
            hi = mid;
    }
    return lo;
}

/* The unit starting at or holding vaddr, or -1. */
static int unit_holding(const struct code_image *img, uint64_t vaddr)
{
    int u = unit_ending_after(img, vaddr);
    return u < img->unit_count && img->units[u].start <= vaddr ? u : -1;
}

static const struct code_section *section_holding(const struct code_image *img, uint64_t vaddr)
{
    for (int i = 0; i < img->section_count; i++)
        if (vaddr >= img->sections[i].vaddr && vaddr < img->sections[i].vaddr + img->sections[i].size)
            return &img->sections[i];
    return NULL;
}

/* The executable sections, as the file has them (dwarf_module_section_bytes). */
static int load_sections(struct code_image *img, const struct dwarf_module *m)
{
    Elf *elf = m->elf;
    Elf_Scn *scn = NULL;
    GElf_Shdr sh;
    size_t count = 0;
    elf_getshdrnum(elf, &count);
    img->sections = arena_alloc(img->arena, sizeof(*img->sections) * (count + 1));
    while ((scn = elf_nextscn(elf, scn))) {
        if (!gelf_getshdr(scn, &sh) || sh.sh_type != SHT_PROGBITS || !(sh.sh_flags & SHF_EXECINSTR))
            continue;
        const uint8_t *bytes = dwarf_module_section_bytes(img->arena, m, &sh);
        if (!bytes)
            return 0;
        img->sections[img->section_count++] = (struct code_section){sh.sh_addr, sh.sh_size, bytes};
    }
    return img->section_count > 0;
}

/* Exported functions can be called from anywhere; relocations and (without
 * them, in a non-PIE file) data words are where an address is kept. */
static void check_symbols_and_data(struct code_image *img, Elf *elf, int is_pie)
{
    Elf_Scn *scn = NULL;
    GElf_Shdr sh;
    while ((scn = elf_nextscn(elf, scn))) {
        Elf_Data *data;
        if (!gelf_getshdr(scn, &sh) || !(data = elf_getdata(scn, NULL)))
            continue;
        size_t n = sh.sh_entsize ? sh.sh_size / sh.sh_entsize : 0;
        if (sh.sh_type == SHT_DYNSYM) {
            for (size_t i = 0; i < n; i++) {
                GElf_Sym sym;
                int f;
                if (gelf_getsym(data, (int)i, &sym) && sym.st_shndx != SHN_UNDEF &&
                    (f = function_at(img, sym.st_value)) >= 0)
                    reject(img, f, "it is exported (a dynamic symbol)");
            }
        } else if (sh.sh_type == SHT_RELA) {
            Elf_Data *symbols = elf_getdata(elf_getscn(elf, sh.sh_link), NULL);
            for (size_t i = 0; i < n; i++) {
                GElf_Rela rela;
                GElf_Sym sym = {0};
                if (!gelf_getrela(data, (int)i, &rela))
                    continue;
                uint64_t value = (uint64_t)rela.r_addend;
                if (GELF_R_SYM(rela.r_info)) {
                    if (!symbols || !gelf_getsym(symbols, (int)GELF_R_SYM(rela.r_info), &sym) ||
                        sym.st_shndx == SHN_UNDEF)
                        continue;
                    value += sym.st_value;
                }
                int f = function_at(img, value);
                if (f >= 0)
                    reject(img, f, "its address is taken (a relocation holds it)");
            }
        } else if (sh.sh_type == SHT_REL) {
            reject_all(img, "the file has REL relocations");
        } else if (!is_pie && (sh.sh_flags & SHF_ALLOC) && !(sh.sh_flags & SHF_EXECINSTR) &&
                   sh.sh_type != SHT_NOBITS) {
            const uint8_t *bytes = data->d_buf;
            for (size_t at = 0; bytes && at + 4 <= data->d_size; at += 4) {
                uint32_t word32;
                uint64_t word64 = 0;
                memcpy(&word32, bytes + at, 4);
                if (at % 8 == 0 && at + 8 <= data->d_size)
                    memcpy(&word64, bytes + at, 8);
                int f = function_at(img, word32);
                if (f < 0 && word64)
                    f = function_at(img, word64);
                if (f >= 0)
                    reject(img, f, "its address is taken (a data word holds it)");
            }
        }
    }
}

static void add_reference(struct code_image *img, uint64_t at, int function)
{
    if (img->ref_count == img->ref_capacity) {
        int grown = img->ref_capacity ? img->ref_capacity * 2 : 64;
        img->refs = arena_realloc(img->arena, img->refs, sizeof(*img->refs) * (size_t)img->ref_capacity,
                                  sizeof(*img->refs) * (size_t)grown);
        img->ref_capacity = grown;
    }
    img->refs[img->ref_count++] = (struct reference){at, function};
}

/* Whether the bytes before a rel32/disp32 field at b[0] can make it a
 * reference: the opcode of a call or jmp rel32 (E8, E9) or a jcc rel32
 * (0F 8x), whose target is the field's end, or a ModRM byte selecting
 * rip + disp32 (mod 00, rm 101), whose target is the instruction's end,
 * 0, 1, 2 or 4 immediate bytes later. No other encoding names an address
 * relative to the pc with 32 bits. */
static int may_be_rel32(const uint8_t *b, uint64_t i, int *rip_relative)
{
    *rip_relative = i >= 1 && (b[-1] & 0xc7) == 0x05;
    return *rip_relative || (i >= 1 && (b[-1] == 0xe8 || b[-1] == 0xe9)) ||
           (i >= 2 && b[-2] == 0x0f && (b[-1] & 0xf0) == 0x80);
}

/* Every field that could name an entry, found by its bytes: rel32 and
 * disp32 (may_be_rel32), abs32 in a non-PIE file, and rel8 after the
 * opcode of a short jmp, jcc, loop or jrcxz. Hits are then decoded, which
 * tells a real reference from bytes that only look like one. */
static void scan_section(struct code_image *img, const struct code_section *sec, int is_pie)
{
    static const int tails[] = {0, 1, 2, 4};
    uint64_t lowest = img->functions[img->by_entry[0]].entry;
    uint64_t highest = img->functions[img->by_entry[img->function_count - 1]].entry;
    for (uint64_t i = 0; i < sec->size; i++) {
        const uint8_t *b = sec->bytes + i;
        uint64_t at = sec->vaddr + i;
        int f;
        if (i >= 1 && (b[-1] == 0xeb || (b[-1] & 0xf0) == 0x70 || (b[-1] >= 0xe0 && b[-1] <= 0xe3)) &&
            (f = function_at(img, at + 1 + (uint64_t)(int64_t)(int8_t)b[0])) >= 0)
            add_reference(img, at, f);
        if (i + 4 > sec->size)
            continue;
        int32_t rel;
        int rip_relative;
        memcpy(&rel, b, 4);
        uint64_t end = at + 4 + (uint64_t)(int64_t)rel;
        if (end + 4 >= lowest && end <= highest && may_be_rel32(b, i, &rip_relative)) {
            for (int t = 0; t < (rip_relative ? 4 : 1); t++)
                if ((f = function_at(img, end + (uint64_t)tails[t])) >= 0)
                    add_reference(img, at, f);
        }
        uint32_t abs;
        memcpy(&abs, b, 4);
        if (!is_pie && (f = function_at(img, abs)) >= 0)
            add_reference(img, at, f);
    }
}

static int compare_references(const void *a, const void *b)
{
    const struct reference *x = a, *y = b;
    return x->at < y->at ? -1 : x->at > y->at;
}

/* Whether the decoded instruction names `entry` in an operand. */
static int names_entry(const cs_insn *insn, uint64_t entry)
{
    const cs_x86 *x86 = &insn->detail->x86;
    for (int i = 0; i < x86->op_count; i++) {
        const cs_x86_op *op = &x86->operands[i];
        if (op->type == X86_OP_IMM && (uint64_t)op->imm == entry)
            return 1;
        if (op->type == X86_OP_MEM && op->mem.base == X86_REG_RIP &&
            insn->address + insn->size + (uint64_t)op->mem.disp == entry)
            return 1;
        if (op->type == X86_OP_MEM && op->mem.base == X86_REG_INVALID && op->mem.index == X86_REG_INVALID &&
            (uint64_t)op->mem.disp == entry)
            return 1;
    }
    return 0;
}

static void add_site(struct code_image *img, struct call_sites *f, uint64_t at)
{
    if (f->count && f->vaddrs[f->count - 1] == at)
        return;          /* two fields of one instruction hit */
    if (f->count == CALL_SITES_MAX) {
        refuse(f, "it has too many calls");
        return;
    }
    if (!f->vaddrs)
        f->vaddrs = arena_alloc(img->arena, sizeof(*f->vaddrs) * CALL_SITES_MAX);
    f->vaddrs[f->count++] = at;
}

/* One reference, now that its instruction is known: a call rel32 or an
 * unprefixed jmp is a site (the kernel emulates both); anything else that
 * names the entry takes its address or branches there conditionally. */
static void classify(struct code_image *img, const cs_insn *insn, const struct reference *ref)
{
    struct call_sites *f = &img->functions[ref->function];
    if (!names_entry(insn, f->entry))
        return;
    const uint8_t *b = insn->bytes;
    if ((insn->id == X86_INS_CALL && b[0] == 0xe8 && insn->size == 5) ||
        (insn->id == X86_INS_JMP && ((b[0] == 0xe9 && insn->size == 5) || (b[0] == 0xeb && insn->size == 2)))) {
        add_site(img, f, insn->address);
        return;
    }
    refuse(f, arena_printf(img->arena, "`%s %s` at 0x%llx names it", insn->mnemonic, insn->op_str,
                           (unsigned long long)insn->address));
}

/* Decodes [from, to) and hands each reference in it to classify(); refs
 * are sorted, *next is the first not yet seen. */
static int decode_range(struct code_image *img, uint64_t from, uint64_t to, int *next, cs_insn *insn)
{
    const struct code_section *sec = section_holding(img, from);
    if (!sec || to > sec->vaddr + sec->size)
        return 0;
    const uint8_t *code = sec->bytes + (from - sec->vaddr);
    size_t size = to - from;
    uint64_t address = from;
    while (size && *next < img->ref_count && img->refs[*next].at < to) {
        if (!cs_disasm_iter(img->capstone, &code, &size, &address, insn))
            return 0;
        while (*next < img->ref_count && img->refs[*next].at < insn->address + insn->size) {
            if (img->refs[*next].at >= insn->address)
                classify(img, insn, &img->refs[*next]);
            (*next)++;
        }
    }
    return 1;
}

/* Where to decode to see the instruction at `at`: its symbol, or for the
 * padding between two, from the start of the one before to the next. */
static int decoding_range(const struct code_image *img, uint64_t at, uint64_t *from, uint64_t *to)
{
    const struct code_section *sec = section_holding(img, at);
    int lo = unit_ending_after(img, at);
    if (lo < img->unit_count && img->units[lo].start <= at) {
        *from = img->units[lo].start;
        *to = img->units[lo].end;
        return 1;
    }
    if (!sec || lo == 0 || img->units[lo - 1].start < sec->vaddr)
        return 0;
    *from = img->units[lo - 1].start;
    *to = lo < img->unit_count && img->units[lo].start <= sec->vaddr + sec->size ? img->units[lo].start
                                                                                : sec->vaddr + sec->size;
    return 1;
}

/* Each reference is decoded from the start of the symbol holding it. */
static void classify_references(struct code_image *img, cs_insn *insn)
{
    qsort(img->refs, (size_t)img->ref_count, sizeof(*img->refs), compare_references);
    int next = 0;
    while (next < img->ref_count) {
        const struct reference *ref = &img->refs[next];
        uint64_t from, to;
        if (!decoding_range(img, ref->at, &from, &to) || !decode_range(img, from, to, &next, insn)) {
            reject(img, ref->function,
                   arena_printf(img->arena, "code at 0x%llx that may name it could not be decoded",
                                (unsigned long long)ref->at));
            next++;
        }
    }
}

static int ends_flow(unsigned id)
{
    /* A call last in a function is a call of a noreturn function. */
    return id == X86_INS_RET || id == X86_INS_JMP || id == X86_INS_UD2 || id == X86_INS_INT3 ||
           id == X86_INS_HLT || id == X86_INS_CALL;
}

/* The code before the entry must not run into it: decoded from the start
 * of the previous symbol, the last instruction before the entry (padding
 * skipped) ends the flow, and the decoding lands on the entry. */
static const char *falls_through(struct code_image *img, uint64_t entry, cs_insn *insn)
{
    const struct code_section *sec = section_holding(img, entry);
    if (!sec)
        return "it is outside the code";
    if (entry == sec->vaddr)
        return NULL;
    int u = unit_holding(img, entry);
    if (u < 0 || img->units[u].start != entry)
        return "it is not the start of a symbol";
    if (u == 0 || img->units[u - 1].start < sec->vaddr)
        return "the code before it is not known";
    uint64_t address = img->units[u - 1].start;
    const uint8_t *code = sec->bytes + (address - sec->vaddr);
    size_t size = entry - address;
    unsigned last = X86_INS_INVALID;
    while (size) {
        if (!cs_disasm_iter(img->capstone, &code, &size, &address, insn))
            return "the code before it could not be decoded";
        if (insn->id != X86_INS_NOP && !(insn->id == X86_INS_INT3 && ends_flow(last)))
            last = insn->id;
    }
    return ends_flow(last) ? NULL : "the code before it may run into it";
}

static void find_in_image(struct code_image *img, struct dwarf_module *m, uint64_t elf_entry)
{
    Elf *elf = m->elf;
    for (int k = 0; k < img->function_count; k++) {
        if (img->functions[k].entry == elf_entry)
            reject(img, k, "it is the program's entry point");
        if (unit_holding(img, img->functions[k].entry) < 0)
            reject(img, k, "no symbol covers it");
    }
    check_symbols_and_data(img, elf, m->is_shared);
    for (int i = 0; i < img->section_count; i++)
        scan_section(img, &img->sections[i], m->is_shared);
    cs_insn *insn = cs_malloc(img->capstone);
    classify_references(img, insn);
    for (int k = 0; k < img->function_count; k++) {
        struct call_sites *f = &img->functions[k];
        if (!f->why_not && !f->count)
            f->why_not = "nothing in the file calls it";
        if (!f->why_not)
            f->why_not = falls_through(img, f->entry, insn);
    }
    cs_free(insn, 1);
}

void call_sites_find(struct arena *arena, struct dwarf_module *m, struct call_sites *functions, int count)
{
    struct code_image img = {.arena = arena, .functions = functions, .function_count = count};
    GElf_Ehdr eh;
    for (int k = 0; k < count; k++)
        functions[k] = (struct call_sites){.entry = functions[k].entry};
    if (!count)
        return;
    img.by_entry = arena_alloc(arena, sizeof(*img.by_entry) * (size_t)count);
    for (int k = 0; k < count; k++)
        img.by_entry[k] = k;
    qsort_r(img.by_entry, (size_t)count, sizeof(*img.by_entry), compare_by_entry, functions);
    if (!gelf_getehdr(m->elf, &eh) || eh.e_machine != EM_X86_64)
        reject_all(&img, "not x86-64 code");
    else if (!load_sections(&img, m))
        reject_all(&img, "its code cannot be read");
    else if (!m->symtab_elf || !load_units(&img, m->symtab_elf))   /* .symtab: the binary's or its debug file's */
        reject_all(&img, "the file has no symbol table");
    else if (cs_open(CS_ARCH_X86, CS_MODE_64, &img.capstone) != CS_ERR_OK)
        reject_all(&img, "capstone cannot decode x86-64");
    else {
        cs_option(img.capstone, CS_OPT_DETAIL, CS_OPT_ON);
        find_in_image(&img, m, eh.e_entry);
        cs_close(&img.capstone);
    }
    for (int k = 0; k < count; k++) {
        struct call_sites *f = &functions[k];
        if (f->why_not) {
            f->vaddrs = NULL;
            f->count = 0;
        }
    }
}
