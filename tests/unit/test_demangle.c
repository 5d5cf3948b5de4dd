/* Demangling (base/demangle.c): C++ with and without parameters, Rust's
 * legacy (hash dropped) and v0 schemes, plain C names left alone, and the
 * scope separator outside template arguments. */
#include <stdlib.h>

#include "base/demangle.h"
#include "check.h"

static void check_one(const char *mangled, int with_params, const char *expected)
{
    char *text = demangle(mangled, with_params);
    CHECK_STR(text ? text : "(null)", expected);
    free(text);
}

int main(void)
{
    check_one("_ZN4shop4Cart3addEi", 0, "shop::Cart::add");
    check_one("_ZN4shop4Cart3addEi", 1, "shop::Cart::add(int)");
    check_one("_Z5twiceIiET_S0_", 0, "twice<int>");
    check_one("_ZNSt8ios_base4InitC1Ev", 0, "std::ios_base::Init::Init");
    check_one("_ZN3std2io5stdio6_print17h1234567890abcdefE", 0, "std::io::stdio::_print");   /* Rust legacy */
    check_one("_RNvNtCs1234_7mycrate4shop3add", 0, "mycrate::shop::add");                       /* Rust v0 */
    check_one("main", 0, "(null)");
    check_one("_Znot a name", 0, "(null)");
    const char *text = "std::vector<std::pair<int, int> >::push_back";
    CHECK_STR(demangle_next_separator(text), "::vector<std::pair<int, int> >::push_back");
    CHECK_STR(demangle_next_separator(text + 5), "::push_back");
    CHECK(demangle_next_separator("twice<int>") == NULL);
    return check_summary();
}
