// Exceptions unwinding through probed frames (issue 20): thrower() throws
// for n % 3 == 0, main catches around middle() -> thrower(). A .return probe
// on thrower or middle must leave the unwinding alone.
#include <cstdio>
#include <stdexcept>

__attribute__((noinline)) long thrower(long n)
{
    if (n % 3 == 0)
        throw std::runtime_error("multiple of three");
    return n * 10;
}

__attribute__((noinline)) long middle(long n)
{
    long r = thrower(n);
    return r + 1;
}

// Calls nothing: no exception can unwind through it.
__attribute__((noinline)) long leaf(long n)
{
    return n + 1000;
}

// A tail call at -O2 (jmp thrower): its frame is gone before thrower returns.
__attribute__((noinline)) long tail_caller(long n)
{
    return thrower(3 * n + 1);
}

// An indirect tail call at -O2 (jmp through the pointer): where it goes is
// not known, so its .return cannot follow it (never called).
long (*volatile through)(long) = thrower;
__attribute__((noinline)) long tail_pointer(long n)
{
    return through(n + 1);
}

// A switch through a jump table at -O2 (an indirect jmp once its frameless
// code has nothing to pop): it stays in the function (never called).
__attribute__((noinline)) long switch_leaf(long n, long k)
{
    switch (k) {
    case 0: return n * 3;
    case 1: return n + 7;
    case 2: return n ^ 5;
    case 3: return n << 2;
    case 4: return n / 3;
    case 5: return n % 11;
    case 6: return -n;
    default: return n;
    }
}

int main()
{
    long sum = 0, caught = 0, tails = 0;
    for (long n = 1; n <= 10; n++) {
        try {
            sum += middle(n);
        } catch (const std::runtime_error &e) {
            caught++;
        }
        tails += tail_caller(n) + leaf(n);
    }
    std::printf("sum=%ld caught=%ld tails=%ld\n", sum, caught, tails);
    return caught == 3 ? 0 : 1;
}
