/* libiberty's cplus_demangle rather than libstdc++'s __cxa_demangle (which
 * tap links anyway, for LLVM): one C call reads C++ and both Rust schemes,
 * and it can leave the parameter list out, as probe point names need
 * ("shop::Cart::add", matched like a DWARF function in its scopes). */
#include "base/demangle.h"

#include <libiberty/demangle.h>
#include <stdlib.h>

int demangle_is_mangled(const char *name)
{
    return name[0] == '_' && (name[1] == 'Z' || name[1] == 'R');
}

char *demangle(const char *name, int with_params)
{
    if (!demangle_is_mangled(name))
        return NULL;
    return cplus_demangle(name, DMGL_ANSI | (with_params ? DMGL_PARAMS : 0));
}

const char *demangle_next_separator(const char *text)
{
    int depth = 0;
    for (const char *p = text; *p; p++) {
        if (*p == '<' || *p == '(')
            depth++;
        else if ((*p == '>' || *p == ')') && depth > 0)
            depth--;
        else if (depth == 0 && p[0] == ':' && p[1] == ':')
            return p;
    }
    return NULL;
}
