/* -c CMD: run directly when it is a plain word list, through /bin/sh only
 * when it needs a shell, so target() is the command itself, not a shell. */
#include <stdlib.h>
#include <string.h>

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
