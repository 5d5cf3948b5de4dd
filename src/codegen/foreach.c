/* foreach: see cg_foreach. */
#include "codegen/codegen_internal.h"

void cg_foreach(struct codegen *cg, struct stmt *st)
{
    diag_error(cg->diags, st->span, "foreach not supported yet");
}
