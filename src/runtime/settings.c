/* -G name=value: globals set before begin, by editing the initial value of
 * .data before load, so every probe (begin included) sees them. */
#include <errno.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/stat.h>
#include <time.h>

#include "runtime/session.h"

int settings_parse_long(const char *text, int64_t *value)
{
    char *end;

    if (!*text)
        return -1;
    errno = 0;
    long long v = strtoll(text, &end, 0);
    if (errno == ERANGE) {
        /* Accept the full unsigned 64-bit range, as stap does for hex masks. */
        errno = 0;
        if (text[0] == '-')
            return -1;
        v = (long long)strtoull(text, &end, 0);
    }
    if (errno || *end)
        return -1;
    *value = v;
    return 0;
}

static const struct program_global *find_global(const struct program *program, const char *name,
                                                size_t len)
{
    for (int i = 0; i < program->global_count; i++) {
        const struct program_global *g = &program->globals[i];
        if (strlen(g->name) == len && memcmp(g->name, name, len) == 0)
            return g;
    }
    return NULL;
}

static int apply_one(const struct program *program, char *data, size_t data_size,
                     const struct global_setting *setting, char *error, size_t error_size)
{
    size_t name_len = strlen(setting->name);
    const struct program_global *g = find_global(program, setting->name, name_len);
    int64_t v;

    if (!g) {
        snprintf(error, error_size, "no global variable named '%s'", setting->name);
        return -1;
    }
    if ((size_t)g->offset + g->size > data_size || g->size == 0) {
        snprintf(error, error_size, "global '%s' is outside .data", g->name);
        return -1;
    }
    if (g->kind == PROGRAM_GLOBAL_LONG) {
        if (settings_parse_long(setting->value, &v) < 0) {
            snprintf(error, error_size, "'%s' is not a number (for global '%s')", setting->value,
                     g->name);
            return -1;
        }
        memcpy(data + g->offset, &v, sizeof(v) < g->size ? sizeof(v) : g->size);
        return 0;
    }
    size_t n = strlen(setting->value);
    if (n > g->size - 1)
        n = g->size - 1;
    memset(data + g->offset, 0, g->size);
    memcpy(data + g->offset, setting->value, n);
    return 0;
}

/* Settings of the runtime's own globals, each where the script uses it. */
static void apply_used(const struct program *program, char *data, size_t data_size,
                       const struct global_setting *settings, int count)
{
    char error[128];
    for (int i = 0; i < count; i++)
        if (find_global(program, settings[i].name, strlen(settings[i].name)))
            apply_one(program, data, data_size, &settings[i], error, sizeof(error));
}

int settings_apply(const struct program *program, char *data, size_t data_size,
                   const struct global_setting *settings, int count, char *error,
                   size_t error_size)
{
    for (int i = 0; i < count; i++) {
        if (apply_one(program, data, data_size, &settings[i], error, error_size) < 0)
            return -1;
    }
    return 0;
}

/* tz_gmtoff() and tz_name() (tapsets/tzinfo.tp) read these globals, set here
 * as staprun sends them to SystemTap's module: the zone in force at the
 * session's start (seconds west of UTC, its abbreviation from localtime_r,
 * so TZ is honoured), not changed by a DST switch during the session. */
void settings_apply_zone(const struct program *program, char *data, size_t data_size)
{
    time_t now = time(NULL);
    struct tm local;
    char offset[32];
    if (!localtime_r(&now, &local))
        return;
    snprintf(offset, sizeof(offset), "%ld", -(long)local.tm_gmtoff);
    const struct global_setting zone[2] = {{"__tap_tz_gmtoff", offset},
                                           {"__tap_tz_name", local.tm_zone ? local.tm_zone : ""}};
    apply_used(program, data, data_size, zone, 2);
}

/* The inode of /proc/self/ns/KIND as text, "0" when it cannot be read. */
static void namespace_inode(const char *kind, char *text, size_t size)
{
    char path[64];
    struct stat st;
    snprintf(path, sizeof(path), "/proc/self/ns/%s", kind);
    snprintf(text, size, "%llu", stat(path, &st) == 0 ? (unsigned long long)st.st_ino : 0ULL);
}

/* task_ns_pid() and its kin (tapsets/task.tp) give ids as tap's own
 * namespaces see them, as SystemTap's give them as staprun's: BPF finds a
 * namespace by its inode (ns.inum), which these globals hold. */
void settings_apply_namespaces(const struct program *program, char *data, size_t data_size)
{
    char pid_ns[32], user_ns[32];
    namespace_inode("pid", pid_ns, sizeof(pid_ns));
    namespace_inode("user", user_ns, sizeof(user_ns));
    const struct global_setting ns[2] = {{"__tap_pid_ns_inum", pid_ns},
                                         {"__tap_user_ns_inum", user_ns}};
    apply_used(program, data, data_size, ns, 2);
}

/* cpu_clock_ns(cpu) (tapsets/context.tp) refuses a CPU that is not online,
 * as SystemTap's does: the online CPUs at the session's start, one '1' or '0'
 * a CPU from CPU 0 up to the last online one (as far as the string holds). */
void settings_apply_cpus(const struct program *program, char *data, size_t data_size)
{
    static const char name[] = "__tap_cpus_online";
    const struct program_global *g = find_global(program, name, strlen(name));
    unsigned char cpus[MAX_CPUS];
    char text[MAX_CPUS + 1], error[128];
    if (!g)
        return;
    online_cpus(cpus);
    int last = 0;
    for (int i = 0; i < MAX_CPUS; i++) {
        text[i] = cpus[i] ? '1' : '0';
        if (cpus[i])
            last = i;
    }
    text[last + 1] = '\0';
    const struct global_setting online = {name, text};
    apply_one(program, data, data_size, &online, error, sizeof(error));
}
