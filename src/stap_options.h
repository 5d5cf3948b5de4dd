/* SystemTap's options that tap accepts as nothing to do, or refuses with a
 * reason (stap_options.c). tap.c adds them to its getopt tables. */
#ifndef TAP_STAP_OPTIONS_H
#define TAP_STAP_OPTIONS_H

enum stap_argument { STAP_ARG_NONE, STAP_ARG_REQUIRED, STAP_ARG_OPTIONAL };

/* When a refused option is accepted after all: its argument names this system. */
enum stap_refused_unless { STAP_ALWAYS, STAP_UNLESS_MACHINE, STAP_UNLESS_RELEASE };

struct stap_option {
    const char *long_name;     /* NULL: only the short one */
    char short_name;           /* 0: only the long one; a short one never takes an optional argument */
    enum stap_argument argument;
    const char *refusal;       /* NULL: accepted, with nothing to do */
    enum stap_refused_unless refused_unless;
};

const struct stap_option *stap_option_table(int *count);

/* 0 to go on; -1, after saying why, for a refused one. argument: its
 * argument, or NULL. */
int stap_option_use(const struct stap_option *option, const char *argument);

#endif
