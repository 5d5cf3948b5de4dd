/* The functions inlined where a pc lies, as DWARF describes them
 * (DW_TAG_inlined_subroutine scopes), for backtraces that show inline
 * frames the way gdb's bt does. One per file, opened on first use through
 * base/debug_file.h (so separate debug info counts), each answer cached by
 * address: a profile's thousands of stacks repeat few pcs. */
#ifndef TAP_RUNTIME_INLINE_FRAMES_H
#define TAP_RUNTIME_INLINE_FRAMES_H

#include <stdint.h>

struct inline_frames;

/* Nothing is read until the first lookup. */
struct inline_frames *inline_frames_new(const char *path);
void inline_frames_free(struct inline_frames *frames);

/* The names of the functions inlined at FILE_OFFSET (a return address when
 * caller: looked up one byte back, in its call), innermost first; 0 when
 * none, or when the file has no DWARF. The names live as long as frames. */
int inline_frames_at(struct inline_frames *frames, uint64_t file_offset, int caller, const char *const **names);

#endif
