/* t_fork BASE: calls work(BASE+1), forks a child that calls work(BASE+2),
 * waits for it, then calls work(BASE+3). For the -c/-x descendant rule. */
#include <stdlib.h>
#include <sys/wait.h>
#include <unistd.h>

__attribute__((noinline)) int work(int n)
{
    return n * 2;
}

int main(int argc, char **argv)
{
    int base = argc > 1 ? atoi(argv[1]) : 0;
    int sum = work(base + 1);
    pid_t child = fork();
    if (child == 0)
        _exit(work(base + 2) & 1);
    waitpid(child, NULL, 0);
    sum += work(base + 3);
    return sum & 1;
}
