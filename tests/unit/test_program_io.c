/* The metadata a -p4 object carries must come back exactly. */
#include <stdlib.h>
#include <string.h>

#include "check.h"
#include "program/program.h"
#include "program/program_io.h"

static struct program *sample(void)
{
    struct program *p = calloc(1, sizeof(*p));
    p->string_size = 512;
    p->state_offset = 8;
    p->probe_count = 2;
    p->probes = calloc(2, sizeof(*p->probes));
    p->probes[0] = (struct program_probe){.kind = PROBE_TIMER, .prog_name = strdup("probe_0"),
                                          .point = strdup("timer.ms(100)"), .order = -3, .fields = PROGRAM_FIELDS_PERF,
                                          .perf.period_ns = 100000000};
    p->probes[1] = (struct program_probe){.kind = PROBE_UPROBE, .prog_name = strdup("probe_1"),
                                          .point = strdup("process(\"/a b\").function(\"f\")"),
                                          .path = strdup("/a b"), .offset = 0x1139, .cookie = 7,
                                          .fields = PROGRAM_FIELDS_UPROBE,
                                          .uprobe = {.build_id = strdup("abcdef"), .ref_ctr_offset = 0x4010}};
    p->format_count = 1;
    p->formats = calloc(1, sizeof(*p->formats));
    p->formats[0].format = strdup("tab\there %s \"q\" \\ %d\n\001");
    p->formats[0].arg_count = 2;
    p->formats[0].args = calloc(2, sizeof(struct format_arg));
    p->formats[0].args[0] = (struct format_arg){FORMAT_ARG_STRING, 8, 512};
    p->formats[0].args[1] = (struct format_arg){FORMAT_ARG_LONG, 520, 8};
    p->formats[0].record_size = 528;
    p->error_count = 2;
    p->errors = calloc(2, sizeof(*p->errors));
    p->errors[0] = (struct program_error){strdup("division by 0"), strdup("operator '/' at <input>:1:20")};
    p->errors[1] = (struct program_error){NULL, strdup("identifier 'error' at x.tp:2:3")};
    p->global_count = 1;
    p->globals = calloc(1, sizeof(*p->globals));
    p->globals[0] = (struct program_global){strdup("s"), PROGRAM_GLOBAL_STRING, 48, 512, 1, 0};
    return p;
}

static int same(const char *a, const char *b)
{
    return (!a && !b) || (a && b && strcmp(a, b) == 0);
}

int main(void)
{
    struct program *p = sample();
    size_t length;
    char *text = program_serialize(p, &length);
    struct program back = {0};
    char error[256] = "";
    CHECK(program_deserialize(&back, text, length, error, sizeof(error)) == 0);
    CHECK(back.string_size == 512 && back.state_offset == 8);
    CHECK(back.probe_count == 2 && back.format_count == 1 && back.error_count == 2 && back.global_count == 1);
    if (back.probe_count == 2) {
        CHECK(back.probes[0].order == -3 && back.probes[0].perf.period_ns == 100000000);
        CHECK(same(back.probes[1].point, p->probes[1].point) && back.probes[1].offset == 0x1139);
        CHECK(back.probes[1].cookie == 7 && back.probes[1].fields == PROGRAM_FIELDS_UPROBE);
        CHECK(same(back.probes[1].uprobe.build_id, "abcdef") && back.probes[1].uprobe.ref_ctr_offset == 0x4010);
        CHECK(back.probes[0].path == NULL && back.probes[0].fields == PROGRAM_FIELDS_PERF);
    }
    if (back.format_count == 1) {
        CHECK(same(back.formats[0].format, p->formats[0].format));
        CHECK(back.formats[0].arg_count == 2 && back.formats[0].args[1].offset == 520);
        CHECK(back.formats[0].record_size == 528);
    }
    if (back.error_count == 2)
        CHECK(back.errors[1].message == NULL && same(back.errors[0].location, p->errors[0].location));
    if (back.global_count == 1)
        CHECK(same(back.globals[0].name, "s") && back.globals[0].print_at_end == 1);

    struct program broken = {0};
    CHECK(program_deserialize(&broken, "tap-program 9 1 1\n", 18, error, sizeof(error)) == -1);
    struct program damaged = {0};
    const char *bad = "tap-program 1 512 0\nprobe 1 \"x\n";
    CHECK(program_deserialize(&damaged, bad, strlen(bad), error, sizeof(error)) == -1);
    free(text);
    program_free(p);
    /* program_free() takes heap programs: free the parsed ones through copies. */
    struct program *parsed[2] = {calloc(1, sizeof(struct program)), calloc(1, sizeof(struct program))};
    *parsed[0] = back;
    *parsed[1] = damaged;
    program_free(parsed[0]);
    program_free(parsed[1]);
    return check_summary();
}
