/* t_threads THREADS CALLS [PAUSE_US]: THREADS threads each call step(i) for
 * i = 0 .. CALLS-1 (pausing PAUSE_US microseconds between calls when given),
 * then the program prints how many calls returned 1 (CALLS / 2 a thread).
 * With CALLS 0 the threads call on until standard input ends (so a test
 * decides how long it runs), and the program prints whether every thread
 * counted right. The target of the load, thread-safety and SIGKILL tests. */
#include <pthread.h>
#include <stdatomic.h>
#include <stdio.h>
#include <stdlib.h>
#include <unistd.h>

static long calls;
static long pause_us;
static atomic_int stop;

struct result { long odd, made; };

__attribute__((noipa)) long step(long i)
{
    return i & 1;
}

static void *worker(void *arg)
{
    struct result *r = arg;
    long i = 0;
    for (; calls ? i < calls : !atomic_load(&stop); i++) {
        r->odd += step(i);
        if (pause_us)
            usleep((useconds_t)pause_us);
    }
    r->made = i;
    return NULL;
}

int main(int argc, char **argv)
{
    int threads = argc > 1 ? atoi(argv[1]) : 2;
    calls = argc > 2 ? atol(argv[2]) : 1000;
    pause_us = argc > 3 ? atol(argv[3]) : 0;
    if (threads < 1 || threads > 64)
        return 2;
    pthread_t ids[64];
    struct result results[64] = {{0, 0}};
    for (int t = 0; t < threads; t++)
        pthread_create(&ids[t], NULL, worker, &results[t]);
    if (!calls) {
        char buf[64];
        while (read(STDIN_FILENO, buf, sizeof(buf)) > 0)
            ;
        atomic_store(&stop, 1);
    }
    long total = 0;
    int right = 1;
    for (int t = 0; t < threads; t++) {
        pthread_join(ids[t], NULL);
        total += results[t].odd;
        right &= results[t].odd == results[t].made / 2;
    }
    if (calls)
        printf("threads=%d calls=%ld odd=%ld\n", threads, calls, total);
    else
        printf("threads=%d odd counts right: %d\n", threads, right);
    return 0;
}
