/* The traced binary as sema sees it: ELF load segments, a function index
 * built once per binary (DWARF subprograms, then symbol-table functions
 * without DWARF), type names as SystemTap spells them, and DWARF locations
 * turned into generic reads (registers, user memory). */
#ifndef TAP_SEMA_DWARF_H
#define TAP_SEMA_DWARF_H

#include <stdint.h>
#include <stdio.h>

#include <elfutils/libdw.h>

#include "base/debug_file.h"
#include "parser/ast.h"

struct arena;
struct strbuf;

/* The pseudo registers of EXPR_REGISTER (DWARF_REG_LOAD_BIAS ...) are
 * parser/ast.h's, beside it: codegen reads them without libdw. */

struct dwarf_function {
    const char *name;            /* DWARF: DW_AT_name ("add", "twice<int>"); symbols: demangled, scopes and all */
    const char *scope;           /* C++/Rust: "shop::Cart" (dwarf_scopes.c); NULL at the global scope */
    const char *linkage_name;    /* the mangled name ("_ZN4shop4Cart3addEi"), NULL when there is none */
    const char *decl_file;       /* as recorded in DWARF; NULL for symbol-only functions */
    int decl_line;
    uint64_t entry;              /* file vaddr of the first instruction */
    Dwarf_Off die_offset;        /* 0: symbol-only; an inlined instance: its DW_TAG_inlined_subroutine */
    Dwarf_Off frame_offset;      /* an inlined instance: the subprogram holding it (frame base) */
    int is_inline_instance;
    int is_external;
    int has_return;              /* DWARF says it returns a value (symbols: assumed) */
    int is_alias;                /* a symbol naming a DWARF function at its entry (the DIE's, under this name):
                                  * matched by its exact name only, so a wildcard probes the function once */
};

/* Type names already spelled, keyed by the DIE's address in the mapped
 * DWARF (unique across .debug_info, .debug_types and a dwz alt file, where
 * offsets are not): -L spells the same few types for thousands of variables.
 * Open addressing; the slots live in the arena. */
struct dwarf_type_names {
    struct arena *arena;
    struct dwarf_type_name { const void *die; const char *text; } *slots;
    size_t capacity, count;      /* capacity: 0 or a power of two */
};

/* DIEs of subprograms declared in a namespace or class, by address in the
 * mapped DWARF, sorted, with the scope's qualified name (dwarf_scopes.c). */
struct dwarf_scope_map {
    struct dwarf_scope_entry { const void *die; const char *scope; } *entries;
    int count;
    int built;
};

/* One ELF binary, opened once per compilation and kept. Its DWARF and
 * full symbol table may come from a separate debug file (base/debug_file.h):
 * code, segments, .dynsym and .eh_frame are always the binary's own. */
struct dwarf_module {
    const char *path;            /* canonical absolute path */
    int fd;
    Elf *elf;
    struct debug_file debug;     /* libdwfl's view: owns dwarf and symtab_elf */
    Dwarf *dwarf;                /* NULL without DWARF */
    const char *dwarf_file;      /* the file holding it: path, or its debug file */
    Elf *symtab_elf;             /* the file holding .symtab (path or its debug file); NULL: none */
    Dwarf_CFI *cfi;              /* .eh_frame, may be NULL */
    Dwarf_CFI *dwarf_cfi;        /* unindexed (the kernel): .debug_frame where there is no .eh_frame */
    int is_kernel;               /* vmlinux: memory is kernel memory, addresses move by kernel_offset */
    int64_t kernel_offset;       /* KASLR: running address minus link-time address */
    int is_shared;               /* ET_DYN: PIE or library */
    struct dwarf_segment { uint64_t vaddr, offset, size; } *segments;
    int segment_count;
    struct dwarf_function *functions;   /* sorted by name, then entry */
    int function_count;
    /* Names of the abstract instance roots (DW_AT_inline) the index saw,
     * sorted, unique: an inlined instance is named after its root, so a
     * pattern matching none of them needs no walk for inlined instances.
     * inline_roots_known is 0 when a root may have been out of sight. */
    const char **inline_roots;
    int inline_root_count;
    int inline_roots_known;
    struct dwarf_function *inlines;     /* inlined instances, found on first use */
    int inline_count;
    int inlines_indexed;
    struct dwarf_type_names type_names;
    struct dwarf_scope_map scopes;
    struct dwarf_file_tables *file_tables;   /* dwarf_files.c: CUs' file names */
};

/* The binaries one compilation opened, each once: probe points, target
 * variables and @cast share them. Owned by the driver, which closes them
 * (dwarf_modules_close) before it frees the arena they live in. */
struct dwarf_modules {
    struct arena *arena;
    const char *cache_dir;       /* where function indexes are kept (dwarf_index_cache.c); NULL: nowhere */
    struct dwarf_module **opened;
    int count;
};

/* dwarf_index_cache.c: a module's index (functions, inline roots) in the
 * cache directory under a name made from the file's identity. */
int dwarf_index_cache_name(const struct dwarf_module *m, char *out, size_t size);
int dwarf_index_cache_load(struct arena *arena, struct dwarf_module *m, const char *dir, const char *name);
void dwarf_index_cache_store(const struct dwarf_module *m, const char *dir, const char *name);

/* dwarf_files.c */
/* DW_AT_decl_file of DIE (a DIE of m) as dwarf_decl_file() spells it, read
 * from the line table's header only; NULL when it names none. */
const char *dwarf_module_decl_file(struct arena *arena, struct dwarf_module *m, Dwarf_Die *die);

/* dwarf_scopes.c */
/* "shop::Cart" for a function DIE of Cart in namespace shop (through its
 * specification or abstract origin); NULL at the global scope. */
const char *dwarf_module_scope(struct arena *arena, struct dwarf_module *m, Dwarf_Die *die);

/* dwarf_index.c */
/* dwarf_kernel.c: the running kernel's DWARF (vmlinux with debug info,
 * where SystemTap looks for it), opened once, checked against the running
 * kernel's build id; NULL with `error` saying what is missing and which
 * package provides it. */
struct dwarf_module *dwarf_kernel_open(struct dwarf_modules *modules, char *error, size_t size);
/* Kernel function NAME (a global symbol of vmlinux, or a GCC clone's:
 * NAME.isra.0) as a dwarf_function, from its compile unit only; 0 when
 * DWARF has no such function. */
int dwarf_kernel_function(struct arena *arena, struct dwarf_module *m, const char *name, struct dwarf_function *out);
/* f's source file as SystemTap prints kernel files: relative to the
 * kernel's source tree ("fs/read_write.c"). */
const char *dwarf_kernel_source(struct arena *arena, struct dwarf_module *m, const struct dwarf_function *f);
/* The functions with code in the compile units whose source file ("fs/proc/base.c")
 * wants_unit accepts: visit(name, file, ctx) for each. Units are skipped
 * before their functions are read (vmlinux's DWARF is hundreds of MB). */
struct dwarf_kernel_walk {
    int (*wants_unit)(const char *file, void *ctx);
    void (*visit)(const char *name, const char *file, void *ctx);
    void *ctx;
};
void dwarf_kernel_each_function(struct dwarf_module *m, const struct dwarf_kernel_walk *walk);

/* Finds PATH (absolute, relative, in $PATH, or a library by soname) and
 * opens it, or returns it when already open; NULL with `error` filled when
 * it cannot. */
struct dwarf_module *dwarf_module_open(struct dwarf_modules *modules, const char *path, char *error, size_t size);
void dwarf_modules_close(struct dwarf_modules *modules);
/* The same without the function index (dwarf_kernel.c's vmlinux). */
struct dwarf_module *dwarf_module_open_unindexed(struct dwarf_modules *modules, const char *path, char *error,
                                                 size_t size);
/* -v: which separate debug file gave a binary its DWARF (and its dwz file). */
void dwarf_modules_report(const struct dwarf_modules *modules, FILE *out);
/* LIBRARY as PROGRAM's loader finds it (RUNPATH, then the default search). */
struct dwarf_module *dwarf_module_open_library(struct dwarf_modules *modules, const char *program,
                                               const char *library, char *error, size_t size);
/* The libraries PROGRAM loads, its DT_NEEDED and theirs, as the loader finds
 * them (canonical paths, breadth first, up to `max`); returns the count. */
int dwarf_needed_libraries(struct arena *arena, const char *program, const char **paths, int max);
/* File offset of a file vaddr, for the uprobe attach; 0 when unmapped. */
uint64_t dwarf_module_file_offset(const struct dwarf_module *m, uint64_t vaddr);
/* A section's bytes as the file has them (SHT_NOBITS: NULL), in the arena
 * with a NUL after them. Code is read so, never through libelf's mapping:
 * while any tracer has uprobes on the file, the kernel writes its int3s into
 * every private mapping of it that may execute, a read-only one too. */
const uint8_t *dwarf_module_section_bytes(struct arena *arena, const struct dwarf_module *m, const GElf_Shdr *sh);
int dwarf_module_function_die(const struct dwarf_module *m, const struct dwarf_function *f, Dwarf_Die *die);
/* The subprogram whose frame holds f (f itself unless f is inlined). */
int dwarf_module_frame_die(const struct dwarf_module *m, const struct dwarf_function *f, Dwarf_Die *die);
/* Indexes the inlined instances of every function (one walk of all DWARF). */
void dwarf_module_index_inlines(struct arena *arena, struct dwarf_module *m);
/* The address after the prologue; the entry when DWARF cannot say. */
uint64_t dwarf_module_after_prologue(const struct dwarf_module *m, const struct dwarf_function *f);

/* dwarf_types.c */
/* "int", "char const*", "struct point*" (SystemTap's spelling). */
void dwarf_type_spell(struct strbuf *sb, Dwarf_Die *type);
/* The same spelling, made once per type DIE and kept in `names`. */
const char *dwarf_type_name(struct dwarf_type_names *names, Dwarf_Die *type);
/* Strips typedefs and cv-qualifiers; 0 when there is no type (void). */
int dwarf_type_resolve(Dwarf_Die *type, Dwarf_Die *out);
int dwarf_die_type(Dwarf_Die *die, Dwarf_Die *type);
/* struct, class or union: has members. */
int dwarf_tag_is_record(int tag);
/* A pointer or a C++ reference (& and &&), which read and follow alike. */
int dwarf_tag_is_pointer(int tag);

/* dwarf_location.c: where a value lives at one pc. */
enum dwarf_location_kind {
    LOC_REG,             /* reg: the value is in a register */
    LOC_MEMORY,          /* address: the value is in user memory at this address (an expression) */
    LOC_VALUE,           /* value: the value itself (DW_OP_stack_value, constants) */
    LOC_OPTIMIZED_OUT,   /* nothing */
    LOC_PIECES,          /* pieces, piece_count: a composite (DW_OP_piece), low bytes first */
};

/* One piece of a composite: a simple location (any kind but LOC_PIECES)
 * holding bit_size bits, from bit bit_offset of the register, value or
 * memory (DW_OP_bit_piece; 0 for DW_OP_piece). */
struct dwarf_piece {
    enum dwarf_location_kind kind;
    int reg;
    struct expr *address;
    struct expr *value;
    int bit_size;
    int bit_offset;
};

struct dwarf_location {
    enum dwarf_location_kind kind;
    int reg;
    struct expr *address;
    struct expr *value;
    struct dwarf_piece *pieces;
    int piece_count;
};

struct dwarf_eval {
    struct arena *arena;
    struct dwarf_module *module;
    struct span span;            /* for the expressions built */
    uint64_t pc;                 /* file vaddr */
    Dwarf_Die *function;         /* for DW_AT_frame_base */
    int at_entry;                /* pc is the function's first instruction */
    /* DW_OP_entry_value(DW_OP_regN) away from the entry: the register's
     * value at the call, or NULL (optimized out). */
    struct expr *(*entry_value)(struct dwarf_eval *ev, int reg);
    /* The load bias (NULL: pseudo register DWARF_REG_LOAD_BIAS), or NULL
     * with ev->error set. */
    struct expr *(*load_bias)(struct dwarf_eval *ev);
    void *context;
    char error[160];
};

/* The CFA at ev->pc as "register + offset", or NULL (ev->error set). */
struct expr *dwarf_frame_cfa_expr(struct dwarf_eval *ev);

/* Fills `loc` from the DW_AT_location (or DW_AT_const_value) of `var`;
 * returns 0 with ev->error set when the expression is beyond tap. */
int dwarf_variable_location(struct dwarf_eval *ev, Dwarf_Die *var, struct dwarf_location *loc);
/* Whether var's location at pc is registers only (DW_OP_regN, pieces of them). */
int dwarf_location_in_registers(Dwarf_Die *var, uint64_t pc);
/* The same for one location expression (a unit test's own operations). */
int dwarf_location_evaluate(struct dwarf_eval *ev, Dwarf_Op *ops, size_t count, struct dwarf_location *loc);

/* Expression builders shared by the lowering code. */
struct expr *dwarf_expr_int(struct dwarf_eval *ev, int64_t value);
struct expr *dwarf_expr_reg(struct dwarf_eval *ev, int reg);
struct expr *dwarf_expr_add(struct dwarf_eval *ev, struct expr *a, struct expr *b);
struct expr *dwarf_expr_binary(struct dwarf_eval *ev, enum binary_op op, struct expr *a, struct expr *b);
struct expr *dwarf_expr_read(struct dwarf_eval *ev, struct expr *address, int size, int is_signed);
/* Truncates a 64-bit value to `size` bytes with the given signedness. */
struct expr *dwarf_expr_narrow(struct dwarf_eval *ev, struct expr *value, int size, int is_signed);

#endif
