/* process.syscall[.return], .begin, .end, .thread.begin, .thread.end, for
 * every process, process(PID) or process("PATH"): SystemTap's variables and
 * process filter over the tapset's aliases. */
#ifndef TAP_SEMA_PROCESS_EVENTS_H
#define TAP_SEMA_PROCESS_EVENTS_H

#include "sema/sema.h"

struct sema;

/* process[(PID|"PATH")].syscall[.return], .begin, .end, .thread.begin,
 * .thread.end */
int sema_is_process_event(const struct probe_point *point);
/* A point that names .begin, .end, .thread or .syscall wrongly: reports it,
 * returns 1. */
int sema_bad_process_event(struct sema *s, struct probe_point *point);
/* Adds the probes; returns how many, 0 after an error. */
int sema_resolve_process_event(struct sema *s, struct probe_point *point, struct stmt *body);

#endif
