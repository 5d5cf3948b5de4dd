/* Calls libt_pltlib.so three times through the program's PLT (plt_library*). */
long pltlib_measure(const char *text);

int main(void)
{
    long total = 0;
    for (int i = 0; i < 3; i++)
        total += pltlib_measure("abc");
    return total == 18 ? 0 : 1;
}
