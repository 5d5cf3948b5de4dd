/* Two syscall-entry handlers deferred at once (kernel_syscall_defer_full):
 * a thread opens the FIFO argv[1] for reading from a path the process has
 * never touched, so its entry handler waits for the syscall's exit, and
 * blocks there; once it is blocked, the main thread opens argv[2] from
 * another such page, then opens the FIFO for writing, which lets the
 * first open return. dirfd 4242 marks the two calls for the script. */
#include <fcntl.h>
#include <pthread.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/mman.h>
#include <sys/syscall.h>
#include <time.h>
#include <unistd.h>

#include "cold_copy.h"

#define MARK_DIRFD 4242

static const char *fifo_path;
static pid_t reader_tid;

static void *reader(void *unused)
{
    (void)unused;
    const char *path = cold_copy(fifo_path);
    __atomic_store_n(&reader_tid, (pid_t)syscall(SYS_gettid), __ATOMIC_SEQ_CST);
    int fd = openat(MARK_DIRFD, path, O_RDONLY);
    if (fd >= 0)
        close(fd);
    return NULL;
}

/* The reader is inside openat (257) once its syscall file says so. */
static int blocked_in_openat(pid_t tid)
{
    char name[64], line[64] = "";
    snprintf(name, sizeof(name), "/proc/self/task/%d/syscall", (int)tid);
    FILE *f = fopen(name, "r");
    if (!f)
        return 0;
    int got = fgets(line, sizeof(line), f) != NULL;
    fclose(f);
    return got && strncmp(line, "257 ", 4) == 0;
}

int main(int argc, char **argv)
{
    if (argc != 3)
        return 2;
    fifo_path = argv[1];
    pthread_t thread;
    if (pthread_create(&thread, NULL, reader, NULL) != 0)
        return 2;
    pid_t tid;
    while ((tid = __atomic_load_n(&reader_tid, __ATOMIC_SEQ_CST)) == 0 || !blocked_in_openat(tid))
        nanosleep(&(struct timespec){0, 1000000}, NULL);
    int fd = openat(MARK_DIRFD, cold_copy(argv[2]), O_RDONLY);
    if (fd >= 0)
        close(fd);
    int writer = open(fifo_path, O_WRONLY);
    pthread_join(thread, NULL);
    if (writer >= 0)
        close(writer);
    return 0;
}
