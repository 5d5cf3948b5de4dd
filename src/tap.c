/* tap: SystemTap's script language, compiled to eBPF.
 * The pipeline is tap_compile(): parse, resolve, generate; then the runtime. */
#include <errno.h>
#include <getopt.h>
#include <signal.h>
#include <limits.h>
#include <malloc.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/utsname.h>
#include <time.h>
#include <unistd.h>

#include "base/arena.h"
#include "base/diag.h"
#include "codegen/codegen.h"
#include "parser/parse.h"
#include "runtime/kernel.h"
#include "program/program.h"
#include "program/program_io.h"
#include "runtime/runtime.h"
#include "sema/dwarf.h"
#include "sema/sema.h"
#include "stap_options.h"

#define MAX_TAPSET_DIRS 16

struct options {
    const char *script_text;         /* -e */
    const char *script_path;         /* file or "-" */
    char **args;
    int arg_count;
    int last_pass;                   /* -p */
    int verbose;
    const char *output_path;
    int list_mode;                   /* -l ('l') or -L ('L') */
    const char *list_point;          /* its probe point: -lPP, or the first operand */
    const char *run_object;          /* --run OBJ */
    int dump;                        /* --dump-functions ('f'), -probe-types ('t'), -probe-aliases ('a') */
    int list_variables;
    const char *tapset_dirs[MAX_TAPSET_DIRS];
    int tapset_dir_count;
    int keep_unused, no_warnings, warnings_are_errors;
    int guru;                        /* -g: refused, after saying which lines need it */
    int disable_cache;               /* --disable-cache */
    int no_call_sites;               /* --no-call-sites */
    int no_insn_check;               /* -D TAP_DEBUG_NO_INSN_CHECK=1 */
    char cache_dir[PATH_MAX];
    struct codegen_options codegen;
    struct runtime_options runtime;
    struct global_setting settings[64];
    const char *setting_names[64];   /* for sema: a global -G sets is assigned */
};

static double now_ms(void)
{
    struct timespec ts;
    clock_gettime(CLOCK_MONOTONIC, &ts);
    return ts.tv_sec * 1e3 + ts.tv_nsec / 1e6;
}

static void usage(FILE *out)
{
    fputs("Usage: tap [OPTIONS] SCRIPT [ARGS...]\n"
          "       tap [OPTIONS] -e 'SCRIPT' [ARGS...]\n"
          "       tap [OPTIONS] -             (script on standard input)\n"
          "       tap -l PROBE | -L PROBE     (list probe points)\n"
          "\n"
          "Options:\n"
          "  -e SCRIPT      run SCRIPT given on the command line\n"
          "  -c CMD         start CMD, trace it, stop when it exits; target() is its pid\n"
          "  -x PID         set target() to PID\n"
          "  -o FILE        write output to FILE (with -p4: the BPF object)\n"
          "  -m NAME        name the session: procfs probes' files are in /run/tap/NAME\n"
          "                 (default tap_PID)\n"
          "  -p N           stop after pass N: 1 parse, 2 resolve, 3 LLVM IR, 4 BPF object, 5 run\n"
          "  -v             report each pass (repeat for more)\n"
          "  -T SECS        end the session after SECS seconds\n"
          "  -G VAR=VALUE   set a global variable before the session starts\n"
          "  -D NAME=VALUE  set a limit: MAXSTRINGLEN, MAXACTION, MAXNESTING, MAXMAPENTRIES,\n"
          "                 MAXERRORS; -D NAME alone (STP_NO_OVERLOAD, ...) changes nothing\n"
          "  -I DIR         add a tapset directory\n"
          "  -s MB          output buffer size in megabytes\n"
          "  -u -w -W       keep unused code; no warnings; warnings are errors\n"
          "  -g             refused: guru mode (embedded C, kernel writes) has no BPF form (-p1 only parses)\n"
          "  -q             refused: SystemTap's tapset coverage database does not exist here\n"
          "  -t             probe hit report at the end: each probe's hits and times (ns)\n"
          "  -d FILE, --ldd, --all-modules\n"
          "                 accepted: symbols of the kernel, its modules and every mapped file\n"
          "                 are always read when needed (a -d path must exist)\n"
          "  --suppress-time-limits  MAXACTION at its largest (8388608 loop iterations)\n"
          "  --runtime=bpf, --bpf    accepted: tap's only runtime\n"
          "  --skip-badvars refused: an unreadable target variable is a compile error\n"
          "  --suppress-handler-errors\n"
          "                 a runtime error ends its handler only, unreported (counted at the end)\n"
          "  -l PP, -L PP   list matching probe points (-L with variables)\n"
          "  --run OBJ      run an object written by -p4 -o OBJ (no LLVM or debug info needed)\n"
          "  --format=text|json  output format\n"
          "  --disable-cache       neither read nor write the cache (BPF objects, function indexes)\n"
          "  --no-call-sites       keep .function probes on the first instruction, even where the\n"
          "                        kernel single-steps it (by default they move to the calls)\n"
          "  --dump-functions      list the functions scripts can call, with their types\n"
          "  --dump-probe-types    list the probe points tap supports\n"
          "  --dump-probe-aliases  list the probe aliases of the tapsets\n"
          "  --no-global-var-display  do not print the globals at the end\n"
          "  SystemTap's other options (-P, -B, -k, -F, -S, --use-server, ...) are accepted when they\n"
          "  change nothing here, refused with the reason otherwise\n"
          "  -V, --version  print the version\n"
          "  -h, --help     print this help\n",
          out);
}

/* -DNAME without a value: one of SystemTap's switches of its C runtime
 * (STP_NO_OVERLOAD, STP_NO_BUILDID_CHECK, ...), which tap, having no such
 * runtime, accepts as they change nothing here; the limits need a number. */
static int parse_flag(const char *name)
{
    static const char *const limits[] = {"MAXSTRINGLEN", "MAXACTION", "MAXNESTING", "MAXMAPENTRIES",
                                         "MAXERRORS", "HIST_ELISION"};
    for (size_t i = 0; i < sizeof(limits) / sizeof(limits[0]); i++)
        if (strcmp(name, limits[i]) == 0) {
            fprintf(stderr, "ERROR: -D %s needs a value: -D %s=NUMBER\n", name, name);
            return -1;
        }
    return 0;
}

static int parse_limit(struct options *opts, const char *setting)
{
    const char *eq = strchr(setting, '=');
    if (eq == setting || !*setting) {
        fprintf(stderr, "ERROR: -D needs NAME=VALUE, got '%s'\n", setting);
        return -1;
    }
    if (!eq)
        return parse_flag(setting);
    char *end;
    errno = 0;
    long long value = strtoll(eq + 1, &end, 0);
    size_t name_len = (size_t)(eq - setting);
    int zero_ok = (name_len == 12 && strncmp(setting, "HIST_ELISION", 12) == 0) ||
                  (name_len == 9 && strncmp(setting, "MAXERRORS", 9) == 0);
    if (errno || *end || value < 0 || (value == 0 && !zero_ok)) {
        fprintf(stderr, "ERROR: -D %.*s needs a positive number, got '%s'\n", (int)(eq - setting), setting, eq + 1);
        return -1;
    }
    if (strncmp(setting, "MAXSTRINGLEN", name_len) == 0 && name_len == 12) {
        /* N bytes with the NUL, as SystemTap's buffers: strings of N-1 characters. A slot is a
         * power of two (masked offsets stay exact), so another N rounds up, and tap says so. */
        uint32_t size = 16;
        while (size < (uint64_t)value && size < 65536)
            size *= 2;
        if (size != (uint64_t)value)
            fprintf(stderr, "WARNING: -D MAXSTRINGLEN=%lld: tap's string slots are powers of two from 16 to 65536; "
                            "strings hold up to %u characters\n", value, size - 1);
        opts->codegen.string_size = size;
    } else if (strncmp(setting, "MAXACTION", name_len) == 0 && name_len == 9) {
        opts->codegen.max_action = value > (1 << 23) ? (1 << 23) : value;
    } else if (strncmp(setting, "MAXNESTING", name_len) == 0 && name_len == 10) {
        opts->codegen.max_nesting = (int)(value > 6 ? 6 : value);
    } else if (strncmp(setting, "MAXMAPENTRIES", name_len) == 0 && name_len == 13) {
        opts->codegen.max_map_entries = value > (1 << 24) ? (1 << 24) : value;
    } else if (strncmp(setting, "TAP_DEBUG_REJECT", name_len) == 0 && name_len == 16) {
        opts->codegen.debug_reject = 1;   /* hidden: tests of verifier rejections */
    } else if (strncmp(setting, "TAP_DEBUG_DEFER_ENTRIES", name_len) == 0 && name_len == 23) {
        opts->codegen.defer_entries = value > (1 << 20) ? (1 << 20) : (uint32_t)value;   /* hidden: tests */
    } else if (strncmp(setting, "TAP_DEBUG_NO_INSN_CHECK", name_len) == 0 && name_len == 23) {
        opts->no_insn_check = 1;          /* hidden: tests of attach failures */
    } else if (strncmp(setting, "MAXERRORS", name_len) == 0 && name_len == 9) {
        opts->codegen.max_errors = value > (1 << 30) ? (1 << 30) : value;
    } else if (zero_ok) {
        opts->codegen.hist_elision = (int)(value > 1000 ? 1000 : value);
    }
    /* Other limits (MAXMAPENTRIES, HIST_ELISION, ...) are accepted for
     * compatibility; the passes that use them read them when they exist. */
    return 0;
}

static int add_setting(struct options *opts, char *setting)
{
    char *eq = strchr(setting, '=');
    if (!eq || eq == setting) {
        fprintf(stderr, "ERROR: -G needs VAR=VALUE, got '%s'\n", setting);
        return -1;
    }
    if (opts->runtime.setting_count == 64) {
        fprintf(stderr, "ERROR: too many -G settings\n");
        return -1;
    }
    *eq = 0;
    opts->setting_names[opts->runtime.setting_count] = setting;
    opts->settings[opts->runtime.setting_count++] = (struct global_setting){setting, eq + 1};
    return 0;
}

/* -T SECS: a finite number; the bound keeps the conversion to a timerfd's
 * time_t defined. */
static int parse_seconds_option(const char *text, double *out)
{
    char *end;
    errno = 0;
    *out = strtod(text, &end);
    if (errno || end == text || *end || !(*out >= 0 && *out <= 1e9)) {
        fprintf(stderr, "ERROR: -T needs a number of seconds from 0 to 1e9, got '%s'\n", text);
        return -1;
    }
    return 0;
}

/* -x PID, -s MB: whole numbers from min to max. */
static int parse_integer_option(const char *text, const char *what, long min, long max, long *out)
{
    char *end;
    errno = 0;
    *out = strtol(text, &end, 10);
    if (errno || end == text || *end || *out < min || *out > max) {
        fprintf(stderr, "ERROR: %s needs a whole number from %ld to %ld, got '%s'\n", what, min, max, text);
        return -1;
    }
    return 0;
}

/* -d FILE: SystemTap copies FILE's symbols into the module; tap reads the
 * symbols of whatever a process maps, and of the kernel and its modules, when
 * it needs them. A path that does not exist is still a mistake to report. */
static int check_symbol_file(const char *name)
{
    if (strchr(name, '/') && access(name, R_OK) < 0) {
        fprintf(stderr, "ERROR: -d %s: %s\n", name, strerror(errno));
        return -1;
    }
    return 0;
}

#define GURU_REFUSED "-g (guru mode) is not available: tap compiles scripts to BPF programs, which " \
                     "cannot run embedded C (%{ %}) or write kernel memory"

/* getopt codes of the options that have only a long name (above any char). */
enum long_option {
    OPT_FORMAT = 256, OPT_RUN, OPT_DUMP_FUNCTIONS, OPT_DUMP_PROBE_TYPES, OPT_DUMP_PROBE_ALIASES,
    OPT_DISABLE_CACHE, OPT_NO_CALL_SITES, OPT_SUPPRESS_HANDLER_ERRORS, OPT_ALL_MODULES, OPT_LDD,
    OPT_SUPPRESS_TIME_LIMITS, OPT_SKIP_BADVARS, OPT_RUNTIME, OPT_BPF, OPT_VP, OPT_NO_GLOBAL_VAR_DISPLAY,
    OPT_STAP_FIRST = 512,   /* + the index of a stap_options.c entry */
};

#define TAP_SHORT_OPTIONS ":e:c:x:o:m:p:vT:G:D:I:d:s:uwWgqtl::L::Vh"

struct option_tables {
    struct option longs[96];
    char shorts[96];
};

/* tap's own options, then SystemTap's that it accepts or refuses (stap_options.c). */
static void build_option_tables(struct option_tables *t)
{
    static const struct option own[] = {
        {"help", no_argument, 0, 'h'}, {"version", no_argument, 0, 'V'},
        {"format", required_argument, 0, OPT_FORMAT}, {"run", required_argument, 0, OPT_RUN},
        {"dump-functions", no_argument, 0, OPT_DUMP_FUNCTIONS},
        {"dump-probe-types", no_argument, 0, OPT_DUMP_PROBE_TYPES},
        {"dump-probe-aliases", no_argument, 0, OPT_DUMP_PROBE_ALIASES},
        {"disable-cache", no_argument, 0, OPT_DISABLE_CACHE}, {"no-call-sites", no_argument, 0, OPT_NO_CALL_SITES},
        {"suppress-handler-errors", no_argument, 0, OPT_SUPPRESS_HANDLER_ERRORS},
        {"all-modules", no_argument, 0, OPT_ALL_MODULES}, {"ldd", no_argument, 0, OPT_LDD},
        {"suppress-time-limits", no_argument, 0, OPT_SUPPRESS_TIME_LIMITS},
        {"skip-badvars", no_argument, 0, OPT_SKIP_BADVARS}, {"runtime", required_argument, 0, OPT_RUNTIME},
        {"bpf", no_argument, 0, OPT_BPF}, {"vp", required_argument, 0, OPT_VP},
        {"no-global-var-display", no_argument, 0, OPT_NO_GLOBAL_VAR_DISPLAY},
    };
    static const int has_arg[] = {no_argument, required_argument, optional_argument};
    int own_count = (int)(sizeof(own) / sizeof(own[0])), stap_count, n = own_count;
    const struct stap_option *stap = stap_option_table(&stap_count);
    memcpy(t->longs, own, sizeof(own));
    size_t shorts = strlen(TAP_SHORT_OPTIONS);
    memcpy(t->shorts, TAP_SHORT_OPTIONS, shorts);
    for (int i = 0; i < stap_count && n + 1 < (int)(sizeof(t->longs) / sizeof(t->longs[0])); i++) {
        if (stap[i].long_name)
            t->longs[n++] = (struct option){stap[i].long_name, has_arg[stap[i].argument], 0, OPT_STAP_FIRST + i};
        if (stap[i].short_name && shorts + 3 < sizeof(t->shorts)) {
            t->shorts[shorts++] = stap[i].short_name;
            if (stap[i].argument == STAP_ARG_REQUIRED)
                t->shorts[shorts++] = ':';
        }
    }
    t->longs[n] = (struct option){0, 0, 0, 0};
    t->shorts[shorts] = 0;
}

/* The stap_options.c entry getopt's code names, or NULL. */
static const struct stap_option *stap_option_for(int code)
{
    int count;
    const struct stap_option *stap = stap_option_table(&count);
    if (code >= OPT_STAP_FIRST && code < OPT_STAP_FIRST + count)
        return &stap[code - OPT_STAP_FIRST];
    for (int i = 0; code > 0 && code < 256 && i < count; i++)
        if (stap[i].short_name == code)
            return &stap[i];
    return NULL;
}

/* --vp ABCDE: SystemTap's verbosity per pass; tap's -v is one level for all. */
static int parse_pass_verbosity(const char *digits)
{
    int level = 0;
    for (const char *d = digits; *d >= '0' && *d <= '9'; d++)
        level = *d - '0' > level ? *d - '0' : level;
    return level;
}

/* Returns 0 to go on, 1 when done (help, version), -1 on a bad command line. */
static int parse_options(int argc, char **argv, struct options *opts)
{
    struct option_tables tables;
    build_option_tables(&tables);
    opts->codegen = (struct codegen_options){.string_size = 512, .events_size = 8 << 20,
                                             .max_action = 1 << 20, .max_nesting = 6,
                                             .hist_elision = 2};
    opts->runtime.settings = opts->settings;
    opts->last_pass = 5;
    int c;
    long number;
    opterr = 0;   /* one line of our own, not getopt's message and the whole usage */
    while ((c = getopt_long(argc, argv, tables.shorts, tables.longs, NULL)) != -1) {
        switch (c) {
        case 'e': opts->script_text = optarg; break;
        case 'c': opts->runtime.target_command = optarg; break;
        case 'x':
            if (parse_integer_option(optarg, "-x", 1, INT_MAX, &number) < 0)
                return -1;
            opts->runtime.target_pid = (pid_t)number;
            break;
        case 'o': opts->output_path = optarg; break;
        case 'm':   /* SystemTap's module name: here, the procfs files' directory */
            if (!optarg[0] || strspn(optarg, "abcdefghijklmnopqrstuvwxyzABCDEFGHIJKLMNOPQRSTUVWXYZ0123456789_") !=
                                  strlen(optarg)) {
                fprintf(stderr, "ERROR: -m %s: a module name is letters, digits and '_'\n", optarg);
                return -1;
            }
            opts->runtime.module_name = optarg;
            break;
        case 'p':
            opts->last_pass = optarg[0] >= '1' && optarg[0] <= '5' && !optarg[1] ? optarg[0] - '0' : 0;
            if (opts->last_pass == 0) {   /* "4x" and " 2" too, which atoi took */
                fprintf(stderr, "ERROR: -p takes a pass number from 1 to 5\n");
                return -1;
            }
            break;
        case 'v': opts->verbose++; break;
        case 'T':
            if (parse_seconds_option(optarg, &opts->runtime.timeout_seconds) < 0)
                return -1;
            break;
        case 'G': if (add_setting(opts, optarg) < 0) return -1; break;
        case 'D': if (parse_limit(opts, optarg) < 0) return -1; break;
        case 'I':
            if (opts->tapset_dir_count < MAX_TAPSET_DIRS - 1)
                opts->tapset_dirs[opts->tapset_dir_count++] = optarg;
            break;
        case 's':
            /* The ring buffer's size is a u32 power of two. */
            if (parse_integer_option(optarg, "-s", 1, 1024, &number) < 0)
                return -1;
            opts->runtime.ringbuf_bytes = (uint64_t)number << 20;
            break;
        case 'u': opts->keep_unused = 1; break;
        case 'w': opts->no_warnings = 1; break;
        case 'W': opts->warnings_are_errors = 1; break;
        case 'g': opts->guru = 1; break;
        case 'q':
            /* stap -q is not "quiet" (that is -w): it records which tapset
             * probes and functions a compile used in a sqlite database */
            fprintf(stderr, "ERROR: -q (SystemTap's tapset coverage database) is not available: tap keeps "
                            "no coverage database; -p2 shows what a script uses\n");
            return -1;
        case 't': opts->codegen.timing = 1; break;   /* codegen/timing.c, runtime/timing_report.c */
        case OPT_SUPPRESS_HANDLER_ERRORS: opts->codegen.suppress_handler_errors = 1; break;
        case 'd': if (check_symbol_file(optarg) < 0) return -1; break;
        case OPT_ALL_MODULES: case OPT_LDD: case OPT_BPF:
            /* symbols of the kernel, its modules and every file a traced
             * process maps are read when needed (kallsyms, the mappings):
             * there is nothing to add ahead of time */
            break;
        case OPT_SUPPRESS_TIME_LIMITS: opts->codegen.max_action = 1 << 23; break;
        case OPT_SKIP_BADVARS:
            fprintf(stderr, "ERROR: --skip-badvars is not available: tap reports a target variable it "
                            "cannot read at compile time (file:line:col) instead of reading 0 in its place\n");
            return -1;
        case OPT_RUNTIME:
            if (strcmp(optarg, "bpf") != 0) {
                fprintf(stderr, "ERROR: --runtime=%s is not available: tap has one runtime, bpf\n", optarg);
                return -1;
            }
            break;
        case 'l': case 'L':
            /* the probe point is an operand, like a script, so that
             * `-L -v PP` and `-L PP -v` both work; -LPP too */
            opts->list_mode = c;
            opts->list_point = optarg;
            opts->list_variables = c == 'L';
            break;
        case OPT_FORMAT:
            if (strcmp(optarg, "json") != 0 && strcmp(optarg, "text") != 0) {
                fprintf(stderr, "ERROR: --format takes text or json\n");
                return -1;
            }
            opts->runtime.json = strcmp(optarg, "json") == 0;
            break;
        case OPT_RUN: opts->run_object = optarg; break;
        case OPT_DUMP_FUNCTIONS: opts->dump = 'f'; break;
        case OPT_DUMP_PROBE_ALIASES: opts->dump = 'a'; break;
        case OPT_DUMP_PROBE_TYPES: opts->dump = 't'; break;
        case OPT_DISABLE_CACHE: opts->disable_cache = 1; break;
        case OPT_NO_CALL_SITES: opts->no_call_sites = 1; break;
        case OPT_VP: opts->verbose = parse_pass_verbosity(optarg); break;
        case OPT_NO_GLOBAL_VAR_DISPLAY: opts->runtime.no_global_display = 1; break;
        case 'V': printf("tap %s (LLVM 19, libbpf)\n", TAP_VERSION); return 1;
        case 'h': usage(stdout); return 1;
        case ':':
            if (optopt == OPT_FORMAT)
                fprintf(stderr, "ERROR: --format needs an argument: text or json\n");
            else if (optopt == OPT_RUN)
                fprintf(stderr, "ERROR: --run needs a BPF object written by tap -p4\n");
            else if (optopt >= 256)
                fprintf(stderr, "ERROR: option %s needs an argument\n", argv[optind - 1]);
            else
                fprintf(stderr, "ERROR: option -%c needs an argument\n", optopt);
            fprintf(stderr, "Try 'tap --help' for the list of options.\n");
            return -1;
        default:
            if (stap_option_for(c)) {
                if (stap_option_use(stap_option_for(c), optarg) < 0)
                    return -1;
                break;
            }
            if (optopt)
                fprintf(stderr, "ERROR: unknown option '-%c'\n", optopt);
            else
                fprintf(stderr, "ERROR: unknown option '%s'\n", argv[optind - 1]);
            fprintf(stderr, "Try 'tap --help' for the list of options.\n");
            return -1;
        }
    }
    if (opts->list_mode && !opts->list_point) {
        if (optind >= argc) {
            fprintf(stderr, "ERROR: -%c needs a probe point, as in tap -%c 'process(\"ls\").function(\"*\")'\n",
                    opts->list_mode, opts->list_mode);
            return -1;
        }
        opts->list_point = argv[optind++];
    }
    if (opts->list_mode && optind < argc) {
        fprintf(stderr, "ERROR: -%c lists one probe point; unexpected '%s'\n", opts->list_mode, argv[optind]);
        return -1;
    }
    if (!opts->script_text && !opts->list_point && !opts->run_object && !opts->dump) {
        if (optind >= argc) {
            fprintf(stderr, "ERROR: no script given: use -e SCRIPT, a script file, or - for standard input\n");
            return -1;
        }
        opts->script_path = argv[optind++];
    }
    opts->args = argv + optind;
    opts->arg_count = argc - optind;
    if (opts->guru && !opts->script_path && !opts->script_text) {
        fprintf(stderr, "ERROR: %s\n", GURU_REFUSED);
        return -1;
    }
    if (opts->runtime.target_command && opts->runtime.target_pid) {
        fprintf(stderr, "ERROR: -c and -x cannot be used together\n");
        return -1;
    }
    if (opts->runtime.target_pid && kill(opts->runtime.target_pid, 0) < 0 && errno == ESRCH) {
        fprintf(stderr, "ERROR: -x %d: no such process\n", (int)opts->runtime.target_pid);
        return -1;
    }
    return 0;
}

/* Tapsets ship beside the binary when installed (../share/tap/tapsets) and in
 * the source tree when run from a build directory. */
static void add_default_tapset_dirs(struct options *opts, struct arena *arena)
{
    char self[4096];
    ssize_t n = readlink("/proc/self/exe", self, sizeof(self) - 1);
    if (n > 0) {
        self[n] = 0;
        char *slash = strrchr(self, '/');
        if (slash) {
            *slash = 0;
            opts->tapset_dirs[opts->tapset_dir_count++] = arena_printf(arena, "%s/../share/tap/tapsets", self);
        }
    }
    opts->tapset_dirs[opts->tapset_dir_count++] = TAP_SOURCE_TAPSETS;
}

/* --dump-*: catalogues, from the builtins and the tapsets. */
static int dump_catalogue(struct options *opts, struct arena *arena)
{
    struct diags diags;
    diags_init(&diags);
    struct dwarf_modules modules = {.arena = arena};
    struct sema_options sema_options = {.tapset_dirs = opts->tapset_dirs,
                                        .tapset_dir_count = opts->tapset_dir_count,
                                        .modules = &modules};
    if (opts->dump == 'f')
        sema_dump_functions(arena, &diags, &sema_options, stdout);
    else if (opts->dump == 't')
        sema_dump_probe_types(arena, stdout);
    else
        sema_dump_probe_aliases(arena, &diags, &sema_options, stdout);
    dwarf_modules_close(&modules);
    diags_print(&diags, stderr);
    int status = diags.error_count ? 1 : 0;
    diags_free(&diags);
    return status;
}

static const struct source_file *load_script(struct arena *arena, const struct options *opts)
{
    if (opts->script_text)
        return source_from_string(arena, "<input>", opts->script_text, strlen(opts->script_text));
    const struct source_file *file = source_from_path(arena, opts->script_path);
    if (!file)
        fprintf(stderr, "ERROR: cannot read script '%s': %s\n", opts->script_path, strerror(errno));
    return file;
}

/* -v: one line per pass, as SystemTap prints them. */
static void report_pass(const struct options *opts, const char *text, double ms)
{
    if (opts->verbose)
        fprintf(stderr, "%s in %.0f ms.\n", text, ms);
}

/* The compile cache: $TAP_CACHE_DIR (empty: none), else the XDG cache
 * directory; NULL when there is none or --disable-cache. */
static const char *cache_dir(struct options *opts)
{
    const char *explicit_dir = getenv("TAP_CACHE_DIR");
    const char *xdg = getenv("XDG_CACHE_HOME"), *home = getenv("HOME");
    int written = -1;
    if (opts->disable_cache || (explicit_dir && !*explicit_dir))
        return NULL;
    if (explicit_dir)
        written = snprintf(opts->cache_dir, sizeof(opts->cache_dir), "%s", explicit_dir);
    else if (xdg && xdg[0] == '/')
        written = snprintf(opts->cache_dir, sizeof(opts->cache_dir), "%s/tap", xdg);
    else if (home && home[0] == '/')
        written = snprintf(opts->cache_dir, sizeof(opts->cache_dir), "%s/.cache/tap", home);
    return written > 0 && written < (int)sizeof(opts->cache_dir) ? opts->cache_dir : NULL;
}

/* A process .return: a uretprobe, or its function's rets (at_returns). */
static int is_return_probe(const struct probe *probe)
{
    return (probe_is_uprobe(probe) && (probe_kind_ops(probe->kind)->flags & KIND_AT_RETURN)) ||
           probe_uprobe(probe)->at_returns;
}

/* -v: where each entry probe the kernel would single-step sits, and why,
 * and which mechanism each .return probe uses; a count for a wildcard that
 * matched many. */
static void report_placements(const struct script *script)
{
    int entries = 0, moved = 0, returns = 0, at_rets = 0, refused = 0;
    for (int i = 0; i < script->probe_count; i++) {
        const struct probe *probe = script->probes[i];
        const struct uprobe_probe *uprobe = probe_uprobe(probe);
        if (is_return_probe(probe)) {
            returns++;
            at_rets += uprobe->at_returns && !uprobe->refusal;
            refused += uprobe->refusal != NULL;
        } else if (uprobe->placement) {
            entries++;
            moved += uprobe->site_count > 0;
        }
    }
    for (int i = 0; i < script->probe_count; i++) {
        const struct probe *probe = script->probes[i];
        const struct uprobe_probe *uprobe = probe_uprobe(probe);
        if (uprobe->placement && (is_return_probe(probe) ? returns : entries) <= 20)
            fprintf(stderr, "Pass 2: %s sits %s.\n", probe->point, uprobe->placement);
    }
    if (entries > 20)
        fprintf(stderr, "Pass 2: %d probes on single-stepped entries: %d moved to their calls, %d stay.\n",
                entries, moved, entries - moved);
    if (returns > 20)
        fprintf(stderr, "Pass 2: %d .return probes: %d at their rets, %d on uretprobes, %d refused.\n", returns,
                at_rets, returns - at_rets - refused, refused);
}

static struct sema_options sema_options_of(struct options *opts, struct dwarf_modules *modules)
{
    return (struct sema_options){.tapset_dirs = opts->tapset_dirs,
                                 .tapset_dir_count = opts->tapset_dir_count,
                                 .keep_unused = opts->keep_unused,
                                 .set_globals = opts->setting_names,
                                 .set_global_count = opts->runtime.setting_count,
                                 .args = opts->args,
                                 .arg_count = opts->arg_count,
                                 .string_size = (int)opts->codegen.string_size,
                                 .hist_elision = opts->codegen.hist_elision,
                                 .target_command = opts->runtime.target_command,
                                 .target_pid = (int)opts->runtime.target_pid,
                                 .modules = modules,
                                 .entry_only = opts->no_call_sites,
                                 .compile_only = opts->last_pass < 5,
                                 .no_insn_check = opts->no_insn_check};
}

/* -g: sema's errors name each line with embedded C; then the refusal, and
 * when there was nothing guru in the script, how to run it. */
static void refuse_guru(struct arena *arena, struct diags *diags, struct options *opts, struct ast *ast,
                        struct dwarf_modules *modules)
{
    struct sema_options sema_options = sema_options_of(opts, modules);
    struct script *script = sema_analyze(arena, diags, ast, &sema_options);
    diag_plain_error(diags, "%s%s", GURU_REFUSED, script ? "; this script needs neither: run it without -g" : "");
}

/* parse -> resolve -> generate. Returns the program, or NULL after printing
 * why (also NULL, with *done set, when -p stopped earlier). */
/* The object's programs: probes of a group (a wildcard's functions sharing
 * one body) name one program. */
static int program_count(const struct program *program)
{
    int count = 0;
    for (int i = 0; i < program->probe_count; i++) {
        int seen = 0;
        for (int k = 0; k < i && !seen; k++)
            seen = strcmp(program->probes[k].prog_name, program->probes[i].prog_name) == 0;
        count += !seen;
    }
    return count;
}

static struct program *tap_compile(struct arena *arena, struct diags *diags, struct options *opts,
                                   struct dwarf_modules *modules, int *done)
{
    double started = now_ms();
    const struct source_file *file = load_script(arena, opts);
    if (!file)
        return NULL;
    struct parse_options parse_options = {.args = opts->args, .arg_count = opts->arg_count,
                                          .macro_dirs = opts->tapset_dirs,
                                          .macro_dir_count = opts->tapset_dir_count};
    struct ast *ast = parse_source(arena, diags, file, &parse_options);
    if (!ast || diags->error_count)
        return NULL;
    if (opts->verbose)
        fprintf(stderr, "Pass 1: parsed user script in %.0f ms.\n", now_ms() - started);
    if (opts->last_pass == 1) {   /* SystemTap's -gp1 (its security band-aids' check) only parses too */
        ast_print(stdout, ast);
        *done = 1;
        return NULL;
    }
    if (opts->guru) {
        refuse_guru(arena, diags, opts, ast, modules);
        return NULL;
    }

    started = now_ms();
    struct sema_options sema_options = sema_options_of(opts, modules);
    struct script *script = sema_analyze(arena, diags, ast, &sema_options);
    if (!script)
        return NULL;
    if (opts->verbose) {
        fprintf(stderr, "Pass 2: analyzed script: %d probes, %d functions, %d globals in %.0f ms.\n",
                script->probe_count, script->function_count, script->global_count, now_ms() - started);
        report_placements(script);
        dwarf_modules_report(modules, stderr);
    }
    if (opts->last_pass == 2) {
        sema_print(stdout, script);
        *done = 1;
        return NULL;
    }

    double translate_ms = 0, object_ms = 0;
    const char *cached_object = NULL;
    opts->codegen.ir_out = opts->last_pass == 3 ? stdout : NULL;
    opts->codegen.translate_ms = &translate_ms;
    opts->codegen.object_ms = &object_ms;
    opts->codegen.cache_dir = cache_dir(opts);
    opts->codegen.cached_object = &cached_object;
    /* what this kernel loads; none loads without privilege: the newest, and
     * --run checks the object against the kernel it runs on */
    opts->codegen.bpf_isa = kernel_bpf_isa();
    if (!opts->codegen.bpf_isa)
        opts->codegen.bpf_isa = 4;
    /* which kernel's BTF the object's structure offsets come from */
    struct kernel_identity kernel;
    kernel_identity_read(&kernel);
    opts->codegen.kernel_release = *kernel.release ? arena_strdup(arena, kernel.release) : NULL;
    opts->codegen.kernel_build_id = *kernel.build_id ? arena_strdup(arena, kernel.build_id) : NULL;
    struct program *program = codegen_emit(arena, diags, script, &opts->codegen);
    if (!program)
        return NULL;
    report_pass(opts, "Pass 3: translated to LLVM IR", translate_ms);
    if (opts->verbose && cached_object)
        fprintf(stderr, "Pass 4: using cached %s (%zu bytes, %d probes, %d programs).\n", cached_object,
                program->object_size, program->probe_count, program_count(program));
    else if (opts->verbose)
        fprintf(stderr, "Pass 4: compiled BPF object (%zu bytes, %d probes, %d programs) in %.0f ms.\n",
                program->object_size, program->probe_count, program_count(program), object_ms);
    return program;
}

static int write_object(const struct program *program, const char *path)
{
    FILE *out = fopen(path, "wb");
    if (!out || fwrite(program->object, 1, program->object_size, out) != program->object_size) {
        fprintf(stderr, "ERROR: cannot write '%s': %s\n", path, strerror(errno));
        if (out)
            fclose(out);
        return 1;
    }
    fclose(out);
    return 0;
}

/* -p4: the object to -o FILE, else to NAME.bpf.o here (NAME from -m, or
 * tap), whose name is printed as SystemTap prints the module it made, so
 * `tap --run $(tap -p4 x.tp)` works as `staprun $(stap -p4 x.stp)` does. */
static int write_pass4_object(const struct program *program, const struct options *opts, struct arena *arena)
{
    if (opts->output_path)
        return write_object(program, opts->output_path);
    const char *name = arena_printf(arena, "%s.bpf.o", opts->runtime.module_name ? opts->runtime.module_name : "tap");
    int status = write_object(program, name);
    if (status == 0)
        printf("%s\n", name);
    return status;
}

static int run_program(struct program *program, struct options *opts)
{
    opts->runtime.output_path = opts->output_path;
    opts->runtime.verbose = opts->verbose;
    return runtime_run(program, &opts->runtime);
}

/* The program is self-contained: the AST and sema's results go before the
 * session, and the heap LLVM and libdw left free goes back to the system,
 * so the run (ring buffers mapped, libbpf's copy of the object) does not
 * stack on top of the compiler's memory. */
static int run_compiled(struct program *program, struct options *opts, struct arena *arena)
{
    arena_free(arena);
    malloc_trim(0);
    return run_program(program, opts);
}

/* An object compiled on a newer kernel may use instructions this one lacks. */
static int check_bpf_isa(const struct program *program, char *error, size_t error_size)
{
    int isa = kernel_bpf_isa();
    if (!isa || isa >= program->bpf_isa)
        return 0;
    struct utsname name;
    snprintf(error, error_size,
             "the object uses BPF instruction set v%d (kernel %s or later) and kernel %s takes v%d: "
             "compile the script again on this kernel",
             program->bpf_isa, kernel_isa_release(program->bpf_isa), uname(&name) == 0 ? name.release : "?",
             isa);
    return -1;
}

/* An object holds its kernel's structure offsets (BTF): one compiled on
 * another kernel (another build id, or release where either lacks one) would
 * read the wrong bytes. */
static int check_kernel(const struct program *program, char *error, size_t error_size)
{
    struct kernel_identity kernel;
    kernel_identity_read(&kernel);
    if (!program->kernel_release || !*kernel.release)
        return 0;
    if (*kernel.build_id && program->kernel_build_id ? strcmp(kernel.build_id, program->kernel_build_id) == 0
                                                     : strcmp(kernel.release, program->kernel_release) == 0)
        return 0;
    snprintf(error, error_size,
             "the object was compiled on kernel %s (build id %s), not this one (%s, build id %s): it holds "
             "that kernel's structure offsets; compile the script again on this kernel",
             program->kernel_release, program->kernel_build_id ? program->kernel_build_id : "unknown",
             kernel.release, *kernel.build_id ? kernel.build_id : "unknown");
    return -1;
}

/* --run: the object carries its own metadata; the probed binaries must be the
 * ones it was compiled against, on this kernel. */
static int run_object(struct options *opts)
{
    char error[512];
    struct program *program = program_read_object(opts->run_object, error, sizeof(error));
    if (!program || program_check_probes(program, error, sizeof(error)) < 0 ||
        check_bpf_isa(program, error, sizeof(error)) < 0 || check_kernel(program, error, sizeof(error)) < 0) {
        fprintf(stderr, "ERROR: --run: %s\n", error);
        program_free(program);
        return 1;
    }
    int status = run_program(program, opts);
    program_free(program);
    return status;
}

int main(int argc, char **argv)
{
    struct options opts = {0};
    int parsed = parse_options(argc, argv, &opts);
    if (parsed != 0)
        return parsed > 0 ? 0 : 1;
    struct arena arena;
    arena_init(&arena);
    add_default_tapset_dirs(&opts, &arena);
    if (opts.dump) {
        int status = dump_catalogue(&opts, &arena);
        arena_free(&arena);
        return status;
    }
    if (opts.list_point) {
        struct diags diags;
        diags_init(&diags);
        struct dwarf_modules modules = {.arena = &arena, .cache_dir = cache_dir(&opts)};
        struct sema_options sema_options = {.tapset_dirs = opts.tapset_dirs,
                                            .tapset_dir_count = opts.tapset_dir_count,
                                            .string_size = (int)opts.codegen.string_size,
                                            .target_command = opts.runtime.target_command,
                                            .target_pid = (int)opts.runtime.target_pid,
                                            .modules = &modules};
        int status = sema_list_points(&arena, &diags, opts.list_point, &sema_options, opts.list_variables,
                                      opts.verbose, stdout);
        if (opts.verbose)
            dwarf_modules_report(&modules, stderr);
        diags_print(&diags, stderr);
        diags_free(&diags);
        dwarf_modules_close(&modules);
        arena_free(&arena);
        return status;
    }
    char too_old[256];
    if ((opts.run_object || opts.last_pass >= 3) && kernel_check_floor(too_old, sizeof(too_old)) < 0) {
        fprintf(stderr, "ERROR: %s\n", too_old);
        arena_free(&arena);
        return 1;
    }
    if (opts.run_object) {
        arena_free(&arena);
        return run_object(&opts);
    }
    struct diags diags;
    diags_init(&diags);
    diags.warnings_off = opts.no_warnings;
    diags.warnings_are_errors = opts.warnings_are_errors;
    int done = 0;
    struct dwarf_modules modules = {.arena = &arena, .cache_dir = cache_dir(&opts)};
    struct program *program = tap_compile(&arena, &diags, &opts, &modules, &done);
    dwarf_modules_close(&modules);   /* the program needs no DWARF: release the binaries now */
    diags_print(&diags, stderr);
    int status = done ? 0 : 1;
    if (program && opts.last_pass == 4)
        status = write_pass4_object(program, &opts, &arena);
    else if (program && opts.last_pass == 3)
        status = 0;
    else if (program)
        status = run_compiled(program, &opts, &arena);
    if (program)
        program_free(program);
    diags_free(&diags);
    arena_free(&arena);
    return status;
}
