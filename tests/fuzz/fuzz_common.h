/* Shared by the libFuzzer harnesses: one compilation's arena and diagnostics,
 * with the rendered diagnostics thrown away (rendering is exercised too: carets
 * and source lines index into the fuzzed text). */
#ifndef TAP_FUZZ_COMMON_H
#define TAP_FUZZ_COMMON_H

#include <stdio.h>

#include "base/arena.h"
#include "base/diag.h"

static FILE *fuzz_null_output(void)
{
    static FILE *null_output;
    if (!null_output)
        null_output = fopen("/dev/null", "w");
    return null_output;
}

/* $1/@1 and $2/@2 exist, so argument pasting is exercised in range and out. */
static char *fuzz_args[] = {"1", "two"};

#endif
