/* What the probe kinds' attach hooks (kinds/) share: the session's
 * links, perf events, and how a probe that fails to attach is reported. */
#ifndef TAP_RUNTIME_ATTACH_H
#define TAP_RUNTIME_ATTACH_H

#include <stdint.h>

#include "runtime/session.h"

struct perf_event_attr;

/* The kernel's errno for an instruction uprobes refuse; user space's
 * errno.h does not have it. */
#define ENOTSUPP 524

/* Each probe's state during session_attach (the hooks' `state` array). */
enum attach_state { PROBE_PENDING, PROBE_CLAIMED, PROBE_FAILED };

/* The session owns the link (libbpf's) or the link fd (a raw BPF link). */
int add_link(struct session *s, struct bpf_link *link);
int add_raw_link(struct session *s, int fd);
/* Opens the perf event on one CPU (or all online CPUs) and attaches the
 * program; 0 or -errno. */
int attach_perf_event(struct session *s, struct bpf_program *prog, const struct program_probe *probe,
                      struct perf_event_attr *attr, int cpu);
int attach_perf_fd(struct session *s, struct bpf_program *prog, const struct program_probe *probe, int fd);
int attach_every_cpu(struct session *s, struct bpf_program *prog, const struct program_probe *probe,
                     struct perf_event_attr *attr);
/* ATTACH_NO_TARGET: there is no -c/-x target to open it on (not an errno). */
enum { ATTACH_NO_TARGET = -4096 };
/* Opens the event on the -c/-x target's task (enabled at the -c child's
 * exec): the fd, ATTACH_NO_TARGET, or -errno. */
int open_perf_on_target(struct session *s, struct perf_event_attr *attr);
int attach_perf_on_target(struct session *s, struct bpf_program *prog, const struct program_probe *probe,
                          struct perf_event_attr *attr);
void perf_event_sampling(struct perf_event_attr *attr, uint64_t period, uint64_t frequency);
/* An errno that belongs to one offset of a wildcard's probes (skippable). */
int is_offset_error(int err);
/* Reports probe i's failure: 0 when it is skipped with a warning, -1 when
 * the session must end. */
int attach_failed(struct session *s, char *state, int i, int err);

#endif
