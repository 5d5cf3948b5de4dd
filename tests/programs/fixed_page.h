/* The two pages the t_stap_syscalls* programs build their arguments in, at
 * a fixed address: the goldens switch on at the mmap of 0x10000000 (as
 * SystemTap's start) and print addresses within it. */
#include <sys/mman.h>
#include <sys/syscall.h>
#include <unistd.h>

#define PAGE ((char *)0x10000000)

/* NULL when the kernel would not map them there. */
static char *map_fixed_page(void)
{
    char *p = (char *)syscall(SYS_mmap, PAGE, 8192, PROT_READ | PROT_WRITE,
                              MAP_PRIVATE | MAP_ANONYMOUS | MAP_FIXED, -1, 0);
    return p == PAGE ? p : NULL;
}
