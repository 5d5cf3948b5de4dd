/* Histogram layout exactly as SystemTap prints it (spec/output.md). */
#ifndef TAP_RUNTIME_HIST_H
#define TAP_RUNTIME_HIST_H

#include <stdint.h>

struct strbuf;

/* Log histograms: bucket index i in [0, HIST_LOG_BUCKETS) maps to a value
 * range. Bucket HIST_LOG_ZERO holds 0; above it bucket ZERO+k holds values
 * with bit length k (1, 2..3, 4..7, ...); below it, negatives mirrored. */
#define HIST_LOG_ZERO 64
#define HIST_LOG_BUCKETS 129

/* The bucket a value falls into (used by codegen's BPF code too, so keep the
 * rule simple: bit length of |v|). */
int hist_log_bucket(int64_t value);
/* The label printed for a bucket: 0, 1, 2, 4, ... and -1, -2, -4, ... */
int64_t hist_log_label(int bucket);

/* counts[HIST_LOG_BUCKETS]. Appends the histogram and its trailing blank line;
 * elision as in the spec (HIST_ELISION, default 2). An empty histogram prints
 * the header line and the blank line. */
void hist_print_log(struct strbuf *out, const int64_t *counts, int elision);

/* Linear histograms, laid out as SystemTap does (runtime/stat-common.c): with
 * n = (stop-start)/interval, counts[0] is underflow (value < start),
 * counts[1..n+1] hold [start + (i-1)*interval, start + i*interval), so the
 * last of them starts at stop itself, and counts[n+2] is overflow: n+3 entries
 * in all (spec/output.md's example shows the row `100` of hist_linear(s, 0, 100, 10)).
 * hist_linear_bucket_count() is that n+3; hist_linear_bucket() is the index a
 * value is counted in (mirror it in BPF). interval > 0. */
int hist_linear_bucket_count(int64_t start, int64_t stop, int64_t interval);
int hist_linear_bucket(int64_t value, int64_t start, int64_t stop, int64_t interval);

/* counts[hist_linear_bucket_count()], as above. A negative elision turns
 * elision off; 0 elides every empty row. */
void hist_print_linear(struct strbuf *out, const int64_t *counts, int64_t start,
                       int64_t stop, int64_t interval, int elision);

#endif
