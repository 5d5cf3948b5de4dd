/* The cache directory (disk_cache.h): one file per entry, a header (magic,
 * size, a checksum of the data) then the data. */
#include <dirent.h>
#include <errno.h>
#include <fcntl.h>
#include <limits.h>
#include <link.h>
#include <stdint.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/stat.h>
#include <time.h>
#include <unistd.h>

#include "base/disk_cache.h"

#define ENTRY_MAGIC "tapent2\n"
#define CACHE_LIMIT_BYTES (64ll << 20)     /* trimmed to 3/4 of this when over */
#define NAME_MAX_LENGTH 128
#define STALE_TEMP_SECONDS 3600

struct entry_header {
    char magic[8];
    uint64_t size;
    uint64_t checksum;   /* finds damage; trust comes from ownership */
};

struct build_id {
    unsigned char bytes[64];
    size_t size;
};

/* tap's own GNU build id, from its PT_NOTE segments in memory. */
static int find_build_id(struct dl_phdr_info *info, size_t info_size, void *arg)
{
    (void)info_size;
    struct build_id *id = arg;
    for (int i = 0; i < info->dlpi_phnum && !id->size; i++) {
        const ElfW(Phdr) *segment = &info->dlpi_phdr[i];
        if (segment->p_type != PT_NOTE)
            continue;
        size_t align = segment->p_align == 8 ? 8 : 4;
        const unsigned char *note = (const unsigned char *)(info->dlpi_addr + segment->p_vaddr);
        const unsigned char *end = note + segment->p_memsz;
        while (note + sizeof(ElfW(Nhdr)) <= end) {
            const ElfW(Nhdr) *header = (const void *)note;
            const unsigned char *name = note + sizeof(*header);
            const unsigned char *desc = name + ((header->n_namesz + align - 1) & ~(align - 1));
            const unsigned char *next = desc + ((header->n_descsz + align - 1) & ~(align - 1));
            if (next > end)
                break;
            if (header->n_type == NT_GNU_BUILD_ID && header->n_namesz == 4 && memcmp(name, "GNU", 4) == 0 &&
                header->n_descsz <= sizeof(id->bytes)) {
                memcpy(id->bytes, desc, header->n_descsz);
                id->size = header->n_descsz;
                break;
            }
            note = next;
        }
    }
    return 1;   /* the first object listed is the program itself */
}

int disk_cache_key_begin(struct sha256 *key)
{
    struct build_id id = {0};
    dl_iterate_phdr(find_build_id, &id);
    if (!id.size)
        return -1;
    sha256_init(key);
    sha256_update(key, ENTRY_MAGIC, 8);
    sha256_update(key, id.bytes, id.size);
    return 0;
}

/* A word-at-a-time mix, 50 times cheaper than SHA-256 on a large index:
 * it only has to notice a damaged file. */
static uint64_t checksum(const void *data, size_t size)
{
    const unsigned char *bytes = data;
    uint64_t h = 0x6a09e667f3bcc909ull ^ size;
    for (size_t i = 0; i < size; i += 8) {
        uint64_t word = 0;
        memcpy(&word, bytes + i, size - i < 8 ? size - i : 8);
        h = (h ^ word) * 0x9e3779b97f4a7c15ull;
        h ^= h >> 29;
    }
    return h;
}

static int is_trusted(int fd, int want_directory)
{
    struct stat st;
    return fstat(fd, &st) == 0 && (want_directory ? S_ISDIR(st.st_mode) : S_ISREG(st.st_mode)) &&
           st.st_uid == geteuid() && !(st.st_mode & (S_IWGRP | S_IWOTH));
}

/* mkdir -p, new directories private to the user */
static void make_directories(const char *path)
{
    char buffer[PATH_MAX];
    if (snprintf(buffer, sizeof(buffer), "%s", path) >= (int)sizeof(buffer))
        return;
    for (char *slash = strchr(buffer + 1, '/');; slash = strchr(slash + 1, '/')) {
        if (slash)
            *slash = 0;
        if (mkdir(buffer, 0700) != 0 && errno != EEXIST)
            return;
        if (!slash)
            return;
        *slash = '/';
    }
}

static int open_cache_dir(const char *dir, int create)
{
    if (create)
        make_directories(dir);
    int fd = open(dir, O_RDONLY | O_DIRECTORY | O_CLOEXEC);
    if (fd >= 0 && !is_trusted(fd, 1)) {
        close(fd);
        return -1;
    }
    return fd;
}

static int read_all(int fd, void *buffer, size_t size)
{
    for (size_t done = 0; done < size;) {
        ssize_t n = read(fd, (char *)buffer + done, size - done);
        if (n <= 0 && !(n < 0 && errno == EINTR))
            return -1;
        done += n > 0 ? (size_t)n : 0;
    }
    return 0;
}

static int write_all(int fd, const void *buffer, size_t size)
{
    for (size_t done = 0; done < size;) {
        ssize_t n = write(fd, (const char *)buffer + done, size - done);
        if (n <= 0 && !(n < 0 && errno == EINTR))
            return -1;
        done += n > 0 ? (size_t)n : 0;
    }
    return 0;
}

static int read_entry(int fd, void **data_out, size_t *size)
{
    struct stat st;
    struct entry_header header;
    if (!is_trusted(fd, 0) || fstat(fd, &st) != 0 || read_all(fd, &header, sizeof(header)) != 0 ||
        memcmp(header.magic, ENTRY_MAGIC, 8) != 0 || header.size != (uint64_t)st.st_size - sizeof(header))
        return -1;
    void *data = malloc(header.size ? header.size : 1);
    if (!data || read_all(fd, data, header.size) != 0 ||
        checksum(data, header.size) != header.checksum) {
        free(data);
        return -1;
    }
    *data_out = data;
    *size = header.size;
    return 0;
}

int disk_cache_load(const char *dir, const char *name, void **data, size_t *size)
{
    int dir_fd = open_cache_dir(dir, 0);
    if (dir_fd < 0)
        return -1;
    int fd = openat(dir_fd, name, O_RDONLY | O_NOFOLLOW | O_CLOEXEC);
    close(dir_fd);
    if (fd < 0)
        return -1;
    int ok = read_entry(fd, data, size) == 0;
    if (ok)
        futimens(fd, NULL);   /* its last use, for trimming */
    close(fd);
    return ok ? 0 : -1;
}

struct cache_file {
    char name[NAME_MAX_LENGTH + 32];
    long long used;   /* ns */
    long long size;
};

static int older_first(const void *a, const void *b)
{
    const struct cache_file *x = a, *y = b;
    return x->used < y->used ? -1 : x->used > y->used;
}

static int has_suffix(const char *name, const char *suffix)
{
    size_t n = strlen(name), s = strlen(suffix);
    return n > s && strcmp(name + n - s, suffix) == 0;
}

/* The entries, and the total of their sizes; temporary files that a
 * crashed run left behind go. */
static struct cache_file *list_entries(int dir_fd, int *count, long long *total)
{
    int fd = dup(dir_fd);
    DIR *dir = fd >= 0 ? fdopendir(fd) : NULL;
    if (!dir) {
        if (fd >= 0)
            close(fd);
        return NULL;
    }
    struct cache_file *files = NULL;
    int capacity = 0;
    time_t now = time(NULL);
    for (struct dirent *e; (e = readdir(dir)) != NULL;) {
        struct stat st;
        if (strlen(e->d_name) >= sizeof(files->name) || fstatat(dir_fd, e->d_name, &st, AT_SYMLINK_NOFOLLOW) != 0)
            continue;
        if (has_suffix(e->d_name, ".tmp") && now - st.st_mtime > STALE_TEMP_SECONDS)
            unlinkat(dir_fd, e->d_name, 0);
        if (has_suffix(e->d_name, ".tmp") || !S_ISREG(st.st_mode))
            continue;
        if (*count == capacity) {
            capacity = capacity ? capacity * 2 : 64;
            struct cache_file *grown = realloc(files, sizeof(*files) * (size_t)capacity);
            if (!grown)
                break;
            files = grown;
        }
        struct cache_file *f = &files[(*count)++];
        memcpy(f->name, e->d_name, strlen(e->d_name) + 1);   /* length checked above */
        f->used = (long long)st.st_mtim.tv_sec * 1000000000 + st.st_mtim.tv_nsec;
        f->size = (long long)st.st_size;
        *total += f->size;
    }
    closedir(dir);
    return files;
}

static void trim(int dir_fd)
{
    int count = 0;
    long long total = 0;
    struct cache_file *files = list_entries(dir_fd, &count, &total);
    if (files && total > CACHE_LIMIT_BYTES) {
        qsort(files, (size_t)count, sizeof(*files), older_first);
        for (int i = 0; i < count && total > CACHE_LIMIT_BYTES / 4 * 3; i++)
            if (unlinkat(dir_fd, files[i].name, 0) == 0)
                total -= files[i].size;
    }
    free(files);
}

void disk_cache_store(const char *dir, const char *name, const void *data, size_t size)
{
    char temp[NAME_MAX_LENGTH + 32];
    if (strlen(name) > NAME_MAX_LENGTH)
        return;
    int dir_fd = open_cache_dir(dir, 1);
    if (dir_fd < 0)
        return;
    snprintf(temp, sizeof(temp), "%s.%d.tmp", name, (int)getpid());
    int fd = openat(dir_fd, temp, O_WRONLY | O_CREAT | O_EXCL | O_NOFOLLOW | O_CLOEXEC, 0600);
    if (fd >= 0) {
        struct entry_header header = {.size = size};
        memcpy(header.magic, ENTRY_MAGIC, 8);
        header.checksum = checksum(data, size);
        int ok = write_all(fd, &header, sizeof(header)) == 0 && write_all(fd, data, size) == 0;
        ok = close(fd) == 0 && ok;
        if (ok && renameat(dir_fd, temp, dir_fd, name) == 0)
            trim(dir_fd);
        else
            unlinkat(dir_fd, temp, 0);
    }
    close(dir_fd);
}
