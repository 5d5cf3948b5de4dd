/* Executable file mappings reported by the kernel as processes make them
 * (perf MMAP2 records): which file has a build-id, remembered after the
 * process that mapped it has exited (see mappings.c). */
#ifndef TAP_RUNTIME_MAPPINGS_H
#define TAP_RUNTIME_MAPPINGS_H

#include <stdint.h>
#include <sys/types.h>

struct mappings;

/* pid > 0: that process and its descendants; else every process. The event
 * loop is woken by each record with wake_each, else when a ring is half full.
 * NULL when the kernel refuses the events (frames then resolve as before). */
struct mappings *mappings_open(pid_t pid, int wake_each);
void mappings_free(struct mappings *m);
/* The i-th event's fd, for the event loop (readable when half full); -1 past the last. */
int mappings_fd(const struct mappings *m, int i);
/* Reads the records written so far. */
void mappings_drain(struct mappings *m);
/* The i-th file mapped so far (in the order reported), NULL past the last. */
const char *mappings_file_at(const struct mappings *m, int i);
/* Adds the executable mappings a live process has now (/proc/PID/maps):
 * those made before tap started are in no record. */
void mappings_add_process(struct mappings *m, pid_t pid);
/* After draining: the file mapped at `address` in process `pid` (the latest
 * mapping there, even after the process exited) and the offset in it; NULL
 * when none is known. */
const char *mappings_find_address(struct mappings *m, pid_t pid, uint64_t address, uint64_t *file_offset);
/* The i-th range recorded (in order; a live process's first): 0, or -1 past the last. */
struct mapped_range_info {
    uint32_t pid;
    const char *path;
    uint64_t start, end, page_offset;   /* the page offset in bytes */
};
int mappings_range_at(const struct mappings *m, size_t i, struct mapped_range_info *range);
size_t mappings_range_count(const struct mappings *m);
/* After draining: a file mapped with this build-id (lowercase hex), or NULL. */
const char *mappings_find(struct mappings *m, const char *build_id);

#endif
