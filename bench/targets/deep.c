/* deep.c: a probed function 25 calls deep, for the per-hit cost of walking
 * a 20-frame user stack (bench/stacks.sh). Built twice: deep-fp with frame
 * pointers and its .eh_frame removed (so tap's walk follows frame pointers
 * as bpftrace's ustack does), deep-cfi at -O2 -fomit-frame-pointer (only
 * DWARF CFI finds the frames).
 *   usage: deep [N]      (default N = 200000)
 *   prints: calls=N total_ns=T ns_per_call=X.XX pid=P
 */
#include <stdio.h>
#include <stdlib.h>
#include <time.h>
#include <unistd.h>

#define DEPTH 25

volatile long sink;

/* rbx clobbered: the first instruction is a push in both builds (push %rbx,
 * push %rbp), which the kernel emulates instead of single-stepping */
__attribute__((noipa)) long leaf(long x)
{
	__asm__ volatile("" ::: "rbx");
	sink += x;
	return x;
}

long descend(long depth, long x);
/* called through a volatile pointer: no recursion the compiler can turn
 * into a loop; "+ 1" after the call: no tail call, every level keeps a frame */
static long (*volatile next)(long, long) = descend;

__attribute__((noipa)) long descend(long depth, long x)
{
	return (depth ? next(depth - 1, x) : leaf(x)) + 1;
}

static long long now_ns(void)
{
	struct timespec ts;
	clock_gettime(CLOCK_MONOTONIC, &ts);
	return (long long)ts.tv_sec * 1000000000LL + ts.tv_nsec;
}

int main(int argc, char **argv)
{
	long n = argc > 1 ? atol(argv[1]) : 200000;
	long long t0 = now_ns();
	for (long i = 0; i < n; i++)
		sink += descend(DEPTH, i);
	long long t1 = now_ns();
	printf("calls=%ld total_ns=%lld ns_per_call=%.2f pid=%d\n", n, t1 - t0,
	       n > 0 ? (double)(t1 - t0) / (double)n : 0.0, (int)getpid());
	return 0;
}
