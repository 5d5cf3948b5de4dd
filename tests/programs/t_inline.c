/* An always_inline function (inlined even at -O0) with an out-of-line
 * twin, for .inline / .call / plain function probes. */
static inline __attribute__((always_inline)) int twice(int x)
{
    int doubled = 2 * x;
    return doubled;
}

__attribute__((noipa)) int twice_call(int x)
{
    return x + x;
}

int main(void)
{
    int total = 0;
    for (int i = 1; i <= 2; i++)
        total += twice(i * 10) + twice_call(i);
    return total == 66 ? 0 : 1;
}
