/* -l / -L: the probe point is resolved exactly as in a script (`probe PP {}`),
 * and each resulting probe prints as pp() does; -L adds the target variables
 * in scope, -v the address. Lines are byte-sorted and unique. */
#include <stdlib.h>
#include <string.h>

#include <bpf/btf.h>

#include "base/strbuf.h"
#include "sema/btf_types.h"
#include "kinds/kinds.h"
#include "parser/parse.h"
#include "sema/usdt.h"

static int compare_lines(const void *a, const void *b)
{
    return strcmp(*(const char *const *)a, *(const char *const *)b);
}

/* The kernel's BTF, and one module's, loaded for the first kernel function
 * listed (sema's are released when it returns). */
struct kernel_btfs {
    struct btf *vmlinux, *module;
    const char *module_name;
};

/* The BTF prototype of a kernel function probe (kinds/kernel_function.c:
 * kprobe.btf_id in its module's BTF, or vmlinux's); NULL for a kprobe.function
 * probe, which has no types, as SystemTap's dwarfless probes. */
static const struct btf_type *kernel_prototype(struct kernel_btfs *btfs, const struct probe *probe, struct btf **btf)
{
    const struct kprobe_probe *function = probe_kprobe(probe);
    if (!function->btf_id)
        return NULL;
    if (!btfs->vmlinux)
        btfs->vmlinux = btf__load_vmlinux_btf();
    *btf = btfs->vmlinux;
    if (function->module && btfs->vmlinux) {
        if (!btfs->module_name || strcmp(btfs->module_name, function->module) != 0) {
            btf__free(btfs->module);
            btfs->module = btf__load_module_btf(function->module, btfs->vmlinux);
            btfs->module_name = function->module;
        }
        *btf = btfs->module;
    }
    const struct btf_type *func = *btf ? btf__type_by_id(*btf, (unsigned)function->btf_id) : NULL;
    return func ? btf__type_by_id(*btf, func->type) : NULL;
}

static int is_kernel_return(const struct probe *probe)
{
    return probe_is_kernel_function(probe) && (probe_kind_ops(probe->kind)->flags & KIND_AT_RETURN);
}

/* " $return:ssize_t $file:struct file* ..." as stap's -L, from BTF. */
static void spell_kernel_variables(struct strbuf *sb, const struct btf *btf, const struct btf_type *proto,
                                   int is_return)
{
    if (is_return && proto->type) {
        strbuf_puts(sb, " $return:");
        btf_type_spell(sb, btf, (int)proto->type);
    }
    for (int i = 0; i < btf_vlen(proto); i++) {
        const struct btf_param *param = &btf_params(proto)[i];
        strbuf_printf(sb, " $%s:", btf__name_by_offset(btf, param->name_off));
        btf_type_spell(sb, btf, (int)param->type);
    }
}

static const char *describe(struct arena *arena, const struct probe *probe, int with_variables, int verbose,
                            struct kernel_btfs *btfs)
{
    struct strbuf sb;
    strbuf_init(&sb);
    strbuf_puts(&sb, probe->alias_point ? probe->alias_point : probe->point);
    /* An alias (syscall.read) lists the variables its prologue sets, not
     * tap's own (syscall_entry.c's values at the call). */
    for (int v = 0; probe->alias_point && with_variables && v < probe->frame->local_count; v++) {
        const struct symbol *sym = probe->frame->locals[v];
        if (strncmp(sym->name, "__tap_", 6) == 0)
            continue;
        strbuf_printf(&sb, " %s:%s", sym->name, value_type_name(sym->type));
    }
    if (probe->variables && with_variables)
        strbuf_puts(&sb, probe->variables);
    struct uprobe_site *site = probe_dwarf_site(probe);
    if (site && verbose) {
        uint64_t pc = site->pc;
        if (!site->is_statement && !site->is_return && site->function)
            pc = dwarf_module_after_prologue(site->module, site->function);
        strbuf_printf(&sb, " /* pc=0x%llx */", (unsigned long long)pc);
    }
    if (site && with_variables && site->mark)
        usdt_spell_args(&sb, site->mark);
    if (site && with_variables && site->function && site->function->die_offset) {
        Dwarf_Die function, type;
        if (site->is_return && dwarf_module_function_die(site->module, site->function, &function) &&
            dwarf_die_type(&function, &type)) {
            strbuf_puts(&sb, " $return:");
            strbuf_puts(&sb, dwarf_type_name(&site->module->type_names, &type));
        }
        uprobe_spell_variables(&sb, site);
    }
    struct btf *btf = NULL;
    const struct btf_type *proto = with_variables ? kernel_prototype(btfs, probe, &btf) : NULL;
    if (proto)
        spell_kernel_variables(&sb, btf, proto, is_kernel_return(probe));
    const char *line = arena_strdup(arena, sb.data ? sb.data : "");
    strbuf_free(&sb);
    return line;
}

int sema_list_points(struct arena *arena, struct diags *diags, const char *point,
                     const struct sema_options *options, int with_variables, int verbose, FILE *out)
{
    const char *text = arena_printf(arena, "probe %s {}", point);
    const struct source_file *file = source_from_string(arena, "<input>", text, strlen(text));
    struct parse_options parse_options = {0};
    struct ast *ast = parse_source(arena, diags, file, &parse_options);
    if (!ast || diags->error_count)
        return 1;
    const struct probe_kind_ops *kind = probe_kind_for_point(ast->decls->probe.points);
    if (kind && kind->list)
        return kind->list(out, arena, diags, ast->decls->probe.points, point, with_variables);
    struct sema_options keep = *options;
    keep.keep_unused = 1;   /* an alias's prologue locals are what -L lists */
    keep.entry_only = 1;    /* where a probe would sit is not listed: no call-site analysis, */
    keep.no_insn_check = 1; /* and a function whose entry the kernel refuses is still listed */
    keep.listing = 1;
    diags->warnings_off = 1;
    struct script *script = sema_analyze(arena, diags, ast, &keep);
    if (!script)
        return 1;
    const char **lines = ARENA_ARRAY(arena, const char *, script->probe_count + 1);
    int count = 0;
    struct kernel_btfs btfs = {0};
    for (int i = 0; i < script->probe_count; i++) {
        const struct probe *probe = script->probes[i];
        if (probe->span.file != file && !probe->alias_point)
            continue;   /* a tapset's own probes (process_exe.tp's records), not the point's */
        struct uprobe_site *site = probe_uprobe(probe)->site;
        struct btf *btf;
        const struct btf_type *proto = is_kernel_return(probe) ? kernel_prototype(&btfs, probe, &btf) : NULL;
        if ((site && site->is_return && site->function && !site->function->has_return) || (proto && !proto->type))
            continue;   /* nothing to return: stap leaves these out of .return listings */
        lines[count++] = describe(arena, probe, with_variables, verbose, &btfs);
    }
    btf__free(btfs.module);
    btf__free(btfs.vmlinux);
    qsort(lines, (size_t)count, sizeof(*lines), compare_lines);
    for (int i = 0; i < count; i++)
        if (i == 0 || strcmp(lines[i], lines[i - 1]) != 0) {
            fputs(lines[i], out);
            putc('\n', out);
        }
    return 0;
}
