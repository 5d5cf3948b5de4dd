/* Composite locations (DW_OP_piece), traced by the uprobe_piece_* golden
 * tests. Built at -O0 (t_pieces: every struct in memory) and -O2
 * (t_pieces_o2), where gcc 12 describes (readelf --debug-dump=info,loc):
 * - sum_pair's $s at its first instruction as
 *   DW_OP_reg5 (rdi); DW_OP_piece 8; DW_OP_reg4 (rsi); DW_OP_piece 8
 *   (a 16-byte struct passed by value in two registers);
 * - small_xy's $v as DW_OP_reg5 alone (an 8-byte struct in one register:
 *   members are bytes of the register);
 * - local_pair's $q, at the line of its first sink() call, as
 *   DW_OP_reg3 (rbx); DW_OP_piece 8; DW_OP_const1u 42; DW_OP_stack_value;
 *   DW_OP_piece 8 (one member in a register, one a known constant);
 * - crowded's $w, at the line that builds e, as
 *   DW_OP_reg13 (r13); DW_OP_piece 8; DW_OP_piece 8 (the second piece is
 *   optimized out).
 * noipa keeps the calls and signatures at -O2. */
#define NOIPA __attribute__((noipa))

struct pair {
    long a;
    long b;
};

struct small {
    int x;
    int y;
};

volatile long sink_total;

NOIPA long sink(long v)
{
    sink_total += v;
    return v + 1;
}

NOIPA long sum_pair(struct pair s)
{
    return s.a * 3 + s.b;
}

NOIPA int small_xy(struct small v)
{
    return v.x - v.y;
}

NOIPA long local_pair(long x)
{
    struct pair q = {x * 2, 42};
    long r = sink(q.a);
    return r + q.b + sink(q.a);
}

/* Seven values live across calls and six callee-saved registers: w.b is
 * spilled and then, once it is in no register, optimized out. */
NOIPA long crowded(long x)
{
    struct pair q = {sink(x), sink(x + 1)};
    struct pair w = {sink(x + 2), sink(x + 3)};
    struct pair e = {sink(x + 4), sink(x + 5)};
    struct pair t = {sink(x + 6), sink(x + 7)};
    long z = sink(x + 8);
    z += sink(q.a + w.a + e.a + t.a);
    return z + q.a + q.b + w.a + w.b + e.a + e.b + t.a + t.b;
}

int main(int argc, char **argv)
{
    (void)argv;
    struct pair p = {argc + 4, argc - 10};
    struct small s = {argc + 6, -argc};
    long total = sum_pair(p) + small_xy(s) + local_pair(argc + 20) + crowded(argc * 100);
    return total == 1504 ? 0 : 1;
}
