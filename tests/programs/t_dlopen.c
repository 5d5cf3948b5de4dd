/* dlopen() tests: loads libt_plugin.so (beside this program) once it is
 * running and calls plugin_run(report, 1); the library calls back report(),
 * where the probes fire, so the stack runs through frames of a library
 * that no index built at start holds. An argument N waits N ms between
 * loading and calling (usymname() resolves in BPF from tables tap refreshes
 * when it sees the new mapping). */
#include <dlfcn.h>
#include <libgen.h>
#include <limits.h>
#include <stdio.h>
#include <stdlib.h>
#include <unistd.h>

#ifndef PLUGIN
#define PLUGIN "libt_plugin.so"   /* t_dlopen_cfi: libt_plugin_cfi.so, both built -O2 without frame pointers */
#endif

typedef long (*callback)(long);
typedef long (*plugin_entry)(callback, long);

volatile long sink;

__attribute__((noinline)) long report(long x)
{
    sink = x;
    return x * 2;
}

int main(int argc, char **argv)
{
    char self[PATH_MAX], path[PATH_MAX + 32];
    ssize_t n = readlink("/proc/self/exe", self, sizeof(self) - 1);
    if (n < 0)
        return 1;
    self[n] = 0;
    snprintf(path, sizeof(path), "%s/" PLUGIN, dirname(self));
    void *plugin = dlopen(path, RTLD_NOW);
    if (!plugin) {
        fprintf(stderr, "%s\n", dlerror());
        return 1;
    }
    plugin_entry run;
    *(void **)&run = dlsym(plugin, "plugin_run");
    if (argc > 1)
        usleep((useconds_t)atoi(argv[1]) * 1000);
    sink = run(report, 1);
    dlclose(plugin);
    return 0;
}
