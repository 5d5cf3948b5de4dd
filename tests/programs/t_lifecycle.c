/* t_lifecycle PROGRAM: the process lifecycle in one run, one step at a time:
 * two threads (joined), a forked child that starts one thread of its own
 * and exits, a forked child that execs PROGRAM (waited for), then exit. For
 * process.begin/.end and .thread.begin/.end. */
#include <pthread.h>
#include <sys/wait.h>
#include <unistd.h>

static void *idle(void *arg)
{
    return arg;
}

static void one_thread(void)
{
    pthread_t id;
    pthread_create(&id, NULL, idle, NULL);
    pthread_join(id, NULL);
}

int main(int argc, char **argv)
{
    if (argc < 2)
        return 2;
    one_thread();
    one_thread();
    pid_t child = fork();
    if (child == 0) {
        one_thread();
        _exit(0);
    }
    waitpid(child, NULL, 0);
    child = fork();
    if (child == 0) {
        execv(argv[1], argv + 1);
        _exit(127);
    }
    waitpid(child, NULL, 0);
    return 0;
}
