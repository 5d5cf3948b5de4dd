/* Histogram printing, row for row what SystemTap's runtime prints
 * (runtime/stat-common.c, _stp_stat_print_histogram). */
#include "runtime/hist.h"

#include <inttypes.h>

#include "base/strbuf.h"

#define HIST_WIDTH 50

int hist_log_bucket(int64_t value)
{
    if (value == 0)
        return HIST_LOG_ZERO;
    /* Negate in unsigned arithmetic: |INT64_MIN| = 2^63 has bit length 64. */
    uint64_t magnitude = value < 0 ? 0 - (uint64_t)value : (uint64_t)value;
    int bits = 64 - __builtin_clzll(magnitude);
    return value < 0 ? HIST_LOG_ZERO - bits : HIST_LOG_ZERO + bits;
}

int64_t hist_log_label(int bucket)
{
    if (bucket == HIST_LOG_ZERO)
        return 0;
    if (bucket < HIST_LOG_ZERO) {
        int k = HIST_LOG_ZERO - bucket;
        return k >= 64 ? INT64_MIN : -((int64_t)1 << (k - 1));
    }
    int k = bucket - HIST_LOG_ZERO;
    /* Bucket ZERO+64 would start at 2^63, which no int64 reaches. */
    return k >= 64 ? INT64_MAX : (int64_t)1 << (k - 1);
}

int hist_linear_bucket_count(int64_t start, int64_t stop, int64_t interval)
{
    return (int)((stop - start) / interval) + 3;
}

int hist_linear_bucket(int64_t value, int64_t start, int64_t stop, int64_t interval)
{
    int last = hist_linear_bucket_count(start, stop, interval) - 1;
    if (value < start)
        return 0;
    uint64_t index = ((uint64_t)value - (uint64_t)start) / (uint64_t)interval + 1;
    return index >= (uint64_t)last ? last : (int)index;
}

/* Characters needed to print v in decimal (stap's needed_space). */
static int hist_digits(int64_t v)
{
    int n = v < 0;
    uint64_t u = v < 0 ? 0 - (uint64_t)v : (uint64_t)v;
    do {
        n++;
        u /= 10;
    } while (u);
    return n;
}

struct hist_shape {
    int linear;                  /* 0: log buckets; 1: underflow, buckets, overflow */
    int buckets;                 /* entries in counts */
    int64_t start, interval;     /* linear only */
};

/* start + k * interval. The edges past `stop` can pass INT64_MAX when stop is
 * near it (the ranges are the script's literals): saturate rather than wrap. */
static int64_t hist_linear_edge(const struct hist_shape *shape, int64_t k)
{
    __int128 edge = (__int128)shape->start + (__int128)k * shape->interval;
    return edge > INT64_MAX ? INT64_MAX : edge < INT64_MIN ? INT64_MIN : (int64_t)edge;
}

static int64_t hist_label(const struct hist_shape *shape, int i, const char **prefix)
{
    *prefix = "";
    if (!shape->linear)
        return hist_log_label(i);
    if (i == 0) {
        *prefix = "<";
        return shape->start;
    }
    if (i == shape->buckets - 1) {
        *prefix = ">";
        return hist_linear_edge(shape, i - 2);
    }
    return hist_linear_edge(shape, i - 1);
}

/* A row is elided when it and every row within `elision` of it (inside the
 * printed range) are empty; a negative elision turns this off. */
static int hist_elided(const int64_t *counts, int i, int lo, int hi, int elision, int buckets)
{
    if (elision < 0)
        return 0;
    int reach = elision < buckets ? elision : buckets;
    int from = i - reach > lo ? i - reach : lo;
    int to = i + reach < hi ? i + reach : hi;
    for (int k = from; k <= to; k++)
        if (counts[k] != 0)
            return 0;
    return 1;
}

static void hist_print(struct strbuf *out, const struct hist_shape *shape,
                       const int64_t *counts, int elision)
{
    int lo = -1, hi = 0;
    int64_t max = 0;
    for (int i = 0; i < shape->buckets; i++) {
        if (counts[i] > 0 && lo == -1)
            lo = i;
        if (counts[i] > 0)
            hi = i;
        if (counts[i] > max)
            max = counts[i];
    }
    int val_space = 5, cnt_space = hist_digits(max);
    if (lo == -1) {
        /* Nothing recorded. stap would walk from bucket -1 here (undefined);
         * print the header alone. */
        strbuf_printf(out, "%*s |", val_space, "value");
        strbuf_repeat(out, '-', HIST_WIDTH);
        strbuf_puts(out, " count\n\n");
        return;
    }

    /* Two empty rows of margin each side; a log histogram only goes below
     * its zero bucket when it holds negative values. */
    for (int n = 0; n < 2; n++) {
        if (lo > 0 && (shape->linear || lo != HIST_LOG_ZERO))
            lo--;
        if (hi < shape->buckets - 1)
            hi++;
    }
    int under = 0, over = 0;
    if (shape->linear) {
        if (lo == 0 && counts[0] == 0)
            lo++;
        if (hi == shape->buckets - 1 && counts[hi] == 0)
            hi--;
        under = lo == 0;
        over = hi == shape->buckets - 1;
    }

    int64_t scale = max <= HIST_WIDTH ? 1 : (max + HIST_WIDTH - 1) / HIST_WIDTH;

    /* As stap computes it: for a linear histogram from `start` and from the
     * upper bound of the last row shown (one interval past its label). */
    int a, b;
    if (shape->linear) {
        a = hist_digits(shape->start) + under;
        b = hist_digits(hist_linear_edge(shape, hi)) + over;
    } else {
        a = hist_digits(hist_log_label(lo));
        b = hist_digits(hist_log_label(hi));
    }
    if (a > val_space)
        val_space = a;
    if (b > val_space)
        val_space = b;

    strbuf_printf(out, "%*s |", val_space, "value");
    strbuf_repeat(out, '-', HIST_WIDTH);
    strbuf_puts(out, " count\n");

    int eliding = 0;
    for (int i = lo; i <= hi; i++) {
        if (hist_elided(counts, i, lo, hi, elision, shape->buckets)) {
            eliding = 1;
            continue;
        }
        if (eliding) {
            strbuf_printf(out, "%*s ~\n", val_space, "");
            eliding = 0;
        }
        const char *prefix;
        int64_t label = hist_label(shape, i, &prefix);
        int64_t bar = counts[i] / scale;
        strbuf_printf(out, "%*s%" PRId64 " |", val_space - hist_digits(label), prefix, label);
        if (bar > 0)
            strbuf_repeat(out, '@', (size_t)bar);
        strbuf_printf(out, "%*" PRId64 "\n", (int)(HIST_WIDTH - bar + 1 + cnt_space), counts[i]);
    }
    strbuf_putc(out, '\n');
}

void hist_print_log(struct strbuf *out, const int64_t *counts, int elision)
{
    /* stap has 128 log buckets: the last one here only exists so that
     * INT64_MIN has a mirror, and no value reaches it. */
    struct hist_shape shape = {
        .buckets = counts[HIST_LOG_BUCKETS - 1] ? HIST_LOG_BUCKETS : HIST_LOG_BUCKETS - 1,
    };
    hist_print(out, &shape, counts, elision);
}

void hist_print_linear(struct strbuf *out, const int64_t *counts, int64_t start,
                       int64_t stop, int64_t interval, int elision)
{
    struct hist_shape shape = {
        .linear = 1,
        .buckets = hist_linear_bucket_count(start, stop, interval),
        .start = start,
        .interval = interval,
    };
    hist_print(out, &shape, counts, elision);
}
