/* Member offsets of the running kernel's structs, from its BTF
 * (/sys/kernel/btf/vmlinux) read in place: see kernel_btf.c. */
#ifndef TAP_CODEGEN_KERNEL_BTF_H
#define TAP_CODEGEN_KERNEL_BTF_H

struct kernel_btf;

/* NULL when the kernel has no BTF or it cannot be read. */
struct kernel_btf *kernel_btf_open(void);
void kernel_btf_close(struct kernel_btf *btf);
/* The id of the first struct named `name`, or -1. The type section is
 * indexed only as far as the lookups reach. */
int kernel_btf_find_struct(struct kernel_btf *btf, const char *name);
/* Byte offset of `member` (also inside anonymous members), or -1. */
long kernel_btf_member_offset(struct kernel_btf *btf, int struct_id, const char *member);

#endif
