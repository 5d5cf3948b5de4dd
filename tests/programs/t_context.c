/* swapcontext coroutines (issue 20): step(i) yields to main from inside
 * itself, on the coroutine's own stack, and returns when resumed; a second
 * coroutine yields inside step(100) and is never resumed. */
#include <stdio.h>
#include <ucontext.h>

static ucontext_t main_context, coroutine_context, abandoned_context;
static char coroutine_stack[65536], abandoned_stack[65536];
static long total;
static int done;

__attribute__((noipa)) long yield_to_main(ucontext_t *self)
{
    swapcontext(self, &main_context);
    return 1;
}

__attribute__((noipa)) long step(long i, ucontext_t *self)
{
    return i * 10 + yield_to_main(self);
}

static void coroutine(void)
{
    for (long i = 1; i <= 3; i++)
        total += step(i, &coroutine_context);
    done = 1;
}

static void abandoned(void)
{
    total += step(100, &abandoned_context);
}

static void prepare(ucontext_t *context, char *stack, size_t size, void (*body)(void))
{
    getcontext(context);
    context->uc_stack.ss_sp = stack;
    context->uc_stack.ss_size = size;
    context->uc_link = &main_context;
    makecontext(context, body, 0);
}

int main(void)
{
    int resumes = 0;
    prepare(&coroutine_context, coroutine_stack, sizeof(coroutine_stack), coroutine);
    prepare(&abandoned_context, abandoned_stack, sizeof(abandoned_stack), abandoned);
    swapcontext(&main_context, &abandoned_context);
    while (!done) {
        swapcontext(&main_context, &coroutine_context);
        resumes++;
    }
    printf("total=%ld resumes=%d\n", total, resumes);
    return total == 63 ? 0 : 1;
}
