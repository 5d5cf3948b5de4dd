/* A copy of `path` in a page the process has never touched: the string is
 * written into a fresh file, which is mapped and returned without being
 * read, so it is not resident when a syscall's entry reads it (t_cold_path,
 * t_cold_fifo). */
#include <stdlib.h>
#include <string.h>
#include <sys/mman.h>
#include <unistd.h>

static const char *cold_copy(const char *path)
{
    char name[] = "/tmp/t_cold_copy.XXXXXX";
    int fd = mkstemp(name);
    size_t size = strlen(path) + 1;
    if (fd < 0 || write(fd, path, size) != (ssize_t)size)
        exit(2);
    unlink(name);
    const char *mapped = mmap(NULL, size, PROT_READ, MAP_PRIVATE, fd, 0);   /* never read here */
    close(fd);
    if (mapped == MAP_FAILED)
        exit(2);
    return mapped;
}
