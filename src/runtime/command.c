/* -c CMD: run directly when it is a plain word list, through /bin/sh only
 * when it needs a shell, so target() is the command itself, not a shell. */
#include <errno.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/stat.h>
#include <unistd.h>

#include "runtime/session.h"

int command_needs_shell(const char *command)
{
    return strpbrk(command, "|&;<>()$`\\\"'*?[]#~=%{}!\n") != NULL;
}

char **command_split(const char *command)
{
    size_t len = strlen(command);
    size_t words = len / 2 + 2;   /* at most every other byte starts a word */
    char **argv = malloc(words * sizeof(char *) + len + 1);
    if (!argv)
        return NULL;
    char *text = (char *)(argv + words);
    memcpy(text, command, len + 1);

    int n = 0;
    for (char *p = text; *p;) {
        while (*p == ' ' || *p == '\t')
            *p++ = '\0';
        if (!*p)
            break;
        argv[n++] = p;
        while (*p && *p != ' ' && *p != '\t')
            p++;
    }
    argv[n] = NULL;
    return argv;
}

static int command_is_executable(const char *path)
{
    struct stat st;
    if (stat(path, &st) < 0)
        return 0;
    if (S_ISDIR(st.st_mode)) {
        errno = EISDIR;
        return 0;
    }
    return access(path, X_OK) == 0;
}

/* What execvp would run, checked before anything is loaded, so a mistyped
 * command fails at once instead of after begin probes ran. Commands run
 * through the shell are the shell's to resolve. Returns 0, or -1 with errno. */
int command_check(const char *command)
{
    if (command_needs_shell(command))
        return 0;
    char **argv = command_split(command);
    if (!argv)
        return -1;
    int ok = 0;
    if (!argv[0]) {
        errno = ENOENT;
    } else if (strchr(argv[0], '/')) {
        ok = command_is_executable(argv[0]);
    } else {
        const char *path = getenv("PATH");
        errno = ENOENT;
        for (const char *dir = path ? path : "/usr/local/bin:/usr/bin:/bin"; !ok;) {
            const char *colon = strchr(dir, ':');
            int dir_len = colon ? (int)(colon - dir) : (int)strlen(dir);
            char candidate[4096];
            snprintf(candidate, sizeof(candidate), "%.*s/%s", dir_len, dir_len ? dir : ".", argv[0]);
            int saved = errno;
            ok = command_is_executable(candidate);
            if (!ok && errno == ENOENT)
                errno = saved;   /* a later directory may still have it: keep the best reason */
            if (!colon)
                break;
            dir = colon + 1;
        }
    }
    int saved = errno;
    free(argv);
    errno = saved;
    return ok ? 0 : -1;
}
