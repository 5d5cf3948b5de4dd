/* Per-process mapping tables for BPF's stack walk and symbol lookups
 * (codegen/stack.c, find_mapping). With interrupts off (timer.profile,
 * perf.*) the kernel allows one bpf_find_vma per program run (the mmap lock
 * is released by an irq_work), so a stack through a second file lost its
 * CFI there. tap_proc_maps, an LPM trie keyed by (tgid, address) in network
 * byte order, holds the executable file mappings the runtime knows: the
 * MMAP2 records of mappings.c (the -c command and its children, else every
 * process), a -x process's /proc/PID/maps and, without a target, every
 * process's at start. A range is stored as the aligned power-of-two blocks
 * that cover it (at most two per bit of its size), each with the value
 * find_mapping keeps: dev, inode, start, page offset, end. A lookup is one
 * map access in any context; a miss (a mapping made since tap last read the
 * records) falls back to bpf_find_vma. A newer range of the same process
 * (munmap then mmap, exec) first deletes those it overlaps, so a stale, more
 * specific block never shadows it. */
#include <ctype.h>
#include <dirent.h>
#include <stdio.h>
#include <stdlib.h>

#include <bpf/bpf.h>
#include <bpf/libbpf.h>

#include "runtime/mappings.h"
#include "runtime/session.h"

#define PROC_MAPS_BLOCKS (256 * 1024)   /* prefixes: every process's files, system-wide */

struct proc_map_key {
    uint32_t prefix_length;      /* bits of tgid then address that must match */
    unsigned char tgid[4];       /* big-endian */
    unsigned char address[8];
};

struct proc_map_value {          /* find_mapping's SEARCH_MAPPING */
    uint64_t dev, ino, start, page_offset, end;
};

static struct bpf_map *proc_maps(struct session *s)
{
    return s->object ? bpf_object__find_map_by_name(s->object, "tap_proc_maps") : NULL;
}

int session_proc_maps_used(struct session *s)
{
    return proc_maps(s) != NULL;
}

int session_size_proc_maps(struct session *s)
{
    struct bpf_map *map = proc_maps(s);
    if (!map)
        return 0;
    if (bpf_map__set_key_size(map, sizeof(struct proc_map_key)) < 0 ||
        bpf_map__set_value_size(map, sizeof(struct proc_map_value)) < 0 ||
        bpf_map__set_map_flags(map, BPF_F_NO_PREALLOC) < 0 || bpf_map__set_max_entries(map, PROC_MAPS_BLOCKS) < 0)
        return -1;
    return 0;
}

/* Calls update (or delete, value NULL) for each block of [start, end). */
static void each_block(int fd, uint32_t pid, uint64_t start, uint64_t end, const struct proc_map_value *value)
{
    while (start < end) {
        int bits = start ? __builtin_ctzll(start) : 47;   /* user addresses are below 2^47 */
        while (bits > 0 && start + (1ull << bits) > end)
            bits--;
        struct proc_map_key key = {.prefix_length = 32 + 64 - (uint32_t)bits};
        for (int i = 0; i < 4; i++)
            key.tgid[i] = (unsigned char)(pid >> (24 - 8 * i));
        for (int i = 0; i < 8; i++)
            key.address[i] = (unsigned char)(start >> (56 - 8 * i));
        if (value)
            bpf_map_update_elem(fd, &key, value, BPF_ANY);   /* full: that block falls back to bpf_find_vma */
        else
            bpf_map_delete_elem(fd, &key);
        start += 1ull << bits;
    }
}

/* Without a target: every process's mappings made before tap started. */
static void add_every_process(struct session *s)
{
    DIR *proc = opendir("/proc");
    for (struct dirent *e; proc && (e = readdir(proc));)
        if (isdigit((unsigned char)e->d_name[0]))
            mappings_add_process(s->mappings, (pid_t)atoi(e->d_name));
    if (proc)
        closedir(proc);
}

void session_refresh_proc_maps(struct session *s)
{
    struct bpf_map *map = proc_maps(s);
    if (!map || !s->mappings)
        return;
    int fd = bpf_map__fd(map);
    int first = !s->proc_maps_started;
    if (first && !s->target_pid) {
        s->proc_maps_started = 1;
        add_every_process(s);
    }
    s->proc_maps_started = 1;
    mappings_drain(s->mappings);
    size_t snapshot = first ? mappings_range_count(s->mappings) : 0;   /* ranges of one snapshot never overlap */
    struct mapped_range_info r, old;
    for (; mappings_range_at(s->mappings, s->proc_maps_seen, &r) == 0; s->proc_maps_seen++) {
        struct symbol_map_key file;
        if (session_file_key(r.path, &file) < 0)
            continue;
        if (s->proc_maps_seen >= snapshot)
            for (size_t j = 0; j < s->proc_maps_seen && mappings_range_at(s->mappings, j, &old) == 0; j++)
                if (old.pid == r.pid && old.start < r.end && r.start < old.end)
                    each_block(fd, old.pid, old.start, old.end, NULL);
        struct proc_map_value value = {file.dev, file.ino, r.start, r.page_offset >> 12, r.end};
        each_block(fd, r.pid, r.start, r.end, &value);
    }
}
