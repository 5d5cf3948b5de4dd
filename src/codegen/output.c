/* Output and control: print/printf become one ring-buffer record each
 * ({header, args}, formatted in user space); exit() and runtime errors go
 * through the small control ring so a flood of output cannot drop them. */
#include <stdlib.h>
#include <string.h>

#include <linux/bpf.h>

#include "base/strbuf.h"
#include "codegen/codegen_internal.h"
#include "base/format.h"
#include "sema/builtins.h"


#define MAX_PRINT_ARGS 32

static LLVMValueRef header_value(struct codegen *cg, enum record_kind kind, uint32_t id)
{
    return cg_const(cg, (int64_t)((uint64_t)kind | ((uint64_t)id << 32)));
}

/* Returns the count before. */
static LLVMValueRef atomic_increment(struct codegen *cg, int state_field)
{
    return LLVMBuildAtomicRMW(cg->builder, LLVMAtomicRMWBinOpAdd, cg_state_field(cg, state_field), cg_const(cg, 1),
                       LLVMAtomicOrderingMonotonic, 0);
}

/* Reserves `size` bytes in a ring; calls fill(rec) and submits when it got
 * them, else counts the loss in `lost_field` (or not at all when < 0). */
typedef void (*record_filler)(struct codegen *cg, LLVMValueRef record, void *data);

/* A wakeup per record costs the traced thread an irq_work and user space a
 * context switch per event: wake it only when wakeup_bytes are unread or
 * when no record did for a period (so the first event after a pause shows at
 * once); user space polls every period for the rest. */
static LLVMValueRef events_submit_flags(struct codegen *cg, LLVMValueRef ring)
{
    LLVMValueRef query[2] = {ring, cg_const(cg, BPF_RB_AVAIL_DATA)};
    LLVMValueRef unread = cg_helper(cg, BPF_FUNC_ringbuf_query, cg->i64, query, 2);
    LLVMValueRef limit = LLVMBuildLoad2(cg->builder, cg->i64, cg_state_field(cg, STATE_WAKEUP_BYTES), "");
    LLVMValueRef now = cg_helper(cg, BPF_FUNC_ktime_get_ns, cg->i64, NULL, 0);
    LLVMValueRef last_ptr = cg_state_field(cg, STATE_LAST_WAKEUP);
    LLVMValueRef since = LLVMBuildSub(cg->builder, now, LLVMBuildLoad2(cg->builder, cg->i64, last_ptr, ""), "");
    LLVMValueRef due = LLVMBuildOr(cg->builder, LLVMBuildICmp(cg->builder, LLVMIntUGE, unread, limit, ""),
                                   LLVMBuildICmp(cg->builder, LLVMIntUGE, since,
                                                 cg_const(cg, (int64_t)TAP_WAKEUP_PERIOD_NS), ""), "");
    LLVMBasicBlockRef wake = cg_block(cg, "wakeup"), done = cg_block(cg, "wakeup_done");
    LLVMBuildCondBr(cg->builder, due, wake, done);
    cg_position(cg, wake);
    LLVMBuildStore(cg->builder, now, last_ptr);
    LLVMBuildBr(cg->builder, done);
    cg_position(cg, done);
    return LLVMBuildSelect(cg->builder, due, cg_const(cg, BPF_RB_FORCE_WAKEUP), cg_const(cg, BPF_RB_NO_WAKEUP), "");
}

static void emit_record(struct codegen *cg, LLVMValueRef ring, uint32_t size, int lost_field,
                        record_filler fill, void *data)
{
    LLVMValueRef args[3] = {ring, cg_const(cg, size), cg_const(cg, 0)};
    LLVMValueRef record = cg_helper(cg, BPF_FUNC_ringbuf_reserve, cg->ptr, args, 3);
    LLVMBasicBlockRef got = cg_block(cg, "record"), lost = cg_block(cg, "record_lost"),
                      done = cg_block(cg, "record_done");
    LLVMBuildCondBr(cg->builder, LLVMBuildIsNull(cg->builder, record, ""), lost, got);
    cg_position(cg, got);
    fill(cg, record, data);
    LLVMValueRef flags = ring == cg->events_map ? events_submit_flags(cg, ring) : cg_const(cg, 0);
    LLVMValueRef submit[2] = {record, flags};
    cg_helper(cg, BPF_FUNC_ringbuf_submit, cg->void_type, submit, 2);
    LLVMBuildBr(cg->builder, done);
    cg_position(cg, lost);
    if (lost_field >= 0)
        atomic_increment(cg, lost_field);
    LLVMBuildBr(cg->builder, done);
    cg_position(cg, done);
}

void cg_emit_record(struct codegen *cg, LLVMValueRef ring, uint32_t size, int lost_field,
                    record_filler fill, void *data)
{
    emit_record(cg, ring, size, lost_field, fill, data);
}

/* A tap_events record already built in memory, its size known only at run
 * time: bpf_ringbuf_output copies it (a full ring counts a lost event). */
void cg_emit_bytes(struct codegen *cg, LLVMValueRef bytes, LLVMValueRef size)
{
    LLVMValueRef args[4] = {cg->events_map, bytes, size, events_submit_flags(cg, cg->events_map)};
    LLVMValueRef result = cg_helper(cg, BPF_FUNC_ringbuf_output, cg->i64, args, 4);
    LLVMBasicBlockRef lost = cg_block(cg, "output_lost"), done = cg_block(cg, "output_done");
    LLVMBuildCondBr(cg->builder, LLVMBuildICmp(cg->builder, LLVMIntNE, result, cg_const(cg, 0), ""), lost, done);
    cg_position(cg, lost);
    atomic_increment(cg, STATE_LOST_EVENTS);
    LLVMBuildBr(cg->builder, done);
    cg_position(cg, done);
}

static LLVMValueRef record_at(struct codegen *cg, LLVMValueRef record, uint32_t offset)
{
    LLVMValueRef index = cg_const(cg, offset);
    return LLVMBuildGEP2(cg->builder, cg->i8, record, &index, 1, "");
}

struct print_record {
    uint32_t format_id;
    struct program_format *format;
    LLVMValueRef values[MAX_PRINT_ARGS];
    uint32_t memory[MAX_PRINT_ARGS];     /* %m/%M: scratch {count, bytes}; else 0 */
};

static void fill_print(struct codegen *cg, LLVMValueRef record, void *data)
{
    struct print_record *print = data;
    LLVMBuildStore(cg->builder, header_value(cg, RECORD_PRINTF, print->format_id), record);
    for (int i = 0; i < print->format->arg_count; i++) {
        const struct format_arg *arg = &print->format->args[i];
        LLVMValueRef slot = record_at(cg, record, arg->offset);
        if (arg->kind == FORMAT_ARG_LONG)
            LLVMBuildStore(cg->builder, print->values[i], slot);
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
                LLVMValueRef n = LLVMBuildSelect(cg->builder,
                                                 LLVMBuildICmp(cg->builder, LLVMIntSGT, precision, cg_const(cg, 0), ""),
                                                 precision, cg_const(cg, 1), "");
                print->memory[arg] = cg_alloc_scratch(cg, 8 + cg->string_size);
                LLVMBuildStore(cg->builder, n, cg_scratch_ptr(cg, print->memory[arg]));
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
        print.values[i] = cg_expr(cg, args[i]);
    cg_set_location(cg, call->span);
    if (format_expr)
        read_memory(cg, format_expr, format, &print, count);
    print.format_id = add_format(cg, format, args, count, print.memory);
    print.format = &cg->program->formats[print.format_id];
    emit_record(cg, cg->events_map, print.format->record_size, STATE_LOST_EVENTS, fill_print, &print);
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

struct error_record {
    uint32_t error_id;
    LLVMValueRef value;
    int has_text;
};

static void fill_error(struct codegen *cg, LLVMValueRef record, void *data)
{
    struct error_record *error = data;
    LLVMBuildStore(cg->builder, header_value(cg, RECORD_ERROR, error->error_id), record);
    LLVMValueRef value_slot = record_at(cg, record, offsetof(struct record_error, value));
    if (error->has_text)
        cg_string_copy(cg, record_at(cg, record, sizeof(struct record_error)), error->value);
    else
        LLVMBuildStore(cg->builder, error->value, value_slot);
}

static uint32_t add_error(struct codegen *cg, struct span span, const char *message)
{
    struct program *program = cg->program;
    if (program->error_count == cg->error_capacity) {
        cg->error_capacity = cg->error_capacity ? cg->error_capacity * 2 : 16;
        program->errors = realloc(program->errors, sizeof(*program->errors) * (size_t)cg->error_capacity);
    }
    struct program_error *error = &program->errors[program->error_count];
    struct strbuf location;
    strbuf_init(&location);
    span_describe(&location, span);
    error->message = message ? strdup(message) : NULL;
    error->location = strdup(location.data);
    strbuf_free(&location);
    return (uint32_t)program->error_count++;
}

/* Ends the handler with a runtime error, or unwinds to the open try that
 * catches it. message NULL: value is a string
 * (error("...")); else message may format value with one %lld or %llx. */
void cg_raise_error(struct codegen *cg, struct span span, const char *message, LLVMValueRef value)
{
    if (cg->has_try) {
        LLVMValueRef depth = LLVMBuildLoad2(cg->builder, cg->i64, cg_scratch_ptr(cg, SCRATCH_TRY_DEPTH), "");
        LLVMBasicBlockRef caught = cg_block(cg, "caught"), report = cg_block(cg, "report");
        LLVMBuildCondBr(cg->builder, LLVMBuildICmp(cg->builder, LLVMIntNE, depth, cg_const(cg, 0), ""),
                        caught, report);
        cg_position(cg, caught);
        cg_catch_error(cg, message, value);
        cg_position(cg, report);
    }
    if (cg->options->suppress_handler_errors) {
        /* --suppress-handler-errors: as `catch { next }` around every
         * handler; only the count at the end says it happened */
        atomic_increment(cg, STATE_ERROR_COUNT);
        LLVMBuildStore(cg->builder, cg_const(cg, UNWIND_ERROR), cg_scratch_ptr(cg, SCRATCH_UNWIND));
        LLVMBuildBr(cg->builder, cg->fn->unwind_block);
        return;
    }
    struct error_record error = {.error_id = add_error(cg, span, message), .value = value,
                                 .has_text = message == NULL};
    uint32_t size = sizeof(struct record_error) + (message ? 0 : cg->string_size);
    emit_record(cg, cg->control_map, size, -1, fill_error, &error);
    LLVMValueRef before = atomic_increment(cg, STATE_ERROR_COUNT);
    if (cg->options->max_errors) {
        /* -D MAXERRORS=N: the session survives N errors; the handler still ends */
        LLVMBasicBlockRef last = cg_block(cg, "past_max_errors"), go_on = cg_block(cg, "unwind_error");
        LLVMBuildCondBr(cg->builder, LLVMBuildICmp(cg->builder, LLVMIntSGE, before,
                                                   cg_const(cg, cg->options->max_errors), ""), last, go_on);
        cg_position(cg, last);
        LLVMBuildStore(cg->builder, cg_const(cg, 1), cg_state_field(cg, STATE_EXITING));
        LLVMBuildBr(cg->builder, go_on);
        cg_position(cg, go_on);
    } else {
        LLVMBuildStore(cg->builder, cg_const(cg, 1), cg_state_field(cg, STATE_EXITING));
    }
    LLVMBuildStore(cg->builder, cg_const(cg, UNWIND_ERROR), cg_scratch_ptr(cg, SCRATCH_UNWIND));
    LLVMBuildBr(cg->builder, cg->fn->unwind_block);
}

/* After a call: a callee that raised an error or ran `next` unwinds us too. */
void cg_unwind_if_needed(struct codegen *cg)
{
    LLVMValueRef unwind = LLVMBuildLoad2(cg->builder, cg->i64, cg_scratch_ptr(cg, SCRATCH_UNWIND), "");
    LLVMBasicBlockRef go_on = cg_block(cg, "no_unwind");
    LLVMBuildCondBr(cg->builder, LLVMBuildICmp(cg->builder, LLVMIntNE, unwind, cg_const(cg, 0), ""),
                    cg->fn->unwind_block, go_on);
    cg_position(cg, go_on);
}

static void fill_exit(struct codegen *cg, LLVMValueRef record, void *data)
{
    LLVMBuildStore(cg->builder, header_value(cg, RECORD_EXIT, 0), record);
}

void cg_exit(struct codegen *cg)
{
    emit_record(cg, cg->control_map, sizeof(struct record_header), -1, fill_exit, NULL);
    LLVMBuildStore(cg->builder, cg_const(cg, 1), cg_state_field(cg, STATE_EXITING));
}

struct string_record {
    enum record_kind kind;
    uint32_t id;
    LLVMValueRef text;       /* NULL: none */
};

static void fill_string_record(struct codegen *cg, LLVMValueRef record, void *data)
{
    const struct string_record *r = data;
    LLVMBuildStore(cg->builder, header_value(cg, r->kind, r->id), record);
    if (r->text)
        cg_string_copy(cg, record_at(cg, record, sizeof(struct record_header)), r->text);
}

/* A record for the runtime to act on, through tap_events so that it keeps
 * its place among the output: warn(msg), system(cmd), switch_file(). */
void cg_string_record(struct codegen *cg, enum record_kind kind, uint32_t id, LLVMValueRef text)
{
    struct string_record r = {kind, id, text};
    uint32_t size = sizeof(struct record_header) + (text ? cg->string_size : 0);
    emit_record(cg, cg->events_map, size, STATE_LOST_EVENTS, fill_string_record, &r);
}

static void fill_abort(struct codegen *cg, LLVMValueRef record, void *data)
{
    LLVMBuildStore(cg->builder, header_value(cg, RECORD_ABORT, 0), record);
}

/* abort(): like exit(), but the handler stops here and no end probe runs;
 * it unwinds as an error does, without counting one. */
void cg_abort(struct codegen *cg)
{
    emit_record(cg, cg->control_map, sizeof(struct record_header), -1, fill_abort, NULL);
    LLVMBuildStore(cg->builder, cg_const(cg, 1), cg_state_field(cg, STATE_EXITING));
    LLVMBuildStore(cg->builder, cg_const(cg, UNWIND_ERROR), cg_scratch_ptr(cg, SCRATCH_UNWIND));
    LLVMBuildBr(cg->builder, cg->fn->unwind_block);
}
