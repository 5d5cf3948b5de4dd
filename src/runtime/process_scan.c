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

/* A begin owed to ID (a process or a thread) in PENDING_FD (-1: none),
 * unless a fork, exec or clone seen since the probes were attached wrote
 * ID's element of SEEN_FD first (BPF_NOEXIST fails): that one had its begin.
 * Pending goes in first, since those delete it. Returns whether ID is new. */
static int owe_begin(int pending_fd, int seen_fd, int64_t id, int64_t seen_value)
{
    int pending = pending_fd >= 0 && insert(pending_fd, id, 1, BPF_NOEXIST) == 0;
    if (insert(seen_fd, id, seen_value, BPF_NOEXIST) == 0)
        return 1;
    if (pending)
        bpf_map_delete_elem(pending_fd, &id);
    return 0;
}

/* The threads of TGID other than its first (process.thread.begin). */
static void scan_threads(int pending_fd, int started_fd, int64_t tgid)
{
    char path[64];
    snprintf(path, sizeof(path), "/proc/%lld/task", (long long)tgid);
    DIR *tasks = opendir(path);
    if (!tasks)
        return;
    struct dirent *entry;
    while ((entry = readdir(tasks))) {
        int64_t tid = strtoll(entry->d_name, NULL, 10);
        if (isdigit((unsigned char)entry->d_name[0]) && tid != tgid)
            owe_begin(pending_fd, started_fd, tid, 1);
    }
    closedir(tasks);
}

void session_scan_processes(struct session *s)
{
    int ino_fd, dev_fd, pending_fd = -1, thread_pending_fd, thread_started_fd;
    if (!long_map(s, "__process_exe_ino", &ino_fd) || !long_map(s, "__process_exe_dev", &dev_fd))
        return;
    long_map(s, "__process_pending", &pending_fd);
    int threads = long_map(s, "__thread_pending", &thread_pending_fd) &&
                  long_map(s, "__thread_started", &thread_started_fd);
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
        if (!owe_begin(pending_fd, ino_fd, tgid, (int64_t)key.ino))
            continue;   /* recorded by its fork or exec since the probes were attached */
        insert(dev_fd, tgid, (int64_t)key.dev, BPF_ANY);
        if (threads)
            scan_threads(thread_pending_fd, thread_started_fd, tgid);
    }
    closedir(proc);
}
