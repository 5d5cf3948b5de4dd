/* Output: print/printf become one ring-buffer record each ({header, args},
 * formatted in user space; records.c reserves and submits it). */
#include <stdlib.h>
#include <string.h>

#include <linux/bpf.h>

#include "base/strbuf.h"
#include "codegen/codegen_internal.h"
#include "base/format.h"
#include "sema/builtins.h"


#define MAX_PRINT_ARGS 32

struct print_record {
    uint32_t format_id;
    struct program_format *format;
    LLVMValueRef values[MAX_PRINT_ARGS];
    uint32_t memory[MAX_PRINT_ARGS];     /* %m/%M: scratch {count, bytes}; else 0 */
};

static void fill_print(struct codegen *cg, LLVMValueRef record, void *data)
{
    struct print_record *print = data;
    cg_store(cg, cg_record_header(cg, RECORD_PRINTF, print->format_id), record);
    for (int i = 0; i < print->format->arg_count; i++) {
        const struct format_arg *arg = &print->format->args[i];
        LLVMValueRef slot = cg_record_at(cg, record, arg->offset);
        if (arg->kind == FORMAT_ARG_LONG)
            cg_store(cg, print->values[i], slot);
        else if (arg->kind == FORMAT_ARG_MEMORY)
            cg_copy(cg, slot, cg_scratch_ptr(cg, print->memory[i]), arg->size);
        else
            cg_string_copy(cg, slot, print->values[i]);
    }
}

static uint32_t add_format(struct codegen *cg, const char *text, struct expr **args, int count,
                           const uint32_t *memory)
{
    struct program *program = cg->program;
    if (program->format_count == cg->format_capacity) {
        cg->format_capacity = cg->format_capacity ? cg->format_capacity * 2 : 16;
        program->formats = realloc(program->formats, sizeof(*program->formats) * (size_t)cg->format_capacity);
    }
    struct program_format *format = &program->formats[program->format_count];
    memset(format, 0, sizeof(*format));
    format->format = strdup(text);
    format->args = calloc((size_t)count + 1, sizeof(*format->args));
    format->arg_count = count;
    uint32_t offset = sizeof(struct record_header);
    for (int i = 0; i < count; i++) {
        int is_string = args[i]->type == TYPE_STRING;
        format->args[i].kind = memory[i] ? FORMAT_ARG_MEMORY : is_string ? FORMAT_ARG_STRING : FORMAT_ARG_LONG;
        format->args[i].offset = offset;
        format->args[i].size = memory[i] ? 8 + cg->string_size : is_string ? cg->string_size : 8;
        offset += format->args[i].size;
        offset = (offset + 7) & ~7u;
    }
    format->record_size = offset;
    return (uint32_t)program->format_count++;
}

/* print/println/printd/printdln as a format: "%d"/"%s" per value. */
static void synthesize_format(struct strbuf *format, struct expr **args, int count, const char *delimiter,
                              int newline)
{
    for (int i = 0; i < count; i++) {
        if (i && delimiter)
            for (const char *p = delimiter; *p; p++)
                strbuf_puts(format, *p == '%' ? "%%" : (char[]){*p, 0});
        strbuf_puts(format, args[i]->type == TYPE_STRING ? "%s" : "%d");
    }
    if (newline)
        strbuf_putc(format, '\n');
}

/* %m and %M print bytes at a user address: they are read before the record
 * is reserved (a fault raises an error) into scratch {count, bytes}, which
 * the record copies. */
static void read_memory(struct codegen *cg, struct expr *format_expr, const char *format,
                        struct print_record *print, int count)
{
    struct compiled_format compiled;
    if (!strpbrk(format, "mM") || format_compile(format, &compiled, NULL, 0, NULL) != 0)
        return;
    if (cg_check_memory_sizes(cg, format_expr, &compiled) == 0) {
        for (int i = 0, arg = 0; i < compiled.piece_count && arg < count; i++) {
            const struct format_piece *p = &compiled.pieces[i];
            LLVMValueRef precision = cg_const(cg, p->precision);
            arg += p->width_star;
            if (p->precision_star && arg < count)
                precision = print->values[arg++];
            if (!p->conv || arg >= count)
                continue;
            if (p->conv == 'm' || p->conv == 'M') {
                LLVMValueRef n = cg_select(cg, cg_compare(cg, LLVMIntSGT, precision, 0), precision, cg_const(cg, 1));
                print->memory[arg] = cg_alloc_scratch(cg, 8 + cg->string_size);
                cg_store(cg, n, cg_scratch_ptr(cg, print->memory[arg]));
                cg_user_bytes(cg, format_expr->span, print->values[arg], n, print->memory[arg] + 8);
            }
            arg++;
        }
    }
    format_free(&compiled);
}

/* One printf record: the values first (they may call functions or raise
 * errors), then reserve, fill and submit. format_expr: printf's literal. */
static void emit_print(struct codegen *cg, struct expr *call, struct expr *format_expr, const char *format,
                       struct expr **args, int count)
{
    struct print_record print = {0};
    for (int i = 0; i < count; i++)
        print.values[i] = cg_operand(cg, args[i]);
    cg_set_location(cg, call->span);
    if (format_expr)
        read_memory(cg, format_expr, format, &print, count);
    print.format_id = add_format(cg, format, args, count, print.memory);
    print.format = &cg->program->formats[print.format_id];
    cg_emit_record(cg, cg->events_map, print.format->record_size, STATE_LOST_EVENTS, fill_print, &print);
}

static void print_values(struct codegen *cg, struct expr *call, struct expr **args, int count, int newline)
{
    struct strbuf format;
    strbuf_init(&format);
    synthesize_format(&format, args, count, NULL, newline);
    emit_print(cg, call, NULL, format.data ? format.data : "", args, count);
    strbuf_free(&format);
}

/* print(@hist_log(s)) and friends: each histogram is a RECORD_HIST, the
 * values between them printf records, in order. */
static void print_with_histograms(struct codegen *cg, struct expr *call, int builtin_id)
{
    struct expr *run[MAX_PRINT_ARGS];
    int count = 0;
    for (struct expr *a = call->call.args; a; a = a->next) {
        if (a->type != TYPE_STATS) {
            if (count < MAX_PRINT_ARGS)
                run[count++] = a;
            continue;
        }
        if (count)
            print_values(cg, call, run, count, 0);
        count = 0;
        cg_hist_print(cg, a, call->span);
    }
    if (count || builtin_id == BUILTIN_PRINTLN)
        print_values(cg, call, run, count, builtin_id == BUILTIN_PRINTLN);
}

void cg_output_call(struct codegen *cg, struct expr *call, int builtin_id)
{
    struct expr *args[MAX_PRINT_ARGS];
    int count = 0;
    struct expr *first = call->call.args;
    int has_format = builtin_id == BUILTIN_PRINTF;
    int is_delimited = builtin_id == BUILTIN_PRINTD || builtin_id == BUILTIN_PRINTDLN;
    for (struct expr *a = (has_format || is_delimited) && first ? first->next : first; a; a = a->next) {
        if (count == MAX_PRINT_ARGS) {
            diag_error(cg->diags, call->span, "%s takes at most %d values", call->call.name, MAX_PRINT_ARGS);
            return;
        }
        if (a->type == TYPE_STATS) {
            if (has_format || is_delimited) {
                diag_error(cg->diags, a->span, "histograms print with print or println");
                return;
            }
            print_with_histograms(cg, call, builtin_id);
            return;
        }
        args[count++] = a;
    }
    if (is_delimited && first->kind != EXPR_STRING) {
        diag_error(cg->diags, first->span, "%s needs a literal delimiter", call->call.name);
        return;
    }
    struct strbuf format;
    strbuf_init(&format);
    if (has_format)
        strbuf_puts(&format, first->string.value);
    else
        synthesize_format(&format, args, count, is_delimited ? first->string.value : NULL,
                          builtin_id == BUILTIN_PRINTLN || builtin_id == BUILTIN_PRINTDLN);
    emit_print(cg, call, has_format ? first : NULL, format.data ? format.data : "", args, count);
    strbuf_free(&format);
}

/* %m and %M read their bytes into a string slot: at most string_size. */
int cg_check_memory_sizes(struct codegen *cg, struct expr *format, const struct compiled_format *compiled)
{
    for (int i = 0; i < compiled->piece_count; i++) {
        const struct format_piece *p = &compiled->pieces[i];
        if ((p->conv == 'm' || p->conv == 'M') && p->precision > (int)cg->string_size) {
            diag_error(cg->diags, format->span, "%%%c size (%d) too large: at most MAXSTRINGLEN (%u) bytes",
                       p->conv, p->precision, cg->string_size);
            return -1;
        }
    }
    return 0;
}

/* count (1 to string_size, else a runtime error) bytes of user memory at
 * address, into scratch at `to` (string_size bytes of room). */
void cg_user_bytes(struct codegen *cg, struct span span, LLVMValueRef address, LLVMValueRef count, uint32_t to)
{
    cg_error_if(cg, cg_compare(cg, LLVMIntUGT, count, cg->string_size), "memory_too_big", "memory_read", span,
                "%m size (%lld) too large", count);
    LLVMValueRef size = cg_opaque_clamp(cg, count, cg->string_size);
    LLVMValueRef args[3] = {cg_scratch_ptr(cg, to), cg_u32(cg, size), address};
    LLVMValueRef result = cg_user_memory_read(cg, BPF_FUNC_probe_read_user, args);
    cg_error_if(cg, cg_compare(cg, LLVMIntSLT, result, 0), "memory_fault", "memory_done", span,
                "user memory fault at 0x%llx", address);
}
