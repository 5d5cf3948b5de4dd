/* Entry probes on calls (sema/uprobe_calls.c), built at -O2 as t_calls_o2.
 * Every function here starts with an instruction the kernel single-steps
 * (a lea, mov or imul: no push), so each is a candidate to move:
 *  - twice() has three calls, two direct and one through the tail call in
 *    twice_tail() (a jmp): its probe moves to them;
 *  - by_pointer() has its address taken: its probe stays at the entry;
 *  - alone() is called and also reached by falling into it from nowhere
 *    else; it moves like twice().
 * Exactly N calls of each happen, whichever way the probes sit. */
#define NOIPA __attribute__((noipa))

volatile long sink;

NOIPA long twice(long a, long b) { return a * 2 + b; }

NOIPA long twice_tail(long a) { return twice(a, 7); }   /* at -O2: mov $7,%esi; jmp twice */

NOIPA long by_pointer(long a) { return a * 3 + 1; }

NOIPA long alone(long a) { return a * 5; }

long (*volatile pointer)(long) = by_pointer;

int main(int argc, char **argv)
{
    (void)argv;
    for (long i = 0; i < 10; i++) {
        sink += twice(i, argc);          /* 10 calls, a = 0..9 */
        sink += pointer(i);              /* 10 indirect calls */
    }
    for (long i = 0; i < 5; i++)
        sink += twice_tail(100 + i);     /* 5 more calls of twice, a = 100..104, b = 7 */
    sink += alone(argc);
    return 0;
}
