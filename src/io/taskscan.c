/* taskscan.c -- a task file read straight into a Task, with no JSON tree
 * (taskscan.h).  One pass over the bytes: the grammar below, cells stored
 * as they are met.  Whatever falls outside it is declined, and the caller
 * asks cJSON, which alone judges and locates what is wrong. */
#include "taskscan.h"
#include "fnv.h"

#include <stdlib.h>
#include <string.h>
#ifdef __SSE2__
#include <emmintrin.h>
#endif

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
#ifdef __SSE2__
        /* five cells "d, " at a time, each byte checked: the digits'
         * offsets from '0' at most 9, the separators exact */
        const __m128i tmpl = _mm_setr_epi8('0', ',', ' ', '0', ',', ' ', '0', ',', ' ', '0', ',',
                                           ' ', '0', ',', ' ', 0);
        const __m128i most = _mm_setr_epi8(9, 0, 0, 9, 0, 0, 9, 0, 0, 9, 0, 0, 9, 0, 0, -1);
        while (stop - p >= 15 && s->end - p >= 16) {
            __m128i d = _mm_sub_epi8(_mm_loadu_si128((const __m128i *)p), tmpl);
            if (_mm_movemask_epi8(_mm_cmpeq_epi8(_mm_max_epu8(d, most), most)) != 0xFFFF)
                break;
            uint8_t b[16];
            _mm_storeu_si128((__m128i *)b, d);
            row[n] = b[0], row[n + 1] = b[3], row[n + 2] = b[6], row[n + 3] = b[9], row[n + 4] = b[12];
            n += 5;
            p += 15;
        }
#endif
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

/* {"train": [...], "test": [...]}, each key once, either order. */
static bool task_object(Scan *s, Task *t)
{
    bool train = false, test = false, ok = eat(s, '{');
    while (ok) {
        size_t n;
        const char *k = key(s, &n);
        if (k && key_is(k, n, "train") && !train)
            ok = train = pairs(s, &t->train, &t->ntrain, true);
        else if (k && key_is(k, n, "test") && !test)
            ok = test = pairs(s, &t->test, &t->ntest, false);
        else
            ok = false;
        if (ok && !eat(s, ','))
            break;
    }
    return ok && train && test && eat(s, '}');
}

/* The cells laid in the scratch since s->ncells was 0, after t's own. */
static bool cells_to(Scan *s, Task *t)
{
    if (s->ncells) {
        uint8_t *c = realloc(t->cells, t->ncells + s->ncells);
        if (!c)
            return false;
        memcpy(c + t->ncells, scratch, s->ncells);
        t->cells = c;
        t->ncells = t->capcells = t->ncells + s->ncells;
    }
    s->ncells = 0;
    return true;
}

static bool at_end(Scan *s)
{
    ws(s);
    return s->p == s->end;
}

int taskscan(const char *buf, size_t len, Task *t)
{
    Scan s = {buf, buf + len, t, 0};
    ws(&s);
    bool ok = s.p < s.end && *s.p == '[' ? rearc(&s, t) : task_object(&s, t);
    if (ok && at_end(&s) && cells_to(&s, t))
        return 0;
    free(t->train);
    free(t->test);
    t->train = t->test = NULL;
    t->ntrain = t->ntest = 0;
    return -1;
}

int taskscan_combined(const char *buf, size_t len, TaskSet *out)
{
    Scan s = {buf, buf + len, NULL, 0};
    TaskSet set = {0};
    int cap = 0;
    bool ok = eat(&s, '{');
    while (ok) {
        size_t idlen;
        const char *id = key(&s, &idlen);
        if (id && set.ntasks == cap) {
            Task *more = realloc(set.tasks, sizeof *more * (size_t)(cap = cap ? 2 * cap : 64));
            if (more)
                set.tasks = more;
            else
                id = NULL;
        }
        if (!id) {
            ok = false;
            break;
        }
        Task *t = &set.tasks[set.ntasks++];
        memset(t, 0, sizeof *t);
        s.t = t;
        ok = (t->id = strndup(id, idlen)) && task_object(&s, t) && cells_to(&s, t);
        if (ok && !eat(&s, ','))
            break;
    }
    if (ok && eat(&s, '}') && at_end(&s)) {
        *out = set;
        return 0;
    }
    taskset_free(&set);
    return -1;
}

static uint32_t id_hash(const char *id, size_t n)
{
    return fnv1a32(FNV1A32_BASIS, id, n);
}

/* The index of the task named id[0..n) in a table of the tasks' ids
 * (open addressing, -1 empty); -1 if none. */
static int task_named(const int *index, int mask, const Task *tasks, const char *id, size_t n)
{
    for (int i = (int)(id_hash(id, n) & (uint32_t)mask); index[i] >= 0; i = (i + 1) & mask) {
        const char *t = tasks[index[i]].id;
        if (strncmp(t, id, n) == 0 && t[n] == '\0')
            return index[i];
    }
    return -1;
}

/* One {id: [grid, ...]} entry's value: into t's test outputs when keep
 * (as many grids as t has test inputs), else read and dropped. */
static bool solution(Scan *s, Task *t, bool keep)
{
    int m = 0;
    bool ok = eat(s, '[');
    if (ok && !eat(s, ']')) {
        do {
            GridBytes g;
            if (keep && m == t->ntest) return false;
            if (!grid(s, &g)) return false;
            if (keep) t->test[m].out = g;
            m++;
        } while (eat(s, ','));
        ok = eat(s, ']');
    }
    if (!keep) {
        s->ncells = 0;
        return ok;
    }
    return ok && m == t->ntest && cells_to(s, t);
}

int taskscan_solutions(const char *buf, size_t len, Task *tasks, int n)
{
    int mask = 63;
    while (mask + 1 < 2 * n) mask = 2 * mask + 1;
    int *index = malloc(sizeof *index * (size_t)(mask + 1));
    bool *got = calloc((size_t)(n ? n : 1), sizeof *got);
    bool ok = index && got;
    if (ok) memset(index, -1, sizeof *index * (size_t)(mask + 1));
    /* two tasks of one id would share the first entry: left to cJSON */
    for (int k = 0; ok && k < n; k++) {
        size_t idlen = strlen(tasks[k].id);
        if (task_named(index, mask, tasks, tasks[k].id, idlen) >= 0) {
            ok = false;
            break;
        }
        int i = (int)(id_hash(tasks[k].id, idlen) & (uint32_t)mask);
        while (index[i] >= 0) i = (i + 1) & mask;
        index[i] = k;
    }
    Scan s = {buf, buf + len, NULL, 0};
    Task sink = {0};
    ok = ok && eat(&s, '{');
    bool empty = ok && eat(&s, '}');
    while (ok && !empty) {
        size_t idlen;
        const char *id = key(&s, &idlen);
        if (!id) {
            ok = false;
            break;
        }
        /* the first entry of an id answers, as cJSON's lookup does; later
         * ones and other ids' must still be grids, read and dropped */
        int k = task_named(index, mask, tasks, id, idlen);
        bool keep = k >= 0 && !got[k];
        s.t = keep ? &tasks[k] : &sink;
        ok = solution(&s, s.t, keep);
        if (keep) got[k] = true;
        if (ok && !eat(&s, ',')) {
            ok = eat(&s, '}');
            break;
        }
    }
    ok = ok && at_end(&s);
    for (int k = 0; ok && k < n; k++)
        ok = got[k];
    free(index);
    free(got);
    return ok ? 0 : -1;
}
