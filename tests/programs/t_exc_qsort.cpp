// A C++ exception through C frames (issue 20): compare() throws from
// inside libc's qsort_r on its fifth call of the second sort; main catches
// around sort_some() -> qsort_r() -> (libc's merge sort) -> compare().
#include <cstdio>
#include <cstdlib>
#include <stdexcept>

static int calls, throw_at;

extern "C" __attribute__((noinline)) int compare(const void *a, const void *b, void *arg)
{
    int x = *(const int *)a, y = *(const int *)b;
    if (++calls == throw_at)
        throw std::runtime_error("compare failed");
    return ((x > y) - (x < y)) * *(int *)arg;
}

__attribute__((noinline)) int sort_some(int *v, int n)
{
    int direction = 1;
    qsort_r(v, (size_t)n, sizeof(*v), compare, &direction);
    return v[0];
}

int main()
{
    int v[8] = {5, 3, 8, 1, 9, 2, 7, 4}, w[8] = {6, 2, 9, 4, 1, 8, 3, 7};
    int first = sort_some(v, 8);
    std::printf("sorted first=%d comparisons=%d\n", first, calls);
    calls = 0;
    throw_at = 5;
    try {
        sort_some(w, 8);
        std::puts("not thrown");
    } catch (const std::exception &e) {
        std::printf("caught \"%s\" at comparison %d\n", e.what(), calls);
    }
    return calls == 5 ? 0 : 1;
}
