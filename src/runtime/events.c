/* Records from the BPF side: printf records rendered with the formats
 * compiled once at startup, exit and error records from the control ring.
 * Output is collected in one buffer and written once per poll batch. */
#include <errno.h>
#include <inttypes.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <unistd.h>

#include <bpf/bpf.h>
#include <bpf/libbpf.h>

#include "base/format.h"
#include "runtime/session.h"

/* libbpf 1.1's consume() loops as long as producers keep up: stop after a
 * batch so a flood cannot starve signals or grow the output without bound. */
#define BATCH_RECORDS 4096
#define FLUSH_BYTES (64 * 1024)

/* A raw_tp program may read up to 12 arguments from its context. */
#define RAW_TP_CTX_SIZE (12 * sizeof(uint64_t))

void append_json_string(struct strbuf *out, const char *s, size_t n)
{
    strbuf_putc(out, '"');
    for (size_t i = 0; i < n; i++) {
        unsigned char c = (unsigned char)s[i];
        if (c == '"' || c == '\\') {
            strbuf_putc(out, '\\');
            strbuf_putc(out, (char)c);
        } else if (c == '\n') {
            strbuf_puts(out, "\\n");
        } else if (c == '\t') {
            strbuf_puts(out, "\\t");
        } else if (c < 0x20) {
            strbuf_printf(out, "\\u%04x", c);
        } else {
            strbuf_putc(out, (char)c);
        }
    }
    strbuf_putc(out, '"');
}

static int on_printf(struct session *s, uint32_t id, const void *data, size_t size)
{
    struct format_value values[64];
    const struct program_format *format;

    if (id >= (uint32_t)s->program->format_count)
        return 0;
    format = &s->program->formats[id];
    if (format->arg_count > 64 || record_decode(format, data, size, values) < 0)
        return 0;
    if (!s->options->json) {
        format_render(&s->out, &s->formats[id], values);
    } else {
        struct strbuf text;
        strbuf_init(&text);
        format_render(&text, &s->formats[id], values);
        strbuf_puts(&s->out, "{\"type\":\"printf\",\"data\":");
        append_json_string(&s->out, text.data ? text.data : "", text.len);
        strbuf_puts(&s->out, "}\n");
        strbuf_free(&text);
    }
    if (s->out.len >= FLUSH_BYTES)
        session_flush(s);
    /* the record is consumed either way: a negative return only stops the batch */
    return ++s->batch_records >= BATCH_RECORDS ? -EAGAIN : 0;
}

static void drain_events(struct session *s)
{
    do
        s->batch_records = 0;
    while (ring_buffer__consume(s->events) == -EAGAIN);
}

/* The message may hold one %llx or %lld for the value: substituted by hand,
 * since it is not ours to trust as a printf format. */
static void append_error_message(struct strbuf *line, const char *message, int64_t value)
{
    const char *hex = strstr(message, "%llx"), *dec = strstr(message, "%lld");
    const char *hole = hex ? hex : dec;
    if (!hole) {
        strbuf_puts(line, message);
        return;
    }
    strbuf_append(line, message, (size_t)(hole - message));
    if (hex)
        strbuf_printf(line, "%" PRIx64, (uint64_t)value);
    else
        strbuf_printf(line, "%" PRId64, value);
    strbuf_puts(line, hole + 4);
}

/* error("...") sends its text after the record. */
static void append_error_text(struct strbuf *line, const void *data, size_t size)
{
    const char *text = (const char *)data + sizeof(struct record_error);
    size_t max = size > sizeof(struct record_error) ? size - sizeof(struct record_error) : 0;
    strbuf_append(line, text, strnlen(text, max));
}

/* warn(msg): "WARNING: msg" on stderr, after the output that preceded it. */
static void on_warning(struct session *s, const void *data, size_t size)
{
    struct strbuf line;
    strbuf_init(&line);
    strbuf_puts(&line, "WARNING: ");
    const char *text = (const char *)data + sizeof(struct record_header);
    strbuf_append(&line, text, strnlen(text, size - sizeof(struct record_header)));
    strbuf_putc(&line, '\n');
    session_flush(s);
    if (write(STDERR_FILENO, line.data, line.len) < 0) {
        /* nowhere left to report it */
    }
    strbuf_free(&line);
}

static void on_error(struct session *s, uint32_t id, const void *data, size_t size)
{
    struct record_error record = { 0 };
    struct strbuf line;

    memcpy(&record, data, size < sizeof(record) ? size : sizeof(record));
    strbuf_init(&line);
    strbuf_puts(&line, "ERROR: ");
    if (id < (uint32_t)s->program->error_count) {
        const struct program_error *e = &s->program->errors[id];
        if (!e->message)
            append_error_text(&line, data, size);
        else
            append_error_message(&line, e->message, record.value);
        strbuf_printf(&line, " near %s\n", e->location);
    } else {
        strbuf_printf(&line, "unknown runtime error %u\n", id);
    }
    /* the output that preceded it first, then the error (only tap_events:
     * this runs inside the control ring's consume) */
    drain_events(s);
    session_flush(s);
    if (write(STDERR_FILENO, line.data, line.len) < 0) {
        /* nowhere left to report it */
    }
    strbuf_free(&line);
    s->runtime_errors++;
    if (s->runtime_errors > s->program->max_errors && (s->end == SESSION_RUNNING || s->end == SESSION_END_EXIT))
        s->end = SESSION_END_ERROR;   /* past MAXERRORS, as the BPF side decided */
}

void session_report_error(struct session *s, uint32_t id, int64_t value)
{
    struct record_error record = {.header = {RECORD_ERROR, id}, .value = value};
    on_error(s, id, &record, sizeof(record));
}

static int on_record(void *ctx, void *data, size_t size)
{
    struct session *s = ctx;
    struct record_header header;

    if (size < sizeof(header))
        return 0;
    memcpy(&header, data, sizeof(header));
    switch (header.kind) {
    case RECORD_PRINTF:
        return on_printf(s, header.id, data, size);
    case RECORD_EXIT:
        if (s->end == SESSION_RUNNING)
            s->end = SESSION_END_EXIT;
        return 0;
    case RECORD_ERROR:
        on_error(s, header.id, data, size);
        return 0;
    case RECORD_WARN:
        on_warning(s, data, size);
        return ++s->batch_records >= BATCH_RECORDS ? -EAGAIN : 0;
    case RECORD_COMMAND:
        session_command(s, header.id, data, size);
        return ++s->batch_records >= BATCH_RECORDS ? -EAGAIN : 0;
    case RECORD_PROCFS:
        session_procfs_value(s, header.id, data, size);
        return 0;
    case RECORD_ABORT:
        s->end = SESSION_END_ABORT;
        return 0;
    case RECORD_HIST:
        session_print_hist(s, header.id, data, size);
        return ++s->batch_records >= BATCH_RECORDS ? -EAGAIN : 0;
    case RECORD_USTACK: case RECORD_KSTACK:
        session_print_stack(s, header.kind, header.id, data, size);
        return ++s->batch_records >= BATCH_RECORDS ? -EAGAIN : 0;
    }
    return 0;
}

static int compile_formats(struct session *s)
{
    const struct program *p = s->program;

    s->formats = calloc(p->format_count ? p->format_count : 1, sizeof(*s->formats));
    if (!s->formats)
        return -1;
    for (int i = 0; i < p->format_count; i++) {
        char error[256];
        size_t offset;
        if (format_compile(p->formats[i].format, &s->formats[i], error, sizeof(error),
                           &offset) < 0 ||
            s->formats[i].arg_count != p->formats[i].arg_count) {
            fprintf(stderr, "ERROR: internal: format %d (\"%s\") does not match its record\n",
                    i, p->formats[i].format);
            return -1;
        }
    }
    return 0;
}

int session_open_events(struct session *s)
{
    struct bpf_map *events = bpf_object__find_map_by_name(s->object, "tap_events");
    struct bpf_map *control = bpf_object__find_map_by_name(s->object, "tap_control");

    if (compile_formats(s) < 0)
        return -1;
    s->events = ring_buffer__new(bpf_map__fd(events), on_record, s, NULL);
    s->control = s->events ? ring_buffer__new(bpf_map__fd(control), on_record, s, NULL) : NULL;
    if (!s->events || !s->control) {
        fprintf(stderr, "ERROR: cannot open the ring buffers: %s\n", strerror(errno));
        return -1;
    }
    return 0;
}

/* One bounded batch of output, then every control record. Returns 1 when
 * the batch was cut short (more records are waiting), else 0. */
int session_drain(struct session *s)
{
    s->batch_records = 0;
    int cut = ring_buffer__consume(s->events) == -EAGAIN;
    ring_buffer__consume(s->control);
    return cut;
}

/* Everything queued (handlers have stopped, or an error needs the output
 * that preceded it). */
void session_drain_all(struct session *s)
{
    drain_events(s);
    ring_buffer__consume(s->control);
}

int session_flush(struct session *s)
{
    size_t done = 0;

    while (done < s->out.len) {
        ssize_t n = write(s->out_fd, s->out.data + done, s->out.len - done);
        if (n < 0 && errno == EINTR)
            continue;
        if (n <= 0)
            break;   /* EPIPE and the like: the reader is gone, drop the output */
        done += (size_t)n;
    }
    strbuf_reset(&s->out);
    return 0;
}

static int compare_probes(const void *a, const void *b, void *arg)
{
    const struct program *p = arg;
    int i = *(const int *)a, j = *(const int *)b;
    if (p->probes[i].order != p->probes[j].order)
        return p->probes[i].order < p->probes[j].order ? -1 : 1;
    return i - j;
}

/* begin, end and error probes: raw_tp programs run once each, in (order,
 * script order), draining the rings after each so output keeps its order.
 * exit() or an error in a begin probe skips the remaining begin probes. */
int session_run_probes(struct session *s, enum probe_run when)
{
    return session_run_probes_on(s, when, NULL, 0);
}

/* The probes the runtime runs at `when`, with data (NULL: none) at the
 * start of their context: procfs("__stdin").write gets its byte there. */
int session_run_probes_on(struct session *s, enum probe_run when, const void *data, size_t size)
{
    const struct program *p = s->program;
    int *order = malloc((p->probe_count ? p->probe_count : 1) * sizeof(int));
    int n = 0;

    if (!order)
        return -1;
    for (int i = 0; i < p->probe_count; i++) {
        if (probe_kind_ops(p->probes[i].kind)->runs == when)
            order[n++] = i;
    }
    qsort_r(order, n, sizeof(int), compare_probes, (void *)p);
    for (int k = 0; k < n; k++) {
        if ((when == RUN_AT_BEGIN && s->end != SESSION_RUNNING) || s->end == SESSION_END_ABORT)
            break;
        session_run_probe(s, &p->probes[order[k]], data, size);
    }
    free(order);
    return 0;
}

void session_run_probe(struct session *s, const struct program_probe *probe, const void *data, size_t size)
{
    char ctx[RAW_TP_CTX_SIZE] = { 0 };
    struct bpf_program *prog = bpf_object__find_program_by_name(s->object, probe->prog_name);
    LIBBPF_OPTS(bpf_test_run_opts, opts, .ctx_in = ctx, .ctx_size_in = sizeof(ctx));

    if (data)
        memcpy(ctx, data, size < sizeof(ctx) - 1 ? size : sizeof(ctx) - 1);
    if (s->end == SESSION_END_ABORT)
        return;
    if (bpf_prog_test_run_opts(bpf_program__fd(prog), &opts) < 0)
        fprintf(stderr, "ERROR: cannot run probe %s: %s\n", probe->point, strerror(errno));
    session_drain_all(s);
}

/* Globals the script writes but never reads, as stap prints them, in
 * declaration order (arrays and statistics through maps_print.c). */
static void print_scalar(struct session *s, const struct program_global *g)
{
    const char *value = s->data + g->offset;

    if (!g->print_at_end || (size_t)g->offset + g->size > s->data_size)
        return;
    if (s->options->json) {
        strbuf_puts(&s->out, "{\"type\":\"global\",\"name\":");
        append_json_string(&s->out, g->name, strlen(g->name));
        strbuf_puts(&s->out, ",\"value\":");
        if (g->kind == PROGRAM_GLOBAL_LONG) {
            int64_t v;
            memcpy(&v, value, sizeof(v));
            strbuf_printf(&s->out, "%" PRId64, v);
        } else {
            append_json_string(&s->out, value, strnlen(value, g->size));
        }
        strbuf_puts(&s->out, "}\n");
    } else if (g->kind == PROGRAM_GLOBAL_LONG) {
        int64_t v;
        memcpy(&v, value, sizeof(v));
        strbuf_printf(&s->out, "%s=%" PRId64 "\n", g->name, v);
    } else {
        strbuf_printf(&s->out, "%s=", g->name);
        strbuf_quote(&s->out, value, strnlen(value, g->size));
        strbuf_putc(&s->out, '\n');
    }
}

void session_print_globals(struct session *s)
{
    int last = -1;
    for (int i = 0; i < s->program->global_count; i++)
        if (s->program->globals[i].decl_index > last)
            last = s->program->globals[i].decl_index;
    for (int i = 0; i < s->program->map_count; i++)
        if (s->program->maps[i].decl_index > last)
            last = s->program->maps[i].decl_index;
    for (int d = 0; d <= last; d++) {
        for (int i = 0; i < s->program->global_count; i++)
            if (s->program->globals[i].decl_index == d)
                print_scalar(s, &s->program->globals[i]);
        session_print_maps_at(s, d);
    }
}

void session_report_losses(struct session *s)
{
    uint64_t errors = s->state->error_count;
    uint64_t skipped = s->state->skipped_probes;
    uint64_t lost = s->state->lost_events;

    if (errors < (uint64_t)s->runtime_errors)
        errors = (uint64_t)s->runtime_errors;
    if (lost && s->options->json)
        strbuf_printf(&s->out, "{\"type\":\"lost\",\"count\":%" PRIu64 "}\n", lost);
    session_flush(s);
    if (errors || skipped || lost)
        fprintf(stderr,
                "WARNING: Number of errors: %" PRIu64 ", skipped probes: %" PRIu64
                ", lost events: %" PRIu64 "\n",
                errors, skipped, lost);
}
