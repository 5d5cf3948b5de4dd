/* A minimal assertion kit for unit tests: each CHECK counts, and main ends
 * with check_summary(), which prints "N passed, N failed" and sets the exit
 * status. */
#ifndef TAP_TESTS_CHECK_H
#define TAP_TESTS_CHECK_H

#include <stdio.h>
#include <string.h>

static int check_passed, check_failed;

#define CHECK(cond)                                                              \
    do {                                                                         \
        if (cond) {                                                              \
            check_passed++;                                                      \
        } else {                                                                 \
            check_failed++;                                                      \
            fprintf(stderr, "%s:%d: CHECK failed: %s\n", __FILE__, __LINE__, #cond); \
        }                                                                        \
    } while (0)

#define CHECK_STR(actual, expected)                                              \
    do {                                                                         \
        const char *check_a = (actual), *check_e = (expected);                   \
        if (check_a && strcmp(check_a, check_e) == 0) {                          \
            check_passed++;                                                      \
        } else {                                                                 \
            check_failed++;                                                      \
            fprintf(stderr, "%s:%d: expected:\n%s\n---- got:\n%s\n----\n",       \
                    __FILE__, __LINE__, check_e, check_a ? check_a : "(null)");  \
        }                                                                        \
    } while (0)

static inline int check_summary(void)
{
    printf("%d passed, %d failed\n", check_passed, check_failed);
    return check_failed ? 1 : 0;
}

#endif
