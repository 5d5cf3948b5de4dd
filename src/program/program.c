/* struct program is heap-allocated by codegen (or by --run from an object's
 * metadata section) and owns every string it points to. */
#include <stdlib.h>

#include "kinds/kinds.h"
#include "program/program.h"

/* The strings of the kind's own fields (its table says which), then them. */
static void program_free_kind_fields(struct program_probe *p)
{
    const struct program_fields *table = probe_kind_program_fields(p->kind);
    for (int i = 0; table && p->kind_fields && i < table->count; i++)
        if (table->fields[i].type == PROGRAM_FIELD_STRING)
            free(*(char **)((char *)p->kind_fields + table->fields[i].offset));
    free(p->kind_fields);
}

void program_free(struct program *program)
{
    if (!program)
        return;
    for (int i = 0; i < program->probe_count; i++) {
        struct program_probe *p = &program->probes[i];
        free(p->prog_name);
        free(p->point);
        free(p->path);
        free(p->tp_category);
        free(p->tp_name);
        program_free_kind_fields(p);
    }
    free(program->probes);
    for (int i = 0; i < program->format_count; i++) {
        free(program->formats[i].format);
        free(program->formats[i].args);
    }
    free(program->formats);
    for (int i = 0; i < program->error_count; i++) {
        free(program->errors[i].message);
        free(program->errors[i].location);
    }
    free(program->errors);
    for (int i = 0; i < program->global_count; i++)
        free(program->globals[i].name);
    free(program->globals);
    for (int i = 0; i < program->map_count; i++) {
        free(program->maps[i].name);
        free(program->maps[i].map_name);
    }
    free(program->maps);
    for (int i = 0; i < program->timed_count; i++) {
        free(program->timed[i].point);
        free(program->timed[i].location);
        free(program->timed[i].derivation);
    }
    free(program->timed);
    free(program->kernel_release);
    free(program->kernel_build_id);
    free(program->object);
    free(program);
}
