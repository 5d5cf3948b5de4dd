/* read-loop N: reads 1 byte of /dev/zero N times and prints the
 * nanoseconds per read(2): the kernel function vfs_read runs once per call,
 * the probed function of kernel-vm.sh's per-hit rows. */
#include <fcntl.h>
#include <stdio.h>
#include <stdlib.h>
#include <time.h>
#include <unistd.h>

int main(int argc, char **argv)
{
    long n = argc > 1 ? atol(argv[1]) : 200000;
    int fd = open("/dev/zero", O_RDONLY);
    if (fd < 0) {
        perror("/dev/zero");
        return 1;
    }
    char byte;
    struct timespec start, end;
    clock_gettime(CLOCK_MONOTONIC, &start);
    for (long i = 0; i < n; i++)
        if (read(fd, &byte, 1) != 1)
            return 1;
    clock_gettime(CLOCK_MONOTONIC, &end);
    double ns = (double)(end.tv_sec - start.tv_sec) * 1e9 + (double)(end.tv_nsec - start.tv_nsec);
    printf("%.1f\n", ns / (double)n);
    return 0;
}
