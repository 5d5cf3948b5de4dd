/* The processes already running when tap starts, for the process lifecycle
 * tapsets (tapsets/process_exe.tp, process.tp): once the probes are
 * attached, each process in /proc gets its executable recorded (kernel
 * dev_t and inode, in the script's __process_exe_dev/__process_exe_ino) and
 * a pending process.begin (__process_pending = 1), unless a fork or exec
 * seen since the attachment recorded it first (BPF_NOEXIST): that one had
 * its begin already. The -c child has not started the command yet: its exec
 * will be its begin. Each of their threads but the first gets a pending
 * process.thread.begin (__thread_pending = 1), unless clone's return in it
 * was seen first (__thread_started). The maps are there only when the
 * script uses them. */
#include <ctype.h>
#include <dirent.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include <bpf/bpf.h>
#include <bpf/libbpf.h>

#include "runtime/session.h"

/* The BPF map of the script's global NAME (a long array keyed by one long). */
static const struct program_map *long_map(struct session *s, const char *name, int *fd)
{
    for (int i = 0; i < s->program->map_count; i++) {
        const struct program_map *m = &s->program->maps[i];
        if (strcmp(m->name, name) != 0 || m->kind != PROGRAM_MAP_LONG || m->key_count != 1 ||
            m->key_kinds[0] != FORMAT_ARG_LONG || m->value_size < 16)
            continue;
        struct bpf_map *map = bpf_object__find_map_by_name(s->object, m->map_name);
        *fd = map ? bpf_map__fd(map) : -1;
        return *fd >= 0 ? m : NULL;
    }
    return NULL;
}

/* value then the element's insertion number (0: before any of the script's) */
static int insert(int fd, int64_t tgid, int64_t value, unsigned long long flags)
{
    int64_t row[2] = {value, 0};
    return bpf_map_update_elem(fd, &tgid, row, flags);
}

/* The threads of TGID other than its first, when the script has
 * process.thread.begin probes: pending first, as for the process. */
static void scan_threads(struct session *s, int64_t tgid)
{
    int pending_fd, started_fd;
    if (!long_map(s, "__thread_pending", &pending_fd) || !long_map(s, "__thread_started", &started_fd))
        return;
    char path[64];
    snprintf(path, sizeof(path), "/proc/%lld/task", (long long)tgid);
    DIR *tasks = opendir(path);
    if (!tasks)
        return;
    struct dirent *entry;
    while ((entry = readdir(tasks))) {
        int64_t tid = strtoll(entry->d_name, NULL, 10);
        if (!isdigit((unsigned char)entry->d_name[0]) || tid == tgid)
            continue;
        int pending = insert(pending_fd, tid, 1, BPF_NOEXIST) == 0;
        if (insert(started_fd, tid, 1, BPF_NOEXIST) < 0 && pending)
            bpf_map_delete_elem(pending_fd, &tid);
    }
    closedir(tasks);
}

void session_scan_processes(struct session *s)
{
    int ino_fd, dev_fd, pending_fd = -1;
    if (!long_map(s, "__process_exe_ino", &ino_fd) || !long_map(s, "__process_exe_dev", &dev_fd))
        return;
    long_map(s, "__process_pending", &pending_fd);
    DIR *proc = opendir("/proc");
    if (!proc)
        return;
    struct dirent *entry;
    while ((entry = readdir(proc))) {
        if (!isdigit((unsigned char)entry->d_name[0]))
            continue;
        int64_t tgid = strtoll(entry->d_name, NULL, 10);
        struct symbol_map_key key;
        char exe[64];
        snprintf(exe, sizeof(exe), "/proc/%lld/exe", (long long)tgid);
        if (tgid == s->child_pid || session_file_key(exe, &key) < 0)
            continue;   /* the -c child, a kernel thread, gone, or not ours to read */
        /* pending first: a fork or exec that comes after it deletes it */
        int pending = pending_fd >= 0 && insert(pending_fd, tgid, 1, BPF_NOEXIST) == 0;
        if (insert(ino_fd, tgid, (int64_t)key.ino, BPF_NOEXIST) < 0) {
            if (pending)   /* recorded by its fork or exec since the probes were attached */
                bpf_map_delete_elem(pending_fd, &tgid);
            continue;
        }
        insert(dev_fd, tgid, (int64_t)key.dev, BPF_ANY);
        scan_threads(s, tgid);
    }
    closedir(proc);
}
