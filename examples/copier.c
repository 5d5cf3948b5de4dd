/* copier: a small file copier for tap's examples to trace (files, read/write
 * sizes, malloc, slow calls). The same system calls and the same output on
 * every run:
 *   copier DIR    writes DIR/copier.in (10 x 4000 bytes), copies it to
 *                 DIR/copier.out three times through a malloc'd buffer of
 *                 512, 4096 and 16384 bytes, then removes both files.
 */
#include <fcntl.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <time.h>
#include <unistd.h>

#define CHUNKS 10
#define CHUNK_SIZE 4000

static char input_path[4096], output_path[4096];

__attribute__((noinline)) static int make_input(void)
{
    char chunk[CHUNK_SIZE];
    int fd = open(input_path, O_WRONLY | O_CREAT | O_TRUNC, 0644);
    if (fd < 0)
        return -1;
    memset(chunk, 'x', sizeof(chunk));
    for (int i = 0; i < CHUNKS; i++)
        if (write(fd, chunk, sizeof(chunk)) != (ssize_t)sizeof(chunk))
            return close(fd), -1;
    return close(fd);
}

/* One copy through a buffer of buffer_size bytes; returns the bytes copied. */
__attribute__((noinline)) static long copy_file(size_t buffer_size)
{
    char *buffer = malloc(buffer_size);
    int in = open(input_path, O_RDONLY);
    int out = open(output_path, O_WRONLY | O_CREAT | O_TRUNC, 0644);
    long total = 0;
    ssize_t n;
    while (buffer && in >= 0 && out >= 0 && (n = read(in, buffer, buffer_size)) > 0) {
        if (write(out, buffer, (size_t)n) != n)
            break;
        total += n;
    }
    close(in);
    close(out);
    free(buffer);
    return total;
}

/* A deliberately slow step, for the slow-syscall example. */
__attribute__((noinline)) static void settle(void)
{
    const struct timespec pause = {0, 20 * 1000 * 1000};
    nanosleep(&pause, NULL);
}

int main(int argc, char **argv)
{
    static const size_t sizes[] = {512, 4096, 16384};
    const char *dir = argc > 1 ? argv[1] : ".";
    long copied = 0;

    snprintf(input_path, sizeof(input_path), "%s/copier.in", dir);
    snprintf(output_path, sizeof(output_path), "%s/copier.out", dir);
    if (make_input() < 0) {
        perror(input_path);
        return 1;
    }
    for (size_t i = 0; i < sizeof(sizes) / sizeof(sizes[0]); i++) {
        copied += copy_file(sizes[i]);
        settle();
    }
    unlink(input_path);
    unlink(output_path);
    printf("copier: copied %ld bytes in %zu passes\n", copied, sizeof(sizes) / sizeof(sizes[0]));
    return copied == 3L * CHUNKS * CHUNK_SIZE ? 0 : 1;
}
