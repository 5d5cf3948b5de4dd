/* Watched memory for process.data: built without PIE, so nm gives the
 * addresses the probes take. bump() reads counter and writes it twice,
 * peek() reads it; toggle() likewise flag; main writes wide[1] once, and has
 * the kernel fill buffer (read(2)). */
#include <fcntl.h>
#include <unistd.h>

volatile int counter, flag;
volatile long wide[2];
char buffer[8];

__attribute__((noinline)) void bump(void) { counter = counter + 0; counter = 7; }
__attribute__((noinline)) int peek(void) { return counter; }
__attribute__((noinline)) void toggle(void) { flag = !flag; flag = !flag; }
__attribute__((noinline)) void fill(void)
{
    int fd = open("/dev/zero", O_RDONLY);
    if (fd >= 0 && read(fd, buffer, sizeof(buffer)) == (ssize_t)sizeof(buffer))
        close(fd);
}

int main(void)
{
    bump();
    int seen = peek();
    toggle();
    wide[1] = 42;
    fill();
    return seen == 7 && wide[1] == 42 ? 0 : 1;
}
