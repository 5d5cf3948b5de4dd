/* A static function inlined into two callers at -O2 and kept out of line
 * too (its address is taken), for the plain, .inline and .call forms of
 * process().function() (uprobe_inline_o2). Built at -O2 as t_inlined_o2;
 * gcc 12 inlines scaled() into caller_a and caller_b, where its k is a
 * constant (DW_AT_const_value) and x a register, and emits an
 * out-of-line copy that main calls through a pointer. */
#define NOIPA __attribute__((noipa))

volatile int sink;

static int scaled(int x, int k)
{
    sink = x;
    return x * k + 1;
}

NOIPA int caller_a(int v)
{
    return scaled(v, 2) + 1;
}

NOIPA int caller_b(int v)
{
    return scaled(v + 1, 3) - 1;
}

/* Real recursion at -O2 (storing the result before using it keeps gcc from
 * turning it into a loop, as it does fact() in t_args), for @entry in
 * .return (uprobe_entry_recursion_o2). */
NOIPA int depth(int n)
{
    if (n <= 0)
        return 0;
    int below = depth(n - 1);
    sink = below;
    return below + n;
}

int (*volatile indirect)(int, int) = scaled;

int main(int argc, char **argv)
{
    (void)argv;
    int total = caller_a(argc + 9) + caller_b(argc + 19) + indirect(argc + 29, 4) + depth(argc + 2);
    return total == 22 + 63 + 121 + 6 ? 0 : 1;
}
