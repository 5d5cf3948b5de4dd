/* Turning a verifier log into one readable reason. The log ends with the
 * rejection, then statistics; with .BTF.ext line info it also carries "; "
 * source lines, whose last one says where in the script the problem is. */
#include <stdio.h>
#include <string.h>

#include "runtime/session.h"

struct line { const char *text; size_t len; };

static int starts_with(struct line l, const char *prefix)
{
    size_t n = strlen(prefix);
    return l.len >= n && memcmp(l.text, prefix, n) == 0;
}

static int is_trailer(struct line l)
{
    return l.len == 0 || starts_with(l, "processed ") || starts_with(l, "verification time") ||
           starts_with(l, "stack depth") || starts_with(l, "-- END");
}

/* "12: (85) call ..." and "12: R1=..." lines trace the walk, not the reason. */
static int is_trace(struct line l)
{
    size_t i = 0;
    while (i < l.len && l.text[i] >= '0' && l.text[i] <= '9')
        i++;
    return (i > 0 && i < l.len && l.text[i] == ':') || starts_with(l, "func#") ||
           starts_with(l, "from ") || starts_with(l, "; ");
}

static struct line previous_line(const char *log, const char *end)
{
    /* end points at the '\n' ending the wanted line (or the log's end) */
    const char *start = end;
    while (start > log && start[-1] != '\n')
        start--;
    return (struct line){ start, (size_t)(end - start) };
}

void verifier_log_summary(const char *log, char *out, size_t out_size)
{
    enum { TRAILER, REASON, SOURCE } phase = TRAILER;
    const char *end = log + strlen(log);
    struct line reason[2] = { { NULL, 0 }, { NULL, 0 } };   /* last line first */
    struct line source = { NULL, 0 };
    int count = 0;

    out[0] = '\0';
    while (end > log && !source.text) {
        struct line l = previous_line(log, end);
        end = l.text > log ? l.text - 1 : log;
        if (phase == TRAILER) {
            if (is_trailer(l))
                continue;
            phase = REASON;
        }
        if (phase == REASON) {
            if (count < 2 && l.len > 0 && !is_trace(l)) {
                reason[count++] = l;
                continue;
            }
            phase = SOURCE;
        }
        if (starts_with(l, "; "))
            source = (struct line){ l.text + 2, l.len - 2 };
    }
    if (!reason[0].text) {
        snprintf(out, out_size, "(no verifier log)");
        return;
    }
    if (reason[1].text)
        snprintf(out, out_size, "%.*s: %.*s", (int)reason[1].len, reason[1].text,
                 (int)reason[0].len, reason[0].text);
    else
        snprintf(out, out_size, "%.*s", (int)reason[0].len, reason[0].text);
    if (source.text) {
        size_t n = strlen(out);
        snprintf(out + n, out_size - n, " (near: %.*s)", (int)source.len, source.text);
    }
}
