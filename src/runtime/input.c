/* tap's standard input for procfs("__stdin").write (input.char and
 * input.line): each byte read runs those probes, in order, once begin has
 * run. A pipe or terminal is read as it becomes readable; a regular file
 * (which epoll refuses) is read whole when the loop starts. At the end of
 * the input the probes just stop firing; the session goes on. */
#include <errno.h>
#include <sys/epoll.h>
#include <unistd.h>

#include "runtime/session.h"

int session_reads_input(const struct session *s)
{
    for (int i = 0; i < s->program->probe_count; i++)
        if (probe_kind_ops(s->program->probes[i].kind)->runs == RUN_PER_INPUT_BYTE)
            return 1;
    return 0;
}

/* One read's worth (blocking is fine: epoll said there is something, or
 * it is a file); returns 0 at the end of the input or on an error. */
int session_read_input(struct session *s)
{
    char buf[4096];
    ssize_t n;
    do
        n = read(STDIN_FILENO, buf, sizeof(buf));
    while (n < 0 && errno == EINTR);
    for (ssize_t i = 0; i < n && s->end == SESSION_RUNNING; i++) {
        char byte[2] = {buf[i], 0};
        session_run_probes_on(s, RUN_PER_INPUT_BYTE, byte, sizeof(byte));
    }
    return n > 0;
}
