/* A shared library calling libc through its own PLT (plt_library*):
 * each pltlib_measure() calls strlen twice and getpid once. */
#include <string.h>
#include <unistd.h>

long pltlib_measure(const char *text)
{
    return (long)strlen(text) + (long)strlen(text + 1) + (getpid() > 0);
}
