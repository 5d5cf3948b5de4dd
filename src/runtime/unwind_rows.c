/* A file's DWARF CFI compiled into unwind rows (program.h) for BPF's stack
 * walk: libdw evaluates the CFI (no parser of ours); each row says, from a
 * file offset until the next row, where the CFA is (rsp or rbp plus a
 * constant), that the return address is at CFA - 8, and where the caller's
 * rbp was saved. That is all x86-64 code that gcc and clang emit needs,
 * except the PLT's expression and hand-written oddities: those rows say
 * "frame pointers", as do the gaps no FDE covers. The FDEs are found from
 * .eh_frame_hdr's table and the function symbols; libdw's dwarf_frame_info
 * gives each row's extent, so the cost is one CFI evaluation per row. */
#include "runtime/unwind_rows.h"

#include <dwarf.h>
#include <elfutils/libdw.h>
#include <fcntl.h>
#include <gelf.h>
#include <stdlib.h>
#include <string.h>
#include <unistd.h>

#include "base/debug_file.h"
#include "base/grow.h"

#define DWARF_RBP 6
#define DWARF_RSP 7
#define DWARF_RA 16

struct builder {
    Elf *elf;
    struct unwind_row *rows;
    size_t count, capacity;
    uint64_t *starts;            /* candidate FDE starts (file addresses) */
    size_t start_count, start_capacity;
    int failed;
};

static void add_start(struct builder *b, uint64_t address)
{
    uint64_t *starts = grow_for_one(b->starts, &b->start_capacity, b->start_count, sizeof(*starts), 1024);
    if (!starts) {
        b->failed = 1;
        return;
    }
    b->starts = starts;
    b->starts[b->start_count++] = address;
}

/* Appends a row; one starting where the last did replaces it, one saying
 * what the last says is dropped. */
static void add_row(struct builder *b, struct unwind_row row)
{
    struct unwind_row *last = b->count ? &b->rows[b->count - 1] : NULL;
    if (last && last->offset == row.offset) {
        *last = row;
        return;
    }
    if (last && last->kind == row.kind && last->cfa == row.cfa && last->rbp == row.rbp)
        return;
    struct unwind_row *rows = grow_for_one(b->rows, &b->capacity, b->count, sizeof(*rows), 4096);
    if (!rows) {
        b->failed = 1;
        return;
    }
    b->rows = rows;
    b->rows[b->count++] = row;
}

/* Where the caller's register is saved, as an offset from the CFA: 0 when
 * it is unchanged (or undefined), 1 when the rule is one we do not handle. */
static int saved_at(Dwarf_Frame *frame, int regno)
{
    Dwarf_Op mem[3], *ops;
    size_t nops;
    if (dwarf_frame_register(frame, regno, mem, &ops, &nops) < 0)
        return 1;
    if (nops == 0)
        return 0;
    if (nops == 2 && ops[0].atom == DW_OP_call_frame_cfa && ops[1].atom == DW_OP_plus_uconst)
        return (int)(int64_t)ops[1].number;
    if (nops == 1 && ops[0].atom == DW_OP_call_frame_cfa)
        return 1;   /* saved at the CFA itself: never on x86-64 */
    return 1;
}

/* The row for one frame state. */
static struct unwind_row frame_row(Dwarf_Frame *frame, uint32_t offset)
{
    struct unwind_row row = {.offset = offset, .kind = UNWIND_FRAME_POINTER};
    Dwarf_Op *ops, mem[3];
    size_t nops;
    if (dwarf_frame_register(frame, DWARF_RA, mem, &ops, &nops) == 0 && nops == 0 && ops == mem) {
        row.kind = UNWIND_OUTERMOST;
        return row;
    }
    if (dwarf_frame_cfa(frame, &ops, &nops) < 0 || nops != 1 || ops[0].atom != DW_OP_bregx ||
        (ops[0].number != DWARF_RSP && ops[0].number != DWARF_RBP))
        return row;   /* an expression (the PLT) */
    int ra = saved_at(frame, DWARF_RA), rbp = saved_at(frame, DWARF_RBP);
    int64_t cfa = (int64_t)ops[0].number2;
    if (ra != -8 || rbp == 1 || rbp > 0 || rbp < -32768 || cfa < 0 || cfa > INT32_MAX)
        return row;
    row.kind = ops[0].number == DWARF_RSP ? UNWIND_CFA_RSP : UNWIND_CFA_RBP;
    row.cfa = (int32_t)cfa;
    row.rbp = (int16_t)rbp;
    return row;
}

/* The rows of the FDE that covers `address`, and of any FDE right after it;
 * returns the address where they end. */
static uint64_t add_fde_rows(struct builder *b, Dwarf_CFI *cfi, uint64_t address)
{
    for (;;) {
        Dwarf_Frame *frame;
        Dwarf_Addr start, end;
        if (dwarf_cfi_addrframe(cfi, address, &frame) != 0)
            break;
        int64_t offset = debug_file_offset(b->elf, address);
        if (dwarf_frame_info(frame, &start, &end, NULL) < 0 || end <= address || offset < 0 || offset > UINT32_MAX) {
            free(frame);
            break;
        }
        add_row(b, frame_row(frame, (uint32_t)offset));
        free(frame);
        address = end;
    }
    int64_t offset = debug_file_offset(b->elf, address);
    if (offset >= 0 && offset <= UINT32_MAX)
        add_row(b, (struct unwind_row){.offset = (uint32_t)offset, .kind = UNWIND_FRAME_POINTER});
    return address;
}

/* .eh_frame_hdr's sorted table of FDE starts, in the form every linker
 * writes (datarel sdata4 pairs after a udata4 count). */
static void add_header_starts(struct builder *b)
{
    size_t strings;
    Elf_Scn *scn = NULL;
    if (elf_getshdrstrndx(b->elf, &strings) < 0)
        return;
    while ((scn = elf_nextscn(b->elf, scn))) {
        GElf_Shdr mem, *sh = gelf_getshdr(scn, &mem);
        const char *name = sh ? elf_strptr(b->elf, strings, sh->sh_name) : NULL;
        Elf_Data *data = name && strcmp(name, ".eh_frame_hdr") == 0 ? elf_getdata(scn, NULL) : NULL;
        if (!data || data->d_size < 12)
            continue;
        const unsigned char *h = data->d_buf;
        if (h[0] != 1 || h[2] != (DW_EH_PE_udata4) || h[3] != (DW_EH_PE_datarel | DW_EH_PE_sdata4))
            return;
        uint32_t count;
        memcpy(&count, h + 8, 4);
        for (uint32_t i = 0; i < count && 12 + 8 * (size_t)i + 8 <= data->d_size; i++) {
            int32_t relative;
            memcpy(&relative, h + 12 + 8 * (size_t)i, 4);
            add_start(b, sh->sh_addr + (uint64_t)(int64_t)relative);
        }
        return;
    }
}

/* Function symbols start FDEs too (.debug_frame has no header table). */
static void add_symbol_starts(struct builder *b)
{
    Elf_Scn *scn = NULL;
    while ((scn = elf_nextscn(b->elf, scn))) {
        GElf_Shdr mem, *sh = gelf_getshdr(scn, &mem);
        if (!sh || (sh->sh_type != SHT_SYMTAB && sh->sh_type != SHT_DYNSYM) || !sh->sh_entsize)
            continue;
        Elf_Data *data = elf_getdata(scn, NULL);
        for (size_t i = 0; data && i < sh->sh_size / sh->sh_entsize; i++) {
            GElf_Sym sym;
            if (gelf_getsym(data, (int)i, &sym) && GELF_ST_TYPE(sym.st_info) == STT_FUNC && sym.st_value)
                add_start(b, sym.st_value);
        }
    }
}

static int compare_addresses(const void *a, const void *b)
{
    uint64_t x = *(const uint64_t *)a, y = *(const uint64_t *)b;
    return x < y ? -1 : x > y;
}

static void add_cfi_rows(struct builder *b, Dwarf_CFI *cfi)
{
    uint64_t covered = 0;
    for (size_t i = 0; i < b->start_count && !b->failed; i++)
        if (b->starts[i] >= covered)
            covered = add_fde_rows(b, cfi, b->starts[i]);
}

int unwind_rows_build(const char *path, struct unwind_row **rows, size_t *count)
{
    struct builder b = {0};
    int fd = open(path, O_RDONLY | O_CLOEXEC);
    if (fd < 0)
        return -1;
    elf_version(EV_CURRENT);
    b.elf = elf_begin(fd, ELF_C_READ_MMAP, NULL);
    GElf_Ehdr ehdr;
    if (!b.elf || !gelf_getehdr(b.elf, &ehdr) || ehdr.e_machine != EM_X86_64) {
        if (b.elf)
            elf_end(b.elf);
        close(fd);
        return -1;
    }
    add_header_starts(&b);
    add_symbol_starts(&b);
    if (b.start_count)
        qsort(b.starts, b.start_count, sizeof(*b.starts), compare_addresses);
    Dwarf_CFI *cfi = dwarf_getcfi_elf(b.elf);   /* .eh_frame */
    Dwarf *dwarf = cfi ? NULL : dwarf_begin_elf(b.elf, DWARF_C_READ, NULL);
    if (!cfi && dwarf)
        cfi = dwarf_getcfi(dwarf);                /* .debug_frame */
    if (cfi)
        add_cfi_rows(&b, cfi);
    if (dwarf)
        dwarf_end(dwarf);
    else if (cfi)
        dwarf_cfi_end(cfi);
    elf_end(b.elf);
    close(fd);
    free(b.starts);
    if (b.failed || !b.count) {
        free(b.rows);
        return -1;
    }
    *rows = b.rows;
    *count = b.count;
    return 0;
}
