/* -p2: what sema resolved, in a stable text form. */
#include "kinds/kinds.h"
#include "sema/sema.h"

static void print_symbol(FILE *out, const struct symbol *sym)
{
    fprintf(out, "%s:%s", sym->name, value_type_name(sym->type));
    if (sym->is_array) {
        fputc('[', out);
        for (int k = 0; k < sym->key_count; k++)
            fprintf(out, "%s%s", k ? ", " : "", value_type_name(sym->key_types[k]));
        fputc(']', out);
    }
}

void sema_print(FILE *out, const struct script *script)
{
    fprintf(out, "# globals\n");
    for (int i = 0; i < script->global_count; i++) {
        print_symbol(out, script->globals[i]);
        fputc('\n', out);
    }
    fprintf(out, "# functions\n");
    for (int i = 0; i < script->function_count; i++) {
        const struct function_decl *fn = script->functions[i];
        if (!fn->is_reachable)
            continue;
        fprintf(out, "%s:%s (", fn->name, value_type_name(fn->return_type));
        for (int p = 0; p < fn->param_count; p++) {
            fputs(p ? ", " : "", out);
            print_symbol(out, fn->params[p]);
        }
        fputs(")", out);
        for (int l = fn->param_count; l < fn->frame.local_count; l++) {
            fputs(l == fn->param_count ? " locals: " : ", ", out);
            print_symbol(out, fn->frame.locals[l]);
        }
        fputs(fn->is_recursive ? " recursive\n" : "\n", out);
    }
    fprintf(out, "# probes\n");
    for (int i = 0; i < script->probe_count; i++) {
        const struct probe *probe = script->probes[i];
        if (probe_is_uprobe(probe)) {
            fprintf(out, "%s /* %s pc=0x%llx", probe->point, probe_kind_ops(probe->kind)->name,
                    (unsigned long long)probe->uprobe.vaddr);
            for (int c = 0; c < probe->uprobe.site_count; c++)
                fprintf(out, "%s0x%llx", c ? "," : probe->uprobe.at_returns ? " rets=" : " calls=", (unsigned long long)probe->uprobe.site_vaddrs[c]);
            fprintf(out, "%s%s */", probe->uprobe.sleepable ? " sleepable" : "", probe->uprobe.refusal ? " skipped" : "");
        } else {
            fprintf(out, "%s /* %s */", probe->point, probe_kind_ops(probe->kind)->name);
        }
        for (int l = 0; l < probe->frame->local_count; l++) {
            fputs(l == 0 ? " locals: " : ", ", out);
            print_symbol(out, probe->frame->locals[l]);
        }
        fputc('\n', out);
    }
}
