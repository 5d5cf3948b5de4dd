/* What a script asks of tap's own process, in its place among the output
 * (RECORD_COMMAND): system(cmd) starts `sh -c cmd` once everything printed
 * before it is written, as SystemTap's stapio does; it does not wait for it
 * (a slow command must not stall the trace), but reaps it, and the session
 * waits for the commands still running before tap exits, so that their
 * output is complete. Their standard output is tap's own, not the -o file
 * (SystemTap's too). A begin probe's commands start once the other probes
 * are attached, so the probes see what they do (stapio reads them after
 * the module's init has registered its probes). switch_file() closes the
 * -o file and goes on in FILE.1, FILE.2, ... (stapio's SIGUSR2). */
#include <errno.h>
#include <fcntl.h>
#include <signal.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/wait.h>
#include <unistd.h>

#include "program/program.h"
#include "runtime/session.h"

static void start_command(struct session *s, const char *cmd)
{
    if (s->command_count == s->command_cap) {
        int cap = s->command_cap ? s->command_cap * 2 : 8;
        pid_t *grown = realloc(s->commands, (size_t)cap * sizeof(*grown));
        if (!grown)
            return;
        s->commands = grown;
        s->command_cap = cap;
    }
    pid_t pid = fork();
    if (pid < 0) {
        fprintf(stderr, "WARNING: system(\"%s\"): cannot start it: %s\n", cmd, strerror(errno));
        return;
    }
    if (pid == 0) {
        sigprocmask(SIG_SETMASK, &s->saved_mask, NULL);   /* tap blocks them for its signalfd */
        execl("/bin/sh", "sh", "-c", cmd, (char *)NULL);
        _exit(127);
    }
    s->commands[s->command_count++] = pid;
}

/* Keeps cmd (its owner now) until session_release_commands; -1: no room. */
static int hold_command(struct session *s, char *cmd)
{
    if (s->held_count == s->held_cap) {
        int cap = s->held_cap ? s->held_cap * 2 : 4;
        char **grown = realloc(s->held_commands, (size_t)cap * sizeof(*grown));
        if (!grown)
            return -1;
        s->held_commands = grown;
        s->held_cap = cap;
    }
    s->held_commands[s->held_count++] = cmd;
    return 0;
}

/* Commands that have ended leave the list; wait: block until all have. */
void session_reap_commands(struct session *s, int wait)
{
    int kept = 0;
    for (int i = 0; i < s->command_count; i++) {
        pid_t done;
        do
            done = waitpid(s->commands[i], NULL, wait ? 0 : WNOHANG);
        while (done < 0 && errno == EINTR);
        if (done == 0)
            s->commands[kept++] = s->commands[i];
    }
    s->command_count = kept;
}

static void switch_output(struct session *s)
{
    const char *path = s->options->output_path;
    if (!path || strcmp(path, "/dev/null") == 0)
        return;   /* standard output, or nowhere: nothing to switch */
    char next[4096];
    snprintf(next, sizeof(next), "%s.%d", path, s->out_file_number + 1);
    int fd = open(next, O_WRONLY | O_CREAT | O_TRUNC | O_CLOEXEC, 0644);
    if (fd < 0) {
        fprintf(stderr, "ERROR: switch_file(): cannot open '%s': %s\n", next, strerror(errno));
        s->end = SESSION_END_ERROR;
        return;
    }
    close(s->out_fd);
    s->out_fd = fd;
    s->out_file_number++;
}

void session_command(struct session *s, uint32_t id, const void *data, size_t size)
{
    session_flush(s);   /* what was printed before goes first */
    if (id == 1) {
        switch_output(s);
        return;
    }
    const char *text = (const char *)data + sizeof(struct record_header);
    size_t length = strnlen(text, size - sizeof(struct record_header));
    char *cmd = strndup(text, length);
    if (cmd && s->commands_held && hold_command(s, cmd) == 0)
        return;
    if (cmd)
        start_command(s, cmd);
    free(cmd);
    session_reap_commands(s, 0);
}

void session_release_commands(struct session *s, int start)
{
    s->commands_held = 0;
    for (int i = 0; i < s->held_count; i++) {
        if (start)
            start_command(s, s->held_commands[i]);
        free(s->held_commands[i]);
    }
    free(s->held_commands);
    s->held_commands = NULL;
    s->held_count = s->held_cap = 0;
}
