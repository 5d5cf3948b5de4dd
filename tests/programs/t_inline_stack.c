/* Inline frames in a backtrace: at -O2 (t_inline_stack_o2) gcc inlines
 * outer_helper() into work() and inner_helper() into outer_helper(), so
 * the call to leaf() lies in code DWARF describes as two nested
 * DW_TAG_inlined_subroutine scopes of work(). gdb's bt at leaf lists
 * leaf, inner_helper, outer_helper, work, main: print_ubacktrace() names
 * the inlined two as frames of their own (stack_inline_frames). */
volatile long sink;

__attribute__((noinline)) long leaf(long x)
{
    sink += x;
    return sink;
}

static inline __attribute__((always_inline)) long inner_helper(long x)
{
    long r = leaf(x * 3);
    return r + sink;   /* work after the call: leaf's return lands in inner_helper */
}

static inline __attribute__((always_inline)) long outer_helper(long x)
{
    long r = inner_helper(x + 1);
    return r * 2 + sink;
}

__attribute__((noinline)) long work(long x)
{
    long r = outer_helper(x);
    sink = r;
    return r;
}

int main(void)
{
    work(4);
    return 0;
}
