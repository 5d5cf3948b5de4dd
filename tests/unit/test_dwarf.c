/* DWARF pieces against the test programs (built by tests/CMakeLists.txt):
 * the function index, file offsets, the prologue, locations lowered to
 * generic reads at -O0 and -O2, type spelling. */
#include <dwarf.h>
#include <string.h>

#include "base/arena.h"
#include "base/strbuf.h"
#include "check.h"
#include "sema/dwarf.h"

static const struct dwarf_function *find(const struct dwarf_module *m, const char *name)
{
    for (int i = 0; i < m->function_count; i++)
        if (strcmp(m->functions[i].name, name) == 0)
            return &m->functions[i];
    return NULL;
}

static int find_variable(struct dwarf_module *m, const struct dwarf_function *f, const char *name, Dwarf_Die *out)
{
    Dwarf_Die function, child;
    if (!dwarf_module_function_die(m, f, &function) || dwarf_child(&function, &child) != 0)
        return 0;
    do {
        const char *n = dwarf_diename(&child);
        if (n && strcmp(n, name) == 0) {
            *out = child;
            return 1;
        }
    } while (dwarf_siblingof(&child, &child) == 0);
    return 0;
}

static int is_reg_plus(const struct expr *e, int reg, int64_t offset)
{
    return e && e->kind == EXPR_BINARY && e->binary.op == BINARY_ADD && e->binary.lhs->kind == EXPR_REGISTER &&
           e->binary.lhs->reg.number == reg && e->binary.rhs->kind == EXPR_INT && e->binary.rhs->int_value == offset;
}

static void check_o0(struct dwarf_modules *modules)
{
    struct arena *arena = modules->arena;
    char error[256];
    struct dwarf_module *m = dwarf_module_open(modules, TAP_TEST_PROGRAMS "/t_args", error, sizeof(error));
    CHECK(m != NULL);
    if (!m)
        return;
    CHECK(m->is_shared);        /* PIE */
    CHECK(find(m, "_start") && find(m, "_start")->die_offset == 0);   /* from the symbol table */
    const struct dwarf_function *add = find(m, "add");
    CHECK(add && add->die_offset && add->decl_line == 20 && add->has_return);
    if (!add)
        return;
    CHECK(dwarf_module_file_offset(m, add->entry) != 0);
    uint64_t pc = dwarf_module_after_prologue(m, add);
    CHECK(pc > add->entry && pc < add->entry + 32);

    /* -O0 after the prologue: a frame slot, rbp-based once the CFA is rbp+16. */
    Dwarf_Die function, var;
    CHECK(dwarf_module_function_die(m, add, &function) && find_variable(m, add, "a", &var));
    struct dwarf_eval ev = {.arena = arena, .module = m, .pc = pc, .function = &function};
    struct dwarf_location loc;
    CHECK(dwarf_variable_location(&ev, &var, &loc));
    CHECK(loc.kind == LOC_MEMORY && is_reg_plus(loc.address, 6, -20 + 16));

    /* At the first instruction the CFA is rsp+8. */
    struct dwarf_eval entry = {.arena = arena, .module = m, .pc = add->entry, .function = &function, .at_entry = 1};
    CHECK(dwarf_variable_location(&entry, &var, &loc));
    CHECK(loc.kind == LOC_MEMORY && is_reg_plus(loc.address, 7, 8 - 20));

    const struct dwarf_function *greet = find(m, "greet");
    Dwarf_Die who, type;
    CHECK(greet && find_variable(m, greet, "who", &who) && dwarf_die_type(&who, &type));
    struct strbuf sb;
    strbuf_init(&sb);
    dwarf_type_spell(&sb, &type);
    CHECK_STR(sb.data, "char const*");
    strbuf_free(&sb);
}

/* The location of VARIABLE at the first instruction of FUNCTION in a test program. */
static int location_at_entry(struct dwarf_modules *modules, const char *program, const char *function_name,
                             const char *variable, struct dwarf_location *loc)
{
    struct arena *arena = modules->arena;
    char error[256];
    struct dwarf_module *m = dwarf_module_open(modules, program, error, sizeof(error));
    const struct dwarf_function *f = m ? find(m, function_name) : NULL;
    Dwarf_Die function, var;
    if (!f || !dwarf_module_function_die(m, f, &function) || !find_variable(m, f, variable, &var))
        return 0;
    struct dwarf_eval ev = {.arena = arena, .module = m, .pc = f->entry, .function = &function};
    return dwarf_variable_location(&ev, &var, loc);
}

static void check_o2(struct dwarf_modules *modules)
{
    /* -O2: a location list; at the entry v is in rdi (DWARF register 5). */
    struct dwarf_location loc;
    CHECK(location_at_entry(modules, TAP_TEST_PROGRAMS "/t_args_o2", "scale", "v", &loc));
    CHECK(loc.kind == LOC_REG && loc.reg == 5);
}

/* sum_pair's struct parameter at -O2: rdi and rsi as two 8-byte pieces. */
static void check_pieces_o2(struct dwarf_modules *modules)
{
    struct dwarf_location loc;
    CHECK(location_at_entry(modules, TAP_TEST_PROGRAMS "/t_pieces_o2", "sum_pair", "s", &loc));
    CHECK(loc.kind == LOC_PIECES && loc.piece_count == 2);
    if (loc.kind != LOC_PIECES || loc.piece_count != 2)
        return;
    CHECK(loc.pieces[0].kind == LOC_REG && loc.pieces[0].reg == 5 && loc.pieces[0].bit_size == 64);
    CHECK(loc.pieces[1].kind == LOC_REG && loc.pieces[1].reg == 4 && loc.pieces[1].bit_size == 64);
}

/* Piece kinds gcc emits only for a few instructions: memory (a spilled
 * member), a constant, an optimized-out piece, DW_OP_bit_piece. */
static void check_piece_kinds(struct arena *arena)
{
    struct dwarf_eval ev = {.arena = arena};
    Dwarf_Op ops[] = {
        {.atom = DW_OP_reg13}, {.atom = DW_OP_piece, .number = 8},
        {.atom = DW_OP_breg7, .number = 16}, {.atom = DW_OP_piece, .number = 4},
        {.atom = DW_OP_piece, .number = 2},
        {.atom = DW_OP_lit7}, {.atom = DW_OP_stack_value}, {.atom = DW_OP_bit_piece, .number = 3, .number2 = 1},
    };
    struct dwarf_location loc;
    CHECK(dwarf_location_evaluate(&ev, ops, sizeof(ops) / sizeof(ops[0]), &loc));
    CHECK(loc.kind == LOC_PIECES && loc.piece_count == 4);
    if (loc.kind != LOC_PIECES || loc.piece_count != 4)
        return;
    CHECK(loc.pieces[0].kind == LOC_REG && loc.pieces[0].reg == 13 && loc.pieces[0].bit_size == 64);
    CHECK(loc.pieces[1].kind == LOC_MEMORY && is_reg_plus(loc.pieces[1].address, 7, 16) &&
          loc.pieces[1].bit_size == 32);
    CHECK(loc.pieces[2].kind == LOC_OPTIMIZED_OUT && loc.pieces[2].bit_size == 16);
    CHECK(loc.pieces[3].kind == LOC_VALUE && loc.pieces[3].value->kind == EXPR_INT &&
          loc.pieces[3].value->int_value == 7 && loc.pieces[3].bit_size == 3 && loc.pieces[3].bit_offset == 1);

    /* Without pieces nothing changes: a register alone is LOC_REG. */
    CHECK(dwarf_location_evaluate(&ev, ops, 1, &loc) && loc.kind == LOC_REG && loc.reg == 13);
}

static void check_narrow(struct arena *arena)
{
    struct dwarf_eval ev = {.arena = arena};
    struct expr *value = dwarf_expr_reg(&ev, 0);
    struct expr *u = dwarf_expr_narrow(&ev, value, 2, 0);
    CHECK(u->kind == EXPR_BINARY && u->binary.op == BINARY_BITAND && u->binary.rhs->int_value == 0xffff);
    struct expr *s = dwarf_expr_narrow(&ev, value, 4, 1);
    CHECK(s->kind == EXPR_BINARY && s->binary.op == BINARY_SHR && s->binary.rhs->int_value == 32);
    CHECK(dwarf_expr_narrow(&ev, value, 8, 1) == value);
}

/* Every DIE with a type under `parent`: the cached name is the uncached
 * spelling, and the same string each time. */
static void check_names_under(struct dwarf_type_names *names, Dwarf_Die *parent, int *checked)
{
    Dwarf_Die child, type;
    if (dwarf_child(parent, &child) != 0)
        return;
    do {
        if (dwarf_die_type(&child, &type)) {
            struct strbuf sb;
            strbuf_init(&sb);
            dwarf_type_spell(&sb, &type);
            const char *cached = dwarf_type_name(names, &type);
            CHECK_STR(cached, sb.data ? sb.data : "");
            CHECK(dwarf_type_name(names, &type) == cached);
            strbuf_free(&sb);
            (*checked)++;
        }
        check_names_under(names, &child, checked);
    } while (dwarf_siblingof(&child, &child) == 0);
}

static const char *variable_type_name(struct dwarf_module *m, const char *function, const char *variable)
{
    Dwarf_Die var, type;
    const struct dwarf_function *f = find(m, function);
    if (!f || !find_variable(m, f, variable, &var) || !dwarf_die_type(&var, &type))
        return NULL;
    return dwarf_type_name(&m->type_names, &type);
}

/* The listing's cache of type names against the uncached spelling:
 * recursive, anonymous, qualified and function-pointer types. */
static void check_type_names(struct dwarf_modules *modules)
{
    char error[256];
    struct dwarf_module *m = dwarf_module_open(modules, TAP_TEST_PROGRAMS "/t_type_names", error, sizeof(error));
    CHECK(m != NULL && m->dwarf != NULL);
    if (!m || !m->dwarf)
        return;
    CHECK_STR(variable_type_name(m, "walk", "head"), "struct node*");
    CHECK_STR(variable_type_name(m, "walk", "anon"), "anon_t*");
    CHECK_STR(variable_type_name(m, "walk", "names"), "char* const*");
    CHECK_STR(variable_type_name(m, "walk", "v"), "visitor");
    CHECK_STR(variable_type_name(m, "main", "point"), "struct {...}");
    CHECK_STR(variable_type_name(m, "main", "names"), "char* const[]");
    /* Twice: the second pass finds what the first stored, after the table grew. */
    for (int pass = 0; pass < 2; pass++) {
        int checked = 0;
        Dwarf_Off offset = 0, next;
        size_t header_size;
        while (dwarf_nextcu(m->dwarf, offset, &next, &header_size, NULL, NULL, NULL) == 0) {
            Dwarf_Die cu;
            if (dwarf_offdie(m->dwarf, offset + header_size, &cu))
                check_names_under(&m->type_names, &cu, &checked);
            offset = next;
        }
        CHECK(checked > 20);
    }
    CHECK(m->type_names.capacity > 16);    /* it grew from its first 16 slots */
}

int main(void)
{
    struct arena arena;
    arena_init(&arena);
    struct dwarf_modules modules = {.arena = &arena};
    check_o0(&modules);
    check_o2(&modules);
    check_narrow(&arena);
    check_pieces_o2(&modules);
    check_piece_kinds(&arena);
    check_type_names(&modules);
    dwarf_modules_close(&modules);
    arena_free(&arena);
    return check_summary();
}
