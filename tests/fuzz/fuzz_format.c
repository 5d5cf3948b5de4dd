/* libFuzzer harness: printf formats (format_compile, then format_render with
 * values taken from the input) and histograms (hist_print_log/linear with
 * fuzzed counts, ranges and elision).
 *
 * Input: a selector byte; for printf, a NUL-terminated format then value
 * bytes; for histograms, the parameters then the counts. Values are read from
 * the input as far as it goes and are zero after that. */
#include <stdint.h>
#include <stdlib.h>
#include <string.h>

#include "base/strbuf.h"
#include "base/format.h"
#include "runtime/hist.h"

struct reader {
    const uint8_t *data;
    size_t size;
};

static uint64_t read_u64(struct reader *r, size_t bytes)
{
    uint64_t v = 0;
    for (size_t i = 0; i < bytes && r->size; i++, r->data++, r->size--)
        v |= (uint64_t)*r->data << (8 * i);
    return v;
}

static void fuzz_printf(struct reader *r)
{
    const uint8_t *nul = memchr(r->data, 0, r->size);
    size_t format_len = nul ? (size_t)(nul - r->data) : r->size;
    char *format = strndup((const char *)r->data, format_len);
    r->data += format_len + (nul != NULL);
    r->size -= format_len + (nul != NULL);

    struct compiled_format compiled;
    char error[256];
    size_t error_offset;
    if (format_compile(format, &compiled, error, sizeof error, &error_offset) != 0) {
        if (error_offset > format_len)
            abort();   /* the caret would point outside the format */
        free(format);
        return;
    }
    struct format_value *values = calloc((size_t)compiled.arg_count + 1, sizeof(*values));
    char **strings = calloc((size_t)compiled.arg_count + 1, sizeof(*strings));
    for (int i = 0; i < compiled.arg_count; i++) {
        if (compiled.arg_types[i] == FORMAT_VALUE_LONG) {
            values[i].number = (int64_t)read_u64(r, 8);
        } else {
            /* Strings need not be NUL-terminated: copy exactly len bytes. */
            size_t len = read_u64(r, 1) % 64;
            if (len > r->size)
                len = r->size;
            strings[i] = malloc(len ? len : 1);
            memcpy(strings[i], r->data, len);
            r->data += len;
            r->size -= len;
            values[i].string = strings[i];
            values[i].string_len = len;
        }
    }
    struct strbuf out;
    strbuf_init(&out);
    format_render(&out, &compiled, values);
    strbuf_free(&out);
    for (int i = 0; i < compiled.arg_count; i++)
        free(strings[i]);
    free(strings);
    free(values);
    format_free(&compiled);
    free(format);
}

/* Counts are small or large; never negative and never near 2^63 in a real
 * map (they sum per-CPU event counts), so neither are the fuzzed ones. */
static int64_t read_count(struct reader *r)
{
    uint8_t kind = (uint8_t)read_u64(r, 1);
    if (kind < 160)
        return kind & 15;
    if (kind < 250)
        return (int64_t)read_u64(r, 2);
    return (int64_t)read_u64(r, 5);
}

static void fuzz_hist_log(struct reader *r)
{
    int elision = (int)(int8_t)read_u64(r, 1);
    int64_t counts[HIST_LOG_BUCKETS] = {0};
    for (int i = 0; i < HIST_LOG_BUCKETS && r->size; i++)
        counts[(HIST_LOG_ZERO + i) % HIST_LOG_BUCKETS] = read_count(r);
    struct strbuf out;
    strbuf_init(&out);
    hist_print_log(&out, counts, elision);
    strbuf_free(&out);
    for (int i = 0; i < 16; i++) {
        int64_t value = (int64_t)read_u64(r, 8);
        int bucket = hist_log_bucket(value);
        if (bucket < 0 || bucket >= HIST_LOG_BUCKETS)
            abort();
        (void)hist_log_label(bucket);
    }
}

/* hist_print_linear's contract: interval > 0, start < stop (sema checks the
 * literals of @hist_linear); a bucket count the runtime can allocate. */
static void fuzz_hist_linear(struct reader *r)
{
    int elision = (int)(int8_t)read_u64(r, 1);
    int64_t start = (int64_t)read_u64(r, 8);
    uint64_t span = read_u64(r, 8);
    int64_t interval = (int64_t)(read_u64(r, 8) & INT64_MAX);
    if (interval <= 0 || span == 0 || span > (uint64_t)INT64_MAX ||
        (start > 0 && (uint64_t)start + span > (uint64_t)INT64_MAX))
        return;
    int64_t stop = (int64_t)((uint64_t)start + span);
    if (span / (uint64_t)interval > 4096)
        return;
    int buckets = hist_linear_bucket_count(start, stop, interval);
    int64_t *counts = calloc((size_t)buckets, sizeof(*counts));
    for (int i = 0; i < buckets && r->size; i++)
        counts[i] = read_count(r);
    for (int i = 0; i < 16 && r->size; i++) {
        int bucket = hist_linear_bucket((int64_t)read_u64(r, 8), start, stop, interval);
        if (bucket < 0 || bucket >= buckets)
            abort();
    }
    struct strbuf out;
    strbuf_init(&out);
    hist_print_linear(&out, counts, start, stop, interval, elision);
    strbuf_free(&out);
    free(counts);
}

int LLVMFuzzerTestOneInput(const uint8_t *data, size_t size)
{
    if (size == 0)
        return 0;
    struct reader r = {data + 1, size - 1};
    switch (data[0] % 3) {
    case 0: fuzz_printf(&r); break;
    case 1: fuzz_hist_log(&r); break;
    case 2: fuzz_hist_linear(&r); break;
    }
    return 0;
}
