/* Turning a verifier log into one readable reason. The log ends with the
 * rejection, then statistics; with .BTF.ext line info it also carries "; "
 * source lines, whose last one says where in the script the problem is, and
 * before the reason the instruction it stopped at. */
#include <stdio.h>
#include <stdlib.h>
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

void verifier_log_summary(const char *log, int with_source, char *out, size_t out_size)
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
    if (source.text && with_source) {
        size_t n = strlen(out);
        snprintf(out + n, out_size - n, " (near: %.*s)", (int)source.len, source.text);
    }
}

int verifier_log_failed_insn(const char *log)
{
    const char *end = log + strlen(log);
    while (end > log) {
        struct line l = previous_line(log, end);
        end = l.text > log ? l.text - 1 : log;
        if (is_trace(l) && l.len > 0 && l.text[0] >= '0' && l.text[0] <= '9') {
            const char *colon = memchr(l.text, ':', l.len);
            /* "12: (85) call ..." executes insn 12; "12: R1=..." only states */
            if (colon && (size_t)(colon - l.text) + 3 < l.len && colon[1] == ' ' && colon[2] == '(')
                return atoi(l.text);
        }
    }
    return -1;
}

/* Reasons a script can cause, by the start of the verifier's words. */
static const struct { const char *reason, *hint; } hints[] = {
    { "invalid func unknown#", "this kernel lacks a BPF helper the script needs: avoid that "
                               "function here or run on a newer kernel" },
    { "unknown func ", "this kernel lacks a BPF helper the script needs: avoid that "
                       "function here or run on a newer kernel" },
    { "BPF program is too large", "the handler is too big: split it into smaller probes "
                                  "or functions, or lower -D MAXSTRINGLEN" },
    { "The sequence of ", "the handler has too many paths for the verifier: split it into "
                          "smaller probes or move branches into loops" },
    { "combined stack size", "functions nest too deeply: lower -D MAXNESTING or call fewer "
                             "functions from one another" },
    { "back-edge", "a loop the verifier cannot bound: report it as a tap bug" },
};

const char *verifier_hint(const char *summary)
{
    for (size_t i = 0; i < sizeof(hints) / sizeof(hints[0]); i++) {
        if (strstr(summary, hints[i].reason))
            return hints[i].hint;
    }
    return "tap generated code this kernel does not accept: run with -v for the verifier "
           "log and report it as a tap bug";
}
