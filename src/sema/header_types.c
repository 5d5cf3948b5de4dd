/* Types from C headers for @cast(p, "T", "<stdio.h>"), as SystemTap's
 * "<header>" modules: the headers are compiled by the C compiler into a
 * small shared object with full DWARF (unused types kept), whose types are
 * then looked up as a program's. The object is removed once it is open. */
#include <errno.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/wait.h>
#include <unistd.h>
#include "base/strbuf.h"
#include "sema/header_types.h"

/* "<a.h><b.h>" -> "#include <a.h>\n#include <b.h>\n"; 0 when malformed. */
static int include_lines(const char *headers, struct strbuf *out)
{
    const char *p = headers;
    if (*p != '<')
        return 0;
    while (*p == '<') {
        const char *end = strchr(p, '>');
        if (!end || end == p + 1)
            return 0;
        strbuf_printf(out, "#include %.*s\n", (int)(end - p + 1), p);
        p = end + 1;
    }
    return *p == '\0';
}

/* cc's exit status, or -1 when it could not run. Its messages name a
 * temporary file: dropped, the diagnostic names the headers instead. */
static int run_compiler(const char *source, const char *object)
{
    pid_t pid = fork();
    if (pid < 0)
        return -1;
    if (pid == 0) {
        const char *cc = getenv("CC") ? getenv("CC") : "cc";
        if (!freopen("/dev/null", "w", stderr))
            _exit(127);
        execlp(cc, cc, "-g", "-fno-eliminate-unused-debug-types", "-shared", "-fPIC", "-w", "-o", object, source,
               (char *)NULL);
        _exit(127);
    }
    int status;
    while (waitpid(pid, &status, 0) < 0)
        if (errno != EINTR)
            return -1;
    return WIFEXITED(status) ? WEXITSTATUS(status) : -1;
}

struct dwarf_module *header_module_open(struct dwarf_modules *modules, const char *headers, char *error, size_t size)
{
    struct strbuf text = {0};
    if (!include_lines(headers, &text)) {
        snprintf(error, size, "'%s' is not a list of headers such as \"<stdio.h>\" or \"<a.h><b.h>\"", headers);
        strbuf_free(&text);
        return NULL;
    }
    char dir[] = "/tmp/tap-header.XXXXXX", source[64], object[64];
    struct dwarf_module *m = NULL;
    if (!mkdtemp(dir)) {
        snprintf(error, size, "cannot make a directory for compiling %s: %s", headers, strerror(errno));
        strbuf_free(&text);
        return NULL;
    }
    snprintf(source, sizeof(source), "%s/types.c", dir);
    snprintf(object, sizeof(object), "%s/types.so", dir);
    FILE *f = fopen(source, "w");
    int written = f && fputs(text.data, f) >= 0;
    if (f && fclose(f) != 0)
        written = 0;
    int status = written ? run_compiler(source, object) : -1;
    if (status == 0)
        m = dwarf_module_open_unindexed(modules, object, error, size);
    else
        snprintf(error, size, "cannot read the types of %s: the C compiler (cc, or $CC) %s", headers,
                 status < 0 ? "could not run" : "failed on them (are they installed?)");
    unlink(object);
    unlink(source);
    rmdir(dir);
    strbuf_free(&text);
    return m;
}
