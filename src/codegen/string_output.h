/* What the string functions (string_functions.c) and sprintf's renderer
 * (sprintf.c) share: strings in scratch slots, reached by masked offsets,
 * and an output slot appended to up to MAXSTRINGLEN - 1 characters. */
#ifndef TAP_CODEGEN_STRING_OUTPUT_H
#define TAP_CODEGEN_STRING_OUTPUT_H

#include <llvm-c/Core.h>

#include <stdint.h>

#include "base/source.h"

struct codegen;

/* i & (MAXSTRINGLEN - 1): an offset the verifier sees inside a slot. */
LLVMValueRef cg_string_mask(struct codegen *cg, LLVMValueRef i);
/* The address and the value of character i of the string in slot. */
LLVMValueRef cg_string_char_ptr(struct codegen *cg, uint32_t slot, LLVMValueRef i);
LLVMValueRef cg_string_char_at(struct codegen *cg, uint32_t slot, LLVMValueRef i);
void cg_put_char(struct codegen *cg, uint32_t slot, LLVMValueRef i, LLVMValueRef c);
/* A new string slot, empty; a copy of s in a slot of its own (its length in *length unless NULL). */
uint32_t cg_string_new_slot(struct codegen *cg);
uint32_t cg_string_copy_to_slot(struct codegen *cg, LLVMValueRef s, LLVMValueRef *length);

struct output {
    LLVMValueRef slot, length;   /* i64 scratch offsets; length: of an i64 */
};

/* A new output slot, empty; characters, NUL-terminated strings (a pointer
 * into scratch or .rodata) and slots appended; then its NUL and address. */
void cg_output_start(struct codegen *cg, struct output *o);
void cg_output_char(struct codegen *cg, struct output *o, LLVMValueRef c);
void cg_output_cstring(struct codegen *cg, struct output *o, LLVMValueRef s);
void cg_output_string(struct codegen *cg, struct output *o, uint32_t slot);
LLVMValueRef cg_output_finish(struct codegen *cg, struct output *o);

/* s escaped within `limit` characters (NULL: MAXSTRINGLEN - 1), in quotes when quoted. */
LLVMValueRef cg_text_str(struct codegen *cg, struct span span, LLVMValueRef s, int quoted, LLVMValueRef limit);
/* The same for len bytes (NULs included, len < MAXSTRINGLEN) that the
 * caller put in the input slot of a block from cg_escape_block (its first
 * MAXSTRINGLEN bytes), always quoted (SystemTap's *_buffer_quoted). */
uint32_t cg_escape_block(struct codegen *cg);
LLVMValueRef cg_buffer_quoted(struct codegen *cg, struct span span, uint32_t base, LLVMValueRef len, LLVMValueRef limit);

#endif
