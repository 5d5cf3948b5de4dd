/* The regex compiler for =~ (see regex_dfa.h). */
#include "codegen/regex_dfa.h"

#include <ctype.h>
#include <stdlib.h>
#include <string.h>

#define NFA_MAX 1024
#define DFA_MAX 255                  /* state numbers fit a byte; REGEX_REGEX_DEAD is 255 */
#define SET_WORDS (NFA_MAX / 64)

typedef struct { uint64_t bits[4]; } charset;

struct nfa_state {
    int on_char;                     /* has a character transition on `chars` to out */
    charset chars;
    int out, out2;                   /* -1 when absent; epsilon edges unless on_char */
};

struct nfa {
    struct nfa_state states[NFA_MAX];
    int count;
    int overflow;
};

struct fragment { int start, end; };   /* end: a state whose out is still open */

struct parser {
    const char *at;
    const char *error;
    struct nfa *nfa;
};

static int new_state(struct nfa *n)
{
    if (n->count >= NFA_MAX) {
        n->overflow = 1;
        return 0;
    }
    struct nfa_state *s = &n->states[n->count];
    memset(s, 0, sizeof(*s));
    s->out = s->out2 = -1;
    return n->count++;
}

static void set_add(charset *set, int c) { set->bits[c >> 6] |= 1ull << (c & 63); }
static int set_has(const charset *set, int c) { return (set->bits[c >> 6] >> (c & 63)) & 1; }

static struct fragment char_fragment(struct parser *p, const charset *set)
{
    int a = new_state(p->nfa), b = new_state(p->nfa);
    p->nfa->states[a].on_char = 1;
    p->nfa->states[a].chars = *set;
    p->nfa->states[a].out = b;
    return (struct fragment){a, b};
}

static struct fragment empty_fragment(struct parser *p)
{
    int a = new_state(p->nfa);
    return (struct fragment){a, a};
}

static void add_class(charset *set, const char *name, size_t len)
{
    for (int c = 1; c < 256; c++) {
        int in = 0;
#define CLASS(n, f) if (len == strlen(n) && memcmp(name, n, len) == 0) in = f(c);
        CLASS("digit", isdigit) CLASS("alpha", isalpha) CLASS("alnum", isalnum) CLASS("space", isspace)
        CLASS("upper", isupper) CLASS("lower", islower) CLASS("punct", ispunct) CLASS("xdigit", isxdigit)
        CLASS("print", isprint) CLASS("cntrl", iscntrl) CLASS("graph", isgraph) CLASS("blank", isblank)
#undef CLASS
        if (in)
            set_add(set, c);
    }
}

static int bracket(struct parser *p, charset *set)
{
    int negate = 0;
    memset(set, 0, sizeof(*set));
    if (*p->at == '^') {
        negate = 1;
        p->at++;
    }
    int first = 1;
    while (*p->at && (*p->at != ']' || first)) {
        first = 0;
        if (p->at[0] == '[' && p->at[1] == ':') {
            const char *end = strstr(p->at + 2, ":]");
            if (!end) {
                p->error = "unterminated [: :] class";
                return -1;
            }
            add_class(set, p->at + 2, (size_t)(end - p->at - 2));
            p->at = end + 2;
            continue;
        }
        int lo = (unsigned char)*p->at++;
        int hi = lo;
        if (p->at[0] == '-' && p->at[1] && p->at[1] != ']') {
            hi = (unsigned char)p->at[1];
            p->at += 2;
        }
        for (int c = lo; c <= hi; c++)
            set_add(set, c);
    }
    if (*p->at != ']') {
        p->error = "unterminated bracket expression";
        return -1;
    }
    p->at++;
    if (negate)
        for (int i = 0; i < 4; i++)
            set->bits[i] = ~set->bits[i];
    set->bits[0] &= ~1ull;   /* never the NUL */
    return 0;
}

static struct fragment alternation(struct parser *p);

static struct fragment atom(struct parser *p)
{
    charset set;
    memset(&set, 0, sizeof(set));
    char c = *p->at++;
    switch (c) {
    case '(': {
        struct fragment f = alternation(p);
        if (*p->at != ')')
            p->error = "unbalanced parenthesis";
        else
            p->at++;
        return f;
    }
    case '.':
        for (int i = 1; i < 256; i++)
            set_add(&set, i);
        return char_fragment(p, &set);
    case '[':
        if (bracket(p, &set) < 0)
            return empty_fragment(p);
        return char_fragment(p, &set);
    case '\\': {
        char e = *p->at ? *p->at++ : '\\';
        if (e == 'd') add_class(&set, "digit", 5);
        else if (e == 'w') { add_class(&set, "alnum", 5); set_add(&set, '_'); }
        else if (e == 's') add_class(&set, "space", 5);
        else set_add(&set, (unsigned char)e);
        return char_fragment(p, &set);
    }
    case '^': case '$':
        p->error = "^ and $ are supported only at the start and the end";
        return empty_fragment(p);
    case '*': case '+': case '?': case '{':
        p->error = "a repetition operator with nothing to repeat";
        return empty_fragment(p);
    default:
        set_add(&set, (unsigned char)c);
        return char_fragment(p, &set);
    }
}

static void patch(struct nfa *n, int from, int to)
{
    n->states[from].out = to;
}

/* A copy of the states of f (for {m,n}), with their numbers shifted. */
static struct fragment copy_fragment(struct parser *p, struct fragment f, int first, int last)
{
    int base = p->nfa->count;
    for (int i = first; i <= last; i++) {
        int s = new_state(p->nfa);
        if (p->nfa->overflow)
            return f;
        p->nfa->states[s] = p->nfa->states[i];
        if (p->nfa->states[s].out >= 0) p->nfa->states[s].out += base - first;
        if (p->nfa->states[s].out2 >= 0) p->nfa->states[s].out2 += base - first;
    }
    return (struct fragment){f.start + base - first, f.end + base - first};
}

static struct fragment concat(struct parser *p, struct fragment a, struct fragment b)
{
    patch(p->nfa, a.end, b.start);
    (void)p;
    return (struct fragment){a.start, b.end};
}

static struct fragment star(struct parser *p, struct fragment f)
{
    int split = new_state(p->nfa), end = new_state(p->nfa);
    p->nfa->states[split].out = f.start;
    p->nfa->states[split].out2 = end;
    p->nfa->states[f.end].out = split;
    return (struct fragment){split, end};
}

static struct fragment optional(struct parser *p, struct fragment f)
{
    int split = new_state(p->nfa), end = new_state(p->nfa);
    p->nfa->states[split].out = f.start;
    p->nfa->states[split].out2 = end;
    p->nfa->states[f.end].out = end;
    return (struct fragment){split, end};
}

static int number(struct parser *p)
{
    int n = 0;
    if (!isdigit((unsigned char)*p->at))
        return -1;
    while (isdigit((unsigned char)*p->at))
        n = n * 10 + (*p->at++ - '0');
    return n;
}

static struct fragment repeat(struct parser *p, struct fragment f, int first, int last)
{
    int min = number(p), max = min;
    if (*p->at == ',') {
        p->at++;
        max = *p->at == '}' ? -1 : number(p);
    }
    if (min < 0 || *p->at != '}' || (max >= 0 && max < min) || min > 64 || max > 64) {
        p->error = "a bad {m,n} repetition";
        return f;
    }
    p->at++;
    struct fragment result = empty_fragment(p);
    for (int i = 0; i < min; i++)
        result = concat(p, result, copy_fragment(p, f, first, last));
    if (max < 0)
        return concat(p, result, star(p, copy_fragment(p, f, first, last)));
    for (int i = min; i < max; i++)
        result = concat(p, result, optional(p, copy_fragment(p, f, first, last)));
    return result;
}

static struct fragment postfix(struct parser *p)
{
    int first = p->nfa->count;
    struct fragment f = atom(p);
    int last = p->nfa->count - 1;
    for (;;) {
        if (*p->at == '*') { p->at++; f = star(p, f); }
        else if (*p->at == '+') { p->at++; f = concat(p, f, star(p, copy_fragment(p, f, first, last))); }
        else if (*p->at == '?') { p->at++; f = optional(p, f); }
        else if (*p->at == '{') { p->at++; f = repeat(p, f, first, last); }
        else break;
        first = -1;   /* a repeated repetition: copy no further */
        if (p->error)
            break;
        if (*p->at && strchr("*+?{", *p->at)) {
            p->error = "repeated repetition operators";
            break;
        }
    }
    return f;
}

static struct fragment sequence(struct parser *p)
{
    struct fragment f = empty_fragment(p);
    while (*p->at && *p->at != '|' && *p->at != ')' && !p->error) {
        if (*p->at == '$' && p->at[1] == 0)
            break;
        f = concat(p, f, postfix(p));
    }
    return f;
}

static struct fragment alternation(struct parser *p)
{
    struct fragment f = sequence(p);
    while (*p->at == '|' && !p->error) {
        p->at++;
        struct fragment g = sequence(p);
        int split = new_state(p->nfa), end = new_state(p->nfa);
        p->nfa->states[split].out = f.start;
        p->nfa->states[split].out2 = g.start;
        patch(p->nfa, f.end, end);
        patch(p->nfa, g.end, end);
        f = (struct fragment){split, end};
    }
    return f;
}

typedef struct { uint64_t w[SET_WORDS]; } stateset;

static void closure(const struct nfa *n, stateset *set, int s)
{
    if (s < 0 || (set->w[s >> 6] >> (s & 63)) & 1)
        return;
    set->w[s >> 6] |= 1ull << (s & 63);
    if (!n->states[s].on_char) {
        closure(n, set, n->states[s].out);
        closure(n, set, n->states[s].out2);
    }
}

/* Subset construction; search (no ^) re-adds the start closure each step.
 * Without $, an accepting DFA state is made absorbing: the match is found. */
static const char *build_dfa(const struct nfa *n, int start, int accept, int anchored_start, int anchored_end,
                             struct regex_dfa *out)
{
    stateset *sets = calloc(DFA_MAX, sizeof(stateset));
    out->table = calloc(DFA_MAX, 256);
    out->accept = calloc(DFA_MAX + 1, 1);
    stateset start_set = {{0}};
    closure(n, &start_set, start);
    sets[0] = start_set;
    out->count = 1;
    const char *error = NULL;
    for (int d = 0; d < out->count && !error; d++) {
        int accepting = (sets[d].w[accept >> 6] >> (accept & 63)) & 1;
        out->accept[d] = (uint8_t)accepting;
        for (int c = 0; c < 256; c++) {
            if (c == 0 || (accepting && !anchored_end)) {
                out->table[d * 256 + c] = (uint8_t)(c == 0 ? REGEX_DEAD : d);
                continue;
            }
            stateset next = {{0}};
            int any = 0;
            for (int s = 0; s < n->count; s++) {
                if (!((sets[d].w[s >> 6] >> (s & 63)) & 1) || !n->states[s].on_char ||
                    !set_has(&n->states[s].chars, c))
                    continue;
                closure(n, &next, n->states[s].out);
                any = 1;
            }
            if (!anchored_start) {
                closure(n, &next, start);
                any = 1;
            }
            if (!any) {
                out->table[d * 256 + c] = REGEX_DEAD;
                continue;
            }
            int found = -1;
            for (int e = 0; e < out->count; e++)
                if (memcmp(&sets[e], &next, sizeof(next)) == 0) {
                    found = e;
                    break;
                }
            if (found < 0) {
                if (out->count >= DFA_MAX - 1) {
                    error = "the regular expression needs too many states";
                    break;
                }
                found = out->count++;
                sets[found] = next;
            }
            out->table[d * 256 + c] = (uint8_t)found;
        }
    }
    free(sets);
    return error;
}


const char *regex_compile(const char *text, struct regex_dfa *dfa)
{
    memset(dfa, 0, sizeof(*dfa));
    int anchored_start = text[0] == '^';
    size_t len = strlen(text);
    int anchored_end = len > (size_t)anchored_start && text[len - 1] == '$' &&
                       (len < 2 || text[len - 2] != '\\');
    struct nfa *nfa = calloc(1, sizeof(*nfa));
    struct parser p = {.at = text + anchored_start, .nfa = nfa};
    struct fragment f = alternation(&p);
    if (!p.error && *p.at == '$')
        p.at++;
    if (!p.error && *p.at)
        p.error = *p.at == ')' ? "unbalanced parenthesis" : "unexpected text";
    if (nfa->overflow)
        p.error = "the regular expression is too long";
    const char *error = p.error;
    if (!error) {
        int accept = new_state(nfa);
        patch(nfa, f.end, accept);
        error = nfa->overflow ? "the regular expression is too long"
                              : build_dfa(nfa, f.start, accept, anchored_start, anchored_end, dfa);
    }
    free(nfa);
    if (error)
        regex_dfa_free(dfa);
    return error;
}

int regex_dfa_match(const struct regex_dfa *dfa, const char *s)
{
    int state = 0;
    for (; *s && state != REGEX_DEAD; s++)
        state = dfa->table[state * 256 + (unsigned char)*s];
    return state != REGEX_DEAD && dfa->accept[state];
}

void regex_dfa_free(struct regex_dfa *dfa)
{
    free(dfa->table);
    free(dfa->accept);
    dfa->table = dfa->accept = NULL;
}
