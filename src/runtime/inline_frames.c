/* Inline frames from DWARF (see inline_frames.h): the CU holding the pc
 * (dwarf_addrdie), its innermost scope there (dwarf_getscopes), then that
 * scope's concrete chain of parents (dwarf_getscopes_die: dwarf_getscopes
 * goes on through the abstract definition instead), keeping each
 * DW_TAG_inlined_subroutine up to the real function, as eu-addr2line -i. */
#include "runtime/inline_frames.h"

#include <dwarf.h>
#include <elfutils/libdw.h>
#include <gelf.h>
#include <stdlib.h>
#include <string.h>

#include "base/debug_file.h"
#include "base/demangle.h"

struct inline_answer {
    uint64_t pc;                 /* file offset looked up; slot empty when names is NULL */
    char **names;                /* NULL-terminated; just { NULL } when none */
    int count;
};

struct inline_frames {
    char *path;
    int opened;
    struct debug_file debug;
    Dwarf *dwarf;                /* NULL: no DWARF, every answer is 0 */
    Elf *elf;                    /* the binary, for its PT_LOADs */
    struct inline_answer *answers;
    size_t answer_count, answer_capacity;   /* open addressing, capacity a power of two */
};

struct inline_frames *inline_frames_new(const char *path)
{
    struct inline_frames *frames = calloc(1, sizeof(*frames));
    frames->path = strdup(path);
    return frames;
}

void inline_frames_free(struct inline_frames *frames)
{
    if (!frames)
        return;
    for (size_t i = 0; i < frames->answer_capacity; i++) {
        for (char **name = frames->answers[i].names; name && *name; name++)
            free(*name);
        free(frames->answers[i].names);
    }
    free(frames->answers);
    if (frames->opened)
        debug_file_end(&frames->debug);
    free(frames->path);
    free(frames);
}

static void open_dwarf(struct inline_frames *frames)
{
    frames->opened = 1;
    if (debug_file_begin(&frames->debug, frames->path) != 0)
        return;
    const char *file;
    Dwarf_Addr bias;
    frames->dwarf = debug_file_dwarf(&frames->debug, &file);
    frames->elf = dwfl_module_getelf(frames->debug.module, &bias);
}

/* A file offset as the virtual address DWARF uses, through its PT_LOAD. */
static int offset_to_vaddr(Elf *elf, uint64_t offset, Dwarf_Addr *vaddr)
{
    size_t count;
    if (!elf || elf_getphdrnum(elf, &count) != 0)
        return -1;
    for (size_t i = 0; i < count; i++) {
        GElf_Phdr phdr;
        if (gelf_getphdr(elf, (int)i, &phdr) && phdr.p_type == PT_LOAD && (phdr.p_flags & PF_X) &&
            offset >= phdr.p_offset && offset < phdr.p_offset + phdr.p_filesz) {
            *vaddr = offset - phdr.p_offset + phdr.p_vaddr;
            return 0;
        }
    }
    return -1;
}

/* An inlined instance's name, from its abstract origin: the linkage name
 * demangled (C++: "shop::Cart::total() const", as gdb shows it), else the name. */
static char *inlined_name(Dwarf_Die *die)
{
    Dwarf_Attribute attribute;
    const char *linkage = dwarf_formstring(dwarf_attr_integrate(die, DW_AT_linkage_name, &attribute));
    if (!linkage)
        linkage = dwarf_formstring(dwarf_attr_integrate(die, DW_AT_MIPS_linkage_name, &attribute));
    char *demangled = linkage ? demangle(linkage, 1) : NULL;
    if (demangled)
        return demangled;
    const char *name = dwarf_formstring(dwarf_attr_integrate(die, DW_AT_name, &attribute));
    return strdup(name ? name : "??");
}

/* The answer for PC (a vaddr), NULL-terminated, innermost first. */
static char **lookup(Dwarf *dwarf, Dwarf_Addr pc, int *count)
{
    char **names = calloc(1, sizeof(char *));
    *count = 0;
    Dwarf_Die cu, innermost, *scopes = NULL;
    if (!dwarf || !dwarf_addrdie(dwarf, pc, &cu))
        return names;
    int found = dwarf_getscopes(&cu, pc, &scopes);
    if (found > 0)
        innermost = scopes[0];
    free(scopes);
    scopes = NULL;
    int depth = found > 0 ? dwarf_getscopes_die(&innermost, &scopes) : 0;
    for (int i = 0; i < depth; i++) {
        int tag = dwarf_tag(&scopes[i]);
        if (tag == DW_TAG_subprogram || tag == DW_TAG_entry_point)
            break;
        if (tag != DW_TAG_inlined_subroutine)
            continue;
        names = realloc(names, (size_t)(*count + 2) * sizeof(char *));
        names[(*count)++] = inlined_name(&scopes[i]);
        names[*count] = NULL;
    }
    free(scopes);
    return names;
}

static size_t slot_of(const struct inline_frames *frames, uint64_t pc)
{
    size_t mask = frames->answer_capacity - 1;
    size_t slot = (size_t)(pc * 0x9e3779b97f4a7c15ull >> 32) & mask;
    while (frames->answers[slot].names && frames->answers[slot].pc != pc)
        slot = (slot + 1) & mask;
    return slot;
}

static void grow(struct inline_frames *frames)
{
    struct inline_answer *old = frames->answers;
    size_t old_capacity = frames->answer_capacity;
    frames->answer_capacity = old_capacity ? old_capacity * 2 : 64;
    frames->answers = calloc(frames->answer_capacity, sizeof(*frames->answers));
    for (size_t i = 0; i < old_capacity; i++)
        if (old[i].names)
            frames->answers[slot_of(frames, old[i].pc)] = old[i];
    free(old);
}

int inline_frames_at(struct inline_frames *frames, uint64_t file_offset, int caller, const char *const **names)
{
    uint64_t pc = caller && file_offset ? file_offset - 1 : file_offset;
    if (2 * (frames->answer_count + 1) > frames->answer_capacity)
        grow(frames);
    struct inline_answer *answer = &frames->answers[slot_of(frames, pc)];
    if (!answer->names) {
        if (!frames->opened)
            open_dwarf(frames);
        Dwarf_Addr vaddr = 0;
        int mapped = offset_to_vaddr(frames->elf, pc, &vaddr) == 0;
        answer->pc = pc;
        answer->names = lookup(mapped ? frames->dwarf : NULL, vaddr, &answer->count);
        frames->answer_count++;
    }
    *names = (const char *const *)answer->names;
    return answer->count;
}
