/* vfork inside a probed function (issue 20): spawn(n) vforks; the child
 * runs child_work(n) (probed) on the parent's stack, below spawn's frame,
 * and _exits with its value; the parent returns it + 1. */
#include <stdio.h>
#include <sys/wait.h>
#include <unistd.h>

__attribute__((noipa)) long child_work(long n)
{
    return n * 7;
}

__attribute__((noipa)) long spawn(long n)
{
    pid_t pid = vfork();
    if (pid == 0)
        _exit((int)child_work(n));
    int status = 0;
    if (pid < 0 || waitpid(pid, &status, 0) != pid)
        return -1000;
    return WEXITSTATUS(status) + 1;
}

int main(void)
{
    long sum = 0;
    for (long n = 1; n <= 3; n++)
        sum += spawn(n);
    printf("sum=%ld\n", sum);
    return sum == 45 ? 0 : 1;
}
