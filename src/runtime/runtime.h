/* Running a compiled program: load, attach, run begin probes, pump events
 * until exit, run end probes, print what is left, detach. */
#ifndef TAP_RUNTIME_RUNTIME_H
#define TAP_RUNTIME_RUNTIME_H

#include <stdint.h>
#include <sys/types.h>

struct program;

struct global_setting {      /* -G name=value */
    const char *name;
    const char *value;
};

struct runtime_options {
    const char *output_path;     /* -o; NULL: stdout */
    int verbose;                 /* -v count */
    double timeout_seconds;      /* -T; 0: none */
    const char *target_command;  /* -c */
    pid_t target_pid;            /* -x; 0: none */
    struct global_setting *settings;
    int setting_count;
    uint64_t ringbuf_bytes;      /* -s MB; 0: default */
    int json;                    /* --format=json */
    const char *module_name;     /* -m: procfs files' directory /run/tap/NAME; NULL: tap_PID */
    int no_global_display;       /* --no-global-var-display: globals are not printed at the end */
};

/* Returns the process exit status (spec/cli.md). Messages go to stderr. */
int runtime_run(const struct program *program, const struct runtime_options *options);

#endif
