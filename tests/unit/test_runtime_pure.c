/* The runtime's pure pieces: -G settings, -c command splitting, record
 * decoding, verifier log summaries, CPU lists. No BPF needed. */
#include <errno.h>
#include <stdlib.h>
#include <string.h>

#include "check.h"
#include "base/format.h"
#include "runtime/session.h"

static struct program_global globals[] = {
    { "count", PROGRAM_GLOBAL_LONG, 0, 8, 1, 0 },
    { "name", PROGRAM_GLOBAL_STRING, 8, 8, 1, 1 },
};
static struct program program = { .globals = globals, .global_count = 2 };

static void test_parse_long(void)
{
    int64_t v;
    CHECK(settings_parse_long("42", &v) == 0 && v == 42);
    CHECK(settings_parse_long("-17", &v) == 0 && v == -17);
    CHECK(settings_parse_long("0x1f", &v) == 0 && v == 31);
    CHECK(settings_parse_long("010", &v) == 0 && v == 8);
    CHECK(settings_parse_long("0xffffffffffffffff", &v) == 0 && v == -1);
    CHECK(settings_parse_long("", &v) < 0);
    CHECK(settings_parse_long("12x", &v) < 0);
    CHECK(settings_parse_long("99999999999999999999", &v) < 0);
}

static void test_settings(void)
{
    char data[16] = { 0 }, error[128];
    int64_t v;

    struct global_setting ok[] = { { "count", "-5" }, { "name", "abcdefghij" } };
    CHECK(settings_apply(&program, data, sizeof(data), ok, 2, error, sizeof(error)) == 0);
    memcpy(&v, data, 8);
    CHECK(v == -5);
    CHECK_STR(data + 8, "abcdefg");   /* truncated to size - 1 */

    struct global_setting shorter[] = { { "name", "xy" } };
    CHECK(settings_apply(&program, data, sizeof(data), shorter, 1, error, sizeof(error)) == 0);
    CHECK(memcmp(data + 8, "xy\0\0\0\0\0\0", 8) == 0);

    struct global_setting unknown[] = { { "nosuch", "1" } };
    CHECK(settings_apply(&program, data, sizeof(data), unknown, 1, error, sizeof(error)) < 0);
    CHECK_STR(error, "no global variable named 'nosuch'");
    struct global_setting bad[] = { { "count", "1.5" } };
    CHECK(settings_apply(&program, data, sizeof(data), bad, 1, error, sizeof(error)) < 0);
    CHECK_STR(error, "'1.5' is not a number (for global 'count')");
}

static void test_command(void)
{
    char **argv = command_split("  ./prog  a\tb ");
    CHECK(argv && argv[0] && argv[1] && argv[2] && !argv[3]);
    CHECK_STR(argv[0], "./prog");
    CHECK_STR(argv[1], "a");
    CHECK_STR(argv[2], "b");
    free(argv);
    argv = command_split("");
    CHECK(argv && !argv[0]);
    free(argv);
    CHECK(!command_needs_shell("./prog -n 3"));
    CHECK(command_needs_shell("sh -c 'exit 3'"));
    CHECK(command_needs_shell("a | b"));
    CHECK(command_needs_shell("echo $HOME"));
    CHECK(command_needs_shell("X=1 prog"));
    /* -c checks the command before loading anything (bad_cli_c_missing_binary). */
    CHECK(command_check("true") == 0);
    CHECK(command_check("/bin/true --flag") == 0);
    CHECK(command_check("/nonexistent/binary") == -1 && errno == ENOENT);
    CHECK(command_check("no-such-command-anywhere") == -1 && errno == ENOENT);
    CHECK(command_check("/") == -1 && errno == EISDIR);
    CHECK(command_check("") == -1);
    CHECK(command_check("nosuch | cat") == 0);   /* the shell reports it */
}

static void test_record(void)
{
    struct format_arg args[] = {
        { FORMAT_ARG_STRING, 8, 8 }, { FORMAT_ARG_LONG, 16, 8 } };
    struct program_format format = { "%s %d", args, 2, 24 };
    struct format_value values[2];
    unsigned char record[24] = { 1, 0, 0, 0, 0, 0, 0, 0, 'h', 'i', 0, 'x' };
    int64_t n = -3;

    memcpy(record + 16, &n, 8);
    CHECK(record_decode(&format, record, sizeof(record), values) == 0);
    CHECK(values[0].string_len == 2 && memcmp(values[0].string, "hi", 2) == 0);
    CHECK(values[1].number == -3);

    memcpy(record + 8, "abcdefgh", 8);   /* no NUL: bounded by the slot */
    CHECK(record_decode(&format, record, sizeof(record), values) == 0);
    CHECK(values[0].string_len == 8);
    CHECK(record_decode(&format, record, 20, values) < 0);   /* truncated record */
}

/* %m/%M: a count, then the bytes (NULs included), bounded by the slot. */
static void test_record_memory(void)
{
    struct format_arg args[] = { { FORMAT_ARG_MEMORY, 8, 16 } };
    struct program_format format = { "%.3M", args, 1, 24 };
    struct format_value value;
    unsigned char record[24] = { 1, 0, 0, 0, 0, 0, 0, 0, 3, 0, 0, 0, 0, 0, 0, 0, 0x0a, 0, 0x14, 'x' };
    CHECK(record_decode(&format, record, sizeof(record), &value) == 0);
    CHECK(value.string_len == 3 && value.string[0] == 0x0a && value.string[1] == 0 && value.string[2] == 0x14);
    record[8] = 100;                      /* more than the slot holds */
    CHECK(record_decode(&format, record, sizeof(record), &value) == 0);
    CHECK(value.string_len == 8);
    CHECK(record_decode(&format, record, 20, &value) < 0);   /* truncated record */
}

static void test_verifier(void)
{
    char out[512];
    verifier_log_summary(
        "func#0 @0\n"
        "0: R1=ctx() R10=fp0\n"
        "; x = *p; @ t.tp:3\n"
        "0: (79) r0 = *(u64 *)(r1 +0)\n"
        "R1 invalid mem access 'scalar'\n"
        "processed 3 insns (limit 1000000) max_states_per_insn 0 total_states 0\n",
        1, out, sizeof(out));
    CHECK_STR(out, "R1 invalid mem access 'scalar' (near: x = *p; @ t.tp:3)");

    verifier_log_summary(
        "5: (61) r2 = *(u32 *)(r0 +8)\n"
        "invalid access to map value, value_size=8 off=8 size=4\n"
        "R0 min value is outside of the allowed memory range\n"
        "processed 6 insns\n\n",
        1, out, sizeof(out));
    CHECK_STR(out, "invalid access to map value, value_size=8 off=8 size=4: "
                   "R0 min value is outside of the allowed memory range");

    verifier_log_summary("", 1, out, sizeof(out));
    CHECK_STR(out, "(no verifier log)");

    /* the instruction executed last, not a state line after it */
    CHECK(verifier_log_failed_insn("0: R1=ctx() R10=fp0\n"
                                   "; n = 1 @ t.tp:3\n"
                                   "16: (7a) *(u64 *)(r0 +72) = 0         ; R0=map_value\n"
                                   "from 16 to 17: R0=map_value\n"
                                   "17: (85) call unknown#100000\n"
                                   "invalid func unknown#100000\n"
                                   "processed 16 insns (limit 1000000)\n") == 17);
    CHECK(verifier_log_failed_insn("invalid func\n") == -1);
    CHECK(strstr(verifier_hint("BPF program is too large. Processed 1000001 insn"), "split it"));
    CHECK(strstr(verifier_hint("R1 invalid mem access 'scalar'"), "tap bug"));
}

static void test_cpus(void)
{
    unsigned char cpus[16];
    CHECK(cpu_list_parse("0-3,8,10-11\n", cpus, 16) == 7);
    CHECK(cpus[0] && cpus[3] && !cpus[4] && cpus[8] && !cpus[9] && cpus[11]);
    CHECK(cpu_list_parse("0\n", cpus, 16) == 1);
    CHECK(cpu_list_parse("x", cpus, 16) < 0);
}

int main(void)
{
    test_parse_long();
    test_settings();
    test_command();
    test_record();
    test_record_memory();
    test_verifier();
    test_cpus();
    return check_summary();
}
