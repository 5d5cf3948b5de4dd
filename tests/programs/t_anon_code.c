/* t_anon_code MS: runs code from an anonymous executable mapping at
 * 0x401000 for about MS milliseconds. Built twice: t_anon_code (a PIE:
 * nothing of its own is at 0x401000) and t_anon_code_nopie (its text is
 * at 0x401000), which runs 300 ms, then execs t_anon_code beside it: the
 * same pid's new image has anonymous code where the old image had a file's
 * functions (stack_profile_exec_stale_mapping). */
#include <stdio.h>
#include <string.h>
#include <sys/mman.h>
#include <time.h>
#include <unistd.h>
#include <stdlib.h>

#define CODE_ADDRESS 0x401000ul

static long now_ms(void)
{
    struct timespec t;
    clock_gettime(CLOCK_MONOTONIC, &t);
    return t.tv_sec * 1000 + t.tv_nsec / 1000000;
}

#ifdef STAGE_NOPIE
int main(int argc, char **argv)
{
    char path[4096];
    ssize_t n = readlink("/proc/self/exe", path, sizeof(path) - 32);
    if (argc < 2 || n < 0)
        return 2;
    path[n] = 0;
    strcpy(strrchr(path, '/') + 1, "t_anon_code");
    for (long start = now_ms(); now_ms() - start < 300;)
        ;   /* long enough for tap to have its mappings */
    execv(path, argv);
    perror("execv");
    return 127;
}
#else
int main(int argc, char **argv)
{
    /* mov ecx, 0x400000; 1: dec rcx; jnz 1b; ret */
    static const unsigned char loop[] = {0xb9, 0x00, 0x00, 0x40, 0x00, 0x48, 0xff, 0xc9, 0x75, 0xfb, 0xc3};
    if (argc < 2)
        return 2;
    void *code = mmap((void *)CODE_ADDRESS, 4096, PROT_READ | PROT_WRITE | PROT_EXEC,
                      MAP_PRIVATE | MAP_ANONYMOUS | MAP_FIXED_NOREPLACE, -1, 0);
    if (code != (void *)CODE_ADDRESS)
        return 3;
    memcpy(code, loop, sizeof(loop));
    void (*run)(void) = (void (*)(void))code;
    usleep(100000);   /* for tap to read the exec record */
    long ms = atol(argv[1]);
    for (long start = now_ms(); now_ms() - start < ms;)
        run();
    return 0;
}
#endif
