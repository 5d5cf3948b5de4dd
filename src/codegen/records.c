/* Records and runtime errors: a record reserved in a ring, filled and
 * submitted (a full ring counts a lost event); exit(), abort() and runtime
 * errors go through the small control ring so a flood of output cannot drop
 * them. An error unwinds the handler, or the open try that catches it. */
#include <stdlib.h>
#include <string.h>

#include <linux/bpf.h>

#include "base/strbuf.h"
#include "codegen/codegen_internal.h"

LLVMValueRef cg_record_header(struct codegen *cg, enum record_kind kind, uint32_t id)
{
    return cg_const(cg, (int64_t)((uint64_t)kind | ((uint64_t)id << 32)));
}

/* Returns the count before. */
static LLVMValueRef atomic_increment(struct codegen *cg, int state_field)
{
    return cg_atomic_add(cg, cg_state_field(cg, state_field), cg_const(cg, 1));
}

/* A wakeup per record costs the traced thread an irq_work and user space a
 * context switch per event: wake it only when wakeup_bytes are unread or
 * when no record did for a period (so the first event after a pause shows at
 * once); user space polls every period for the rest. */
static LLVMValueRef events_submit_flags(struct codegen *cg, LLVMValueRef ring)
{
    LLVMValueRef query[2] = {ring, cg_const(cg, BPF_RB_AVAIL_DATA)};
    LLVMValueRef unread = cg_helper(cg, BPF_FUNC_ringbuf_query, cg->i64, query, 2);
    LLVMValueRef limit = cg_load(cg, cg_state_field(cg, STATE_WAKEUP_BYTES));
    LLVMValueRef now = cg_helper(cg, BPF_FUNC_ktime_get_ns, cg->i64, NULL, 0);
    LLVMValueRef last_ptr = cg_state_field(cg, STATE_LAST_WAKEUP);
    LLVMValueRef since = cg_sub(cg, now, cg_load(cg, last_ptr));
    LLVMValueRef due = cg_or(cg, cg_compare_values(cg, LLVMIntUGE, unread, limit), cg_compare_values(cg, LLVMIntUGE, since, cg_const(cg, (int64_t)TAP_WAKEUP_PERIOD_NS)));
    LLVMBasicBlockRef done = cg_if(cg, due, "wakeup", "wakeup_done");
    cg_store(cg, now, last_ptr);
    cg_end_if(cg, done);
    return cg_select(cg, due, cg_const(cg, BPF_RB_FORCE_WAKEUP), cg_const(cg, BPF_RB_NO_WAKEUP));
}

void cg_emit_record(struct codegen *cg, LLVMValueRef ring, uint32_t size, int lost_field, cg_record_filler fill,
                    void *data)
{
    LLVMValueRef args[3] = {ring, cg_const(cg, size), cg_const(cg, 0)};
    LLVMValueRef record = cg_helper(cg, BPF_FUNC_ringbuf_reserve, cg->ptr, args, 3);
    struct cg_if_else branch = cg_if_present(cg, record, "record", "record_lost", "record_done");
    fill(cg, record, data);
    LLVMValueRef flags = ring == cg->events_map ? events_submit_flags(cg, ring) : cg_const(cg, 0);
    LLVMValueRef submit[2] = {record, flags};
    cg_helper(cg, BPF_FUNC_ringbuf_submit, cg->void_type, submit, 2);
    cg_else(cg, &branch);
    if (lost_field >= 0)
        atomic_increment(cg, lost_field);
    cg_end_if_else(cg, &branch);
}

/* A tap_events record already built in memory, its size known only at run
 * time: bpf_ringbuf_output copies it (a full ring counts a lost event). */
void cg_emit_bytes(struct codegen *cg, LLVMValueRef bytes, LLVMValueRef size)
{
    LLVMValueRef args[4] = {cg->events_map, bytes, size, events_submit_flags(cg, cg->events_map)};
    LLVMValueRef result = cg_helper(cg, BPF_FUNC_ringbuf_output, cg->i64, args, 4);
    LLVMBasicBlockRef done = cg_if(cg, cg_compare(cg, LLVMIntNE, result, 0), "output_lost", "output_done");
    atomic_increment(cg, STATE_LOST_EVENTS);
    cg_end_if(cg, done);
}

LLVMValueRef cg_record_at(struct codegen *cg, LLVMValueRef record, uint32_t offset)
{
    LLVMValueRef index = cg_const(cg, offset);
    return cg_byte_ptr(cg, record, index);
}

struct error_record {
    uint32_t error_id;
    LLVMValueRef value;
    int has_text;
};

static void fill_error(struct codegen *cg, LLVMValueRef record, void *data)
{
    struct error_record *error = data;
    cg_store(cg, cg_record_header(cg, RECORD_ERROR, error->error_id), record);
    LLVMValueRef value_slot = cg_record_at(cg, record, offsetof(struct record_error, value));
    if (error->has_text)
        cg_string_copy(cg, cg_record_at(cg, record, sizeof(struct record_error)), error->value);
    else
        cg_store(cg, error->value, value_slot);
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

/* records.c's try/catch state: only a script with a try has one. */
struct catch_state {
    uint32_t message;            /* scratch string slot: a caught error's message */
};

void cg_enable_catch(struct codegen *cg)
{
    cg->catch_state = ARENA_NEW(cg->arena, struct catch_state);
    cg->catch_state->message = cg_alloc_string_slot(cg);
}

int cg_catch_enabled(const struct codegen *cg)
{
    return cg->catch_state != NULL;
}

LLVMValueRef cg_caught_message(struct codegen *cg)
{
    return cg_scratch_ptr(cg, cg->catch_state->message);
}

/* Ends the handler with a runtime error, or unwinds to the open try that
 * catches it. message NULL: value is a string
 * (error("...")); else message may format value with one %lld or %llx. */
void cg_raise_error(struct codegen *cg, struct span span, const char *message, LLVMValueRef value)
{
    if (cg_catch_enabled(cg)) {
        LLVMValueRef depth = cg_load(cg, cg_scratch_ptr(cg, SCRATCH_TRY_DEPTH));
        LLVMBasicBlockRef report = cg_if(cg, cg_compare(cg, LLVMIntNE, depth, 0), "caught", "report");
        cg_catch_error(cg, message, value);
        cg_position(cg, report);
    }
    if (cg->options->suppress_handler_errors) {
        /* --suppress-handler-errors: as `catch { next }` around every
         * handler; only the count at the end says it happened */
        atomic_increment(cg, STATE_ERROR_COUNT);
        cg_store(cg, cg_const(cg, UNWIND_ERROR), cg_scratch_ptr(cg, SCRATCH_UNWIND));
        cg_branch(cg, cg->fn->unwind_block);
        return;
    }
    struct error_record error = {.error_id = add_error(cg, span, message), .value = value,
                                 .has_text = message == NULL};
    uint32_t size = sizeof(struct record_error) + (message ? 0 : cg->string_size);
    cg_emit_record(cg, cg->control_map, size, -1, fill_error, &error);
    LLVMValueRef before = atomic_increment(cg, STATE_ERROR_COUNT);
    if (cg->options->max_errors) {
        /* -D MAXERRORS=N: the session survives N errors; the handler still ends */
        LLVMValueRef past = cg_compare(cg, LLVMIntSGE, before, cg->options->max_errors);
        LLVMBasicBlockRef go_on = cg_if(cg, past, "past_max_errors", "unwind_error");
        cg_store(cg, cg_const(cg, 1), cg_state_field(cg, STATE_EXITING));
        cg_end_if(cg, go_on);
    } else {
        cg_store(cg, cg_const(cg, 1), cg_state_field(cg, STATE_EXITING));
    }
    cg_store(cg, cg_const(cg, UNWIND_ERROR), cg_scratch_ptr(cg, SCRATCH_UNWIND));
    cg_branch(cg, cg->fn->unwind_block);
}

/* After a call: a callee that raised an error or ran `next` unwinds us too. */
void cg_unwind_if_needed(struct codegen *cg)
{
    LLVMValueRef unwind = cg_load(cg, cg_scratch_ptr(cg, SCRATCH_UNWIND));
    cg_jump_if(cg, cg_compare(cg, LLVMIntNE, unwind, 0), cg->fn->unwind_block, "no_unwind");
}

static void fill_exit(struct codegen *cg, LLVMValueRef record, void *data)
{
    cg_store(cg, cg_record_header(cg, RECORD_EXIT, 0), record);
}

void cg_exit(struct codegen *cg)
{
    cg_emit_record(cg, cg->control_map, sizeof(struct record_header), -1, fill_exit, NULL);
    cg_store(cg, cg_const(cg, 1), cg_state_field(cg, STATE_EXITING));
}

struct string_record {
    enum record_kind kind;
    uint32_t id;
    LLVMValueRef text;       /* NULL: none */
};

static void fill_string_record(struct codegen *cg, LLVMValueRef record, void *data)
{
    const struct string_record *r = data;
    cg_store(cg, cg_record_header(cg, r->kind, r->id), record);
    if (r->text)
        cg_string_copy(cg, cg_record_at(cg, record, sizeof(struct record_header)), r->text);
}

/* A record for the runtime to act on, through tap_events so that it keeps
 * its place among the output: warn(msg), system(cmd), switch_file(). */
void cg_string_record(struct codegen *cg, enum record_kind kind, uint32_t id, LLVMValueRef text)
{
    struct string_record r = {kind, id, text};
    uint32_t size = sizeof(struct record_header) + (text ? cg->string_size : 0);
    cg_emit_record(cg, cg->events_map, size, STATE_LOST_EVENTS, fill_string_record, &r);
}

/* A procfs read probe's `$value = text` (append 0) or `.= text`: the
 * runtime collects them for the reader; id's upper bits are the error the
 * runtime reports when they pass the file's maxsize. */
void cg_procfs_value(struct codegen *cg, struct span span, int append, LLVMValueRef text)
{
    uint32_t error = add_error(cg, span, "buffer size exceeded, consider .maxsize(%lld).");
    cg_string_record(cg, RECORD_PROCFS, error << 1 | (append != 0), text);
}

static void fill_abort(struct codegen *cg, LLVMValueRef record, void *data)
{
    cg_store(cg, cg_record_header(cg, RECORD_ABORT, 0), record);
}

/* abort(): like exit(), but the handler stops here and no end probe runs;
 * it unwinds as an error does, without counting one. */
void cg_abort(struct codegen *cg)
{
    cg_emit_record(cg, cg->control_map, sizeof(struct record_header), -1, fill_abort, NULL);
    cg_store(cg, cg_const(cg, 1), cg_state_field(cg, STATE_EXITING));
    cg_store(cg, cg_const(cg, UNWIND_ERROR), cg_scratch_ptr(cg, SCRATCH_UNWIND));
    cg_branch(cg, cg->fn->unwind_block);
}

/* The message as the runtime would print it (message NULL: value is the
 * text), into the caught-message slot; then unwind. */
void cg_catch_error(struct codegen *cg, const char *message, LLVMValueRef value)
{
    LLVMValueRef to = cg_caught_message(cg);

    if (!message) {
        cg_string_copy(cg, to, value);
    } else {
        /* bpf_snprintf takes the runtime's one %lld or %llx hole; any other
         * '%' is literal */
        const char *hole = strstr(message, "%ll");
        struct strbuf format;
        strbuf_init(&format);
        for (const char *c = message; *c; c++) {
            if (c == hole) {
                strbuf_append(&format, c, 4);
                c += 3;
            } else {
                if (*c == '%')
                    strbuf_putc(&format, '%');
                strbuf_putc(&format, *c);
            }
        }
        uint32_t data = cg_alloc_scratch(cg, 8);
        cg_store(cg, value, cg_scratch_ptr(cg, data));
        LLVMValueRef args[5] = {to, LLVMConstInt(cg->i32, cg->string_size, 0),
                                cg_string_literal(cg, format.data, (int)format.len + 1),
                                hole ? cg_scratch_ptr(cg, data) : LLVMConstNull(cg->ptr),
                                LLVMConstInt(cg->i32, hole ? 8 : 0, 0)};
        cg_helper(cg, BPF_FUNC_snprintf, cg->i64, args, 5);
        strbuf_free(&format);
    }
    cg_store(cg, cg_const(cg, UNWIND_CAUGHT), cg_scratch_ptr(cg, SCRATCH_UNWIND));
    cg_branch(cg, cg->fn->unwind_block);
}

/* A runtime error when cond holds (blocks named fail_name and ok_name); the
 * builder goes on where it does not. */
void cg_error_if(struct codegen *cg, LLVMValueRef cond, const char *fail_name, const char *ok_name, struct span span,
                 const char *message, LLVMValueRef value)
{
    LLVMBasicBlockRef ok = cg_if(cg, cond, fail_name, ok_name);
    cg_raise_error(cg, span, message, value);

    cg_position(cg, ok);
}
