/* A shared library with SDT marks, one guarded by a semaphore (usdt_library). */
#define _SDT_HAS_SEMAPHORES 1
#include <sys/sdt.h>

__extension__ unsigned short tap_lib_call_semaphore __attribute__((unused, section(".probes")));
__extension__ unsigned short tap_lib_leave_semaphore __attribute__((unused, section(".probes")));

static long t_usdtlib_counter;

long t_usdtlib_call(long x)
{
    t_usdtlib_counter += x;
    if (__builtin_expect(tap_lib_call_semaphore, 0))
        STAP_PROBE2(tap_lib, call, x, t_usdtlib_counter);
    STAP_PROBE2(tap_lib, leave, t_usdtlib_counter, x);
    return t_usdtlib_counter;
}
