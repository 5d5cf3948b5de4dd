/* syscall-loop N: calls getppid(2) N times through syscall(2) (no libc
 * caching) and prints the nanoseconds per call: the kernel function
 * __x64_sys_getppid runs once per call, the probed function of
 * kernel-vm.sh's per-hit rows. */
#include <stdio.h>
#include <stdlib.h>
#include <sys/syscall.h>
#include <time.h>
#include <unistd.h>

int main(int argc, char **argv)
{
    long n = argc > 1 ? atol(argv[1]) : 200000;
    struct timespec start, end;
    clock_gettime(CLOCK_MONOTONIC, &start);
    for (long i = 0; i < n; i++)
        syscall(SYS_getppid);
    clock_gettime(CLOCK_MONOTONIC, &end);
    double ns = (double)(end.tv_sec - start.tv_sec) * 1e9 + (double)(end.tv_nsec - start.tv_nsec);
    printf("%.1f\n", ns / (double)n);
    return 0;
}
