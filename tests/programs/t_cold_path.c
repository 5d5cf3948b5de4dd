/* Paths handed to openat from pages the process has never touched, so the
 * string is not resident when the syscall enters (the kernel faults it in
 * while it copies the path): for syscall-entry probes that read it
 * (kernel_user_string_cold, kernel_syscall_openat_cold). Each argument is
 * written into a fresh file, which is mapped and passed without being read;
 * between the cold ones, the same path from the stack (resident). dirfd 4242
 * (ignored for an absolute path) marks these calls for the scripts.
 * `t_cold_path --exec PROGRAM` execs PROGRAM from such a page instead
 * (kernel_syscall_execve_cold: its memory is gone by the syscall's exit
 * when the exec succeeds). */
#include <fcntl.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/mman.h>
#include <unistd.h>

#include "cold_copy.h"

#define MARK_DIRFD 4242

/* A path that does not exist is one of the cases: no status to return. */
static void open_marked(const char *path)
{
    int fd = openat(MARK_DIRFD, path, O_RDONLY);
    if (fd >= 0)
        close(fd);
}

int main(int argc, char **argv)
{
    if (argc == 3 && strcmp(argv[1], "--exec") == 0) {
        char *args[] = {argv[2], NULL};
        execv(cold_copy(argv[2]), args);
        return 0;   /* /nonexistent is one of the cases */
    }
    for (int i = 1; i < argc; i++) {
        char warm[256];
        snprintf(warm, sizeof(warm), "%s", argv[i]);
        open_marked(cold_copy(argv[i]));
        open_marked(warm);
    }
    return 0;
}
