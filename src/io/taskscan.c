/* taskscan.c -- a task file read straight into a Task, with no JSON tree
 * (taskscan.h).  One pass over the bytes: the grammar below, cells stored
 * as they are met.  Whatever falls outside it is declined, and the caller
 * asks cJSON, which alone judges and locates what is wrong. */
#include "taskscan.h"

#include <stdlib.h>
#include <string.h>

enum { GRID_SIDE = 30 };

typedef struct {
    const char *p, *end;
    Task *t;
    size_t ncells;           /* laid down in the scratch so far */
} Scan;

/* A file's cells go to the thread's scratch first, then once into a block
 * of their size: no block grown and shrunk per task. */
static _Thread_local uint8_t *scratch;
static _Thread_local size_t scratch_cap;

void taskscan_forget(void)
{
    free(scratch);
    scratch = NULL;
    scratch_cap = 0;
}

static inline void ws(Scan *s)
{
    while (s->p < s->end && (*s->p == ' ' || *s->p == '\n' || *s->p == '\r' || *s->p == '\t'))
        s->p++;
}

static inline bool eat(Scan *s, char c)
{
    ws(s);
    if (s->p < s->end && *s->p == c) {
        s->p++;
        return true;
    }
    return false;
}

/* A key without escapes: its bytes, or NULL. */
static const char *key(Scan *s, size_t *n)
{
    if (!eat(s, '"'))
        return NULL;
    const char *k = s->p;
    while (s->p < s->end && *s->p != '"') {
        if (*s->p == '\\' || (unsigned char)*s->p < 0x20)
            return NULL;
        s->p++;
    }
    if (s->p == s->end)
        return NULL;
    *n = (size_t)(s->p++ - k);
    return eat(s, ':') ? k : NULL;
}

static bool key_is(const char *k, size_t n, const char *want)
{
    return n == strlen(want) && memcmp(k, want, n) == 0;
}

static bool cells_room(Scan *s, size_t n)
{
    if (s->ncells + n <= scratch_cap)
        return true;
    size_t cap = scratch_cap ? 2 * scratch_cap : 65536;
    while (cap < s->ncells + n)
        cap *= 2;
    uint8_t *c = realloc(scratch, cap);
    if (!c)
        return false;
    scratch = c, scratch_cap = cap;
    return true;
}

/* [[d, ...], ...]: non-empty, rectangular, at most 30 x 30, one-digit
 * cells (a digit followed by more digits, '.', 'e' or 'E' is declined). */
static bool grid(Scan *s, GridBytes *g)
{
    size_t at = s->t->ncells + s->ncells;     /* where the task's block will hold it */
    if (!eat(s, '[') || at > UINT32_MAX - GRID_SIDE * GRID_SIDE ||
        !cells_room(s, GRID_SIDE * GRID_SIDE))
        return false;
    uint8_t *c = scratch + s->ncells;
    int h = 0, w = -1;
    do {
        if (!eat(s, '[') || h == GRID_SIDE)
            return false;
        int n = 0;
        uint8_t *row = c + h * GRID_SIDE;
        /* "d, d, ..., d]" as json.dump writes a row, taken three bytes at
         * a time; anything else goes on below from where this stopped */
        const char *p = s->p;
        bool closed = false;
        size_t room = (size_t)(s->end - p) / 3;
        const char *stop = p + 3 * (room < GRID_SIDE ? room : GRID_SIDE);
        uint16_t comma_blank, sep;
        memcpy(&comma_blank, ", ", 2);
        while (p < stop) {
            unsigned d = (unsigned char)(p[0] - '0');
            memcpy(&sep, p + 1, 2);
            if (d > 9)
                break;
            if (sep == comma_blank) {
                row[n++] = (uint8_t)d;
                p += 3;
            } else if (p[1] == ']') {
                row[n++] = (uint8_t)d;
                p += 2;
                closed = true;
                break;
            } else {
                break;
            }
        }
        s->p = p;
        if (!closed) {
            do {
                ws(s);
                if (s->p >= s->end || *s->p < '0' || *s->p > '9' || n == GRID_SIDE)
                    return false;
                char d = *s->p++;
                if (s->p < s->end && ((*s->p >= '0' && *s->p <= '9') || *s->p == '.' ||
                                      *s->p == 'e' || *s->p == 'E'))
                    return false;
                row[n++] = (uint8_t)(d - '0');
            } while (eat(s, ','));
            if (!eat(s, ']'))
                return false;
        }
        if (w >= 0 && n != w)
            return false;
        w = n;
        h++;
    } while (eat(s, ','));
    if (!eat(s, ']'))
        return false;
    for (int i = 1; i < h; i++)           /* rows were laid 30 apart */
        memmove(c + i * w, c + i * GRID_SIDE, (size_t)w);
    *g = (GridBytes){(uint8_t)h, (uint8_t)w, (uint32_t)at};
    s->ncells += (size_t)h * (size_t)w;
    return true;
}

/* {"input": grid, "output": grid}, either order, output optional unless
 * need_output. */
static bool pair(Scan *s, Sample *sm, bool need_output)
{
    if (!eat(s, '{'))
        return false;
    bool in = false, out = false;
    do {
        size_t n;
        const char *k = key(s, &n);
        if (!k)
            return false;
        bool is_in = key_is(k, n, "input"), is_out = key_is(k, n, "output");
        if ((!is_in && !is_out) || (is_in && in) || (is_out && out) ||
            !grid(s, is_in ? &sm->in : &sm->out))
            return false;
        in |= is_in;
        out |= is_out;
    } while (eat(s, ','));
    return eat(s, '}') && in && (out || !need_output);
}

static bool pairs(Scan *s, Sample **out, int *nout, bool need_output)
{
    if (!eat(s, '['))
        return false;
    int cap = 0;
    if (eat(s, ']'))
        return (*out = calloc(1, sizeof **out)) != NULL;
    do {
        if (*nout == cap) {
            cap = cap ? 2 * cap : 8;
            Sample *g = realloc(*out, sizeof *g * (size_t)cap);
            if (!g)
                return false;
            *out = g;
        }
        Sample *sm = &(*out)[(*nout)++];
        memset(sm, 0, sizeof *sm);
        if (!pair(s, sm, need_output))
            return false;
    } while (eat(s, ','));
    return eat(s, ']');
}

#define REARC_TRAIN 3

int rearc_split(Task *t, Sample *all, int n)
{
    int k = n < REARC_TRAIN ? n : REARC_TRAIN;
    t->train = calloc((size_t)(k ? k : 1), sizeof *t->train);
    t->test = calloc((size_t)(n - k ? n - k : 1), sizeof *t->test);
    if (!t->train || !t->test)
        return -1;
    memcpy(t->train, all, sizeof *all * (size_t)k);
    memcpy(t->test, all + k, sizeof *all * (size_t)(n - k));
    t->ntrain = k, t->ntest = n - k;
    return 0;
}

static bool rearc(Scan *s, Task *t)
{
    Sample *all = NULL;
    int n = 0;
    bool ok = pairs(s, &all, &n, true) && rearc_split(t, all, n) == 0;
    free(all);
    return ok;
}

int taskscan(const char *buf, size_t len, Task *t)
{
    Scan s = {buf, buf + len, t, 0};
    ws(&s);
    if (s.p < s.end && *s.p == '[') {
        bool ok = rearc(&s, t);
        ws(&s);
        if (ok && s.p == s.end)
            goto done;
        goto decline;
    }
    bool train = false, test = false, ok = eat(&s, '{');
    while (ok) {
        size_t n;
        const char *k = key(&s, &n);
        if (k && key_is(k, n, "train") && !train)
            ok = train = pairs(&s, &t->train, &t->ntrain, true);
        else if (k && key_is(k, n, "test") && !test)
            ok = test = pairs(&s, &t->test, &t->ntest, false);
        else
            ok = false;
        if (ok && !eat(&s, ','))
            break;
    }
    ok = ok && train && test && eat(&s, '}');
    ws(&s);
    if (!ok || s.p != s.end)
        goto decline;
done:
    if (s.ncells) {
        uint8_t *c = realloc(t->cells, t->ncells + s.ncells);
        if (!c)
            goto decline;
        memcpy(c + t->ncells, scratch, s.ncells);
        t->cells = c;
        t->ncells = t->capcells = t->ncells + s.ncells;
    }
    return 0;
decline:
    free(t->train);
    free(t->test);
    t->train = t->test = NULL;
    t->ntrain = t->ntest = 0;
    return -1;
}
