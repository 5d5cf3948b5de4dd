/* State shared by the sema passes (not visible outside src/sema). */
#ifndef TAP_SEMA_INTERNAL_H
#define TAP_SEMA_INTERNAL_H

#include "base/arena.h"
#include "base/diag.h"
#include "sema/sema.h"

struct sema {
    struct arena *arena;
    struct diags *diags;
    const struct sema_options *options;
    struct script *script;
    int function_capacity, probe_capacity, global_capacity;
    /* The body being analysed: */
    struct frame_layout *frame;
    struct function_decl *function;  /* NULL inside a probe */
    struct probe *probe;             /* the first probe sharing the body */
    int loop_depth;
    /* Type inference runs to a fixpoint; errors only on the last round. */
    int changed;
    int report;
};

/* scope.c */
struct symbol *sema_find_global(struct sema *s, const char *name);
struct function_decl *sema_find_function(struct sema *s, const char *name);
struct symbol *sema_find_local(struct frame_layout *frame, const char *name);
struct symbol *sema_add_local(struct sema *s, struct frame_layout *frame, enum symbol_kind kind,
                              const char *name, struct span span);
void sema_add_global(struct sema *s, struct decl *decl);
void sema_add_function(struct sema *s, struct decl *decl);
/* "similar: a, b" suggestions for an unknown name; "" when none. */
const char *sema_similar_names(struct sema *s, const char *name, int functions);

/* probes.c */
void sema_resolve_probe(struct sema *s, struct decl *decl);
struct probe *sema_new_probe(struct sema *s, struct decl *decl, struct probe_point *point,
                             struct frame_layout *frame);
void sema_add_probe(struct sema *s, struct probe *probe);

/* resolve.c: binds identifiers and calls in one body to symbols. */
void sema_resolve_body(struct sema *s, struct stmt *body);

/* types.c */
void sema_infer_types(struct sema *s);

#endif
