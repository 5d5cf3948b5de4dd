/* process.syscall[.return], process(PID).syscall, process("PATH").syscall:
 * SystemTap's variables and process filter over the tapset's aliases. */
#ifndef TAP_SEMA_PROCESS_EVENTS_H
#define TAP_SEMA_PROCESS_EVENTS_H

#include "sema/sema.h"

struct sema;

int sema_is_process_syscall(const struct probe_point *point);
/* Adds the probes; returns how many, 0 after an error. */
int sema_resolve_process_syscall(struct sema *s, struct probe_point *point, struct stmt *body);

#endif
