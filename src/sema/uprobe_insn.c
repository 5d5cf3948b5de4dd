/* The kernel's verdict on a uprobe's instruction (uprobe_insn.h), read from
 * the bytes with the rules of arch/x86/kernel/uprobes.c for 64-bit tasks:
 * uprobe_init_insn (prefixes, the one-byte opcode table, mov to ss),
 * branch_setup_xol_ops and push_setup_xol_ops. Two-byte opcodes (0f xx)
 * always pass: the one-byte table lets 0x0f through, so the kernel never
 * consults its two-byte table for them. */
#include "sema/uprobe_insn.h"

#include <capstone/capstone.h>
#include <string.h>
#include <unistd.h>

#include "base/arena.h"
#include "sema/dwarf.h"

enum { INSN_MAX = 15 };

/* One-byte opcodes a 64-bit task may not have probed: invalid in long mode
 * (push/pop of segments, BCD, pusha, far call/jmp, into), system and I/O
 * instructions, and the traps (int3, int N, int1, iret). */
static const uint8_t refused_opcodes[] = {
    0x06, 0x07, 0x0e, 0x16, 0x17, 0x1e, 0x1f, 0x27, 0x2f, 0x37, 0x3f, 0x60, 0x61, 0x62,
    0x6c, 0x6d, 0x6e, 0x6f, 0x82, 0x9a, 0xcc, 0xcd, 0xce, 0xcf, 0xd4, 0xd5, 0xd6, 0xe4,
    0xe5, 0xe6, 0xe7, 0xea, 0xec, 0xed, 0xee, 0xef, 0xf1, 0xf4, 0xfa, 0xfb,
};

/* The parts of an instruction the kernel's checks look at. */
struct insn_shape {
    int lock, segment, operand16;  /* prefixes: f0; 26, 2e, 36, 3e; 66 */
    uint8_t opcode, opcode2;       /* opcode2: after 0f (two-byte opcodes) */
    int two_byte;
    uint8_t modrm;
};

static int read_insn(struct dwarf_module *m, uint64_t vaddr, uint8_t bytes[INSN_MAX])
{
    memset(bytes, 0, INSN_MAX);
    uint64_t offset = dwarf_module_file_offset(m, vaddr);
    return pread(m->fd, bytes, INSN_MAX, (off_t)offset) > 0;
}

static struct insn_shape shape_of(const uint8_t *b)
{
    struct insn_shape s = {0};
    int i = 0;
    for (; i < INSN_MAX - 6; i++) {
        uint8_t p = b[i];
        if (p == 0xf0)
            s.lock = 1;
        else if (p == 0x26 || p == 0x2e || p == 0x36 || p == 0x3e)
            s.segment = 1;
        else if (p == 0x66)
            s.operand16 = 1;
        else if (p != 0x64 && p != 0x65 && p != 0x67 && p != 0xf2 && p != 0xf3)
            break;
    }
    if (b[i] >= 0x40 && b[i] <= 0x4f)
        i++;                                  /* REX */
    /* VEX and EVEX carry their opcode map inside: the kernel's decoder
     * gives the byte after them as the (one-byte) opcode. */
    int vex = b[i] == 0xc5 ? 2 : b[i] == 0xc4 ? 3 : b[i] == 0x62 ? 4 : 0;
    i += vex;
    s.opcode = b[i];
    if (!vex && s.opcode == 0x0f) {
        s.two_byte = 1;
        s.opcode2 = b[i + 1];
        i++;
    }
    s.modrm = b[i + 1];
    return s;
}

static int is_branch(const struct insn_shape *s)
{
    if (s->two_byte)
        return s->opcode2 >= 0x80 && s->opcode2 <= 0x8f;
    return s->opcode == 0xe8 || s->opcode == 0xe9 || s->opcode == 0xeb || (s->opcode >= 0x70 && s->opcode <= 0x7f);
}

/* Why the kernel refuses the instruction, or NULL. */
static const char *refusal_class(const struct insn_shape *s)
{
    if (s->lock)
        return "a lock prefix";
    if (s->segment)
        return "a cs, ds, es or ss segment prefix";
    if (!s->two_byte && (memchr(refused_opcodes, s->opcode, sizeof(refused_opcodes)) ||
                         (s->opcode == 0x8e && ((s->modrm >> 3) & 7) == 2)))
        return "an instruction uprobes do not single-step";
    if (s->operand16 && is_branch(s))
        return "a branch with an operand-size prefix";
    return NULL;
}

/* `lock dec dword ptr [rdi]`, as capstone spells it. */
static const char *insn_text(struct arena *arena, const uint8_t *bytes, uint64_t vaddr)
{
    csh handle;
    cs_insn *insn = NULL;
    const char *text = NULL;
    if (cs_open(CS_ARCH_X86, CS_MODE_64, &handle) != CS_ERR_OK)
        return NULL;
    if (cs_disasm(handle, bytes, INSN_MAX, vaddr, 1, &insn) == 1)
        text = arena_printf(arena, "%s%s%s", insn->mnemonic, insn->op_str[0] ? " " : "", insn->op_str);
    if (insn)
        cs_free(insn, 1);
    cs_close(&handle);
    return text;
}

const char *uprobe_insn_refusal(struct arena *arena, struct dwarf_module *m, uint64_t vaddr)
{
    uint8_t bytes[INSN_MAX];
    if (!read_insn(m, vaddr, bytes))
        return NULL;                 /* unreadable here: the kernel will say */
    struct insn_shape shape = shape_of(bytes);
    const char *why = refusal_class(&shape);
    if (!why)
        return NULL;
    const char *text = insn_text(arena, bytes, vaddr);
    if (!text)
        return "the kernel's uprobes refuse the bytes there: they do not decode as an instruction";
    return arena_printf(arena, "the kernel's uprobes refuse its instruction `%s` (%s)", text, why);
}

int uprobe_insn_is_emulated(struct dwarf_module *m, uint64_t vaddr)
{
    uint8_t b[INSN_MAX];
    if (!read_insn(m, vaddr, b))
        return 1;                    /* unreadable: nothing to gain by moving */
    if ((b[0] >= 0x50 && b[0] <= 0x57) || (b[0] == 0x41 && b[1] >= 0x50 && b[1] <= 0x57))
        return 1;
    if (b[0] == 0xe8 || b[0] == 0xe9 || b[0] == 0xeb || b[0] == 0x90 || (b[0] >= 0x70 && b[0] <= 0x7f))
        return 1;
    return b[0] == 0x0f && b[1] >= 0x80 && b[1] <= 0x8f;
}
