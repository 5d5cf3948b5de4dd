/* The cache directory: a stored entry reads back; a damaged, foreign or
 * world-writable one does not; over 64 MB the oldest entries go first. */
#include <fcntl.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/stat.h>
#include <unistd.h>

#include "base/disk_cache.h"
#include "check.h"

static int has(const char *dir, const char *name)
{
    void *data;
    size_t size;
    if (disk_cache_load(dir, name, &data, &size) != 0)
        return 0;
    free(data);
    return 1;
}

static void check_round_trip(const char *dir)
{
    void *data = NULL;
    size_t size = 0;
    disk_cache_store(dir, "a.entry", "hello", 5);
    CHECK(disk_cache_load(dir, "a.entry", &data, &size) == 0 && size == 5 && memcmp(data, "hello", 5) == 0);
    free(data);
    CHECK(!has(dir, "missing.entry"));
    char path[4096];
    snprintf(path, sizeof(path), "%s/a.entry", dir);
    chmod(path, 0622);
    CHECK(!has(dir, "a.entry"));   /* others could have written it */
    chmod(path, 0600);
    CHECK(has(dir, "a.entry"));
    int fd = open(path, O_WRONLY);
    CHECK(fd >= 0 && pwrite(fd, "J", 1, 26) == 1);   /* in the data, after the 24-byte header: the checksum fails */
    close(fd);
    CHECK(!has(dir, "a.entry"));
    chmod(dir, 0777);
    disk_cache_store(dir, "b.entry", "x", 1);
    CHECK(!has(dir, "b.entry"));   /* neither written nor read in a shared directory */
    chmod(dir, 0700);
    CHECK(!has(dir, "b.entry"));
}

static void check_trim(const char *dir)
{
    size_t size = 8 << 20;
    char *big = calloc(1, size);
    char name[32];
    for (int i = 1; i <= 9; i++) {   /* 72 MB: over the limit at the ninth */
        snprintf(name, sizeof(name), "big%d.entry", i);
        disk_cache_store(dir, name, big, size);
    }
    int left = 0;
    for (int i = 1; i <= 9; i++) {
        snprintf(name, sizeof(name), "big%d.entry", i);
        left += has(dir, name);
        if (i <= 3)
            CHECK(!has(dir, name));
    }
    CHECK(left == 6);   /* down to 48 MB plus the small entry: the three oldest went */
    free(big);
}

int main(void)
{
    char dir[] = "/tmp/tap-disk-cache-XXXXXX";
    CHECK(mkdtemp(dir) != NULL);
    check_round_trip(dir);
    check_trim(dir);
    char command[128];
    snprintf(command, sizeof(command), "rm -rf %s", dir);
    CHECK(system(command) == 0);
    return check_summary();
}
