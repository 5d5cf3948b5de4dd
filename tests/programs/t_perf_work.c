/* Work a perf counter can measure exactly or bound: touch_pages(n) first-
 * touches n fresh anonymous pages (n minor page faults), sleep_times(n)
 * sleeps n times (n context switches at least), spin_ms(n) burns n ms of
 * its own CPU time (task_clock). The golden cases perf_counter_* read the
 * counters on entry and return. A second thread calls tick() once. */
#include <pthread.h>
#include <sys/mman.h>
#include <time.h>
#include <unistd.h>

#define PAGE 4096

__attribute__((noipa)) long touch_pages(int n)
{
    char *p = mmap(NULL, (size_t)n * PAGE, PROT_READ | PROT_WRITE, MAP_PRIVATE | MAP_ANONYMOUS, -1, 0);
    if (p == MAP_FAILED)
        return -1;
    madvise(p, (size_t)n * PAGE, MADV_NOHUGEPAGE);
    long sum = 0;
    for (int i = 0; i < n; i++)
        sum += (p[(long)i * PAGE] = (char)i);
    munmap(p, (size_t)n * PAGE);
    return sum;
}

__attribute__((noipa)) void sleep_times(int n)
{
    for (int i = 0; i < n; i++)
        usleep(1000);
}

static long thread_ns(void)
{
    struct timespec t;
    clock_gettime(CLOCK_THREAD_CPUTIME_ID, &t);
    return t.tv_sec * 1000000000L + t.tv_nsec;
}

__attribute__((noipa)) long spin_ms(int n)
{
    long start = thread_ns(), spins = 0;
    while (thread_ns() - start < n * 1000000L)
        spins++;
    return spins;
}

__attribute__((noipa)) void tick(int i)
{
    (void)i;
}

static void *other_thread(void *arg)
{
    (void)arg;
    tick(1);
    return NULL;
}

int main(void)
{
    touch_pages(64);
    sleep_times(5);
    spin_ms(20);
    pthread_t t;
    pthread_create(&t, NULL, other_thread, NULL);
    pthread_join(t, NULL);
    return 0;
}
