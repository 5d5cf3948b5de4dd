/* Arrays and statistics seen from user space: histograms printed on a
 * RECORD_HIST (which carries the buckets), and the globals printed at the end
 * (spec/output.md), where per-CPU statistics are summed. */
#include <inttypes.h>
#include <stdlib.h>
#include <string.h>

#include <bpf/bpf.h>
#include <bpf/libbpf.h>

#include "runtime/hist.h"
#include "runtime/session.h"

struct map_entry {
    char *key;
    char *value;                 /* long, string, or a summed struct stat_value + buckets */
    const struct program_map *map;
};

static int map_fd(struct session *s, const struct program_map *m)
{
    struct bpf_map *map = bpf_object__find_map_by_name(s->object, m->map_name);
    return map ? bpf_map__fd(map) : -1;
}

static size_t value_stride(const struct program_map *m)
{
    return ((size_t)m->value_size + 7) & ~(size_t)7;
}

/* Reads one element into out (value_size bytes), summing per-CPU
 * statistics; returns 0, or -1 when the key is absent. */
static int read_value(const struct program_map *m, int fd, const void *key, char *out)
{
    if (m->kind != PROGRAM_MAP_STATS)
        return bpf_map_lookup_elem(fd, key, out) == 0 ? 0 : -1;
    int cpus = libbpf_num_possible_cpus();
    size_t stride = value_stride(m);
    char *all = calloc((size_t)(cpus > 0 ? cpus : 1), stride);
    if (!all || bpf_map_lookup_elem(fd, key, all) != 0) {
        free(all);
        return -1;
    }
    memset(out, 0, m->value_size);
    struct stat_value *total = (struct stat_value *)out;
    int64_t *buckets = (int64_t *)(out + sizeof(struct stat_value));
    for (int c = 0; c < cpus; c++) {
        const struct stat_value *v = (const struct stat_value *)(all + (size_t)c * stride);
        const int64_t *b = (const int64_t *)(all + (size_t)c * stride + sizeof(struct stat_value));
        if (v->count == 0)
            continue;
        if (total->count == 0 || v->min < total->min)
            total->min = v->min;
        if (total->count == 0 || v->max > total->max)
            total->max = v->max;
        total->count += v->count;
        total->sum += v->sum;
        for (int i = 0; i < m->bucket_count; i++)
            buckets[i] += b[i];
        int64_t seq, total_seq;
        memcpy(&seq, (const char *)v + m->seq_offset, sizeof(seq));
        memcpy(&total_seq, out + m->seq_offset, sizeof(total_seq));
        if (seq > total_seq)
            memcpy(out + m->seq_offset, &seq, sizeof(seq));
    }
    free(all);
    return 0;
}

/* {"type":"hist","name":"s","data":[{"min":0,"max":1,"count":2},...]}: the
 * non-empty buckets with their inclusive value ranges. */
static void json_histogram(struct session *s, const struct program_map *m, const int64_t *buckets)
{
    strbuf_puts(&s->out, "{\"type\":\"hist\",\"name\":");
    append_json_string(&s->out, m->name, strlen(m->name));
    strbuf_puts(&s->out, ",\"data\":[");
    int first = 1;
    for (int i = 0; i < m->bucket_count; i++) {
        if (!buckets[i])
            continue;
        int64_t lo, hi;
        if (m->hist == PROGRAM_HIST_LOG) {
            /* bucket of bit length k: [2^(k-1), 2^k - 1], negatives mirrored */
            int64_t label = hist_log_label(i);
            if (label == 0) {
                lo = hi = 0;
            } else if (label > 0) {
                lo = label;
                hi = label > INT64_MAX / 2 ? INT64_MAX : 2 * label - 1;
            } else {
                lo = label < INT64_MIN / 2 ? INT64_MIN : 2 * label + 1;
                hi = label;
            }
        } else if (i == 0) {
            lo = INT64_MIN;
            hi = m->hist_start - 1;
        } else if (i == m->bucket_count - 1) {
            lo = m->hist_start + (int64_t)(i - 1) * m->hist_interval;
            hi = INT64_MAX;
        } else {
            lo = m->hist_start + (int64_t)(i - 1) * m->hist_interval;
            hi = lo + m->hist_interval - 1;
        }
        strbuf_printf(&s->out, "%s{\"min\":%" PRId64 ",\"max\":%" PRId64 ",\"count\":%" PRId64 "}",
                      first ? "" : ",", lo, hi, buckets[i]);
        first = 0;
    }
    strbuf_puts(&s->out, "]}\n");
}

static void print_histogram(struct session *s, const struct program_map *m, const int64_t *buckets)
{
    if (s->options->json)
        json_histogram(s, m, buckets);
    else if (m->hist == PROGRAM_HIST_LOG)
        hist_print_log(&s->out, buckets, s->program->hist_elision);
    else if (m->hist == PROGRAM_HIST_LINEAR)
        hist_print_linear(&s->out, buckets, m->hist_start, m->hist_stop, m->hist_interval,
                          s->program->hist_elision);
}

/* RECORD_HIST: the index of the first bucket sent, then the counts of the
 * non-empty range, as they were when print ran; the others are 0. */
void session_print_hist(struct session *s, uint32_t id, const void *data, size_t size)
{
    if (id >= (uint32_t)s->program->map_count)
        return;
    const struct program_map *m = &s->program->maps[id];
    size_t head = sizeof(struct record_header) + sizeof(int64_t);
    if (m->kind != PROGRAM_MAP_STATS || !m->bucket_count || size < head)
        return;
    int64_t first;
    memcpy(&first, (const char *)data + sizeof(struct record_header), sizeof(first));
    size_t count = (size - head) / sizeof(int64_t);
    if (first < 0 || first > m->bucket_count || count > (size_t)(m->bucket_count - first))
        return;
    int64_t *buckets = calloc((size_t)m->bucket_count, sizeof(*buckets));
    if (!buckets)
        return;
    memcpy(buckets + first, (const char *)data + head, count * sizeof(int64_t));
    print_histogram(s, m, buckets);
    free(buckets);
}

static void append_key(struct strbuf *out, const struct program_map *m, const char *key, size_t string_size)
{
    strbuf_putc(out, '[');
    for (int k = 0; k < m->key_count; k++) {
        const char *field = key + m->key_offsets[k];
        if (k)
            strbuf_putc(out, ',');
        if (m->key_kinds[k] == FORMAT_ARG_STRING) {
            strbuf_quote(out, field, strnlen(field, string_size));
        } else {
            int64_t v;
            memcpy(&v, field, sizeof(v));
            strbuf_printf(out, "%" PRId64, v);
        }
    }
    strbuf_putc(out, ']');
}

static int64_t sort_number(const struct map_entry *e)
{
    int64_t v;
    memcpy(&v, e->value, sizeof(v));   /* the long, or stat_value.count */
    return v;
}

static int compare_keys(const struct program_map *m, const char *a, const char *b)
{
    for (int k = 0; k < m->key_count; k++) {
        const char *fa = a + m->key_offsets[k], *fb = b + m->key_offsets[k];
        int c;
        if (m->key_kinds[k] == FORMAT_ARG_STRING) {
            c = strcmp(fa, fb);
        } else {
            int64_t va, vb;
            memcpy(&va, fa, 8);
            memcpy(&vb, fb, 8);
            c = va < vb ? -1 : va > vb;
        }
        if (c)
            return c;
    }
    return 0;
}

static int64_t seq_of(const struct map_entry *e)
{
    int64_t seq;
    memcpy(&seq, e->value + e->map->seq_offset, sizeof(seq));
    return seq;
}

/* Value descending (statistics: count descending); equal values in
 * insertion order, as stap's stable sort leaves them; then by key. */
static int compare_entries(const void *pa, const void *pb)
{
    const struct map_entry *a = pa, *b = pb;
    int c;
    if (a->map->kind == PROGRAM_MAP_STRING) {
        c = -strcmp(a->value, b->value);
    } else {
        int64_t va = sort_number(a), vb = sort_number(b);
        c = va > vb ? -1 : va < vb;
    }
    if (!c && a->map->seq_offset)
        c = seq_of(a) < seq_of(b) ? -1 : seq_of(a) > seq_of(b);
    return c ? c : compare_keys(a->map, a->key, b->key);
}

static void print_stat_line(struct strbuf *out, const struct stat_value *v)
{
    strbuf_printf(out, " @count=%" PRId64 " @min=%" PRId64 " @max=%" PRId64 " @sum=%" PRId64
                  " @avg=%" PRId64 "\n", v->count, v->min, v->max, v->sum,
                  v->count ? v->sum / v->count : 0);
}

static void json_value(struct strbuf *out, const struct program_map *m, const char *value)
{
    if (m->kind == PROGRAM_MAP_STATS) {
        const struct stat_value *v = (const struct stat_value *)value;
        strbuf_printf(out, "{\"count\":%" PRId64 ",\"min\":%" PRId64 ",\"max\":%" PRId64 ",\"sum\":%" PRId64
                      ",\"avg\":%" PRId64 "}", v->count, v->min, v->max, v->sum, v->count ? v->sum / v->count : 0);
    } else if (m->kind == PROGRAM_MAP_STRING) {
        append_json_string(out, value, strnlen(value, m->value_size));
    } else {
        int64_t v;
        memcpy(&v, value, sizeof(v));
        strbuf_printf(out, "%" PRId64, v);
    }
}

/* {"type":"map","name":"c","data":[{"key":[1,"k"],"value":5}]}; a scalar
 * statistic prints as the global it is: {"type":"global","name":"s","value":{...}} */
static void json_map(struct session *s, const struct program_map *m, struct map_entry *entries, int count)
{
    if (m->is_scalar && count == 1) {
        strbuf_puts(&s->out, "{\"type\":\"global\",\"name\":");
        append_json_string(&s->out, m->name, strlen(m->name));
        strbuf_puts(&s->out, ",\"value\":");
        json_value(&s->out, m, entries[0].value);
        strbuf_puts(&s->out, "}\n");
        free(entries[0].key);
        free(entries[0].value);
        return;
    }
    strbuf_puts(&s->out, "{\"type\":\"map\",\"name\":");
    append_json_string(&s->out, m->name, strlen(m->name));
    strbuf_puts(&s->out, ",\"data\":[");
    for (int i = 0; i < count; i++) {
        strbuf_puts(&s->out, i ? ",{\"key\":[" : "{\"key\":[");
        for (int k = 0; k < m->key_count; k++) {
            const char *field = entries[i].key + m->key_offsets[k];
            if (k)
                strbuf_putc(&s->out, ',');
            if (m->key_kinds[k] == FORMAT_ARG_STRING) {
                append_json_string(&s->out, field, strnlen(field, s->program->string_size));
            } else {
                int64_t v;
                memcpy(&v, field, sizeof(v));
                strbuf_printf(&s->out, "%" PRId64, v);
            }
        }
        strbuf_puts(&s->out, "],\"value\":");
        json_value(&s->out, m, entries[i].value);
        strbuf_putc(&s->out, '}');
        free(entries[i].key);
        free(entries[i].value);
    }
    strbuf_puts(&s->out, "]}\n");
}

static void print_map(struct session *s, const struct program_map *m)
{
    int fd = map_fd(s, m);
    if (fd < 0)
        return;
    size_t string_size = s->program->string_size;
    struct map_entry *entries = NULL;
    int count = 0, capacity = 0;
    char *key = calloc(1, m->key_size), *next = calloc(1, m->key_size);
    int more = key && next && bpf_map_get_next_key(fd, NULL, next) == 0;
    while (more) {
        memcpy(key, next, m->key_size);
        more = bpf_map_get_next_key(fd, key, next) == 0;
        char *value = calloc(1, m->value_size);
        if (!value || read_value(m, fd, key, value) < 0 ||
            (m->kind == PROGRAM_MAP_STATS && ((struct stat_value *)value)->count == 0)) {
            free(value);   /* absent, or a statistic nothing was added to */
            continue;
        }
        if (count == capacity) {
            capacity = capacity ? capacity * 2 : 64;
            entries = realloc(entries, sizeof(*entries) * (size_t)capacity);
        }
        entries[count].key = malloc(m->key_size);
        memcpy(entries[count].key, key, m->key_size);
        entries[count].value = value;
        entries[count].map = m;
        count++;
    }
    qsort(entries, (size_t)count, sizeof(*entries), compare_entries);
    if (s->options->json && count) {
        json_map(s, m, entries, count);
        count = 0;
    }
    for (int i = 0; i < count; i++) {
        const struct map_entry *e = &entries[i];
        strbuf_puts(&s->out, m->name);
        if (!m->is_scalar)
            append_key(&s->out, m, e->key, string_size);
        if (m->kind == PROGRAM_MAP_STATS) {
            print_stat_line(&s->out, (const struct stat_value *)e->value);
        } else if (m->kind == PROGRAM_MAP_STRING) {
            strbuf_putc(&s->out, '=');
            strbuf_quote(&s->out, e->value, strnlen(e->value, m->value_size));
            strbuf_putc(&s->out, '\n');
        } else {
            strbuf_printf(&s->out, "=%" PRId64 "\n", sort_number(e));
        }
        free(e->key);
        free(e->value);
    }
    free(entries);
    free(key);
    free(next);
}

/* The arrays and statistics declared at decl_index that are printed at the end. */
void session_print_maps_at(struct session *s, int decl_index)
{
    for (int i = 0; i < s->program->map_count; i++) {
        const struct program_map *m = &s->program->maps[i];
        if (m->decl_index == decl_index && m->print_at_end)
            print_map(s, m);
    }
}
