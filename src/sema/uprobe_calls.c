/* Entry probes on calls: a .function probe whose first instruction the
 * kernel single-steps (~11 us a hit, the mov or sub that starts most -O2
 * functions) moves to the function's calls, each a call or jmp the kernel
 * emulates (~0.6 us), when call_sites.c proves they are the only ways in
 * and the handler reads nothing that differs there. At a call the
 * argument registers hold what they hold at the entry; the stack pointer
 * (8 higher: no return address yet) and the pc (and the load bias, found
 * from it) do not. */
#include <stdlib.h>
#include <string.h>

#include "base/arena.h"
#include "sema/builtins.h"
#include "sema/call_sites.h"
#include "sema/sema_internal.h"
#include "sema/uprobe.h"
#include "sema/uprobe_insn.h"

enum { STACK_POINTER_REG = 7, CALL_DEPTH_MAX = 16 };   /* DWARF numbers rsp 7 */

/* A walk of a handler or of a function it calls, depth calls down. */
struct frame_walk { const struct script *script; int depth; };

static int body_reads_frame(const struct script *script, struct stmt *body, int depth);

static int builtin_reads_frame(enum builtin_id id)
{
    switch (id) {
    case BUILTIN_UADDR: case BUILTIN_ADDR: case BUILTIN_UBACKTRACE: case BUILTIN_PRINT_UBACKTRACE: case BUILTIN_PRINT_USTACK:
    case BUILTIN_SPRINT_UBACKTRACE: case BUILTIN_UCALLERS: case BUILTIN_BACKTRACE:
    case BUILTIN_PRINT_BACKTRACE: case BUILTIN_PRINT_STACK: case BUILTIN_SPRINT_BACKTRACE:
    case BUILTIN_PRINT_USTACK_FOLDED: case BUILTIN_PRINT_STACK_FOLDED:
        return 1;
    default:
        return 0;
    }
}

static int expr_reads_frame(struct expr *e, void *ctx);

static int call_reads_frame(struct frame_walk *w, struct expr *e)
{
    switch (e->call.target) {
    case CALL_UNRESOLVED:
        return 1;
    case CALL_BUILTIN:
        if (builtin_reads_frame(e->call.builtin->id))
            return 1;
        break;
    case CALL_FUNCTION:
        if (w->depth >= CALL_DEPTH_MAX || body_reads_frame(w->script, e->call.function->decl->function.body, w->depth + 1))
            return 1;
        break;
    }
    return ast_expr_children(e, &(struct ast_visitor){expr_reads_frame, NULL, w});
}

/* Whether the value of e could differ between a call and the entry. Kinds
 * that lowering should have removed count as yes. */
static int expr_reads_frame(struct expr *e, void *ctx)
{
    struct frame_walk *w = ctx;
    switch (e->kind) {
    case EXPR_REGISTER:
        /* the load bias is found from the probed pc, so it counts too */
        return e->reg.number == STACK_POINTER_REG || e->reg.number >= DWARF_REG_IP;
    case EXPR_CALL:
        return call_reads_frame(w, e);
    case EXPR_TARGET: case EXPR_VAR: case EXPR_CAST: case EXPR_AUTOCAST: case EXPR_ENTRY: case EXPR_DEFINED:
        return 1;
    default:
        return ast_expr_children(e, &(struct ast_visitor){expr_reads_frame, NULL, w});
    }
}

static int stmt_reads_frame(struct stmt *st, void *ctx)
{
    if (st->kind == STMT_EMBEDDED)
        return 1;
    return ast_stmt_children(st, &(struct ast_visitor){expr_reads_frame, stmt_reads_frame, ctx});
}

static int body_reads_frame(const struct script *script, struct stmt *body, int depth)
{
    struct frame_walk w = {script, depth};
    return ast_stmt_list(body, &(struct ast_visitor){expr_reads_frame, stmt_reads_frame, &w});
}

/* A refused probe that stays where it is: why it cannot move either. */
static void refuse_move(struct sema *s, struct probe *probe, const char *why_not)
{
    probe->uprobe.refusal = arena_printf(s->arena, "%s; nor at its calls: %s", probe->uprobe.refusal, why_not);
}

/* The sites that may move: a function's entry the kernel single-steps or refuses. */
static struct uprobe_site *movable_site(struct sema *s, struct probe *probe)
{
    struct uprobe_site *site = probe_uprobe(probe)->site;
    if (!site || !site->out_of_line || !site->at_entry || site->is_return ||
        site->pc != site->function->entry || uprobe_insn_is_emulated(site->module, site->pc))
        return NULL;
    struct frame_walk handler = {s->script, 0};
    if (body_reads_frame(s->script, probe->body, 0) || (probe->condition && expr_reads_frame(probe->condition, &handler))) {
        if (probe->uprobe.refusal)
            refuse_move(s, probe, "the handler reads the stack pointer or the pc");
        else
            probe->uprobe.placement = "at the entry: the handler reads the stack pointer or the pc";
        return NULL;
    }
    return site;
}

static void apply(struct sema *s, struct probe *probe, const struct call_sites *found)
{
    struct uprobe_site *site = probe->uprobe.site;
    const char *entry = probe->uprobe.refusal ? "refused" : "single-stepped";
    if (!found->count) {
        if (probe->uprobe.refusal)
            refuse_move(s, probe, found->why_not);
        else
            probe->uprobe.placement = arena_printf(s->arena, "at the entry (single-stepped): not at its calls, %s",
                                            found->why_not);
        return;
    }
    probe->uprobe.site_count = found->count;
    probe->uprobe.site_vaddrs = found->vaddrs;
    probe->uprobe.site_offsets = arena_alloc(s->arena, sizeof(*probe->uprobe.site_offsets) * (size_t)found->count);
    for (int i = 0; i < found->count; i++)
        probe->uprobe.site_offsets[i] = dwarf_module_file_offset(site->module, found->vaddrs[i]);
    probe->uprobe.placement = arena_printf(s->arena, "at its %d call%s (the entry would be %s)", found->count,
                                    found->count == 1 ? "" : "s", entry);
    probe->uprobe.refusal = NULL;
}

static uint64_t entry_of(const struct probe *probe)
{
    return ((const struct uprobe_site *)probe->uprobe.site)->pc;
}

static int compare_entries(const void *a, const void *b)
{
    uint64_t x = entry_of(*(struct probe *const *)a), y = entry_of(*(struct probe *const *)b);
    return x < y ? -1 : x > y;
}

/* One module's movable probes, its functions analysed together (sorted by
 * entry: probes on one function share its result). */
static void place_in_module(struct sema *s, struct dwarf_module *m, struct probe **probes, int count)
{
    qsort(probes, (size_t)count, sizeof(*probes), compare_entries);
    struct call_sites *functions = arena_alloc(s->arena, sizeof(*functions) * (size_t)count);
    int function_count = 0;
    for (int i = 0; i < count; i++)
        if (i == 0 || entry_of(probes[i]) != entry_of(probes[i - 1]))
            functions[function_count++].entry = entry_of(probes[i]);
    call_sites_find(s->arena, m, functions, function_count);
    for (int i = 0, k = -1; i < count; i++) {
        if (i == 0 || entry_of(probes[i]) != entry_of(probes[i - 1]))
            k++;
        apply(s, probes[i], &functions[k]);
    }
}

/* Which probes the kernel would refuse where they sit (uprobe_insn.h). */
static void find_refusals(struct sema *s)
{
    if (s->options->no_insn_check)
        return;
    for (int i = 0; i < s->script->probe_count; i++) {
        struct probe *probe = s->script->probes[i];
        struct uprobe_site *site = probe_uprobe(probe)->site;
        /* at rets: sema_place_return_probes checked them; the entry matters for the entry program */
        if (site && !probe->uprobe.refusal &&
            (!probe->uprobe.at_returns || probe->entry_count || probe->uprobe.tail_count))
            probe->uprobe.refusal = uprobe_insn_refusal(s->arena, site->module, site->pc);
    }
}

/* A refused probe that found no calls to sit on: skipped with a warning
 * when a wildcard matched it, else an error naming it. */
static void report_refusals(struct sema *s)
{
    for (int i = 0; i < s->script->probe_count; i++) {
        struct probe *probe = s->script->probes[i];
        if (!probe_uprobe(probe)->refusal)
            continue;
        if (probe->may_skip)
            diag_warning(s->diags, probe->span, "skipping probe %s: %s", probe->point, probe->uprobe.refusal);
        else
            diag_error(s->diags, probe->span, "cannot probe %s: %s", probe->point, probe->uprobe.refusal);
    }
}

static void move_to_calls(struct sema *s)
{
    struct script *script = s->script;
    struct probe **movable = arena_alloc(s->arena, sizeof(*movable) * ((size_t)script->probe_count + 1));
    int *done = arena_alloc(s->arena, sizeof(*done) * ((size_t)script->probe_count + 1));
    struct uprobe_site **sites = arena_alloc(s->arena, sizeof(*sites) * ((size_t)script->probe_count + 1));
    for (int i = 0; i < script->probe_count; i++)
        sites[i] = movable_site(s, script->probes[i]);
    for (int i = 0; i < script->probe_count; i++) {
        if (!sites[i] || done[i])
            continue;
        int count = 0;
        for (int k = i; k < script->probe_count; k++) {
            if (sites[k] && !done[k] && sites[k]->module == sites[i]->module) {
                movable[count++] = script->probes[k];
                done[k] = 1;
            }
        }
        place_in_module(s, sites[i]->module, movable, count);
    }
}

void sema_place_entry_probes(struct sema *s)
{
    sema_place_return_probes(s);
    find_refusals(s);
    if (!s->options->entry_only)
        move_to_calls(s);
    else
        for (int i = 0; i < s->script->probe_count; i++)
            if (probe_uprobe(s->script->probes[i])->refusal)
                refuse_move(s, s->script->probes[i], "--no-call-sites keeps it at the entry");
    report_refusals(s);
}
