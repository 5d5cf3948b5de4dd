/* The runtime session: everything that lives from load to detach, in one
 * struct, so every error path can end with session_free(). Internal to
 * src/runtime/ (the rest of tap only sees runtime.h and program.h). */
#ifndef TAP_RUNTIME_SESSION_H
#define TAP_RUNTIME_SESSION_H

#include <signal.h>
#include <stddef.h>
#include <stdint.h>
#include <sys/types.h>

#include "base/strbuf.h"
#include "kinds/kinds.h"
#include "program/program.h"
#include "runtime/runtime.h"

struct bpf_object;
struct bpf_map;
struct bpf_link;
struct ring_buffer;
struct compiled_format;

/* Why the event loop stopped. */
enum session_end {
    SESSION_RUNNING,
    SESSION_END_EXIT,        /* exit() in a probe */
    SESSION_END_ERROR,       /* a runtime error record */
    SESSION_END_SIGNAL,      /* SIGINT / SIGTERM */
    SESSION_END_TARGET,      /* the -c / -x process exited */
    SESSION_END_TIMEOUT,     /* -T */
    SESSION_END_ABORT,       /* abort() in a probe: no end probes, no globals printed */
};

struct session {
    const struct program *program;
    const struct runtime_options *options;
    uint64_t start_ns;

    /* load.c */
    struct bpf_object *object;
    struct bpf_map *data_map;
    char *data;              /* live .data, mmaped from the map once loaded */
    size_t data_size, data_mmap_size;
    struct tap_state *state; /* inside data */
    char *log_buf;           /* verifier log of the program that failed */
    char **stats_logs;       /* -vvv: each program's verifier statistics (log level 4) */
    int stats_log_count;
    char failed_prog[128];   /* from libbpf's "prog 'x': failed to load" */
    char failed_map[128];    /* from libbpf's "map 'x': failed to create" */

    /* attach.c: every attachment is a link owning an fd, never tracefs */
    struct bpf_link **links;
    int link_count, link_cap;
    int slow_detach;         /* holds uprobes: closing them takes ~100 ms each */
    int *raw_links;          /* uprobe_multi link fds (libbpf 1.1 has no object for them) */
    int raw_link_count, raw_link_cap;
    int uprobe_multi;        /* the kernel has uprobe_multi links */

    /* procfs.c */
    struct procfs_files *procfs;  /* NULL: no procfs probes */
    struct strbuf procfs_value;   /* the .read probe's $value so far */
    int procfs_collecting;        /* a .read probe runs: its records go to procfs_value */
    uint64_t procfs_maxsize;
    uint64_t procfs_overflow;     /* the size $value needed past maxsize; 0: fits */
    uint32_t procfs_overflow_error;

    /* events.c */
    struct ring_buffer *events;   /* tap_events */
    struct ring_buffer *control;  /* tap_control: its own manager, never starved */
    int batch_records;            /* printf records rendered in this batch */
    struct compiled_format *formats;
    struct strbuf out;       /* script output, written once per poll batch */
    int out_fd;
    int runtime_errors;      /* RECORD_ERROR records seen */
    struct symbols *symbols; /* stack_records.c: built on the first stack record */
    struct mappings *mappings;   /* mappings.c: files mapped since start (dlopen); NULL without */
    int mapped_files_seen;   /* symbol_maps.c: of those, the ones offered to the maps */
    size_t proc_maps_seen;   /* proc_maps.c: of their ranges, the ones in tap_proc_maps */
    size_t ranges_published; /* loop.c: of their ranges, the ones the maps were offered */
    int proc_maps_started;
    uint32_t sym_files_room, sym_entries_room;       /* the tap_sym_* maps' sizes */
    uint32_t sym_files_filled, sym_entries_filled;   /* what they hold */
    uint32_t sym_files_seen;                          /* the index's files offered to them (some skipped) */
    struct symbol_map_key *sym_wanted;   /* of tap_sym_wanted, the files already tried */
    size_t sym_wanted_count;
    uint64_t sym_wanted_read_ns;
    struct unwind_table *unwind_tables;   /* unwind_maps.c: rows of the index's files, until written */
    int unwind_built, unwind_written;     /* of the index's files */
    uint32_t unwind_files_room, unwind_rows_room, unwind_rows_filled;
    struct symbol_map_key *unwind_wanted;   /* of tap_unwind_wanted, the files already tried */
    size_t unwind_wanted_count;
    uint64_t unwind_wanted_read_ns;
    struct line_table *line_tables;       /* line_maps.c: the index's files' line rows, until written */
    int line_built, line_written;         /* of the index's files */
    uint32_t line_files_room, line_rows_room, line_rows_filled, line_sources_room, line_sources_filled;

    /* target_process.c */
    pid_t target_pid;        /* target(): -c child or -x pid; 0: none */
    pid_t child_pid;         /* -c child, until reaped */
    int child_go_fd;         /* write end of the pipe the -c child waits on */
    int child_released;
    int child_status;        /* wait status once reaped */
    int child_reaped;
    int target_pidfd;

    /* commands.c */
    pid_t *commands;         /* system() commands not reaped yet */
    int command_count, command_cap;
    int commands_held;       /* begin probes run: their commands wait for the attach */
    char **held_commands;
    int held_count, held_cap;
    int out_file_number;     /* switch_file(): -o FILE, then FILE.1, FILE.2 ... */

    /* loop.c */
    int epoll_fd, signal_fd, timer_fd;
    sigset_t saved_mask;
    enum session_end end;
};

/* load.c */
int session_load(struct session *s);
void session_unload(struct session *s);
/* attach.c */
int session_attach(struct session *s);
void session_detach(struct session *s);
/* events.c */
int session_open_events(struct session *s);
int session_drain(struct session *s);
void session_drain_all(struct session *s);
int session_flush(struct session *s);
/* commands.c */
void session_command(struct session *s, uint32_t id, const void *data, size_t size);
void session_reap_commands(struct session *s, int wait);
/* Starts the commands begin probes asked for, now that the probes are
 * attached (none when the session ends instead: start 0). */
void session_release_commands(struct session *s, int start);
/* The probes whose kind the runtime runs at `when` (kinds.h), in order. */
int session_run_probes(struct session *s, enum probe_run when);
int session_run_probes_on(struct session *s, enum probe_run when, const void *data, size_t size);
/* One probe the runtime runs, with data at the start of its context. */
void session_run_probe(struct session *s, const struct program_probe *probe, const void *data, size_t size);
/* A runtime error of the program's error table, as a handler's would be said. */
void session_report_error(struct session *s, uint32_t id, int64_t value);
/* A procfs probe's own fields of its program_probe (kind_fields: the
 * procfs kind, kinds/procfs.c, makes them; procfs.c serves by them). */
struct procfs_program_fields {
    int write;               /* a .write probe; 0: .read */
    uint32_t mode;           /* the file's permissions */
    uint64_t maxsize;        /* .read: the largest $value, its NUL counted */
};

/* procfs.c: the probes' FIFOs; open returns the fd the loop watches (-1:
 * none, -2: an error, said). */
int session_procfs_open(struct session *s);
void session_procfs_serve(struct session *s);
void session_procfs_value(struct session *s, uint32_t id, const void *data, size_t size);
void session_procfs_close(struct session *s);
/* input.c */
int session_reads_input(const struct session *s);
int session_read_input(struct session *s);
void session_print_globals(struct session *s);
void session_print_timing(struct session *s);   /* timing_report.c: -t's probe hit report */
void session_report_losses(struct session *s);
/* uprobe_multi.c */
int uprobe_multi_supported(void);
/* ref_ctr_offsets: SDT semaphores, raised while attached; NULL when none */
int uprobe_multi_attach(int prog_fd, const char *path, const uint64_t *offsets, const uint64_t *ref_ctr_offsets,
                        const uint64_t *cookies, uint32_t count, int is_return);
void append_json_string(struct strbuf *out, const char *s, size_t n);
/* stack_records.c */
struct symbols *session_symbols(struct session *s);   /* built on first use */
/* file_tables.c: the per-file tables BPF reads (symbol, unwind, line maps):
 * `what` names them in an error; write_new writes the files not written
 * yet while they fit (-1 with errno); build makes the tables of files the
 * index gained (refresh only) */
struct file_tables {
    const char *what;
    int (*used)(struct session *s);
    void (*build)(struct session *s);
    int (*write_new)(struct session *s);
};
int session_fill_file_tables(struct session *s, const struct file_tables *t);      /* after load */
void session_refresh_file_tables(struct session *s, const struct file_tables *t);  /* files mapped since */
int session_wanted_due(uint64_t *last_ns, uint64_t period_ns);   /* read a wanted map now? */
/* symbol_maps.c: usymname() & co. resolve in BPF from tables filled here */
int session_size_symbol_maps(struct session *s);      /* before load */
int session_fill_symbol_maps(struct session *s);      /* after load */
int session_symbol_maps_used(struct session *s);
void session_refresh_symbol_maps(struct session *s);  /* adds files mapped since (dlopen) */
void session_add_wanted_symbol_files(struct session *s);   /* adds files usymname() met without symbols */
/* The file with this identity among those the processes have mapped; NULL when none. */
const char *session_mapped_path(struct session *s, const struct symbol_map_key *key);
/* the kernel's (dev, inode) of a file, as bpf_find_vma sees it */
int session_file_key(const char *path, struct symbol_map_key *key);
/* process_scan.c: the processes running at start, for process.begin and process("PATH").end */
void session_scan_processes(struct session *s);   /* after attaching */
/* proc_maps.c: every process's executable mappings, for find_mapping in BPF */
int session_proc_maps_used(struct session *s);
int session_size_proc_maps(struct session *s);       /* before load */
void session_refresh_proc_maps(struct session *s);   /* once the mappings are watched, then as they come */
/* unwind_maps.c: the CFI rows of BPF's stack walk, like the symbol maps */
int session_size_unwind_maps(struct session *s);      /* before load */
int session_fill_unwind_maps(struct session *s);      /* after load */
int session_unwind_maps_used(struct session *s);
void session_refresh_unwind_maps(struct session *s);  /* adds files mapped since (dlopen) */
void session_add_wanted_unwind_files(struct session *s);   /* adds files the walk met without rows */
void session_free_unwind_tables(struct session *s);
/* rows[0..count) of size bytes at keys first... of an ARRAY map, in batches */
int session_write_rows(int fd, uint32_t first, const void *rows, size_t count, size_t size);
/* line_maps.c: the DWARF line rows of usymfileline() & co., like the unwind maps */
int session_line_maps_used(struct session *s);
int session_size_line_maps(struct session *s);        /* before load */
int session_fill_line_maps(struct session *s);        /* after load */
void session_refresh_line_maps(struct session *s);    /* adds files mapped since (dlopen) */
void session_free_line_tables(struct session *s);
void session_print_stack(struct session *s, uint32_t kind, uint32_t id, const void *data, size_t size);
/* maps_print.c */
void session_print_hist(struct session *s, uint32_t id, const void *data, size_t size);
void session_print_maps_at(struct session *s, int decl_index);
/* target_process.c */
int session_start_child(struct session *s);
int session_release_child(struct session *s);
int session_watch_target(struct session *s);
void session_target_exited(struct session *s);
int session_finish_child(struct session *s);
/* loop.c */
int session_block_signals(struct session *s);
int session_loop(struct session *s);

/* Pure helpers, unit-tested (tests/unit/test_runtime_*.c). */

/* -G name=value into a copy of .data; returns 0, or -1 with a message. */
int settings_apply(const struct program *program, char *data, size_t data_size,
                   const struct global_setting *settings, int count,
                   char *error, size_t error_size);
/* The local zone at the start into tapsets/tzinfo.tp's globals, where the
 * script uses them (before -G, which may override them). */
void settings_apply_zone(const struct program *program, char *data, size_t data_size);
/* The online CPUs at the start into tapsets/context.tp's __tap_cpus_online. */
void settings_apply_cpus(const struct program *program, char *data, size_t data_size);
/* tap's pid and user namespaces (their inodes) into tapsets/task.tp's globals. */
void settings_apply_namespaces(const struct program *program, char *data, size_t data_size);
/* Parses a long as C does (decimal, 0x hex, 0 octal, sign); 0 on success. */
int settings_parse_long(const char *text, int64_t *value);

/* -c CMD: whether CMD needs /bin/sh, else its words (NULL-terminated argv,
 * one allocation: free(argv) frees all). */
int command_needs_shell(const char *command);
char **command_split(const char *command);
/* 0 when execvp would find the command (or it needs the shell); -1 with errno. */
int command_check(const char *command);

/* The verifier's reason for rejecting a program, from its log: the last
 * meaningful line, with_source: with the last source line seen before it. */
void verifier_log_summary(const char *log, int with_source, char *out, size_t out_size);
/* The instruction the verifier stopped at (the last "N: (op) ..." line
 * before the reason), or -1. */
int verifier_log_failed_insn(const char *log);
/* What the user can change, for a summary from verifier_log_summary(). */
const char *verifier_hint(const char *summary);

/* Where instruction insn of the program in ELF section `section` came from
 * in the script, from the object's .BTF.ext line info; file and text (the
 * line's source, "" when LLVM had none) point into the object. Returns 0, or
 * -1 when the object has no line for it or insn lies past the section (an
 * appended subprogram's, numbered after the program it was added to). */
struct btf_line { const char *file, *text; unsigned line, col; };
int btf_line_of_insn(const void *object, size_t size, const char *section, int insn, struct btf_line *out);

/* A printf record's arguments as format values (strings point into the
 * record); returns 0, or -1 when the record is too short for its format. */
struct format_value;
int record_decode(const struct program_format *format, const void *record, size_t size,
                  struct format_value *values);

/* "0-3,5" (sysfs cpu lists) to a 0/1 array of size max; returns the count. */
int cpu_list_parse(const char *text, unsigned char *cpus, int max);
/* The online CPUs as a 0/1 array of MAX_CPUS (CPU 0 alone when unknown); returns the count. */
#define MAX_CPUS 1024
int online_cpus(unsigned char *cpus);

#endif
