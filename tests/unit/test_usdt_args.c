/* SDT argument specs (sema/usdt_args.c): sizes and signedness, registers
 * and their parts, immediates, memory operands with base, index, scale,
 * displacement and symbols; specs tap cannot decode. */
#include "base/arena.h"
#include "check.h"
#include "sema/usdt.h"

static struct usdt_arg parse(struct arena *arena, const char *text, int *ok)
{
    struct usdt_arg arg;
    *ok = usdt_parse_arg(arena, text, &arg);
    return arg;
}

static void registers(struct arena *arena)
{
    int ok;
    struct usdt_arg a = parse(arena, "-4@%eax", &ok);
    CHECK(ok && a.kind == USDT_ARG_REG && a.reg == 0 && a.size == 4 && a.is_signed && a.shift == 0);
    a = parse(arena, "8@%rdx", &ok);
    CHECK(ok && a.kind == USDT_ARG_REG && a.reg == 1 && a.size == 8 && !a.is_signed);
    a = parse(arena, "1@%ah", &ok);
    CHECK(ok && a.reg == 0 && a.shift == 8 && a.size == 1);
    a = parse(arena, "-1@%dil", &ok);
    CHECK(ok && a.reg == 5 && a.size == 1 && a.is_signed);
    a = parse(arena, "4@%r10d", &ok);
    CHECK(ok && a.reg == 10 && a.size == 4);
    a = parse(arena, "1@%r11b", &ok);
    CHECK(ok && a.reg == 11);
    a = parse(arena, "-8@%r15", &ok);
    CHECK(ok && a.reg == 15);
    parse(arena, "8@%xmm0", &ok);
    CHECK(!ok);
    parse(arena, "8@%r16", &ok);
    CHECK(!ok);
    parse(arena, "8@%rip", &ok);
    CHECK(!ok);
}

static void immediates_and_sizes(struct arena *arena)
{
    int ok;
    struct usdt_arg a = parse(arena, "4@$5", &ok);
    CHECK(ok && a.kind == USDT_ARG_CONST && a.value == 5 && a.size == 4 && !a.is_signed);
    a = parse(arena, "-4@$-42", &ok);
    CHECK(ok && a.value == -42 && a.is_signed);
    a = parse(arena, "%rbx", &ok);      /* no size: a long */
    CHECK(ok && a.reg == 3 && a.size == 8);
    parse(arena, "3@%eax", &ok);
    CHECK(!ok);
    parse(arena, "4@$x", &ok);
    CHECK(!ok);
}

static void memory(struct arena *arena)
{
    int ok;
    struct usdt_arg a = parse(arena, "8@-16(%rbp)", &ok);
    CHECK(ok && a.kind == USDT_ARG_MEMORY && a.base == 6 && a.index == -1 && a.disp == -16 && !a.symbol);
    a = parse(arena, "-8@(%rax,%rdx,8)", &ok);
    CHECK(ok && a.base == 0 && a.index == 1 && a.scale == 8 && a.disp == 0);
    a = parse(arena, "4@table(,%rcx,4)", &ok);
    CHECK(ok && a.base == -1 && a.index == 2 && a.scale == 4 && a.symbol && strcmp(a.symbol, "table") == 0);
    a = parse(arena, "-4@global_counter(%rip)", &ok);
    CHECK(ok && a.base == 16 && a.symbol && strcmp(a.symbol, "global_counter") == 0);
    a = parse(arena, "8@buf+8(%rip)", &ok);
    CHECK(ok && a.base == 16 && a.disp == 8 && strcmp(a.symbol, "buf") == 0);
    a = parse(arena, "2@0x10(%rsp)", &ok);
    CHECK(ok && a.base == 7 && a.disp == 16 && a.size == 2);
    parse(arena, "8@(%rax,%rdx,3)", &ok);
    CHECK(!ok);
    parse(arena, "8@-16(%rbp", &ok);
    CHECK(!ok);
    parse(arena, "8@(%rax,%rip)", &ok);
    CHECK(!ok);
}

int main(void)
{
    struct arena arena;
    arena_init(&arena);
    registers(&arena);
    immediates_and_sizes(&arena);
    memory(&arena);
    arena_free(&arena);
    return check_summary();
}
