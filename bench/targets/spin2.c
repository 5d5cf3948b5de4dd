/* spin2.c: two threads busy for SECONDS (default 5), for a 99 Hz profile
 * with stacks as keys (bench/stacks.sh). Each thread counts rounds of
 * work() under main -> worker -> spin -> work; the output gives the rounds
 * per CPU-second (what a profiler's overhead takes away) and the CPU time
 * (what the number of samples should match: 99 per CPU-second).
 *   prints: rounds=R cpu_ms=C rounds_per_cpu_ms=X pid=P
 */
#include <pthread.h>
#include <stdio.h>
#include <stdlib.h>
#include <sys/resource.h>
#include <time.h>
#include <unistd.h>

static double seconds = 5;
static long rounds[2];

static double now(void)
{
	struct timespec ts;
	clock_gettime(CLOCK_MONOTONIC, &ts);
	return ts.tv_sec + ts.tv_nsec / 1e9;
}

__attribute__((noipa)) long work(long n)
{
	volatile long acc = 0;
	for (long i = 0; i < n; i++)
		acc += i * i;
	return acc;
}

__attribute__((noipa)) long spin(long *count)
{
	double until = now() + seconds;
	while (now() < until) {
		work(10000);
		(*count)++;
	}
	return *count;
}

static void *worker(void *arg)
{
	spin(arg);
	return NULL;
}

int main(int argc, char **argv)
{
	if (argc > 1)
		seconds = atof(argv[1]);
	pthread_t t[2];
	for (int i = 0; i < 2; i++)
		pthread_create(&t[i], NULL, worker, &rounds[i]);
	for (int i = 0; i < 2; i++)
		pthread_join(t[i], NULL);
	struct rusage ru;
	getrusage(RUSAGE_SELF, &ru);
	long cpu_ms = (ru.ru_utime.tv_sec + ru.ru_stime.tv_sec) * 1000 + (ru.ru_utime.tv_usec + ru.ru_stime.tv_usec) / 1000;
	long total = rounds[0] + rounds[1];
	printf("rounds=%ld cpu_ms=%ld rounds_per_cpu_ms=%.2f pid=%d\n", total, cpu_ms,
	       cpu_ms > 0 ? (double)total / (double)cpu_ms : 0.0, (int)getpid());
	return 0;
}
