/* t_threads THREADS CALLS [PAUSE_US]: THREADS threads each call step(i) for
 * i = 0 .. CALLS-1 (pausing PAUSE_US microseconds between calls when given),
 * then the program prints how many calls returned 1 (CALLS / 2 a thread).
 * The target of the load, thread-safety and SIGKILL tests. */
#include <pthread.h>
#include <stdio.h>
#include <stdlib.h>
#include <unistd.h>

static long calls;
static long pause_us;

__attribute__((noipa)) long step(long i)
{
    return i & 1;
}

static void *worker(void *arg)
{
    long odd = 0;
    for (long i = 0; i < calls; i++) {
        odd += step(i);
        if (pause_us)
            usleep((useconds_t)pause_us);
    }
    *(long *)arg = odd;
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
    long odd[64];
    for (int t = 0; t < threads; t++)
        pthread_create(&ids[t], NULL, worker, &odd[t]);
    long total = 0;
    for (int t = 0; t < threads; t++) {
        pthread_join(ids[t], NULL);
        total += odd[t];
    }
    printf("threads=%d calls=%ld odd=%ld\n", threads, calls, total);
    return 0;
}
