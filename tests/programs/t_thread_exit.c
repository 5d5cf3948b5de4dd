/* pthread_exit from inside a probed function (issue 20): threads run one
 * after the other (so each reuses the last one's cached stack); the odd
 * ones leave by finish(n) -> pthread_exit, never returning from finish or
 * body. */
#include <pthread.h>
#include <stdio.h>

__attribute__((noipa)) long compute(long n)
{
    return n * n;
}

__attribute__((noipa)) void finish(long n)
{
    pthread_exit((void *)(compute(n) + 1));
}

__attribute__((noipa)) void *body(void *arg)
{
    long n = (long)arg;
    if (n % 2)
        finish(n);
    return (void *)compute(n);
}

int main(void)
{
    long sum = 0;
    for (long n = 1; n <= 4; n++) {
        pthread_t thread;
        void *result;
        if (pthread_create(&thread, NULL, body, (void *)n) || pthread_join(thread, &result))
            return 2;
        sum += (long)result;
    }
    printf("sum=%ld\n", sum);
    return sum == 32 ? 0 : 1;
}
