/* Member offsets of kernel structs, read from the raw vmlinux BTF in place.
 * libbpf's btf__load_vmlinux_btf() reads the 5.5 MB file into a buffer and
 * copies it into another (11 MB at the peak of a compile that needs only a
 * few task_struct offsets). Mapping /sys/kernel/btf/vmlinux (kernels >= 6.16)
 * costs no resident memory of ours: the pages are the kernel's own. Older
 * kernels cannot map it: the file is read once. */
#include <fcntl.h>
#include <stdint.h>
#include <stdlib.h>
#include <string.h>
#include <sys/mman.h>
#include <sys/stat.h>
#include <unistd.h>

#include <bpf/btf.h>
#include <linux/btf.h>

#include "codegen/kernel_btf.h"

#define VMLINUX_BTF "/sys/kernel/btf/vmlinux"

struct kernel_btf {
    const unsigned char *data;   /* the whole raw BTF */
    size_t size;
    int mapped;                  /* data is a mapping (else malloc'd) */
    const unsigned char *types, *strings;
    uint32_t types_size, strings_size;
    uint32_t *type_offsets;      /* by type id (0 is void): offset in types */
    uint32_t type_count;         /* ids indexed so far */
    uint32_t capacity;
    uint32_t indexed_bytes;      /* where the next type to index starts */
    int unreadable;              /* a type of unknown kind or size: no id past it */
};

static int read_whole(int fd, struct kernel_btf *btf)
{
    struct stat st;
    if (fstat(fd, &st) != 0 || st.st_size <= 0)
        return -1;
    btf->size = (size_t)st.st_size;
    void *mapping = mmap(NULL, btf->size, PROT_READ, MAP_PRIVATE, fd, 0);
    if (mapping != MAP_FAILED) {
        btf->data = mapping;
        btf->mapped = 1;
        return 0;
    }
    unsigned char *buffer = malloc(btf->size);
    size_t done = 0;
    while (buffer && done < btf->size) {
        ssize_t n = read(fd, buffer + done, btf->size - done);
        if (n <= 0)
            break;
        done += (size_t)n;
    }
    if (!buffer || done != btf->size) {
        free(buffer);
        return -1;
    }
    btf->data = buffer;
    return 0;
}

/* Bytes after the common struct btf_type of one type; -1 for a kind this
 * reader does not know (a newer kernel): the offsets are then unknown. */
static long extra_size(const struct btf_type *t)
{
    long vlen = btf_vlen(t);
    switch (btf_kind(t)) {
    case BTF_KIND_INT: case BTF_KIND_VAR: case BTF_KIND_DECL_TAG: return 4;
    case BTF_KIND_PTR: case BTF_KIND_FWD: case BTF_KIND_TYPEDEF: case BTF_KIND_VOLATILE:
    case BTF_KIND_CONST: case BTF_KIND_RESTRICT: case BTF_KIND_FUNC: case BTF_KIND_FLOAT:
    case BTF_KIND_TYPE_TAG:
        return 0;
    case BTF_KIND_ARRAY: return (long)sizeof(struct btf_array);
    case BTF_KIND_STRUCT: case BTF_KIND_UNION: return vlen * (long)sizeof(struct btf_member);
    case BTF_KIND_ENUM: return vlen * (long)sizeof(struct btf_enum);
    case BTF_KIND_FUNC_PROTO: return vlen * (long)sizeof(struct btf_param);
    case BTF_KIND_DATASEC: return vlen * (long)sizeof(struct btf_var_secinfo);
    case BTF_KIND_ENUM64: return vlen * (long)sizeof(struct btf_enum64);
    }
    return -1;
}

/* Records where types start, in order, until `id` is known: the structs
 * tap asks for come early in vmlinux BTF (task_struct is near id 100 of
 * 130k), so most of the section is never walked. 0 when `id` exists. */
static int index_through(struct kernel_btf *btf, uint32_t id)
{
    while (btf->type_count <= id && !btf->unreadable) {
        uint32_t at = btf->indexed_bytes;
        const struct btf_type *t = (const struct btf_type *)(btf->types + at);
        long extra = at + sizeof(*t) <= btf->types_size ? extra_size(t) : -1;
        if (extra < 0 || at + sizeof(*t) + (uint64_t)extra > btf->types_size) {
            btf->unreadable = 1;
            break;
        }
        if (btf->type_count >= btf->capacity) {
            uint32_t capacity = btf->capacity ? btf->capacity * 2 : 1024;
            uint32_t *grown = realloc(btf->type_offsets, capacity * sizeof(uint32_t));
            if (!grown) {
                btf->unreadable = 1;
                break;
            }
            btf->type_offsets = grown;
            btf->capacity = capacity;
        }
        btf->type_offsets[btf->type_count++] = at;
        btf->indexed_bytes = at + (uint32_t)(sizeof(*t) + (size_t)extra);
        if (btf->indexed_bytes == btf->types_size)
            btf->unreadable = 1;   /* the end: no more ids */
    }
    return id < btf->type_count ? 0 : -1;
}

static int check_header(struct kernel_btf *btf)
{
    struct btf_header header;
    if (btf->size < sizeof(header))
        return -1;
    memcpy(&header, btf->data, sizeof(header));
    uint64_t types_end = (uint64_t)header.hdr_len + header.type_off + header.type_len;
    uint64_t strings_end = (uint64_t)header.hdr_len + header.str_off + header.str_len;
    /* types are 4-byte aligned, as the section is in the mapping */
    if (header.magic != BTF_MAGIC || header.hdr_len < sizeof(header) || types_end > btf->size ||
        strings_end > btf->size || header.str_len == 0 || ((header.hdr_len + header.type_off) & 3) ||
        btf->data[strings_end - 1] != 0)
        return -1;
    btf->types = btf->data + header.hdr_len + header.type_off;
    btf->types_size = header.type_len;
    btf->strings = btf->data + header.hdr_len + header.str_off;
    btf->strings_size = header.str_len;
    return 0;
}

struct kernel_btf *kernel_btf_open(void)
{
    struct kernel_btf *btf = calloc(1, sizeof(*btf));
    int fd = open(VMLINUX_BTF, O_RDONLY | O_CLOEXEC);
    int ok = btf && fd >= 0 && read_whole(fd, btf) == 0;
    if (fd >= 0)
        close(fd);
    if (ok && check_header(btf) == 0) {
        btf->type_count = 1;   /* 0 is void, not in the section */
        return btf;
    }
    kernel_btf_close(btf);
    return NULL;
}

void kernel_btf_close(struct kernel_btf *btf)
{
    if (!btf)
        return;
    if (btf->mapped)
        munmap((void *)btf->data, btf->size);
    else
        free((void *)btf->data);
    free(btf->type_offsets);
    free(btf);
}

static const struct btf_type *type_by_id(struct kernel_btf *btf, uint32_t id)
{
    return id > 0 && index_through(btf, id) == 0 ? (const struct btf_type *)(btf->types + btf->type_offsets[id]) : NULL;
}

static const char *name_at(const struct kernel_btf *btf, uint32_t offset)
{
    return offset < btf->strings_size ? (const char *)btf->strings + offset : NULL;
}

/* Through typedefs and qualifiers, as btf__resolve_type() does. */
static const struct btf_type *resolve(struct kernel_btf *btf, uint32_t id)
{
    const struct btf_type *t = type_by_id(btf, id);
    for (int depth = 0; t && depth < 32; depth++) {
        switch (btf_kind(t)) {
        case BTF_KIND_TYPEDEF: case BTF_KIND_VOLATILE: case BTF_KIND_CONST: case BTF_KIND_RESTRICT:
        case BTF_KIND_TYPE_TAG:
            t = type_by_id(btf, t->type);
            break;
        default:
            return t;
        }
    }
    return NULL;
}

/* Byte offset of `member` in `t`, looking inside anonymous members
 * (randomized layouts group fields that way); -1 when absent. */
static long member_offset(struct kernel_btf *btf, const struct btf_type *t, const char *member, int depth)
{
    if (!t || !btf_is_composite(t) || depth > 4)
        return -1;
    const struct btf_member *m = btf_members(t);
    for (int i = 0; i < btf_vlen(t); i++, m++) {
        const char *name = name_at(btf, m->name_off);
        long bits = (long)btf_member_bit_offset(t, (uint32_t)i);
        if (name && strcmp(name, member) == 0)
            return bits / 8;
        if (!name || !*name) {
            long inner = member_offset(btf, resolve(btf, m->type), member, depth + 1);
            if (inner >= 0)
                return bits / 8 + inner;
        }
    }
    return -1;
}

int kernel_btf_find_struct(struct kernel_btf *btf, const char *name)
{
    const struct btf_type *t;
    for (uint32_t id = 1; btf && (t = type_by_id(btf, id)) != NULL; id++) {
        const char *type_name = name_at(btf, t->name_off);
        if (btf_kind(t) == BTF_KIND_STRUCT && type_name && strcmp(type_name, name) == 0)
            return (int)id;   /* the first, as btf__find_by_name_kind() */
    }
    return -1;
}

long kernel_btf_member_offset(struct kernel_btf *btf, int struct_id, const char *member)
{
    return btf && struct_id > 0 ? member_offset(btf, type_by_id(btf, (uint32_t)struct_id), member, 0) : -1;
}
