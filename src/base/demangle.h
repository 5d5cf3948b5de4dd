/* Symbol names as people write them: C++ (Itanium ABI) and Rust (legacy
 * and v0) through libiberty's demangler, the one binutils, gdb and GCC's
 * own __cxa_demangle are built from. */
#ifndef TAP_BASE_DEMANGLE_H
#define TAP_BASE_DEMANGLE_H

/* Whether NAME looks mangled (_Z..., _R...): cheap, checked before demangling. */
int demangle_is_mangled(const char *name);
/* "shop::Cart::add" (with_params 0) or "shop::Cart::add(int)"; malloc'd,
 * NULL when NAME is not a mangled name the demangler reads. */
char *demangle(const char *name, int with_params);

/* Where the next "::" outside template arguments and parameter lists
 * starts ("Box<std::pair<int, int> >::get" has one), or NULL. */
const char *demangle_next_separator(const char *text);

#endif
