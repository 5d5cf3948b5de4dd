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
 * elision as in the spec (HIST_ELISION, default 2). */
void hist_print_log(struct strbuf *out, const int64_t *counts, int elision);

/* counts[0] is underflow, counts[1..n] the n = (stop-start)/interval buckets,
 * counts[n+1] overflow. */
void hist_print_linear(struct strbuf *out, const int64_t *counts, int64_t start,
                       int64_t stop, int64_t interval, int elision);

#endif
