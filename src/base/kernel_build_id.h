/* The running kernel's GNU build id: what tells one kernel build from
 * another (its debug file's, a compiled object's kernel). */
#ifndef TAP_BASE_KERNEL_BUILD_ID_H
#define TAP_BASE_KERNEL_BUILD_ID_H

#include <stddef.h>

/* Its bytes into out (size at most); their count, 0 when it cannot be
 * read. The kernel shows it to everyone in /sys/kernel/notes. */
size_t kernel_build_id_bytes(unsigned char *out, size_t size);

#endif
