/* Histogram layout: both examples of spec/output.md byte for byte, and the
 * corners of stap's _stp_stat_print_histogram. */
#include <stdint.h>
#include <stdlib.h>
#include <string.h>

#include "base/strbuf.h"
#include "check.h"
#include "runtime/hist.h"

static char *printed_log(const int64_t *values, int n, int elision)
{
    int64_t counts[HIST_LOG_BUCKETS] = {0};
    for (int i = 0; i < n; i++)
        counts[hist_log_bucket(values[i])]++;
    struct strbuf sb;
    strbuf_init(&sb);
    hist_print_log(&sb, counts, elision);
    return sb.data;
}

static char *printed_linear(const int64_t *values, int n, int64_t start, int64_t stop,
                            int64_t interval, int elision)
{
    int64_t counts[256] = {0};
    CHECK(hist_linear_bucket_count(start, stop, interval) <= 256);
    for (int i = 0; i < n; i++)
        counts[hist_linear_bucket(values[i], start, stop, interval)]++;
    struct strbuf sb;
    strbuf_init(&sb);
    hist_print_linear(&sb, counts, start, stop, interval, elision);
    return sb.data;
}

#define COUNT(a) ((int)(sizeof(a) / sizeof((a)[0])))

#define CHECK_LOG(values, elision, expected)                                  \
    do {                                                                      \
        char *got = printed_log(values, COUNT(values), elision);             \
        CHECK_STR(got, expected);                                            \
        free(got);                                                           \
    } while (0)

#define CHECK_LINEAR(values, start, stop, interval, elision, expected)        \
    do {                                                                      \
        char *got = printed_linear(values, COUNT(values), start, stop, interval, elision); \
        CHECK_STR(got, expected);                                            \
        free(got);                                                           \
    } while (0)

#define CHECK_COUNTS(counts, expected)                                        \
    do {                                                                      \
        struct strbuf sb;                                                     \
        strbuf_init(&sb);                                                     \
        hist_print_log(&sb, counts, 2);                                       \
        CHECK_STR(sb.data, expected);                                        \
        strbuf_free(&sb);                                                     \
    } while (0)

static const int64_t spec_log_values[] = { 1, 2, 2, 3, 5, 6, 7, 20, 21, 100, 100, 100, 100, 1500 };
static const int64_t spec_linear_values[] = { 3, 7, 12, 15, 18, 22, 95 };

static void test_log_buckets(void)
{
    CHECK(hist_log_bucket(0) == HIST_LOG_ZERO);
    CHECK(hist_log_bucket(1) == HIST_LOG_ZERO + 1);
    CHECK(hist_log_bucket(2) == HIST_LOG_ZERO + 2);
    CHECK(hist_log_bucket(3) == HIST_LOG_ZERO + 2);
    CHECK(hist_log_bucket(4) == HIST_LOG_ZERO + 3);
    CHECK(hist_log_bucket(1500) == HIST_LOG_ZERO + 11);
    CHECK(hist_log_bucket(INT64_MAX) == HIST_LOG_ZERO + 63);
    CHECK(hist_log_bucket(-1) == HIST_LOG_ZERO - 1);
    CHECK(hist_log_bucket(-3) == HIST_LOG_ZERO - 2);
    CHECK(hist_log_bucket(-INT64_MAX) == HIST_LOG_ZERO - 63);
    CHECK(hist_log_bucket(INT64_MIN) == 0);

    CHECK(hist_log_label(HIST_LOG_ZERO) == 0);
    CHECK(hist_log_label(HIST_LOG_ZERO + 1) == 1);
    CHECK(hist_log_label(HIST_LOG_ZERO + 11) == 1024);
    CHECK(hist_log_label(HIST_LOG_ZERO + 63) == INT64_C(4611686018427387904));
    CHECK(hist_log_label(HIST_LOG_ZERO - 1) == -1);
    CHECK(hist_log_label(HIST_LOG_ZERO - 3) == -4);
    CHECK(hist_log_label(0) == INT64_MIN);
    for (int64_t v = -70; v <= 70; v++) {
        int64_t label = hist_log_label(hist_log_bucket(v));
        CHECK(v >= 0 ? label <= v && v < 2 * label + (label == 0)
                     : label >= v && v > 2 * label);
    }
}

static void test_linear_buckets(void)
{
    CHECK(hist_linear_bucket_count(0, 100, 10) == 13);
    CHECK(hist_linear_bucket(-1, 0, 100, 10) == 0);
    CHECK(hist_linear_bucket(INT64_MIN, 0, 100, 10) == 0);
    CHECK(hist_linear_bucket(0, 0, 100, 10) == 1);
    CHECK(hist_linear_bucket(9, 0, 100, 10) == 1);
    CHECK(hist_linear_bucket(95, 0, 100, 10) == 10);
    CHECK(hist_linear_bucket(100, 0, 100, 10) == 11);     /* stap's row `100` */
    CHECK(hist_linear_bucket(109, 0, 100, 10) == 11);
    CHECK(hist_linear_bucket(110, 0, 100, 10) == 12);
    CHECK(hist_linear_bucket(INT64_MAX, 0, 100, 10) == 12);
    CHECK(hist_linear_bucket(-50, -50, 50, 10) == 1);
    CHECK(hist_linear_bucket(-51, -50, 50, 10) == 0);
}

static void test_spec_examples(void)
{
    CHECK_LOG(spec_log_values, 2,
        "value |-------------------------------------------------- count\n"
        "    0 |                                                   0\n"
        "    1 |@                                                  1\n"
        "    2 |@@@                                                3\n"
        "    4 |@@@                                                3\n"
        "    8 |                                                   0\n"
        "   16 |@@                                                 2\n"
        "   32 |                                                   0\n"
        "   64 |@@@@                                               4\n"
        "  128 |                                                   0\n"
        "  256 |                                                   0\n"
        "  512 |                                                   0\n"
        " 1024 |@                                                  1\n"
        " 2048 |                                                   0\n"
        " 4096 |                                                   0\n"
        "\n");
    CHECK_LINEAR(spec_linear_values, 0, 100, 10, 2,
        "value |-------------------------------------------------- count\n"
        "    0 |@@                                                 2\n"
        "   10 |@@@                                                3\n"
        "   20 |@                                                  1\n"
        "   30 |                                                   0\n"
        "   40 |                                                   0\n"
        "      ~\n"
        "   70 |                                                   0\n"
        "   80 |                                                   0\n"
        "   90 |@                                                  1\n"
        "  100 |                                                   0\n"
        "\n");
}

static void test_log_negatives(void)
{
    static const int64_t values[] = { -1, -3, -3, -100, 0, 2 };
    CHECK_LOG(values, 2,
        "value |-------------------------------------------------- count\n"
        " -256 |                                                   0\n"
        " -128 |                                                   0\n"
        "  -64 |@                                                  1\n"
        "  -32 |                                                   0\n"
        "  -16 |                                                   0\n"
        "   -8 |                                                   0\n"
        "   -4 |                                                   0\n"
        "   -2 |@@                                                 2\n"
        "   -1 |@                                                  1\n"
        "    0 |@                                                  1\n"
        "    1 |                                                   0\n"
        "    2 |@                                                  1\n"
        "    4 |                                                   0\n"
        "    8 |                                                   0\n"
        "\n");
}

static void test_log_single_bucket(void)
{
    /* The margin stops at the zero bucket... */
    static const int64_t five[] = { 5 };
    CHECK_LOG(five, 2,
        "value |-------------------------------------------------- count\n"
        "    1 |                                                   0\n"
        "    2 |                                                   0\n"
        "    4 |@                                                  1\n"
        "    8 |                                                   0\n"
        "   16 |                                                   0\n"
        "\n");
    /* ...and does not cross it when only zeros were seen. */
    static const int64_t zeros[] = { 0, 0 };
    CHECK_LOG(zeros, 2,
        "value |-------------------------------------------------- count\n"
        "    0 |@@                                                 2\n"
        "    1 |                                                   0\n"
        "    2 |                                                   0\n"
        "\n");
}

static void test_log_extremes(void)
{
    static const int64_t values[] = { INT64_MIN, INT64_MAX };
    CHECK_LOG(values, 2,
        "               value |-------------------------------------------------- count\n"
        "-9223372036854775808 |@                                                  1\n"
        "-4611686018427387904 |                                                   0\n"
        "-2305843009213693952 |                                                   0\n"
        "                     ~\n"
        " 1152921504606846976 |                                                   0\n"
        " 2305843009213693952 |                                                   0\n"
        " 4611686018427387904 |@                                                  1\n"
        "\n");
}

static void test_scale(void)
{
    /* max 500: scale 10, a full bar is 50 '@'. */
    int64_t counts[HIST_LOG_BUCKETS] = {0};
    counts[HIST_LOG_ZERO + 1] = 500;
    counts[HIST_LOG_ZERO + 2] = 120;
    counts[HIST_LOG_ZERO + 3] = 1;
    CHECK_COUNTS(counts,
        "value |-------------------------------------------------- count\n"
        "    0 |                                                     0\n"
        "    1 |@@@@@@@@@@@@@@@@@@@@@@@@@@@@@@@@@@@@@@@@@@@@@@@@@@ 500\n"
        "    2 |@@@@@@@@@@@@                                       120\n"
        "    4 |                                                     1\n"
        "    8 |                                                     0\n"
        "   16 |                                                     0\n"
        "\n");
    /* max 51: scale rounds up to 2. */
    int64_t counts51[HIST_LOG_BUCKETS] = {0};
    counts51[HIST_LOG_ZERO] = 51;
    counts51[HIST_LOG_ZERO + 1] = 2;
    CHECK_COUNTS(counts51,
        "value |-------------------------------------------------- count\n"
        "    0 |@@@@@@@@@@@@@@@@@@@@@@@@@                          51\n"
        "    1 |@                                                   2\n"
        "    2 |                                                    0\n"
        "    4 |                                                    0\n"
        "\n");
}

static void test_linear_underflow_overflow(void)
{
    static const int64_t values[] = { -5, -7, 3, 250, 1000 };
    CHECK_LINEAR(values, 0, 100, 10, 2,
        "value |-------------------------------------------------- count\n"
        "   <0 |@@                                                 2\n"
        "    0 |@                                                  1\n"
        "   10 |                                                   0\n"
        "   20 |                                                   0\n"
        "      ~\n"
        "   90 |                                                   0\n"
        "  100 |                                                   0\n"
        " >100 |@@                                                 2\n"
        "\n");
    /* One bucket: [0,1), then [1,2) at `stop`, then overflow. */
    static const int64_t small[] = { 0, 1, 10 };
    CHECK_LINEAR(small, 0, 1, 1, 2,
        "value |-------------------------------------------------- count\n"
        "    0 |@                                                  1\n"
        "    1 |@                                                  1\n"
        "   >1 |@                                                  1\n"
        "\n");
}

static void test_linear_negative_start(void)
{
    static const int64_t values[] = { -45, -45, 5, 12 };
    CHECK_LINEAR(values, -50, 50, 10, 2,
        "value |-------------------------------------------------- count\n"
        "  -50 |@@                                                 2\n"
        "  -40 |                                                   0\n"
        "  -30 |                                                   0\n"
        "  -20 |                                                   0\n"
        "  -10 |                                                   0\n"
        "    0 |@                                                  1\n"
        "   10 |@                                                  1\n"
        "   20 |                                                   0\n"
        "   30 |                                                   0\n"
        "\n");
}

static void test_linear_value_space(void)
{
    /* stap sizes linear labels from one interval past the last row shown:
     * 100000 here, though the widest label is 90000. */
    static const int64_t values[] = { 75000 };
    CHECK_LINEAR(values, 0, 1000000, 10000, 2,
        " value |-------------------------------------------------- count\n"
        " 50000 |                                                   0\n"
        " 60000 |                                                   0\n"
        " 70000 |@                                                  1\n"
        " 80000 |                                                   0\n"
        " 90000 |                                                   0\n"
        "\n");
}

static void test_elision(void)
{
    /* Negative: no elision. */
    CHECK_LINEAR(spec_linear_values, 0, 100, 10, -1,
        "value |-------------------------------------------------- count\n"
        "    0 |@@                                                 2\n"
        "   10 |@@@                                                3\n"
        "   20 |@                                                  1\n"
        "   30 |                                                   0\n"
        "   40 |                                                   0\n"
        "   50 |                                                   0\n"
        "   60 |                                                   0\n"
        "   70 |                                                   0\n"
        "   80 |                                                   0\n"
        "   90 |@                                                  1\n"
        "  100 |                                                   0\n"
        "\n");
    /* Larger than the histogram: nothing to elide either. */
    CHECK_LOG(spec_log_values, 100,
        "value |-------------------------------------------------- count\n"
        "    0 |                                                   0\n"
        "    1 |@                                                  1\n"
        "    2 |@@@                                                3\n"
        "    4 |@@@                                                3\n"
        "    8 |                                                   0\n"
        "   16 |@@                                                 2\n"
        "   32 |                                                   0\n"
        "   64 |@@@@                                               4\n"
        "  128 |                                                   0\n"
        "  256 |                                                   0\n"
        "  512 |                                                   0\n"
        " 1024 |@                                                  1\n"
        " 2048 |                                                   0\n"
        " 4096 |                                                   0\n"
        "\n");
    /* 0, as stap's HIST_ELISION=0: every empty row goes. */
    CHECK_LINEAR(spec_linear_values, 0, 100, 10, 0,
        "value |-------------------------------------------------- count\n"
        "    0 |@@                                                 2\n"
        "   10 |@@@                                                3\n"
        "   20 |@                                                  1\n"
        "      ~\n"
        "   90 |@                                                  1\n"
        "\n");
    CHECK_LOG(spec_log_values, 0,
        "value |-------------------------------------------------- count\n"
        "      ~\n"
        "    1 |@                                                  1\n"
        "    2 |@@@                                                3\n"
        "    4 |@@@                                                3\n"
        "      ~\n"
        "   16 |@@                                                 2\n"
        "      ~\n"
        "   64 |@@@@                                               4\n"
        "      ~\n"
        " 1024 |@                                                  1\n"
        "\n");
}

static void test_empty(void)
{
    static const char header_only[] =
        "value |-------------------------------------------------- count\n"
        "\n";
    int64_t counts[HIST_LOG_BUCKETS] = {0};
    CHECK_COUNTS(counts, header_only);
    struct strbuf sb;
    strbuf_init(&sb);
    hist_print_linear(&sb, counts, 0, 100, 10, 2);
    CHECK_STR(sb.data, header_only);
    strbuf_free(&sb);
}

/* Found by fuzz_format: the edge after the overflow row passed INT64_MAX
 * (signed overflow) when stop is near it; edges saturate instead. */
static void test_linear_near_int64_max(void)
{
    int64_t start = INT64_MAX - 100, stop = INT64_MAX - 50;
    int64_t counts[8] = {0};
    CHECK(hist_linear_bucket_count(start, stop, 10) == 8);
    counts[hist_linear_bucket(INT64_MAX, start, stop, 10)] = 3;
    counts[hist_linear_bucket(start, start, stop, 10)] = 1;
    struct strbuf sb;
    strbuf_init(&sb);
    hist_print_linear(&sb, counts, start, stop, 10, 2);
    CHECK(strstr(sb.data, "\n 9223372036854775707 |@") != NULL);
    CHECK(strstr(sb.data, ">9223372036854775757 |@@@") != NULL);
    strbuf_free(&sb);
}

int main(void)
{
    test_log_buckets();
    test_linear_buckets();
    test_spec_examples();
    test_log_negatives();
    test_log_single_bucket();
    test_log_extremes();
    test_scale();
    test_linear_underflow_overflow();
    test_linear_negative_start();
    test_linear_value_space();
    test_elision();
    test_empty();
    test_linear_near_int64_max();
    return check_summary();
}
