/* Kernel work for the vm.write_shared and vm.kmem_cache_alloc_node goldens
 * (kernel_tapset_vm_functions): 5 private anonymous pages mapped (the only
 * mmap of 5 pages), pages 0 to 2 read, which maps the shared zero page
 * read-only, then written at offset 100, each a write fault on a present
 * page (do_wp_page); page 3 written without a read first (a fault on a
 * missing page, not a write to a shared one); page 4 untouched. Then a
 * child by fork (its task_struct from kmem_cache_alloc_node), which writes
 * page 3 (a copy of the page it shares with its parent), waited for. */
#include <sys/mman.h>
#include <sys/wait.h>
#include <unistd.h>

int main(void)
{
    volatile char *p = mmap(NULL, 5 * 4096, PROT_READ | PROT_WRITE, MAP_PRIVATE | MAP_ANONYMOUS, -1, 0);
    if (p == MAP_FAILED)
        return 1;
    int sum = 0;
    for (int i = 0; i < 3; i++)
        sum += p[i * 4096 + 100];
    for (int i = 0; i < 4; i++)
        p[i * 4096 + 100] = 1;
    pid_t child = fork();
    if (child == 0) {
        p[3 * 4096 + 100] = 2;
        _exit(0);
    }
    int status = 1;
    waitpid(child, &status, 0);
    return sum != 0 || status != 0;
}
