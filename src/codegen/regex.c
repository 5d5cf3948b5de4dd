/* =~ and !~: see cg_regex_match. */
#include "codegen/codegen_internal.h"

LLVMValueRef cg_regex_match(struct codegen *cg, struct expr *e)
{
    diag_error(cg->diags, e->span, "regular expression matching not supported yet");
    return cg_const(cg, 0);
}
