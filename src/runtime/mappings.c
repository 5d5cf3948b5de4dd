/* Executable file mappings as the kernel reports them: perf MMAP2 records,
 * written by the kernel when the mapping is made, with the file's path and
 * (usually) its build-id. A library the target loads after tap started
 * (dlopen) is in no index built at load time, and once the process has
 * exited its /proc/PID/maps is gone; these records are not, so a frame's
 * build-id still finds its file. Each record's range is kept by process, so
 * an address of a process that has exited (a stack kept as a string and
 * printed in `end`) is still found in its file. One dummy software event per
 * CPU carries them (perf's own way of following mmaps); with a -c child,
 * only it and its descendants (inherit), else every process. */
#include "runtime/mappings.h"

#include <inttypes.h>
#include <limits.h>
#include <linux/perf_event.h>
#include <stdint.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/mman.h>
#include <sys/syscall.h>
#include <unistd.h>

#include "program/program_io.h"
#include "runtime/session.h"
#include "runtime/symbols.h"

#define RING_PAGES 16            /* data pages per CPU, a power of two */

struct mapped_file {
    char *path;
    char build_id[128];          /* lowercase hex; "" until read from the file, "-" when it has none */
};

/* One executable mapping of one process. */
struct mapped_range {
    uint32_t pid;
    int file;                    /* index in files */
    uint64_t start, end, page_offset;
};

struct mappings {
    int *fds;
    void **rings;
    int count;                   /* CPUs watched */
    size_t page_size;
    struct mapped_file *files;
    int file_count, file_capacity;
    struct mapped_range *ranges;
    size_t range_count, range_capacity;
};

/* PERF_RECORD_MMAP2 up to its file name (linux/perf_event.h describes it). */
struct mmap2_record {
    struct perf_event_header header;
    uint32_t pid, tid;
    uint64_t addr, len, pgoff;
    union {
        struct { uint32_t maj, min; uint64_t ino, ino_generation; } inode;
        struct { uint8_t size, reserved1; uint16_t reserved2; uint8_t bytes[20]; } build_id;
    };
    uint32_t prot, flags;
    char filename[];
};

static int open_event(pid_t pid, int cpu, int wake_each)
{
    struct perf_event_attr attr = {
        .type = PERF_TYPE_SOFTWARE, .size = sizeof(attr), .config = PERF_COUNT_SW_DUMMY,
        .mmap = 1, .mmap2 = 1, .build_id = 1, .inherit = pid > 0, .exclude_kernel = 1,
        .watermark = 1, .wakeup_watermark = wake_each ? 1 : RING_PAGES * 4096 / 2,
    };
    return (int)syscall(SYS_perf_event_open, &attr, pid > 0 ? pid : -1, cpu, -1, PERF_FLAG_FD_CLOEXEC);
}

struct mappings *mappings_open(pid_t pid, int wake_each)
{
    unsigned char cpus[MAX_CPUS];   /* per call: no state outside the session */
    struct mappings *m = calloc(1, sizeof(*m));
    int online = online_cpus(cpus);
    if (!m)
        return NULL;
    m->page_size = (size_t)sysconf(_SC_PAGESIZE);
    m->fds = calloc((size_t)online, sizeof(int));
    m->rings = calloc((size_t)online, sizeof(void *));
    if (!m->fds || !m->rings) {
        mappings_free(m);
        return NULL;
    }
    for (int cpu = 0; cpu < MAX_CPUS; cpu++) {
        if (!cpus[cpu])
            continue;
        int fd = open_event(pid, cpu, wake_each);
        void *ring = fd < 0 ? MAP_FAILED : mmap(NULL, (RING_PAGES + 1) * m->page_size, PROT_READ | PROT_WRITE,
                                                MAP_SHARED, fd, 0);
        if (ring == MAP_FAILED) {   /* no watch: frames fall back as before */
            if (fd >= 0)
                close(fd);
            mappings_free(m);
            return NULL;
        }
        m->fds[m->count] = fd;
        m->rings[m->count++] = ring;
    }
    return m;
}

void mappings_free(struct mappings *m)
{
    if (!m)
        return;
    for (int i = 0; i < m->count; i++) {
        munmap(m->rings[i], (RING_PAGES + 1) * m->page_size);
        close(m->fds[i]);
    }
    for (int i = 0; i < m->file_count; i++)
        free(m->files[i].path);
    free(m->files);
    free(m->ranges);
    free(m->fds);
    free(m->rings);
    free(m);
}

int mappings_fd(const struct mappings *m, int i)
{
    return m && i < m->count ? m->fds[i] : -1;
}

/* The file's index, added if new; -1 when out of memory (the file stays
 * unknown, its frames print as hex). */
static int add_file(struct mappings *m, const char *path, const char *build_id)
{
    for (int i = 0; i < m->file_count; i++)
        if (strcmp(m->files[i].path, path) == 0 && (!*build_id || strcmp(m->files[i].build_id, build_id) == 0))
            return i;
    if (m->file_count == m->file_capacity) {
        int capacity = m->file_capacity ? m->file_capacity * 2 : 32;
        struct mapped_file *grown = realloc(m->files, (size_t)capacity * sizeof(*m->files));
        if (!grown)
            return -1;
        m->files = grown;
        m->file_capacity = capacity;
    }
    char *copy = strdup(path);
    if (!copy)
        return -1;
    struct mapped_file *f = &m->files[m->file_count++];
    f->path = copy;
    snprintf(f->build_id, sizeof(f->build_id), "%s", build_id);
    return m->file_count - 1;
}

static void add_range(struct mappings *m, uint32_t pid, int file, uint64_t start, uint64_t end, uint64_t page_offset)
{
    if (file < 0)
        return;
    if (m->range_count == m->range_capacity) {
        size_t capacity = m->range_capacity ? m->range_capacity * 2 : 64;
        struct mapped_range *grown = realloc(m->ranges, capacity * sizeof(*m->ranges));
        if (!grown)
            return;   /* out of memory: the range stays unknown */
        m->ranges = grown;
        m->range_capacity = capacity;
    }
    m->ranges[m->range_count++] = (struct mapped_range){pid, file, start, end, page_offset};
}

static void read_record(struct mappings *m, const struct mmap2_record *r, size_t size)
{
    if (r->header.type != PERF_RECORD_MMAP2 || size <= sizeof(*r) || r->filename[0] != '/')
        return;   /* [vdso], anonymous memory */
    size_t length = strnlen(r->filename, size - sizeof(*r));
    if (length == size - sizeof(*r) || (length > 10 && strcmp(r->filename + length - 10, " (deleted)") == 0))
        return;
    char build_id[128] = "";
    if (r->header.misc & PERF_RECORD_MISC_MMAP_BUILD_ID)
        symbols_build_id_hex(r->build_id.bytes, r->build_id.size < 20 ? r->build_id.size : 20, build_id,
                             sizeof(build_id));
    add_range(m, r->pid, add_file(m, r->filename, build_id), r->addr, r->addr + r->len, r->pgoff);
}

void mappings_add_process(struct mappings *m, pid_t pid)
{
    char name[64], line[PATH_MAX + 128];
    snprintf(name, sizeof(name), "/proc/%d/maps", (int)pid);
    FILE *maps = m ? fopen(name, "re") : NULL;
    while (maps && fgets(line, sizeof(line), maps)) {
        uint64_t start, end, offset;
        char perms[8];
        int consumed = 0;
        if (sscanf(line, "%" SCNx64 "-%" SCNx64 " %7s %" SCNx64 " %*s %*s %n", &start, &end, perms, &offset,
                   &consumed) < 4 || !consumed || perms[2] != 'x')
            continue;
        char *path = line + consumed;
        path[strcspn(path, "\n")] = 0;
        if (*path == '/')
            add_range(m, (uint32_t)pid, add_file(m, path, ""), start, end, offset);
    }
    if (maps)
        fclose(maps);
}

const char *mappings_find_address(struct mappings *m, pid_t pid, uint64_t address, uint64_t *file_offset)
{
    mappings_drain(m);
    for (size_t i = m ? m->range_count : 0; i-- > 0;) {   /* the latest mapping at the address */
        const struct mapped_range *r = &m->ranges[i];
        if (r->pid == (uint32_t)pid && address >= r->start && address < r->end) {
            *file_offset = address - r->start + r->page_offset;
            return m->files[r->file].path;
        }
    }
    return NULL;
}

/* Reads every record in one CPU's ring; a record may wrap around its end. */
static void drain_ring(struct mappings *m, void *ring)
{
    struct perf_event_mmap_page *meta = ring;
    unsigned char *data = (unsigned char *)ring + m->page_size, record[sizeof(struct mmap2_record) + 4096 + 8];
    size_t size = RING_PAGES * m->page_size;
    uint64_t head = __atomic_load_n(&meta->data_head, __ATOMIC_ACQUIRE), tail = meta->data_tail;
    while (tail < head) {
        const struct perf_event_header *h = (const void *)(data + tail % size);
        size_t length = h->size, first = size - tail % size;
        if (length < sizeof(*h))
            break;   /* cannot happen: the kernel writes whole records */
        if (length <= sizeof(record)) {
            memcpy(record, data + tail % size, length < first ? length : first);
            if (length > first)
                memcpy(record + first, data, length - first);
            read_record(m, (const struct mmap2_record *)record, length);
        }
        tail += length;
    }
    __atomic_store_n(&meta->data_tail, head, __ATOMIC_RELEASE);
}

int mappings_range_at(const struct mappings *m, size_t i, struct mapped_range_info *range)
{
    if (!m || i >= m->range_count)
        return -1;
    const struct mapped_range *r = &m->ranges[i];
    *range = (struct mapped_range_info){r->pid, m->files[r->file].path, r->start, r->end, r->page_offset};
    return 0;
}

size_t mappings_range_count(const struct mappings *m)
{
    return m ? m->range_count : 0;
}

const char *mappings_file_at(const struct mappings *m, int i)
{
    return m && i < m->file_count ? m->files[i].path : NULL;
}

void mappings_drain(struct mappings *m)
{
    for (int i = 0; m && i < m->count; i++)
        drain_ring(m, m->rings[i]);
}

const char *mappings_find(struct mappings *m, const char *build_id)
{
    mappings_drain(m);
    for (int i = 0; m && i < m->file_count; i++) {
        struct mapped_file *f = &m->files[i];
        if (!f->build_id[0]) {   /* the kernel could not read it when mapping: read it now */
            elf_build_id(f->path, f->build_id, sizeof(f->build_id));
            if (!f->build_id[0])
                strcpy(f->build_id, "-");
        }
        if (strcmp(f->build_id, build_id) == 0)
            return f->path;
    }
    return NULL;
}
