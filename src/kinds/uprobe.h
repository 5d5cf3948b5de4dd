/* kinds/uprobe.c's hooks, shared with the kinds that are uprobes at other
 * places (kinds/plt.c: PLT stubs): how a uprobe or uretprobe is generated,
 * loaded, attached and checked. */
#ifndef TAP_KINDS_UPROBE_H
#define TAP_KINDS_UPROBE_H

#include <stddef.h>

#include <bpf/bpf.h>

#include "kinds/kinds.h"

struct arena;

/* the descriptors' flags: at an instruction, and at a function's return */
#define UPROBE_FLAGS (KIND_USER_PROCESS | KIND_FREQUENT | KIND_UPROBE_MULTI | KIND_REGS_AT_PROBED_PC)
#define URETPROBE_FLAGS (KIND_USER_PROCESS | KIND_FREQUENT | KIND_UPROBE_MULTI | KIND_AT_RETURN | KIND_RETURN_PROBE)

extern const struct program_fields uprobe_program_fields;
const char *uprobe_hook_section(struct arena *arena, const struct probe *probe);
void uprobe_hook_describe(const struct probe *probe, const struct program_probe *previous, struct program_probe *out);
int uprobe_hook_check_run(const struct program_probe *probe, char *error, size_t error_size);
int uprobe_hook_attach(struct session *s, struct bpf_program *prog, int index, char *state);
const char *uprobe_hook_attach_error(const struct program_probe *probe, int err);
enum register_place uprobe_hook_register_place(const struct sema *s);

/* A descriptor's fields from .section to .check_run, a uprobe's (the
 * return ones ask KIND_AT_RETURN). */
#define UPROBE_LOAD_AND_ATTACH                                                                      \
    .probe_fields = PROBE_FIELDS_UPROBE, .entry_kind = PROBE_UPROBE, .section = uprobe_hook_section, \
    .describe = uprobe_hook_describe, .program_fields = &uprobe_program_fields,                    \
    .prog_type = BPF_PROG_TYPE_KPROBE, .attach = uprobe_hook_attach,                               \
    .attach_error = uprobe_hook_attach_error, .check_run = uprobe_hook_check_run

#endif
