/* SDT marks guarded by semaphores (usdt_semaphore): `guarded` fires only when
 * its semaphore is raised, which the kernel does while a uprobe with the
 * semaphore as reference counter is attached; `state` reports the count. */
#define _SDT_HAS_SEMAPHORES 1
#include <stdio.h>
#include <sys/sdt.h>

__extension__ unsigned short tap_test_guarded_semaphore __attribute__((unused, section(".probes")));
__extension__ unsigned short tap_test_state_semaphore __attribute__((unused, section(".probes")));
#define TAP_TEST_GUARDED_ENABLED() __builtin_expect(tap_test_guarded_semaphore, 0)

int main(void)
{
    int enabled = 0;
    for (int i = 0; i < 3; i++) {
        if (TAP_TEST_GUARDED_ENABLED()) {
            enabled++;
            STAP_PROBE2(tap_test, guarded, i, enabled);
        }
    }
    STAP_PROBE2(tap_test, state, tap_test_guarded_semaphore, enabled);
    return enabled == 3 ? 0 : 1;
}
