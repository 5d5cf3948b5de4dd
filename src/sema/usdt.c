/* process("PATH")[.provider("P")].mark("NAME"): every matching note of the
 * binary's .note.stapsdt becomes a uprobe on the mark's nop, with its
 * semaphore (if any) as the uprobe's reference counter, so the kernel
 * raises it while tap is attached and `if (P_NAME_ENABLED())` code runs.
 * $argN is rewritten here into a register, a user-memory read or a
 * constant, of the width and signedness the note's spec gives. */
#include <fnmatch.h>
#include <gelf.h>
#include <stdlib.h>
#include <string.h>

#include "base/elf_sections.h"
#include "base/strbuf.h"
#include "sema/usdt.h"

#define NT_STAPSDT 3

/* --- reading the notes ---------------------------------------------------- */

/* Splits the note's space-separated specs and parses each. */
static void parse_args(struct arena *arena, struct usdt_mark *mark)
{
    mark->args_valid = 1;
    const char *p = mark->arg_text;
    while (*p) {
        while (*p == ' ')
            p++;
        size_t len = strcspn(p, " ");
        if (!len)
            break;
        if (mark->arg_count == USDT_MAX_ARGS) {
            mark->args_valid = 0;
            break;
        }
        const char *spec = arena_strndup(arena, p, len);
        if (!usdt_parse_arg(arena, spec, &mark->args[mark->arg_count++]))
            mark->args_valid = 0;
        p += len;
    }
}

/* desc: pc, .stapsdt.base's link-time address, semaphore (three
 * addresses), then provider, name and argument specs as C strings. */
static int read_note(struct arena *arena, const char *desc, size_t size, uint64_t base_section,
                     struct usdt_mark *mark)
{
    uint64_t words[3];
    if (size < sizeof(words) + 3)
        return 0;
    memcpy(words, desc, sizeof(words));
    const char *text = desc + sizeof(words), *end = desc + size;
    const char *strings[3];
    for (int i = 0; i < 3; i++) {
        const char *nul = memchr(text, '\0', (size_t)(end - text));
        if (!nul)
            return 0;
        strings[i] = arena_strndup(arena, text, (size_t)(nul - text));
        text = nul + 1;
    }
    memset(mark, 0, sizeof(*mark));
    /* prelink may have moved the binary: the SDT spec's adjustment */
    mark->pc = words[0] + (base_section && words[1] ? base_section - words[1] : 0);
    mark->semaphore = words[2];
    mark->provider = strings[0];
    mark->name = strings[1];
    mark->arg_text = strings[2];
    parse_args(arena, mark);
    return 1;
}

int usdt_read_marks(struct arena *arena, struct dwarf_module *m, struct usdt_mark **out)
{
    GElf_Shdr shdr, base;
    Elf_Scn *notes = elf_section_named(m->elf, ".note.stapsdt", &shdr);
    *out = NULL;
    if (!notes || gelf_getclass(m->elf) != ELFCLASS64)
        return -1;
    uint64_t base_section = elf_section_named(m->elf, ".stapsdt.base", &base) ? base.sh_addr : 0;
    Elf_Data *data = elf_getdata(notes, NULL);
    int count = 0, capacity = 0;
    GElf_Nhdr note;
    size_t offset = 0, name_offset, desc_offset;
    while (data && (offset = gelf_getnote(data, offset, &note, &name_offset, &desc_offset)) > 0) {
        const char *owner = (const char *)data->d_buf + name_offset;
        if (note.n_type != NT_STAPSDT || note.n_namesz != 8 || memcmp(owner, "stapsdt", 8) != 0)
            continue;
        if (count == capacity) {
            capacity = capacity ? capacity * 2 : 16;
            *out = arena_realloc(arena, *out, sizeof(**out) * (size_t)count, sizeof(**out) * (size_t)capacity);
        }
        if (read_note(arena, (const char *)data->d_buf + desc_offset, note.n_descsz, base_section, &(*out)[count]))
            count++;
    }
    return count;
}

/* --- resolving ------------------------------------------------------------ */

/* The file offset of any loaded vaddr (the semaphore is in a data segment,
 * which the function index does not keep); 0 when unmapped. */
static uint64_t loaded_file_offset(struct dwarf_module *m, uint64_t vaddr)
{
    size_t count;
    if (elf_getphdrnum(m->elf, &count) != 0)
        return 0;
    for (size_t i = 0; i < count; i++) {
        GElf_Phdr phdr;
        if (gelf_getphdr(m->elf, (int)i, &phdr) && phdr.p_type == PT_LOAD && vaddr >= phdr.p_vaddr &&
            vaddr < phdr.p_vaddr + phdr.p_filesz)
            return vaddr - phdr.p_vaddr + phdr.p_offset;
    }
    return 0;
}

/* The three mark names closest to `name`, for the no-match message. */
static const char *closest_marks(struct sema *s, const struct usdt_mark *marks, int count, const char *name)
{
    const char *best[3] = {0};
    int distance[3] = {0};
    for (int i = 0; i < count; i++) {
        int d = sema_edit_distance(name, marks[i].name);
        int duplicate = 0;
        for (int k = 0; k < 3 && best[k]; k++)
            duplicate |= strcmp(best[k], marks[i].name) == 0;
        for (int k = 0; k < 3 && !duplicate; k++) {
            if (best[k] && d >= distance[k])
                continue;
            memmove(&best[k + 1], &best[k], sizeof(best[0]) * (size_t)(2 - k));
            memmove(&distance[k + 1], &distance[k], sizeof(distance[0]) * (size_t)(2 - k));
            best[k] = marks[i].name;
            distance[k] = d;
            break;
        }
    }
    struct strbuf sb;
    strbuf_init(&sb);
    for (int k = 0; k < 3 && best[k]; k++)
        strbuf_printf(&sb, "%s%s", k ? ", " : "", best[k]);
    const char *text = arena_strdup(s->arena, sb.data ? sb.data : "");
    strbuf_free(&sb);
    return text;
}

int sema_resolve_marks(struct sema *s, struct stmt *body, struct probe_point *point, struct frame_layout *frame,
                       struct dwarf_module *m, const struct process_point *pp)
{
    struct usdt_mark *marks;
    int count = usdt_read_marks(s->arena, m, &marks);
    const char *pattern = pp->kind_component->arg_string;
    struct span span = pp->kind_component->span;
    if (count < 0) {
        if (!point->optional)
            diag_error(s->diags, span, "while resolving probe point: %s has no SDT marks (no .note.stapsdt "
                       "section)", m->path);
        return 0;
    }
    int added = 0;
    struct probe *leader = NULL;
    for (int i = 0; i < count; i++) {
        const struct usdt_mark *mark = &marks[i];
        if (fnmatch(pattern, mark->name, 0) != 0 || (pp->provider && fnmatch(pp->provider, mark->provider, 0) != 0))
            continue;
        struct uprobe_site *site = ARENA_NEW(s->arena, struct uprobe_site);
        site->module = m;
        site->pc = mark->pc;
        site->mark = mark;
        site->is_statement = 1;      /* -v listings show the mark's own pc */
        const char *text = arena_printf(s->arena, "process(\"%s\").mark(\"%s\")", m->path, mark->name);
        struct probe *probe = uprobe_add_site(s, body, point, frame, site, text, &leader);
        probe->uprobe.ref_ctr_offset = mark->semaphore ? loaded_file_offset(m, mark->semaphore) : 0;
        added++;
    }
    if (!added && !point->optional) {
        const char *similar = closest_marks(s, marks, count, pattern);
        diag_error(s->diags, span, "while resolving probe point: no match for mark \"%s\"%s%s%s in %s%s%s%s",
                   pattern, pp->provider ? " of provider \"" : "", pp->provider ? pp->provider : "",
                   pp->provider ? "\"" : "", m->path, *similar ? " (similar marks: " : "", similar,
                   *similar ? ")" : "");
    }
    return added;
}

/* --- $argN ---------------------------------------------------------------- */

/* The vaddr of a symbol named in an operand (counter(%rip)); 0 if none. */
static uint64_t symbol_address(struct dwarf_module *m, const char *name)
{
    static const char *tables[] = {".symtab", ".dynsym"};
    for (size_t t = 0; t < 2; t++) {
        GElf_Shdr shdr;
        Elf_Scn *scn = elf_section_named(m->elf, tables[t], &shdr);
        Elf_Data *data = scn ? elf_getdata(scn, NULL) : NULL;
        for (size_t i = 0; data && shdr.sh_entsize && i < shdr.sh_size / shdr.sh_entsize; i++) {
            GElf_Sym sym;
            const char *symbol = gelf_getsym(data, (int)i, &sym) ? elf_strptr(m->elf, shdr.sh_link, sym.st_name) : NULL;
            if (symbol && sym.st_shndx != SHN_UNDEF && strcmp(symbol, name) == 0)
                return sym.st_value;
        }
    }
    return 0;
}

static struct expr *arg_address(struct dwarf_eval *ev, const struct usdt_arg *arg, char *error, size_t size)
{
    struct expr *address = dwarf_expr_int(ev, arg->disp);
    if (arg->symbol) {
        uint64_t vaddr = symbol_address(ev->module, arg->symbol);
        if (!vaddr) {
            snprintf(error, size, "symbol %s is not in %s", arg->symbol, ev->module->path);
            return NULL;
        }
        address = dwarf_expr_int(ev, (int64_t)(vaddr + (uint64_t)arg->disp));
        if (ev->module->is_shared)
            address = dwarf_expr_add(ev, dwarf_expr_reg(ev, DWARF_REG_LOAD_BIAS), address);
    } else if (arg->base == 16) {
        snprintf(error, size, "%%rip-relative operands need a symbol");
        return NULL;
    }
    if (arg->base >= 0 && arg->base != 16)
        address = dwarf_expr_add(ev, dwarf_expr_reg(ev, arg->base), address);
    if (arg->index >= 0) {
        struct expr *index = dwarf_expr_reg(ev, arg->index);
        if (arg->scale > 1)
            index = dwarf_expr_binary(ev, BINARY_MUL, index, dwarf_expr_int(ev, arg->scale));
        address = dwarf_expr_add(ev, index, address);
    }
    return address;
}

/* The argument's value as a long, of its spec's width and signedness. */
static struct expr *arg_value(struct dwarf_eval *ev, const struct usdt_arg *arg, char *error, size_t size)
{
    switch (arg->kind) {
    case USDT_ARG_CONST:
        return dwarf_expr_narrow(ev, dwarf_expr_int(ev, arg->value), arg->size, arg->is_signed);
    case USDT_ARG_REG: {
        struct expr *value = dwarf_expr_reg(ev, arg->reg);
        if (arg->shift)
            value = dwarf_expr_binary(ev, BINARY_SHR, value, dwarf_expr_int(ev, arg->shift));
        return dwarf_expr_narrow(ev, value, arg->size, arg->is_signed);
    }
    case USDT_ARG_MEMORY: {
        struct expr *address = arg_address(ev, arg, error, size);
        return address ? dwarf_expr_read(ev, address, arg->size, arg->is_signed) : NULL;
    }
    }
    return NULL;
}

static int mark_error(struct sema *s, struct expr *e, int quiet, const char *message)
{
    if (!quiet)
        diag_error(s->diags, e->span, "%s", message);
    return 0;
}

static const char *arg_names(struct sema *s, const struct usdt_mark *mark)
{
    struct strbuf sb;
    strbuf_init(&sb);
    for (int i = 1; i <= mark->arg_count; i++)
        strbuf_printf(&sb, "%s$arg%d", i > 1 ? ", " : "", i);
    const char *text = arena_strdup(s->arena, sb.data ? sb.data : "none");
    strbuf_free(&sb);
    return text;
}

/* "argN" with 1 <= N: N, else 0. */
static int arg_number(const char *name)
{
    if (strncmp(name, "arg", 3) != 0 || name[3] < '1' || name[3] > '9' ||
        strspn(name + 3, "0123456789") != strlen(name + 3))
        return 0;
    return atoi(name + 3);
}

static void replace_expr(struct expr *e, struct expr *with)
{
    struct expr *next = e->next;
    *e = *with;
    e->next = next;
}

/* $$parms, $$vars: "$arg1=0x5 $arg2=0xfffffffffffffffd" (the names with their
 * $, as stap's SDT expansion builds the format). */
static int lower_parms(struct sema *s, struct uprobe_site *site, struct expr *e, int quiet)
{
    struct expr *text = NULL;
    for (int i = 1; i <= site->mark->arg_count; i++) {
        struct expr *value = ast_expr(s->arena, EXPR_TARGET, e->span);
        value->target.name = arena_printf(s->arena, "arg%d", i);
        if (!usdt_lower_target(s, site, value, quiet))
            return 0;
        struct expr *call = ast_expr(s->arena, EXPR_CALL, e->span);
        call->call.name = "_tap_hex";
        call->call.args = value;
        call->call.arg_count = 1;
        const char *label = arena_printf(s->arena, "%s$arg%d=", i > 1 ? " " : "", i);
        text = sema_concat_expr(s, e->span, sema_concat_expr(s, e->span, text, sema_string_expr(s, e->span, label)),
                                call);
    }
    replace_expr(e, text ? text : sema_string_expr(s, e->span, ""));
    return 1;
}

int usdt_lower_target(struct sema *s, struct uprobe_site *site, struct expr *e, int quiet)
{
    const struct usdt_mark *mark = site->mark;
    const char *name = e->target.name;
    if (strcmp(name, "$name") == 0 || strcmp(name, "$provider") == 0) {
        replace_expr(e, sema_string_expr(s, e->span, name[1] == 'n' ? mark->name : mark->provider));
        return 1;
    }
    if (strcmp(name, "$parms") == 0 || strcmp(name, "$vars") == 0)
        return lower_parms(s, site, e, quiet);
    int n = arg_number(name);
    if (!n)
        return mark_error(s, e, quiet, arena_printf(s->arena, "unable to find '$%s' in an SDT mark (alternatives: "
                                                    "%s%s$$name, $$provider, $$parms)", name,
                                                    mark->arg_count ? arg_names(s, mark) : "",
                                                    mark->arg_count ? ", " : ""));
    if (n > mark->arg_count)
        return mark_error(s, e, quiet, arena_printf(s->arena, "mark \"%s\" has no $%s (its arguments: %s)",
                                                    mark->name, name, arg_names(s, mark)));
    if (e->target.components || e->target.pretty || e->target.address_of)
        return mark_error(s, e, quiet, arena_printf(s->arena, "$%s of an SDT mark is a plain long: members, "
                                                    "indexing, & and pretty printing need @cast", name));
    const struct usdt_arg *arg = &mark->args[n - 1];
    char error[160] = "";
    struct dwarf_eval ev = {.arena = s->arena, .module = site->module, .span = e->span, .pc = site->pc};
    struct expr *value = mark->args_valid ? arg_value(&ev, arg, error, sizeof(error)) : NULL;
    if (!value)
        return mark_error(s, e, quiet, arena_printf(s->arena, "cannot read $%s: %s", name,
                                                    *error ? error : arena_printf(s->arena, "argument specs \"%s\" "
                                                                                 "are beyond tap", mark->arg_text)));
    replace_expr(e, value);
    return 1;
}

void usdt_spell_args(struct strbuf *sb, const struct usdt_mark *mark)
{
    for (int i = 1; i <= mark->arg_count; i++)
        strbuf_printf(sb, " $arg%d:long", i);
}
