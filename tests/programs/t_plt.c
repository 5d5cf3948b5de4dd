/* Calls libc through its PLT a known number of times (plt_* golden tests):
 * puts 3, strlen 2, getpid 4. Built also with IBT stubs (.plt.sec), with
 * BIND_NOW, without PIE and stripped, and with -fno-plt (no PLT at all). */
#include <stdio.h>
#include <string.h>
#include <unistd.h>

int main(int argc, char **argv)
{
    (void)argc;
    long total = 0;
    for (int i = 0; i < 3; i++)
        puts("plt");
    total += (long)strlen(argv[0]) + (long)strlen("plt" + (argv[0][0] == 0));
    for (int i = 0; i < 4; i++)
        total += getpid() > 0;
    return total > 4 ? 0 : 1;
}
