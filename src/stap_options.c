/* SystemTap's command-line options that tap has no use for (stap(1) lists
 * them): each is either accepted, because what it asks of SystemTap's kernel
 * module or compile server has no counterpart in a BPF program that tap
 * compiles itself, or refused with the reason. A script's command line copied
 * from SystemTap's docs then runs, or says why not; never "unknown option". */
#include "stap_options.h"

#include <stdio.h>
#include <string.h>
#include <sys/utsname.h>

#define ACCEPTED(long_name, short_name, argument) {long_name, short_name, argument, NULL, STAP_ALWAYS}
#define REFUSED(long_name, short_name, argument, why) {long_name, short_name, argument, why, STAP_ALWAYS}
#define REFUSED_UNLESS(long_name, short_name, argument, why, unless) {long_name, short_name, argument, why, unless}

static const struct stap_option stap_options[] = {
    /* accepted: they only shape SystemTap's module build or its translator */
    ACCEPTED("prologue-searching", 'P', STAP_ARG_OPTIONAL),   /* tap places entry probes itself */
    ACCEPTED(NULL, 'B', STAP_ARG_REQUIRED),                /* kbuild options */
    ACCEPTED("modinfo", 0, STAP_ARG_REQUIRED),             /* module info fields */
    ACCEPTED(NULL, 'R', STAP_ARG_REQUIRED),                /* SystemTap's runtime sources */
    ACCEPTED("compatible", 0, STAP_ARG_REQUIRED),          /* tap speaks the current language */
    ACCEPTED("check-version", 0, STAP_ARG_NONE),
    ACCEPTED("save-uprobes", 0, STAP_ARG_NONE),            /* uprobes are the kernel's own */
    ACCEPTED("sign-module", 0, STAP_ARG_OPTIONAL),
    ACCEPTED("semantic-keep-going", 0, STAP_ARG_NONE),     /* tap reports every semantic error */
    ACCEPTED("poison-cache", 0, STAP_ARG_NONE),            /* a cache test of SystemTap's */
    ACCEPTED("clean-cache", 0, STAP_ARG_NONE),             /* tap's caches trim themselves */
    ACCEPTED("tmpdir", 0, STAP_ARG_REQUIRED),              /* tap writes no temporary files */
    ACCEPTED("color", 0, STAP_ARG_OPTIONAL),               /* tap's messages have no colours */
    ACCEPTED("colour", 0, STAP_ARG_OPTIONAL),

    /* refused: each would do something tap cannot, or other than asked */
    REFUSED(NULL, 'k', STAP_ARG_NONE,
     "tap builds no temporary directory: -p3 prints the LLVM IR, -p4 -o FILE writes the BPF object "
     "(tap --run FILE runs it)"),
    REFUSED(NULL, 'b', STAP_ARG_NONE,
     "bulk mode's per-CPU output files: tap has one ring buffer and one output (-s MB sizes the buffer)"),
    REFUSED("interactive", 'i', STAP_ARG_NONE, "tap has no interactive mode: give the script with -e, a file or -"),
    REFUSED(NULL, 'E', STAP_ARG_REQUIRED, "tap runs one script: put the probes of -E SCRIPT in it"),
    REFUSED(NULL, 'F', STAP_ARG_NONE,
     "tap's probes live as long as the tap process, so that none stays behind: run tap in the "
     "background (tap ... -o FILE &) instead of detaching from a module"),
    REFUSED(NULL, 'S', STAP_ARG_REQUIRED,
     "tap writes one output file (-o FILE) and does not switch files by size; rotate it with logrotate's "
     "copytruncate"),
    REFUSED_UNLESS(NULL, 'a', STAP_ARG_REQUIRED, "tap compiles for the machine it runs on", STAP_UNLESS_MACHINE),
    REFUSED_UNLESS(NULL, 'r', STAP_ARG_REQUIRED,
     "tap compiles for the running kernel (BTF and BPF are checked when loaded)", STAP_UNLESS_RELEASE),
    REFUSED("sysroot", 0, STAP_ARG_REQUIRED, "tap traces the running system, not a sysroot"),
    REFUSED("sysenv", 0, STAP_ARG_REQUIRED, "tap traces the running system, not a sysroot"),
    REFUSED("unprivileged", 0, STAP_ARG_NONE, "tap needs root (or CAP_BPF and CAP_PERFMON) to load BPF programs"),
    REFUSED("privilege", 0, STAP_ARG_REQUIRED, "tap needs root (or CAP_BPF and CAP_PERFMON) to load BPF programs"),
    REFUSED("use-server", 0, STAP_ARG_OPTIONAL, "tap has no compile server: it compiles on this machine"),
    REFUSED("list-servers", 0, STAP_ARG_OPTIONAL, "tap has no compile server: it compiles on this machine"),
    REFUSED("trust-servers", 0, STAP_ARG_OPTIONAL, "tap has no compile server: it compiles on this machine"),
    REFUSED("use-server-on-error", 0, STAP_ARG_OPTIONAL, "tap has no compile server: it compiles on this machine"),
    REFUSED("use-http-server", 0, STAP_ARG_REQUIRED, "tap has no compile server: it compiles on this machine"),
    REFUSED("client-options", 0, STAP_ARG_NONE, "tap has no compile server: it compiles on this machine"),
    REFUSED("remote", 0, STAP_ARG_REQUIRED, "tap runs scripts on this machine only: run tap on the remote one"),
    REFUSED("remote-prefix", 0, STAP_ARG_NONE, "tap runs scripts on this machine only: run tap on the remote one"),
    REFUSED("dyninst", 0, STAP_ARG_NONE, "tap has one runtime, bpf"),
    REFUSED("rlimit-as", 0, STAP_ARG_REQUIRED, "limit tap's resources with prlimit(1) or ulimit instead"),
    REFUSED("rlimit-cpu", 0, STAP_ARG_REQUIRED, "limit tap's resources with prlimit(1) or ulimit instead"),
    REFUSED("rlimit-nproc", 0, STAP_ARG_REQUIRED, "limit tap's resources with prlimit(1) or ulimit instead"),
    REFUSED("rlimit-stack", 0, STAP_ARG_REQUIRED, "limit tap's resources with prlimit(1) or ulimit instead"),
    REFUSED("rlimit-fsize", 0, STAP_ARG_REQUIRED, "limit tap's resources with prlimit(1) or ulimit instead"),
    REFUSED("target-namespaces", 0, STAP_ARG_REQUIRED,
     "tap does not switch namespaces: run it in the target's namespaces (nsenter), -x PID names the process"),
    REFUSED("monitor", 0, STAP_ARG_OPTIONAL, "tap has no monitor mode: print what you need from a timer probe"),
    REFUSED("interactive-monitor", 0, STAP_ARG_NONE, "tap has no monitor mode: print what you need from a timer probe"),
    REFUSED("language-server", 0, STAP_ARG_NONE, "tap has no language server"),
    REFUSED("build-as", 0, STAP_ARG_OPTIONAL, "tap compiles as the user who runs it"),
    REFUSED("example", 0, STAP_ARG_NONE, "tap does not ship SystemTap's example gallery: give the script's path"),
    REFUSED("download-debuginfo", 0, STAP_ARG_OPTIONAL,
     "tap finds debug information by itself: separate files, then debuginfod when DEBUGINFOD_URLS is set"),
    REFUSED("benchmark-sdt", 0, STAP_ARG_NONE, "SystemTap's own SDT benchmark: see bench/ for tap's"),
    REFUSED("benchmark-sdt-loops", 0, STAP_ARG_REQUIRED, "SystemTap's own SDT benchmark: see bench/ for tap's"),
    REFUSED("benchmark-sdt-threads", 0, STAP_ARG_REQUIRED, "SystemTap's own SDT benchmark: see bench/ for tap's"),
    REFUSED("debug", 0, STAP_ARG_NONE, "the translator's internal traces: use -v (up to -vvv) for what tap does"),
};

const struct stap_option *stap_option_table(int *count)
{
    *count = (int)(sizeof(stap_options) / sizeof(stap_options[0]));
    return stap_options;
}

/* -a ARCH and -r RELEASE that name this machine and its kernel ask for what
 * tap does anyway. */
static int names_this_system(const struct stap_option *option, const char *argument)
{
    struct utsname system;
    if (!argument || option->refused_unless == STAP_ALWAYS || uname(&system) < 0)
        return 0;
    if (option->refused_unless == STAP_UNLESS_MACHINE)
        return strcmp(argument, system.machine) == 0;
    return strcmp(argument, system.release) == 0;
}

int stap_option_use(const struct stap_option *option, const char *argument)
{
    if (!option->refusal || names_this_system(option, argument))
        return 0;
    if (option->long_name && option->short_name)
        fprintf(stderr, "ERROR: -%c (--%s) is not available: %s\n", option->short_name, option->long_name,
                option->refusal);
    else if (option->long_name)
        fprintf(stderr, "ERROR: --%s is not available: %s\n", option->long_name, option->refusal);
    else if (argument)
        fprintf(stderr, "ERROR: -%c %s is not available: %s\n", option->short_name, argument, option->refusal);
    else
        fprintf(stderr, "ERROR: -%c is not available: %s\n", option->short_name, option->refusal);
    return -1;
}
