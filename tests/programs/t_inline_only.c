/* A static function that gcc -O2 inlines into its only caller and keeps no
 * out-of-line copy of (t_inline_only_o2): only its abstract instance root
 * and the inlined instance name it, so the function index never lists it
 * and only the walk for inlined instances finds it (uprobe_inline_only_o2
 * probes it by exact name and by wildcard). At -O0 it is an ordinary call. */
#define NOIPA __attribute__((noipa))

volatile int sink;

static int mix_bits(int x)
{
    sink = x;
    return (x << 3) ^ x;
}

NOIPA int stir(int v)
{
    return mix_bits(v) + 1;
}

int main(int argc, char **argv)
{
    (void)argv;
    return stir(argc + 4) == ((5 << 3) ^ 5) + 1 ? 0 : 1;
}
