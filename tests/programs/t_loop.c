/* Runs until killed, calling tick() every 20 ms: the target of -x tests. */
#include <unistd.h>

__attribute__((noipa)) void tick(int i)
{
    (void)i;
}

int main(void)
{
    for (int i = 0;; i++) {
        tick(i);
        usleep(20000);
    }
}
