/* Symbolizing stack frames in user space (print_ubacktrace, print_backtrace).
 * BPF sends each user frame as build-id + file offset, so a frame is named
 * from files indexed here even after its process has exited; the index holds
 * the probed binaries, the -c command and the libraries they need, plus the
 * files a still-running process has mapped. Kernel frames are named from
 * /proc/kallsyms. Each file is read once and its functions kept sorted by
 * file offset. */
#ifndef TAP_RUNTIME_SYMBOLS_H
#define TAP_RUNTIME_SYMBOLS_H

#include <stddef.h>
#include <stdint.h>
#include <sys/types.h>

#include "base/strbuf.h"

struct symbols;

/* What an address resolves to; name is NULL when no function covers it,
 * module is NULL when no file is known either. */
struct symbol_hit {
    const char *name;
    uint64_t offset;             /* from the function's start (no function: in the file) */
    uint64_t size;               /* the function's size */
    const char *module;          /* file path, or "kernel" */
    int file;                    /* the indexed file (symbols_inlined_at), -1 for the kernel */
    uint64_t file_offset;        /* the address in that file */
};

struct symbols *symbols_new(void);
void symbols_free(struct symbols *symbols);

/* Indexes an ELF file (once) and, with needed, the libraries it loads. */
void symbols_add_file(struct symbols *symbols, const char *path, int needed);
/* Indexes every file a live process has mapped. */
void symbols_add_process(struct symbols *symbols, pid_t pid);

/* Raw build-id bytes as lowercase hex (the form files are indexed by). */
void symbols_build_id_hex(const unsigned char *build_id, size_t size, char *hex, size_t hex_size);
/* A frame given as build-id (raw bytes) and offset in that file. */
int symbols_find_build_id(struct symbols *symbols, const unsigned char *build_id, size_t build_id_size,
                          uint64_t file_offset, struct symbol_hit *hit);
/* A file offset in a file indexed by path. */
int symbols_find_in_file(struct symbols *symbols, const char *path, uint64_t file_offset,
                         struct symbol_hit *hit);
/* An address in a live process, through /proc/PID/maps. */
int symbols_find_in_process(struct symbols *symbols, pid_t pid, uint64_t address, struct symbol_hit *hit);
/* A kernel address, from /proc/kallsyms (read on first use). */
int symbols_find_kernel(struct symbols *symbols, uint64_t address, struct symbol_hit *hit);

/* The functions DWARF describes as inlined where HIT lies, innermost first
 * (each the function inlined into the next; the last inlined into hit's
 * function); 0 without DWARF there. A return address (caller) is looked up
 * one byte back, in its call. Cached per file and address; the names are
 * owned by symbols. */
int symbols_inlined_at(struct symbols *symbols, const struct symbol_hit *hit, int caller,
                       const char *const **names);

/* The index, for copying it into BPF maps: file i's path and hex build-id
 * (when build_id is not NULL; NULL past the last file), and its j-th function (0 past the last). */
const char *symbols_file_at(const struct symbols *symbols, int i, const char **build_id);
int symbols_function_at(const struct symbols *symbols, int i, size_t j, uint64_t *start, uint64_t *size,
                        const char **name);

/* One backtrace line as SystemTap prints it:
 * " 0x4005d6 : main+0x16/0x30 [/path/bin]\n"; " 0x7f0012 [/path/lib.so+0x2724a]\n" in a
 * file without a symbol there; " 0x4005d6\n" when nothing is known. */
void symbols_format_frame(struct strbuf *out, uint64_t address, const struct symbol_hit *hit);
/* A frame inlined at a real frame's address, printed before it, as gdb's bt
 * lists it (SystemTap prints none; "(inlined)" as perf marks one):
 * " 0x4005d6 : helper (inlined) [/path/bin]\n". */
void symbols_format_inlined(struct strbuf *out, uint64_t address, const char *name, const char *module);

#endif
