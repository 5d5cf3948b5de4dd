/* exec from inside a probed function (issue 20): become(n) execs this
 * program again with n as its argument; its frame is gone with the old
 * image. The new image calls after(n) and ends. */
#include <stdio.h>
#include <stdlib.h>
#include <unistd.h>

__attribute__((noipa)) long after(long n)
{
    return n + 100;
}

__attribute__((noipa)) long become(long n, char **argv)
{
    char arg[24];
    snprintf(arg, sizeof(arg), "%ld", n);
    char *args[] = {argv[0], arg, NULL};
    fflush(stdout);
    execv("/proc/self/exe", args);
    return -1;
}

int main(int argc, char **argv)
{
    if (argc > 1) {
        printf("after exec: %ld\n", after(atol(argv[1])));
        return 0;
    }
    printf("before exec: %ld\n", after(0));
    become(5, argv);
    perror("execv");
    return 127;
}
