/* sysfs CPU lists ("0-3,8,10-11"): perf events are opened per online CPU. */
#include <fcntl.h>
#include <stdlib.h>
#include <string.h>
#include <unistd.h>

#include "runtime/session.h"

int cpu_list_parse(const char *text, unsigned char *cpus, int max)
{
    int count = 0;
    const char *p = text;

    for (int i = 0; i < max; i++)
        cpus[i] = 0;
    while (*p && *p != '\n') {
        char *end;
        long lo = strtol(p, &end, 10), hi;
        if (end == p)
            return -1;
        p = end;
        hi = lo;
        if (*p == '-') {
            hi = strtol(p + 1, &end, 10);
            if (end == p + 1)
                return -1;
            p = end;
        }
        for (long c = lo; c <= hi && c < max; c++) {
            if (c >= 0 && !cpus[c]) {
                cpus[c] = 1;
                count++;
            }
        }
        if (*p == ',')
            p++;
        else if (*p && *p != '\n')
            return -1;
    }
    return count;
}

int online_cpus(unsigned char *cpus)
{
    char text[256] = "";
    int fd = open("/sys/devices/system/cpu/online", O_RDONLY | O_CLOEXEC);
    if (fd >= 0) {
        ssize_t n = read(fd, text, sizeof(text) - 1);
        text[n > 0 ? n : 0] = '\0';
        close(fd);
    }
    int count = cpu_list_parse(text, cpus, MAX_CPUS);
    if (count <= 0) {
        memset(cpus, 0, MAX_CPUS);
        cpus[0] = 1;
        count = 1;
    }
    return count;
}
