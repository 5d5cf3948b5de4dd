// A C++ exception through a tail-jumping C function (issue 20): libc's
// qsort is `xor r8d, r8d; jmp qsort_r`, so its caller's return address is
// popped by qsort_r's ret. compare() throws on the fifth call of the second
// sort; main catches around sort() -> qsort -> qsort_r -> compare(). The
// third sort calls qsort_r itself, from the same frame (the same stack
// pointer) the abandoned qsort had: it is no return of qsort.
#include <cstdio>
#include <cstdlib>
#include <stdexcept>

static int calls, throw_at;

extern "C" __attribute__((noinline)) int compare(const void *a, const void *b)
{
    int x = *(const int *)a, y = *(const int *)b;
    if (++calls == throw_at)
        throw std::runtime_error("compare failed");
    return (x > y) - (x < y);
}

extern "C" __attribute__((noinline)) int compare_r(const void *a, const void *b, void *arg)
{
    return compare(a, b) * *(int *)arg;
}

// One function for both, so qsort and qsort_r start at the same stack pointer.
__attribute__((noinline)) int sort(int *v, int n, int *direction)
{
    if (direction)
        qsort_r(v, (size_t)n, sizeof(*v), compare_r, direction);
    else
        qsort(v, (size_t)n, sizeof(*v), compare);
    return v[0];
}

int main()
{
    int v[8] = {5, 3, 8, 1, 9, 2, 7, 4}, w[8] = {6, 2, 9, 4, 1, 8, 3, 7}, x[4] = {4, 1, 3, 2};
    int first = sort(v, 8, nullptr);
    std::printf("sorted first=%d comparisons=%d\n", first, calls);
    calls = 0;
    throw_at = 5;
    try {
        sort(w, 8, nullptr);
        std::puts("not thrown");
    } catch (const std::exception &e) {
        std::printf("caught \"%s\" at comparison %d\n", e.what(), calls);
    }
    int down = -1;
    throw_at = 0;
    std::printf("qsort_r descending first=%d\n", sort(x, 4, &down));
    return calls > 5 ? 0 : 1;
}
