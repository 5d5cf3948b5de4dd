/* t_exec N PROGRAM ARGS...: calls hop(N), then, while N > 0, execs itself
 * with N - 1; at 0 it execs PROGRAM ARGS. A probed program that execs
 * another probed program (and itself). */
#include <stdio.h>
#include <stdlib.h>
#include <unistd.h>

__attribute__((noipa)) int hop(int n)
{
    return n;
}

int main(int argc, char **argv)
{
    if (argc < 3)
        return 2;
    int n = hop(atoi(argv[1]));
    printf("hop %d\n", n);
    fflush(stdout);
    if (n > 0) {
        char next[16];
        snprintf(next, sizeof(next), "%d", n - 1);
        argv[1] = next;
        execv("/proc/self/exe", argv);
    } else {
        execv(argv[2], argv + 2);
    }
    perror("execv");
    return 127;
}
