/* The program's metadata rides in the object it describes (`.tap.meta`), so
 * a `-p4` object runs elsewhere with `tap --run`. */
#include <stdlib.h>

#include "codegen/codegen_internal.h"
#include "program/program_io.h"

void cg_embed_metadata(struct codegen *cg)
{
    size_t length;
    char *text = program_serialize(cg->program, &length);
    LLVMValueRef bytes = LLVMConstStringInContext(cg->context, text, (unsigned)length, 0);
    free(text);
    LLVMValueRef meta = LLVMAddGlobal(cg->module, LLVMTypeOf(bytes), "tap_meta");
    LLVMSetInitializer(meta, bytes);
    LLVMSetGlobalConstant(meta, 1);
    LLVMSetLinkage(meta, LLVMInternalLinkage);
    LLVMSetSection(meta, PROGRAM_META_SECTION);
    /* Nothing references it: llvm.used keeps the optimiser from dropping it. */
    LLVMValueRef used_init = LLVMConstArray2(cg->ptr, &meta, 1);
    LLVMValueRef used = LLVMAddGlobal(cg->module, LLVMTypeOf(used_init), "llvm.used");
    LLVMSetInitializer(used, used_init);
    LLVMSetLinkage(used, LLVMAppendingLinkage);
    LLVMSetSection(used, "llvm.metadata");
}
