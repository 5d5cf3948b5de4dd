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
    /* kinds without fields of their own (check_kind_fields has those) */
    p->probes[0] = (struct program_probe){.kind = PROBE_BEGIN, .prog_name = strdup("probe_0"),
                                          .point = strdup("begin(-3)"), .order = -3};
    p->probes[1] = (struct program_probe){.kind = PROBE_TRACEPOINT, .prog_name = strdup("probe_1"),
                                          .point = strdup("kernel.trace(\"a b:c\")"),
                                          .path = strdup("/a b"), .offset = 0x1139, .cookie = 7,
                                          .tp_category = strdup("a b"), .tp_name = strdup("c")};
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

/* A kind's own fields (its struct is its file's, in src/kinds) come back as
 * its table lists them: the text read is the text written again. */
static void check_kind_fields(void)
{
    char text[1024];
    int length = snprintf(text, sizeof(text),
                          "tap-program 5 512 8\n"
                          "probe %d \"probe_0\" \"timer.ms(100)\" 0 - 0 0 - - 0 100000000 0\n"
                          "probe %d \"probe_1\" \"process(\\\"/a b\\\").function(\\\"f\\\")\" 0 \"/a b\" 4409 7 - - 1"
                          " \"abcdef\" 16400\n"
                          "probe %d \"probe_2\" \"netfilter.hook(\\\"NF_INET_LOCAL_IN\\\")\" 0 - 0 0 - - 0 2 1 -5\n"
                          "hist_elision 2\nuser_frames 0\nmax_errors 1000\nbpf_isa 3\n",
                          (int)PROBE_TIMER, (int)PROBE_UPROBE, (int)PROBE_NETFILTER);
    struct program *parsed = calloc(1, sizeof(*parsed));
    char error[256] = "";
    CHECK(program_deserialize(parsed, text, (size_t)length, error, sizeof(error)) == 0);
    CHECK(parsed->probe_count == 3 && parsed->probes[1].may_skip == 1 && parsed->probes[2].kind_fields != NULL);
    size_t again_length;
    char *again = program_serialize(parsed, &again_length);
    CHECK(again_length == (size_t)length && strcmp(again, text) == 0);
    free(again);
    program_free(parsed);
    /* a kind's fields cut short: refused, not read from the next line */
    struct program short_fields = {0};
    const char *cut = "tap-program 5 512 8\nprobe 6 \"p\" \"q\" 0 \"/x\" 0 0 - - 0\nhist_elision 2\n";
    CHECK(program_deserialize(&short_fields, cut, strlen(cut), error, sizeof(error)) == -1);
}

int main(void)
{
    check_kind_fields();
    struct program *p = sample();
    size_t length;
    char *text = program_serialize(p, &length);
    struct program back = {0};
    char error[256] = "";
    CHECK(program_deserialize(&back, text, length, error, sizeof(error)) == 0);
    CHECK(back.string_size == 512 && back.state_offset == 8);
    CHECK(back.probe_count == 2 && back.format_count == 1 && back.error_count == 2 && back.global_count == 1);
    if (back.probe_count == 2) {
        CHECK(back.probes[0].order == -3 && back.probes[0].kind == PROBE_BEGIN);
        CHECK(same(back.probes[1].point, p->probes[1].point) && back.probes[1].offset == 0x1139);
        CHECK(back.probes[1].cookie == 7 && same(back.probes[1].tp_category, "a b"));
        CHECK(back.probes[0].path == NULL && back.probes[0].kind_fields == NULL);
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
