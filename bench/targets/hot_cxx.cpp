/* hot_cxx.cpp: hot.c in C++ with exceptions, for the .return rows: work()
 * calls mix() (so an exception could unwind through it) and main catches,
 * so tap puts a .return probe on work's rets (single-stepped) instead of a
 * uretprobe. Same usage and output as hot.c. */
#include <cstdio>
#include <cstdlib>
#include <stdexcept>
#include <time.h>
#include <unistd.h>

__attribute__((noipa)) int mix(int a, int b)
{
	if (a < 0)
		throw std::runtime_error("negative");
	return a * 31 + b;
}

// extern "C": every tool names it work (bpftrace's uretprobe:T:work too)
extern "C" __attribute__((noipa)) int work(int a, int b)
{
	return mix(a, b) & 0xff;
}

static long long now_ns()
{
	struct timespec ts;
	clock_gettime(CLOCK_MONOTONIC, &ts);
	return (long long)ts.tv_sec * 1000000000LL + ts.tv_nsec;
}

int main(int argc, char **argv)
{
	long n = argc > 1 ? atol(argv[1]) : 1000000;
	int sink = 0;
	long long t0 = now_ns();
	try {
		for (long i = 0; i < n; i++)
			sink += work((int)i, 3);
	} catch (const std::exception &e) {
		return 1;
	}
	long long t1 = now_ns();
	printf("calls=%ld total_ns=%lld ns_per_call=%.2f pid=%d sink=%d\n", n, t1 - t0,
	       n > 0 ? (double)(t1 - t0) / (double)n : 0.0, (int)getpid(), sink);
	return 0;
}
