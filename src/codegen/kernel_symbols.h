/* Kernel addresses named as SystemTap's context-symbols tapset does (kernel_symbols.c). */
#ifndef TAP_CODEGEN_KERNEL_SYMBOLS_H
#define TAP_CODEGEN_KERNEL_SYMBOLS_H

#include "codegen/codegen_internal.h"

enum kernel_symbol_form {
    KSYM_NAME,      /* symname: "f", "0x..." */
    KSYM_DATA,      /* symdata: "f+0x1a/0x30 [kernel]", "f+0x4/0x10 [mod]", "0x..." */
    KSYM_MODULE,    /* modname: "kernel", "mod"; an error where nothing is known */
    KSYM_FRAME,     /* a line of sprint_backtrace(): "f+0x1a [kernel]\n", "0x...\n" */
};

/* Writes the form of address into the string slot from byte start on (an
 * i64; room bytes, start + room at most MAXSTRINGLEN, the NUL included);
 * returns the bytes written with the NUL, as bpf_snprintf does. */
LLVMValueRef cg_kernel_symbol(struct codegen *cg, LLVMValueRef address, enum kernel_symbol_form form,
                              uint32_t slot, LLVMValueRef start, LLVMValueRef room, struct span span);
/* symname(a), symdata(a), modname(a): the string, in a fresh slot. */
LLVMValueRef cg_kernel_symbol_builtin(struct codegen *cg, struct expr *call, enum kernel_symbol_form form);

#endif
