/* struct program is heap-allocated by codegen (or by --run from an object's
 * metadata section) and owns every string it points to. */
#include <stdlib.h>

#include "program/program.h"

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
        if (p->fields == PROGRAM_FIELDS_UPROBE)
            free(p->uprobe.build_id);
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
    free(program->object);
    free(program);
}
