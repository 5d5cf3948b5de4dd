/* procfs probes' files (kinds/procfs.c): FIFOs in /run/tap/MODULE/, as
 * stapbpf serves them (no /proc files without a kernel module). One thread
 * per file waits in open(2) for a reader or writer; the loop (the one
 * thread that runs probes) runs the file's probes and hands the thread
 * the text. A reader gets the .read probe's $value, then EOF; what
 * writers write runs the .write probes, each read(2)'s worth as it comes. The files and directories
 * go when the session ends. docs/ARCHITECTURE.md says why FIFOs. */
#include <errno.h>
#include <fcntl.h>
#include <limits.h>
#include <pthread.h>
#include <signal.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/stat.h>
#include <unistd.h>

#include "runtime/session.h"

#define PROCFS_ROOT "/run/tap"
#define PROCFS_WRITE_PIECE 95   /* the context's bytes for $value (kinds/procfs.c) */

static const struct procfs_program_fields *procfs_fields(const struct program_probe *probe)
{
    return probe->kind_fields;
}

struct procfs_file {
    char *path;              /* absolute */
    const struct program_probe *probe;   /* the first probe on it */
    int ready[2];            /* loop -> thread: the text is ready / taken */
    int inode_fd;            /* O_PATH: reopens the FIFO after unlink, to release who waits in open */
    char *renew_path;        /* .read: the next reader's FIFO, made here, renamed to path */
    int notify_fd;           /* thread -> loop: its index */
    uint32_t index;
    struct strbuf text;      /* .read: the reply; .write: what was written */
    pthread_t thread;
    int started;
};

struct procfs_files {
    char *dir;
    struct procfs_file *files;
    int count;
    int notify[2];
};

static int write_all(int fd, const char *data, size_t size)
{
    while (size > 0) {
        ssize_t n = write(fd, data, size);
        if (n < 0 && errno == EINTR)
            continue;
        if (n <= 0)
            return -1;
        data += n;
        size -= (size_t)n;
    }
    return 0;
}

/* Back from the loop: it has run the probes. */
static int handed_over(struct procfs_file *f)
{
    char byte;
    ssize_t n;
    if (write_all(f->notify_fd, (const char *)&f->index, sizeof(f->index)) < 0)
        return 0;
    while ((n = read(f->ready[0], &byte, 1)) < 0 && errno == EINTR)
        continue;
    return n == 1;   /* 0: the session has ended */
}

/* Opens the FIFO's other end once and closes it: whoever waits in open(2)
 * or has not read its EOF yet gets EOF (EPIPE), not a hang. */
static void release_inode(int inode_fd, int write_end)
{
    char self[64];
    snprintf(self, sizeof(self), "/proc/self/fd/%d", inode_fd);
    int fd = open(self, (write_end ? O_WRONLY : O_RDONLY) | O_NONBLOCK | O_CLOEXEC);
    if (fd >= 0)
        close(fd);
}

/* A served reader may not have read its EOF yet: opening the same FIFO for
 * the next reader would hand it a second text. So each reader gets a fresh
 * FIFO, renamed over the path (no moment without a file); the old one is
 * released for anyone who got to it after the close. */
static int renew_fifo(struct procfs_file *f)
{
    if (mkfifo(f->renew_path, 0600) < 0 || chmod(f->renew_path, procfs_fields(f->probe)->mode) < 0 ||
        rename(f->renew_path, f->path) < 0) {
        unlink(f->renew_path);
        return -1;
    }
    int old = f->inode_fd;
    f->inode_fd = open(f->path, O_PATH | O_CLOEXEC);
    release_inode(old, 1);
    close(old);
    return f->inode_fd < 0 ? -1 : 0;
}

static void *serve_reads(void *arg)
{
    struct procfs_file *f = arg;
    for (;;) {
        int fd = open(f->path, O_WRONLY | O_CLOEXEC);   /* until a reader comes */
        if (fd < 0 && errno == EINTR)
            continue;
        if (fd < 0)
            break;
        /* the reader gets its text even when the session ends meanwhile
         * (an error in this probe ends it): close waits for this */
        pthread_setcancelstate(PTHREAD_CANCEL_DISABLE, NULL);
        int served = handed_over(f);
        if (served)
            write_all(fd, f->text.data ? f->text.data : "", f->text.len);   /* EPIPE: the reader left */
        close(fd);
        served = served && renew_fifo(f) == 0;
        pthread_setcancelstate(PTHREAD_CANCEL_ENABLE, NULL);
        if (!served)
            break;
    }
    return NULL;
}

static void *serve_writes(void *arg)
{
    struct procfs_file *f = arg;
    for (;;) {
        int fd = open(f->path, O_RDONLY | O_CLOEXEC);   /* until a writer comes */
        if (fd < 0 && errno == EINTR)
            continue;
        if (fd < 0)
            break;
        char buf[4096];
        ssize_t n;
        int served = 1;
        /* each read's worth as it comes, as SystemTap's probe runs for each write(2) */
        while (served && (n = read(fd, buf, sizeof(buf))) != 0) {
            if (n < 0 && errno == EINTR)
                continue;
            if (n < 0)
                break;
            strbuf_reset(&f->text);
            strbuf_append(&f->text, buf, (size_t)n);
            served = handed_over(f);
        }
        close(fd);
        if (!served)
            break;
    }
    return NULL;
}

/* mkdir -p of path's directories below the session's */
static int make_parents(const char *dir, const char *path)
{
    char *copy = strdup(path);
    int status = 0;
    for (char *slash = copy + strlen(dir) + 1; copy && (slash = strchr(slash, '/')); *slash++ = '/') {
        *slash = 0;
        if (mkdir(copy, 0755) < 0 && errno != EEXIST)
            status = -1;
    }
    free(copy);
    return copy ? status : -1;
}

static struct procfs_file *add_file(struct procfs_files *files, const struct program_probe *probe)
{
    for (int i = 0; i < files->count; i++)
        if (strcmp(files->files[i].probe->path, probe->path) == 0)
            return NULL;   /* another .write probe on it: the thread runs them all */
    struct procfs_file *f = &files->files[files->count];
    f->probe = probe;
    f->index = (uint32_t)files->count++;
    f->notify_fd = files->notify[1];
    f->ready[0] = f->ready[1] = -1;
    f->inode_fd = -1;
    strbuf_init(&f->text);
    return f;
}

static int open_file(struct procfs_files *files, struct procfs_file *f)
{
    size_t size = strlen(files->dir) + strlen(f->probe->path) + 2;
    f->path = malloc(size);
    if (!f->path)
        return -1;
    snprintf(f->path, size, "%s/%s", files->dir, f->probe->path);
    size_t renew_size = strlen(files->dir) + 32;
    if (!(f->renew_path = malloc(renew_size)))
        return -1;
    snprintf(f->renew_path, renew_size, "%s/.renew-%u", files->dir, f->index);
    if (make_parents(files->dir, f->path) < 0 || mkfifo(f->path, 0600) < 0 ||
        chmod(f->path, procfs_fields(f->probe)->mode) < 0 || pipe2(f->ready, O_CLOEXEC) < 0 ||
        (f->inode_fd = open(f->path, O_PATH | O_CLOEXEC)) < 0) {
        fprintf(stderr, "ERROR: cannot make the procfs file %s: %s\n", f->path, strerror(errno));
        return -1;
    }
    sigset_t all, old;
    sigfillset(&all);   /* the loop takes the signals; writes to a gone reader say EPIPE */
    pthread_sigmask(SIG_SETMASK, &all, &old);
    f->started = pthread_create(&f->thread, NULL, procfs_fields(f->probe)->write ? serve_writes : serve_reads, f) == 0;
    pthread_sigmask(SIG_SETMASK, &old, NULL);
    return f->started ? 0 : -1;
}

/* A probe run for its file's readers or writers (its kind's `runs`). */
static int runs_on_access(const struct program_probe *probe)
{
    return probe_kind_ops(probe->kind)->runs == RUN_PER_FILE_ACCESS;
}

/* The directory and a served FIFO for each file; the fd the loop watches
 * (-1: no procfs probes; -2: an error, said). */
int session_procfs_open(struct session *s)
{
    const struct program *p = s->program;
    int wanted = 0;
    for (int i = 0; i < p->probe_count; i++)
        wanted += runs_on_access(&p->probes[i]);
    if (!wanted)
        return -1;
    struct procfs_files *files = s->procfs = calloc(1, sizeof(*files));
    char name[64];
    if (!s->options->module_name)
        snprintf(name, sizeof(name), "tap_%d", (int)getpid());
    const char *module = s->options->module_name ? s->options->module_name : name;
    size_t size = strlen(PROCFS_ROOT) + strlen(module) + 2;
    if (!files || !(files->dir = malloc(size)) || !(files->files = calloc((size_t)wanted, sizeof(*files->files))) ||
        (files->notify[0] = files->notify[1] = -1, pipe2(files->notify, O_CLOEXEC) < 0))
        return -2;
    snprintf(files->dir, size, "%s/%s", PROCFS_ROOT, module);
    if ((mkdir(PROCFS_ROOT, 0755) < 0 && errno != EEXIST) || mkdir(files->dir, 0755) < 0) {
        fprintf(stderr, "ERROR: cannot make the procfs directory %s: %s\n", files->dir, strerror(errno));
        free(files->dir);
        files->dir = NULL;
        return -2;
    }
    for (int i = 0; i < p->probe_count; i++) {
        struct procfs_file *f = runs_on_access(&p->probes[i]) ? add_file(files, &p->probes[i]) : NULL;
        if (f && open_file(files, f) < 0)
            return -2;
    }
    return files->notify[0];
}

/* A .read probe's $value records, while the loop runs it (collecting). */
void session_procfs_value(struct session *s, uint32_t id, const void *data, size_t size)
{
    struct procfs_files *files = s->procfs;
    if (!files || !s->procfs_collecting || s->procfs_overflow)
        return;
    const char *text = (const char *)data + sizeof(struct record_header);
    size_t length = size > sizeof(struct record_header) ? strnlen(text, size - sizeof(struct record_header)) : 0;
    if (!(id & 1))
        strbuf_reset(&s->procfs_value);
    size_t room = s->procfs_maxsize - 1 - s->procfs_value.len;
    if (length > room) {   /* SystemTap's error, with the size that would do */
        s->procfs_overflow = s->procfs_value.len + length + 1;
        s->procfs_overflow_error = id >> 1;
        length = room;
    }
    strbuf_append(&s->procfs_value, text, length);
}

static void run_read(struct session *s, struct procfs_file *f)
{
    strbuf_reset(&s->procfs_value);
    strbuf_append(&s->procfs_value, "", 0);
    s->procfs_collecting = 1;
    s->procfs_overflow = 0;
    s->procfs_maxsize = procfs_fields(f->probe)->maxsize;
    session_run_probe(s, f->probe, NULL, 0);
    s->procfs_collecting = 0;
    strbuf_reset(&f->text);
    strbuf_append(&f->text, s->procfs_value.data ? s->procfs_value.data : "", s->procfs_value.len);
    if (s->procfs_overflow)
        session_report_error(s, s->procfs_overflow_error, (int64_t)s->procfs_overflow);
}

/* Each .write probe on the file, for each piece of the text, in order. */
static void run_writes(struct session *s, struct procfs_file *f)
{
    const struct program *p = s->program;
    for (size_t at = 0; at < f->text.len && s->end == SESSION_RUNNING; at += PROCFS_WRITE_PIECE) {
        size_t n = f->text.len - at < PROCFS_WRITE_PIECE ? f->text.len - at : PROCFS_WRITE_PIECE;
        char piece[PROCFS_WRITE_PIECE + 1] = {0};
        memcpy(piece, f->text.data + at, n);
        for (int i = 0; i < p->probe_count; i++)
            if (runs_on_access(&p->probes[i]) && strcmp(p->probes[i].path, f->probe->path) == 0)
                session_run_probe(s, &p->probes[i], piece, n + 1);
    }
}

/* The loop's turn: a file's thread has a reader or a writer's text. */
void session_procfs_serve(struct session *s)
{
    struct procfs_files *files = s->procfs;
    uint32_t index;
    if (read(files->notify[0], &index, sizeof(index)) != sizeof(index) || index >= (uint32_t)files->count)
        return;
    struct procfs_file *f = &files->files[index];
    if (procfs_fields(f->probe)->write)
        run_writes(s, f);
    else
        run_read(s, f);
    write_all(f->ready[1], "", 1);
}

/* A reader (writer) that came to a gone file's open(2) after its thread
 * stopped waits for a writer (reader) that never comes: release it. */
static void release_waiters(struct procfs_file *f)
{
    release_inode(f->inode_fd, !procfs_fields(f->probe)->write);
    close(f->inode_fd);
    f->inode_fd = -1;
}

static void close_pair(int fds[2])
{
    for (int i = 0; i < 2; i++)
        if (fds[i] >= 0)
            close(fds[i]);
}

/* Threads stopped, files and directories gone (the root too when empty). */
void session_procfs_close(struct session *s)
{
    struct procfs_files *files = s->procfs;
    if (!files)
        return;
    for (int i = 0; i < files->count; i++) {   /* a thread waiting for the loop gives up */
        if (files->files[i].ready[1] >= 0)
            close(files->files[i].ready[1]);
        files->files[i].ready[1] = -1;
    }
    for (int i = 0; i < files->count; i++) {
        struct procfs_file *f = &files->files[i];
        if (f->started) {
            pthread_cancel(f->thread);
            pthread_join(f->thread, NULL);
        }
        if (f->path) {
            unlink(f->path);
            if (f->inode_fd >= 0)
                release_waiters(f);
            for (char *slash; (slash = strrchr(f->path, '/')) && slash > f->path + strlen(files->dir);) {
                *slash = 0;
                rmdir(f->path);   /* its parents, once empty */
            }
        }
        close_pair(f->ready);
        strbuf_free(&f->text);
        if (f->renew_path)
            unlink(f->renew_path);   /* ENOENT but for a failed rename */
        free(f->path);
        free(f->renew_path);
    }
    if (files->dir) {
        rmdir(files->dir);
        rmdir(PROCFS_ROOT);
    }
    close_pair(files->notify);
    free(files->files);
    free(files->dir);
    free(files);
    strbuf_free(&s->procfs_value);
    s->procfs = NULL;
}
