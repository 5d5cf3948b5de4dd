/* kernel.data(ADDRESS|"SYMBOL")[.length(N)].write|.rw and
 * process.data(ADDRESS)[.length(N)].write|.rw: SystemTap's hardware
 * breakpoints, as perf breakpoint events (PERF_TYPE_BREAKPOINT) whose
 * program runs just after each access (x86 traps after the instruction):
 * kernel.data's on every CPU, process.data's on the -c/-x target's task
 * (its own instructions' accesses, as gdb's watchpoints). */
#include <errno.h>
#include <linux/hw_breakpoint.h>
#include <linux/perf_event.h>
#include <stdlib.h>
#include <string.h>
#include <unistd.h>

#include <bpf/libbpf.h>

#include "kinds/kinds.h"
#include "program/program.h"
#include "runtime/attach.h"
#include "runtime/kernel.h"
#include "sema/sema_internal.h"

#define DEBUG_REGISTERS 4             /* x86's DR0-DR3 */
#define USER_ADDRESS_END 0x800000000000ull

static int refuse(struct sema *s, struct probe_point *point, const char *why)
{
    return sema_point_error(s, point, point->components->span, "%s", why);
}

static int watchpoint_count(const struct sema *s)
{
    int count = 0;
    for (int i = 0; i < s->script->probe_count; i++)
        count += s->script->probes[i]->kind == PROBE_WATCHPOINT;
    return count;
}

/* kernel.data("NAME"): its address in /proc/kallsyms now (found again at
 * attach); 0 after an error. */
static int kernel_symbol(struct sema *s, struct probe_point *point, const char *text, const char *name,
                         uint64_t *address)
{
    int lists_data = 0;
    if (kernel_symbol_address(name, address, &lists_data) != 0)
        return refuse(s, point, arena_printf(s->arena, "probe point %s: no kernel symbol %s in /proc/kallsyms%s",
                                             text, name, lists_data ? "" : " (it lists no data symbols: this "
                                             "kernel is built without CONFIG_KALLSYMS_ALL; give its address, "
                                             "from the kernel's System.map)"));
    if (!*address)
        return refuse(s, point, arena_printf(s->arena, "probe point %s: /proc/kallsyms shows no addresses to "
                                             "users without CAP_SYSLOG: run tap as root", text));
    return 1;
}

/* The point's parts: the address or symbol, the length, the access. */
static int read_point(struct sema *s, struct probe_point *point, const char *text, struct perf_probe *bp)
{
    const char *forms = "kernel.data(ADDRESS)[.length(N)].write|.rw, kernel.data(\"SYMBOL\")[.length(N)].write|.rw or "
                        "process.data(ADDRESS)[.length(N)].write|.rw";
    const struct probe_component *data = point->components->next, *c = data->next;
    if (point->components->arg_kind != PROBE_ARG_NONE || data->arg_kind == PROBE_ARG_NONE)
        return refuse(s, point, arena_printf(s->arena, "probe point %s: watchpoints are %s", text, forms));
    bp->bp_length = HW_BREAKPOINT_LEN_1;   /* SystemTap's default */
    if (c && strcmp(c->name, "length") == 0) {
        if (c->arg_kind != PROBE_ARG_INT || (c->arg_int != 1 && c->arg_int != 2 && c->arg_int != 4 && c->arg_int != 8))
            return sema_point_error(s, point, c->span, "probe point %s: .length takes 1, 2, 4 or 8 (the bytes an "
                                    "x86 debug register watches)", text);
        bp->bp_length = (uint32_t)c->arg_int;
        c = c->next;
    }
    if (!c || c->next || c->arg_kind != PROBE_ARG_NONE || (strcmp(c->name, "write") != 0 && strcmp(c->name, "rw") != 0))
        return refuse(s, point, arena_printf(s->arena, "probe point %s: a watchpoint ends in .write or .rw "
                                             "(x86 cannot watch reads alone): %s", text, forms));
    bp->bp_access = c->name[0] == 'w' ? HW_BREAKPOINT_W : HW_BREAKPOINT_RW;
    bp->bp_address = data->arg_kind == PROBE_ARG_INT ? (uint64_t)data->arg_int : 0;
    bp->bp_symbol = data->arg_kind == PROBE_ARG_STRING ? data->arg_string : NULL;
    return 1;
}

/* The point as written, its address in hex: pp() and the errors (SystemTap's
 * pp() has the address so). */
static const char *written_text(struct sema *s, const struct probe_point *point)
{
    const char *text = "";
    for (const struct probe_component *c = point->components; c; c = c->next) {
        const char *arg = c->arg_kind == PROBE_ARG_STRING ? arena_printf(s->arena, "(\"%s\")", c->arg_string)
                        : c->arg_kind != PROBE_ARG_INT ? ""
                        : c == point->components->next
                            ? arena_printf(s->arena, "(0x%llx)", (unsigned long long)c->arg_int)
                            : arena_printf(s->arena, "(%lld)", (long long)c->arg_int);
        text = arena_printf(s->arena, "%s%s%s%s", text, *text ? "." : "", c->name, arg);
    }
    return text;
}

static int resolve_watchpoint(struct sema *s, struct probe_point *point, struct probe *probe)
{
    const char *text = written_text(s, point);
    int kernel = strcmp(point->components->name, "kernel") == 0;
    struct perf_probe *bp = &probe->perf;
    if (!read_point(s, point, text, bp))
        return 0;
    if (access("/sys/bus/event_source/devices/breakpoint", F_OK) != 0)
        return refuse(s, point, arena_printf(s->arena, "probe point %s: this kernel has no hardware breakpoint "
                                             "events (no /sys/bus/event_source/devices/breakpoint)", text));
    if (!kernel && bp->bp_symbol)
        return refuse(s, point, arena_printf(s->arena, "probe point %s: process.data takes an address (`nm` "
                                             "gives a non-PIE program's): a name is placed only once the "
                                             "program runs", text));
    if (!kernel && !s->options->target_command && s->options->target_pid <= 0 && !s->options->compile_only)
        return refuse(s, point, arena_printf(s->arena, "probe point %s: process.data watches the memory of the "
                                             "target: run it with -c CMD or -x PID", text));
    if (!kernel && bp->bp_address >= USER_ADDRESS_END)
        return refuse(s, point, arena_printf(s->arena, "probe point %s: 0x%llx is a kernel address: watch it "
                                             "with kernel.data", text, (unsigned long long)bp->bp_address));
    uint64_t address = bp->bp_address;
    if (bp->bp_symbol && !kernel_symbol(s, point, text, bp->bp_symbol, &address))
        return 0;
    if (address % bp->bp_length)
        return refuse(s, point, arena_printf(s->arena, "probe point %s: 0x%llx is not aligned to its length, %u "
                                             "(x86 debug registers watch aligned bytes)", text,
                                             (unsigned long long)address, bp->bp_length));
    if (watchpoint_count(s) == DEBUG_REGISTERS)
        return refuse(s, point, arena_printf(s->arena, "probe point %s: more than %d watchpoints: x86 has %d "
                                             "debug registers", text, DEBUG_REGISTERS, DEBUG_REGISTERS));
    bp->per_target = !kernel;
    probe->point = text;
    probe->may_skip = point->optional;
    sema_add_probe(s, probe);
    return 1;
}

static void catalogue(struct arena *arena, catalogue_line add, void *lines)
{
    static const char *const heads[] = {"kernel.data(number)", "kernel.data(number).length(number)",
                                        "kernel.data(string)", "kernel.data(string).length(number)",
                                        "process.data(number)",
                                        "process.data(number).length(number)"};
    for (size_t i = 0; i < sizeof(heads) / sizeof(*heads); i++) {
        add(lines, arena_printf(arena, "%s.rw", heads[i]));
        add(lines, arena_printf(arena, "%s.write", heads[i]));
    }
}

static const char *section(struct arena *arena, const struct probe *probe)
{
    (void)arena;
    (void)probe;
    return "perf_event";
}

/* Its program_probe's own fields: the breakpoint. */
struct watchpoint_program_fields {
    uint64_t address;
    uint32_t length, access;
    int per_target;          /* process.data: on the -c/-x target's task */
    char *symbol;            /* kernel.data("NAME"): looked up at attach */
};

static const struct program_fields program_fields = PROGRAM_FIELDS(struct watchpoint_program_fields,
    PROGRAM_FIELD(U64, struct watchpoint_program_fields, address),
    PROGRAM_FIELD(U32, struct watchpoint_program_fields, length),
    PROGRAM_FIELD(U32, struct watchpoint_program_fields, access),
    PROGRAM_FIELD(INT, struct watchpoint_program_fields, per_target),
    PROGRAM_FIELD(STRING, struct watchpoint_program_fields, symbol));

static void describe(const struct probe *probe, const struct program_probe *previous, struct program_probe *out)
{
    (void)previous;
    struct watchpoint_program_fields *fields = calloc(1, sizeof(*fields));
    fields->address = probe->perf.bp_address;
    fields->length = probe->perf.bp_length;
    fields->access = probe->perf.bp_access;
    fields->per_target = probe->perf.per_target;
    fields->symbol = probe->perf.bp_symbol ? strdup(probe->perf.bp_symbol) : NULL;
    out->kind_fields = fields;
}

static int attach_watchpoint(struct session *s, struct bpf_program *prog, int index, char *state)
{
    (void)state;
    const struct program_probe *probe = &s->program->probes[index];
    const struct watchpoint_program_fields *fields = probe->kind_fields;
    uint64_t address = fields->address;
    if (fields->symbol && (kernel_symbol_address(fields->symbol, &address, NULL) != 0 || !address))
        return -ENXIO;
    /* as the kernel's hw_breakpoint_init: every access, always on */
    struct perf_event_attr attr = {
        .type = PERF_TYPE_BREAKPOINT, .size = sizeof(attr), .sample_period = 1, .pinned = 1,
        .bp_type = fields->access, .bp_addr = address, .bp_len = fields->length,
    };
    if (!fields->per_target)
        return attach_every_cpu(s, prog, probe, &attr);
    /* the program's own accesses, as ptrace's (gdb's) watchpoints: not the
     * kernel's, which for a -c command start with exec zeroing its .bss */
    attr.exclude_kernel = 1;
    return attach_perf_on_target(s, prog, probe, &attr);
}

static const char *attach_error(const struct program_probe *probe, int err)
{
    const struct watchpoint_program_fields *fields = probe->kind_fields;
    if (err == -ENOSPC)
        return "no debug register is free (x86 has 4; a debugger, perf or another tracer holds the others)";
    if (err == -ENXIO && fields->symbol)
        return "the symbol is no longer in /proc/kallsyms";
    if (err == -EINVAL)
        return "the kernel refused the breakpoint: its address is not one it can watch";
    return NULL;
}

const struct probe_kind_ops watchpoint_kind = {
    .kind = PROBE_WATCHPOINT, .name = "watchpoint", .flags = KIND_FREQUENT | KIND_SAMPLE_REGS,
    .probe_fields = PROBE_FIELDS_PERF,
    .heads = (const char *const[]){"kernel.data", "process.data", NULL}, .resolve = resolve_watchpoint,
    .catalogue = catalogue, .section = section, .describe = describe, .program_fields = &program_fields,
    .prog_type = BPF_PROG_TYPE_PERF_EVENT, .attach = attach_watchpoint, .attach_error = attach_error,
};
