/* A struct program travels inside its own BPF object: codegen serializes the
 * metadata into a `.tap.meta` section (libbpf skips sections it does not
 * know), and `tap --run OBJ` reads it back, with no LLVM or DWARF needed. */
#ifndef TAP_PROGRAM_PROGRAM_IO_H
#define TAP_PROGRAM_PROGRAM_IO_H

#include <stddef.h>

struct program;

#define PROGRAM_META_SECTION ".tap.meta"

/* Text form of everything but the object bytes; malloc'ed, NUL-terminated. */
char *program_serialize(const struct program *program, size_t *length);

/* Parses program_serialize()'s text into `program` (zeroed by the caller).
 * Returns 0, or -1 with a reason in error. */
int program_deserialize(struct program *program, const char *text, size_t length, char *error,
                        size_t error_size);

/* Reads a `-p4` object: the whole file becomes program->object, the
 * metadata comes from its section. Returns NULL with a reason in error. */
struct program *program_read_object(const char *path, char *error, size_t error_size);

/* --run: every probe must still fit this machine, as its kind's check_run
 * hook says (a uprobe's binary is the one the object was compiled for).
 * Returns 0, or -1 with the first mismatch in error. */
int program_check_probes(const struct program *program, char *error, size_t error_size);

/* The GNU build-id of an ELF file as lowercase hex, or "" when it has none
 * or cannot be read. */
void elf_build_id(const char *path, char *hex, size_t hex_size);

#endif
