/* struct program <-> text, one record per line:
 *   tap-program 5 STRING_SIZE STATE_OFFSET
 *   probe KIND PROG POINT ORDER PATH OFFSET COOKIE TP_CAT TP_NAME MAY_SKIP
 *       then the kind's own fields, as its table lists them (probe_kind_ops.program_fields)
 *   format TEXT RECORD_SIZE ARG_COUNT (KIND OFFSET SIZE)...
 *   error MESSAGE LOCATION
 *   global NAME KIND OFFSET SIZE PRINT_AT_END DECL_INDEX
 *   map NAME MAP_NAME DECL_INDEX KIND IS_SCALAR KEY_COUNT (KEY_KIND KEY_OFFSET)... KEY_SIZE VALUE_SIZE
 *       SEQ_OFFSET PRINT_AT_END HIST START STOP INTERVAL BUCKETS
 *   hist_elision N
 *   user_frames 0|1
 *   max_errors N
 *   bpf_isa N          (absent: 4, what tap compiled for before it asked the kernel)
 *   kernel RELEASE BUILD_ID   the kernel compiled on (absent: not known)
 *   timed POINT LOCATION DERIVATION INDEX   (-t: one per tap_timing slot)
 * Strings are C-quoted; `-` is NULL. */
#include "program/program_io.h"

#include <errno.h>
#include <fcntl.h>
#include <gelf.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <unistd.h>

#include "base/strbuf.h"
#include "kinds/kinds.h"
#include "program/program.h"

#define FORMAT_VERSION 5   /* 4: FIELDS named a member of a union; 5: the kind's table says */

static void put_string(struct strbuf *out, const char *s)
{
    strbuf_putc(out, ' ');
    if (s)
        strbuf_quote(out, s, strlen(s));
    else
        strbuf_putc(out, '-');
}

static void put_number(struct strbuf *out, unsigned long long n)
{
    strbuf_printf(out, " %llu", n);
}

static void put_probe(struct strbuf *out, const struct program_probe *p)
{
    strbuf_printf(out, "probe %d", (int)p->kind);
    put_string(out, p->prog_name);
    put_string(out, p->point);
    strbuf_printf(out, " %lld", (long long)p->order);
    put_string(out, p->path);
    put_number(out, p->offset);
    put_number(out, p->cookie);
    put_string(out, p->tp_category);
    put_string(out, p->tp_name);
    put_number(out, (unsigned long long)p->may_skip);
    const struct program_fields *table = probe_kind_program_fields(p->kind);
    for (int i = 0; table && p->kind_fields && i < table->count; i++) {
        const char *field = (const char *)p->kind_fields + table->fields[i].offset;
        switch (table->fields[i].type) {
        case PROGRAM_FIELD_U64: put_number(out, *(const uint64_t *)field); break;
        case PROGRAM_FIELD_U32: put_number(out, *(const uint32_t *)field); break;
        case PROGRAM_FIELD_I32: strbuf_printf(out, " %lld", (long long)*(const int32_t *)field); break;
        case PROGRAM_FIELD_INT: strbuf_printf(out, " %d", *(const int *)field); break;
        case PROGRAM_FIELD_STRING: put_string(out, *(char *const *)field); break;
        }
    }
    strbuf_putc(out, '\n');
}

static void put_map(struct strbuf *out, const struct program_map *m)
{
    strbuf_puts(out, "map");
    put_string(out, m->name);
    put_string(out, m->map_name);
    strbuf_printf(out, " %d %d %d %d", m->decl_index, (int)m->kind, m->is_scalar, m->key_count);
    for (int k = 0; k < m->key_count; k++)
        strbuf_printf(out, " %d %u", (int)m->key_kinds[k], m->key_offsets[k]);
    strbuf_printf(out, " %u %u %u %d %d %lld %lld %lld %d\n", m->key_size, m->value_size, m->seq_offset,
                  m->print_at_end,
                  (int)m->hist, (long long)m->hist_start, (long long)m->hist_stop,
                  (long long)m->hist_interval, m->bucket_count);
}

char *program_serialize(const struct program *program, size_t *length)
{
    struct strbuf out;
    strbuf_init(&out);
    strbuf_printf(&out, "tap-program %d %u %u\n", FORMAT_VERSION, program->string_size, program->state_offset);
    for (int i = 0; i < program->probe_count; i++)
        put_probe(&out, &program->probes[i]);
    for (int i = 0; i < program->format_count; i++) {
        const struct program_format *f = &program->formats[i];
        strbuf_puts(&out, "format");
        put_string(&out, f->format);
        strbuf_printf(&out, " %u %d", f->record_size, f->arg_count);
        for (int a = 0; a < f->arg_count; a++)
            strbuf_printf(&out, " %d %u %u", (int)f->args[a].kind, f->args[a].offset, f->args[a].size);
        strbuf_putc(&out, '\n');
    }
    for (int i = 0; i < program->error_count; i++) {
        strbuf_puts(&out, "error");
        put_string(&out, program->errors[i].message);
        put_string(&out, program->errors[i].location);
        strbuf_putc(&out, '\n');
    }
    for (int i = 0; i < program->global_count; i++) {
        const struct program_global *g = &program->globals[i];
        strbuf_puts(&out, "global");
        put_string(&out, g->name);
        strbuf_printf(&out, " %d %u %u %d %d\n", (int)g->kind, g->offset, g->size, g->print_at_end,
                      g->decl_index);
    }
    for (int i = 0; i < program->map_count; i++)
        put_map(&out, &program->maps[i]);
    strbuf_printf(&out, "hist_elision %d\n", program->hist_elision);
    strbuf_printf(&out, "user_frames %d\n", program->user_frames);
    strbuf_printf(&out, "max_errors %lld\n", (long long)program->max_errors);
    strbuf_printf(&out, "bpf_isa %d\n", program->bpf_isa);
    if (program->kernel_release) {
        strbuf_puts(&out, "kernel");
        put_string(&out, program->kernel_release);
        put_string(&out, program->kernel_build_id);
        strbuf_putc(&out, '\n');
    }
    for (int i = 0; i < program->timed_count; i++) {
        strbuf_puts(&out, "timed");
        put_string(&out, program->timed[i].point);
        put_string(&out, program->timed[i].location);
        put_string(&out, program->timed[i].derivation);
        strbuf_printf(&out, " %d\n", program->timed[i].index);
    }
    *length = out.len;
    return out.data;
}

/* A cursor over the text; the first failure sticks. */
struct reader {
    const char *at, *end;
    int failed;
};

static void skip_blanks(struct reader *r)
{
    while (r->at < r->end && *r->at == ' ')
        r->at++;
}

static char *read_string(struct reader *r)
{
    skip_blanks(r);
    if (r->at < r->end && *r->at == '-' && (r->at + 1 == r->end || r->at[1] == ' ' || r->at[1] == '\n')) {
        r->at++;
        return NULL;
    }
    if (r->at >= r->end || *r->at != '"') {
        r->failed = 1;
        return NULL;
    }
    struct strbuf value;
    strbuf_init(&value);
    strbuf_append(&value, "", 0);
    for (r->at++; r->at < r->end && *r->at != '"'; r->at++) {
        char c = *r->at;
        if (c == '\\' && r->at + 1 < r->end) {
            c = *++r->at;
            if (c >= '0' && c <= '7' && r->at + 2 < r->end) {
                c = (char)((c - '0') * 64 + (r->at[1] - '0') * 8 + (r->at[2] - '0'));
                r->at += 2;
            } else {
                c = c == 'n' ? '\n' : c == 't' ? '\t' : c == 'r' ? '\r' : c;
            }
        }
        strbuf_putc(&value, c);
    }
    if (r->at >= r->end)
        r->failed = 1;
    else
        r->at++;
    return value.data;
}

static unsigned long long read_number(struct reader *r)
{
    skip_blanks(r);
    if (r->at >= r->end || *r->at == '\n') {   /* strtoull would read the next line's */
        r->failed = 1;
        return 0;
    }
    char *end;
    errno = 0;
    unsigned long long n = strtoull(r->at, &end, 10);
    if (*r->at == '-')
        n = (unsigned long long)strtoll(r->at, &end, 10);
    if (end == r->at || errno)
        r->failed = 1;
    r->at = end;
    return n;
}

/* The kind's own fields, by its table: put_probe's order. */
static void read_kind_fields(struct reader *r, struct program_probe *p)
{
    const struct program_fields *table = probe_kind_program_fields(p->kind);
    if (!table)
        return;
    p->kind_fields = calloc(1, table->size);
    for (int i = 0; i < table->count; i++) {
        char *field = (char *)p->kind_fields + table->fields[i].offset;
        switch (table->fields[i].type) {
        case PROGRAM_FIELD_U64: *(uint64_t *)field = read_number(r); break;
        case PROGRAM_FIELD_U32: *(uint32_t *)field = (uint32_t)read_number(r); break;
        case PROGRAM_FIELD_I32: *(int32_t *)field = (int32_t)read_number(r); break;
        case PROGRAM_FIELD_INT: *(int *)field = (int)read_number(r); break;
        case PROGRAM_FIELD_STRING: *(char **)field = read_string(r); break;
        }
    }
}

static void read_probe(struct reader *r, struct program_probe *p)
{
    p->kind = (enum probe_kind)read_number(r);
    p->prog_name = read_string(r);
    p->point = read_string(r);
    p->order = (int64_t)read_number(r);
    p->path = read_string(r);
    p->offset = read_number(r);
    p->cookie = read_number(r);
    p->tp_category = read_string(r);
    p->tp_name = read_string(r);
    p->may_skip = (int)read_number(r);
    if ((unsigned)p->kind < PROBE_KIND_COUNT)
        read_kind_fields(r, p);
    if (!p->prog_name || !p->point || (unsigned)p->kind >= PROBE_KIND_COUNT)
        r->failed = 1;
}

static void read_format(struct reader *r, struct program_format *f)
{
    f->format = read_string(r);
    f->record_size = (uint32_t)read_number(r);
    f->arg_count = (int)read_number(r);
    if (f->arg_count < 0 || f->arg_count > 1024 || !f->format) {
        r->failed = 1;
        f->arg_count = 0;
        return;
    }
    f->args = calloc((size_t)f->arg_count + 1, sizeof(*f->args));
    for (int a = 0; a < f->arg_count; a++) {
        f->args[a].kind = (enum format_arg_kind)read_number(r);
        f->args[a].offset = (uint32_t)read_number(r);
        f->args[a].size = (uint32_t)read_number(r);
    }
}

static void read_global(struct reader *r, struct program_global *g)
{
    g->name = read_string(r);
    g->kind = (enum program_global_kind)read_number(r);
    g->offset = (uint32_t)read_number(r);
    g->size = (uint32_t)read_number(r);
    g->print_at_end = (int)read_number(r);
    g->decl_index = (int)read_number(r);
    if (!g->name)
        r->failed = 1;
}

static void read_map(struct reader *r, struct program_map *m)
{
    m->name = read_string(r);
    m->map_name = read_string(r);
    m->decl_index = (int)read_number(r);
    m->kind = (enum program_map_kind)read_number(r);
    m->is_scalar = (int)read_number(r);
    m->key_count = (int)read_number(r);
    if (!m->name || !m->map_name || m->key_count < 0 || m->key_count > PROGRAM_MAX_KEYS) {
        r->failed = 1;
        m->key_count = 0;
        return;
    }
    for (int k = 0; k < m->key_count; k++) {
        m->key_kinds[k] = (enum format_arg_kind)read_number(r);
        m->key_offsets[k] = (uint32_t)read_number(r);
    }
    m->key_size = (uint32_t)read_number(r);
    m->value_size = (uint32_t)read_number(r);
    m->seq_offset = (uint32_t)read_number(r);
    m->print_at_end = (int)read_number(r);
    m->hist = (enum program_hist_kind)read_number(r);
    m->hist_start = (int64_t)read_number(r);
    m->hist_stop = (int64_t)read_number(r);
    m->hist_interval = (int64_t)read_number(r);
    m->bucket_count = (int)read_number(r);
}

/* Grows an array by one zeroed element and returns it. */
static void *push(void **array, int *count, size_t size)
{
    *array = realloc(*array, size * (size_t)(*count + 1));
    char *item = (char *)*array + size * (size_t)*count;
    memset(item, 0, size);
    (*count)++;
    return item;
}

static int read_line(struct reader *r, struct program *program)
{
    const char *word = r->at;
    while (r->at < r->end && *r->at != ' ' && *r->at != '\n')
        r->at++;
    size_t len = (size_t)(r->at - word);
#define IS(w) (len == strlen(w) && memcmp(word, w, len) == 0)
    if (IS("probe"))
        read_probe(r, push((void **)&program->probes, &program->probe_count, sizeof(struct program_probe)));
    else if (IS("format"))
        read_format(r, push((void **)&program->formats, &program->format_count, sizeof(struct program_format)));
    else if (IS("error")) {
        struct program_error *e = push((void **)&program->errors, &program->error_count, sizeof(*e));
        e->message = read_string(r);
        e->location = read_string(r);
        if (!e->location)
            r->failed = 1;
    } else if (IS("global"))
        read_global(r, push((void **)&program->globals, &program->global_count, sizeof(struct program_global)));
    else if (IS("map"))
        read_map(r, push((void **)&program->maps, &program->map_count, sizeof(struct program_map)));
    else if (IS("hist_elision"))
        program->hist_elision = (int)read_number(r);
    else if (IS("user_frames"))
        program->user_frames = read_number(r) != 0;
    else if (IS("max_errors"))
        program->max_errors = read_number(r);
    else if (IS("bpf_isa"))
        program->bpf_isa = (int)read_number(r);
    else if (IS("kernel")) {
        program->kernel_release = read_string(r);
        program->kernel_build_id = read_string(r);
        if (!program->kernel_release)
            r->failed = 1;
    } else if (IS("timed")) {
        struct program_timed_probe *t = push((void **)&program->timed, &program->timed_count, sizeof(*t));
        t->point = read_string(r);
        t->location = read_string(r);
        t->derivation = read_string(r);
        t->index = (int)read_number(r);
        if (!t->point || !t->location || !t->derivation)
            r->failed = 1;
    }
    else
        r->failed = 1;
#undef IS
    skip_blanks(r);
    if (r->at < r->end && *r->at != '\n')
        r->failed = 1;
    r->at++;
    return r->failed ? -1 : 0;
}

int program_deserialize(struct program *program, const char *text, size_t length, char *error,
                        size_t error_size)
{
    struct reader r = {text, text + length, 0};
    int version = -1;
    unsigned string_size = 0, state_offset = 0;
    if (sscanf(text, "tap-program %d %u %u", &version, &string_size, &state_offset) != 3 ||
        version != FORMAT_VERSION) {
        snprintf(error, error_size, "its metadata is not tap's (version %d) or is damaged", version);
        return -1;
    }
    program->string_size = string_size;
    program->state_offset = state_offset;
    program->bpf_isa = 4;
    r.at = memchr(text, '\n', length);
    if (!r.at) {
        snprintf(error, error_size, "its metadata is damaged");
        return -1;
    }
    r.at++;
    while (r.at < r.end && *r.at)
        if (read_line(&r, program) < 0) {
            snprintf(error, error_size, "its metadata is damaged near byte %zu", (size_t)(r.at - text));
            return -1;
        }
    return 0;
}

static void *read_whole_file(const char *path, size_t *size)
{
    FILE *f = fopen(path, "rb");
    if (!f)
        return NULL;
    struct strbuf data;
    strbuf_init(&data);
    int failed = strbuf_read_file(&data, f);
    fclose(f);
    if (failed) {
        strbuf_free(&data);
        errno = EIO;
        return NULL;
    }
    *size = data.len;
    return data.data;
}

/* The bytes of the named section of an ELF image in memory, or NULL. */
static const char *elf_section(Elf *elf, const char *name, size_t *size)
{
    size_t names;
    if (elf_getshdrstrndx(elf, &names) != 0)
        return NULL;
    for (Elf_Scn *scn = elf_nextscn(elf, NULL); scn; scn = elf_nextscn(elf, scn)) {
        GElf_Shdr shdr;
        if (!gelf_getshdr(scn, &shdr))
            continue;
        const char *scn_name = elf_strptr(elf, names, shdr.sh_name);
        if (!scn_name || strcmp(scn_name, name) != 0)
            continue;
        Elf_Data *data = elf_getdata(scn, NULL);
        if (!data)
            return NULL;
        *size = data->d_size;
        return data->d_buf;
    }
    return NULL;
}

struct program *program_read_object(const char *path, char *error, size_t error_size)
{
    size_t size;
    char *bytes = read_whole_file(path, &size);
    if (!bytes) {
        snprintf(error, error_size, "cannot read '%s': %s", path, strerror(errno));
        return NULL;
    }
    elf_version(EV_CURRENT);
    Elf *elf = elf_memory(bytes, size);
    size_t meta_size = 0;
    const char *meta = elf ? elf_section(elf, PROGRAM_META_SECTION, &meta_size) : NULL;
    struct program *program = calloc(1, sizeof(*program));
    int ok = meta && program_deserialize(program, meta, meta_size, error, error_size) == 0;
    if (!meta)
        snprintf(error, error_size, "'%s' is not a BPF object written by tap -p4 (no %s section)", path,
                 PROGRAM_META_SECTION);
    if (elf)
        elf_end(elf);
    if (!ok) {
        free(bytes);
        program_free(program);
        return NULL;
    }
    program->object = bytes;
    program->object_size = size;
    return program;
}

void elf_build_id(const char *path, char *hex, size_t hex_size)
{
    hex[0] = 0;
    int fd = open(path, O_RDONLY | O_CLOEXEC);
    if (fd < 0)
        return;
    elf_version(EV_CURRENT);
    Elf *elf = elf_begin(fd, ELF_C_READ_MMAP, NULL);
    for (Elf_Scn *scn = elf ? elf_nextscn(elf, NULL) : NULL; scn && !hex[0]; scn = elf_nextscn(elf, scn)) {
        GElf_Shdr shdr;
        if (!gelf_getshdr(scn, &shdr) || shdr.sh_type != SHT_NOTE)
            continue;
        Elf_Data *data = elf_getdata(scn, NULL);
        GElf_Nhdr note;
        size_t offset = 0, name_offset, desc_offset;
        while (data && (offset = gelf_getnote(data, offset, &note, &name_offset, &desc_offset)) > 0) {
            if (note.n_type != NT_GNU_BUILD_ID || note.n_namesz != 4 ||
                memcmp((char *)data->d_buf + name_offset, "GNU", 4) != 0)
                continue;
            const unsigned char *id = (const unsigned char *)data->d_buf + desc_offset;
            for (size_t i = 0; i < note.n_descsz && 2 * i + 2 < hex_size; i++)
                snprintf(hex + 2 * i, 3, "%02x", id[i]);
            break;
        }
    }
    if (elf)
        elf_end(elf);
    close(fd);
}

int program_check_probes(const struct program *program, char *error, size_t error_size)
{
    for (int i = 0; i < program->probe_count; i++) {
        const struct program_probe *p = &program->probes[i];
        int (*check)(const struct program_probe *, char *, size_t) = probe_kind_ops(p->kind)->check_run;
        if (check && check(p, error, error_size) < 0)
            return -1;
    }
    return 0;
}
