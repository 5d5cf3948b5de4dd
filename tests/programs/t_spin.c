/* t_spin N: N times, a spin lock's life in libc (init, lock, trylock,
 * unlock, destroy), then "done". libc's pthread_spin_lock starts with
 * `lock decl`, an instruction the kernel's uprobes refuse: the target of
 * the refused-instruction tests. */
#include <pthread.h>
#include <stdio.h>
#include <stdlib.h>

int main(int argc, char **argv)
{
    int n = argc > 1 ? atoi(argv[1]) : 1;
    for (int i = 0; i < n; i++) {
        pthread_spinlock_t lock;
        pthread_spin_init(&lock, PTHREAD_PROCESS_PRIVATE);
        pthread_spin_lock(&lock);
        pthread_spin_unlock(&lock);
        if (pthread_spin_trylock(&lock) == 0)
            pthread_spin_unlock(&lock);
        pthread_spin_destroy(&lock);
    }
    puts("done");
    return 0;
}
