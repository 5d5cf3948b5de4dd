/* What the symbol, unwind and line maps share: after load, and again as
 * processes map more files (dlopen), the files not written yet are built
 * and written, while the maps have room (session.h, struct file_tables). */
#include <errno.h>
#include <stdio.h>
#include <string.h>
#include <time.h>

#include "runtime/session.h"

int session_fill_file_tables(struct session *s, const struct file_tables *t)
{
    if (!t->used(s))
        return 0;
    if (t->write_new(s) < 0) {
        fprintf(stderr, "ERROR: cannot fill the %s tables: %s\n", t->what, strerror(errno));
        return -1;
    }
    return 0;
}

void session_refresh_file_tables(struct session *s, const struct file_tables *t)
{
    if (!s->symbols || !t->used(s))
        return;
    t->build(s);
    t->write_new(s);   /* a failure leaves the file as it was before: hex addresses, frame pointers */
}

/* The wanted maps (files BPF met without tables) are read at most every
 * period_ns: whether that much has passed since *last_ns (then now). */
int session_wanted_due(uint64_t *last_ns, uint64_t period_ns)
{
    struct timespec now;
    clock_gettime(CLOCK_MONOTONIC, &now);
    uint64_t now_ns = (uint64_t)now.tv_sec * 1000000000ull + (uint64_t)now.tv_nsec;
    if (now_ns - *last_ns < period_ns)
        return 0;
    *last_ns = now_ns;
    return 1;
}
