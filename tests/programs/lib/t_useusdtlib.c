/* Calls t_usdtlib_call three times (usdt_library). */
long t_usdtlib_call(long x);

int main(void)
{
    long total = 0;
    for (long i = 1; i <= 3; i++)
        total = t_usdtlib_call(i * 10);
    return total == 60 ? 0 : 1;
}
