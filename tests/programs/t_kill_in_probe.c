/* Killed inside a probed function (issue 20): two worker threads call
 * step() without end (it calls inner(), so its .return sits at its ret, a
 * single-stepped instruction); once a line comes on stdin, main calls die(),
 * which SIGKILLs the whole process from inside: the kill lands while die's
 * frame (and its .return's entry record) is live and the workers are in and
 * out of step's probes. */
#include <pthread.h>
#include <signal.h>
#include <stdio.h>
#include <unistd.h>

static volatile long counts[2];
static const char *label = "step";

__attribute__((noinline)) long inner(long i) { return i * 2 + 1; }

__attribute__((noinline)) long step(const char *name, long i) { return inner(i) + name[0]; }

static void *worker(void *arg)
{
    long k = (long)arg;
    for (;;)
        counts[k] += step(label, counts[k] & 0xff) & 1;
    return NULL;
}

__attribute__((noinline)) int die(int signal)
{
    printf("dying\n");
    fflush(stdout);
    kill(getpid(), signal);
    return 0;
}

int main(void)
{
    pthread_t threads[2];
    char line[16];
    for (long k = 0; k < 2; k++)
        pthread_create(&threads[k], NULL, worker, (void *)k);
    if (!fgets(line, sizeof(line), stdin))
        return 2;
    return die(SIGKILL);
}
