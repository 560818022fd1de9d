/* tasktree.c -- ARC tasks through cJSON's tree: whatever the direct
 * reader (taskscan.c) declines, with every problem said as
 * "FILE: $.json.path: problem", so a bad task among a thousand can be
 * found and fixed by hand.  Grids are validated completely before their
 * cells are stored, so a failure never leaves half a grid. */
#define _XOPEN_SOURCE 700
#include "taskread_int.h"
#include "taskjson.h"
#include "taskscan.h"

#include <cjson/cJSON.h>
#include <stdarg.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/stat.h>

#define GRID_MAX 30

static const char *jtype(const cJSON *j) {
    if (cJSON_IsObject(j)) return "an object";
    if (cJSON_IsArray(j)) return "an array";
    if (cJSON_IsString(j)) return "a string";
    if (cJSON_IsNumber(j)) return "a number";
    if (cJSON_IsBool(j)) return "a boolean";
    if (cJSON_IsNull(j)) return "null";
    return "invalid";
}

/* Path segments.  Paths are short: 30x30 grids under a short key. */
typedef struct { char s[512]; } Path;

__attribute__((format(printf, 2, 3)))
static void path_fmt(Path *dst, const char *fmt, ...) {
    va_list ap;
    va_start(ap, fmt);
    vsnprintf(dst->s, sizeof dst->s, fmt, ap);   /* truncation is harmless */
    va_end(ap);
}
static void path_index(Path *dst, const Path *p, int i) { path_fmt(dst, "%s[%d]", p->s, i); }
static void path_field(Path *dst, const Path *p, const char *f) { path_fmt(dst, "%s.%s", p->s, f); }
/* $["key"], escaping what JSON would escape. */
static void path_key(Path *dst, const Path *p, const char *k) {
    path_fmt(dst, "%s[\"", p->s);
    size_t n = strlen(dst->s);
    for (; *k && n + 8 < sizeof dst->s; k++) {
        unsigned char c = (unsigned char)*k;
        if (c == '"' || c == '\\') { dst->s[n++] = '\\'; dst->s[n++] = (char)c; }
        else if (c < 0x20) { sprintf(dst->s + n, "\\u%04x", c); n += 6; }
        else dst->s[n++] = (char)c;
    }
    memcpy(dst->s + n, "\"]", 3);
}


/* cJSON makes a node per grid cell, and a file's nodes all die together
 * once its grids are built: they come from a bump arena (one per loading
 * thread), released when the outermost parse is (a combined file's
 * solutions are parsed inside it).  taskset_load installs the hooks, which
 * are global, for its whole run: tasks load before anything else uses
 * cJSON. */
typedef struct Block { struct Block *next; size_t used, cap; } Block;
#define BLOCK_HDR ((sizeof(Block) + 15) & ~(size_t)15)
static _Thread_local Block *blocks;
static _Thread_local int json_depth;

static void *arena_alloc(size_t n) {
    n = (n + 15) & ~(size_t)15;
    if (!blocks || blocks->cap - blocks->used < n) {
        size_t cap = n > ((size_t)1 << 20) ? n : (size_t)1 << 20;
        Block *b = malloc(BLOCK_HDR + cap);
        if (!b) return NULL;
        b->next = blocks, b->used = 0, b->cap = cap;
        blocks = b;
    }
    void *p = (char *)blocks + BLOCK_HDR + blocks->used;
    blocks->used += n;
    return p;
}

static void arena_free(void *p) { (void)p; }

static void json_enter(void) { json_depth++; }

/* In place of cJSON_Delete for whatever parse_file returned. */
static void json_release(cJSON *j) {
    (void)j;
    if (--json_depth > 0) return;
    while (blocks) {
        Block *b = blocks->next;
        free(blocks);
        blocks = b;
    }
}


static void line_col(const char *buf, const char *at, int *line, int *col) {
    *line = 1, *col = 1;
    for (const char *p = buf; p < at; p++) {
        if (*p == '\n') ++*line, *col = 1;
        else ++*col;
    }
}

/* Parse a file's text (freed here); on error report line:col of where
 * cJSON gave up. */
static cJSON *parse_text(const Where *w, char *buf, size_t len) {
    const char *end = NULL;
    json_enter();
    cJSON *j = taskjson_parse(buf, len);
    /* the length counts the NUL: cJSON checks for it when asked to */
    if (!j)
        j = cJSON_ParseWithLengthOpts(buf, len + 1, &end, 1);
    if (!j) json_release(NULL);
    if (j && end && end != buf + len) {
        json_release(j), j = NULL;
        int line, col;
        line_col(buf, end, &line, &col);
        snprintf(w->err, w->errlen, "%s:%d:%d: malformed JSON: NUL byte", w->file, line, col);
    } else if (!j) {
        if (!end || end < buf || end > buf + len) end = buf + len;
        int line, col;
        line_col(buf, end, &line, &col);
        if (end >= buf + len)
            snprintf(w->err, w->errlen, "%s:%d:%d: malformed JSON: unexpected end of input",
                     w->file, line, col);
        else if ((unsigned char)*end >= 0x21 && (unsigned char)*end < 0x7f)
            snprintf(w->err, w->errlen, "%s:%d:%d: malformed JSON near '%c'",
                     w->file, line, col, *end);
        else
            snprintf(w->err, w->errlen, "%s:%d:%d: malformed JSON near byte 0x%02x",
                     w->file, line, col, (unsigned char)*end);
    }
    free(buf);
    return j;
}

static cJSON *parse_file(const Where *w) {
    size_t len;
    char *buf = tr_read_file(w, &len);
    return buf ? parse_text(w, buf, len) : NULL;
}


/* ---- grids -------------------------------------------------------------- */

static int bad_cell(const Where *w, const Path *p, int i, int k, const cJSON *c) {
    Path pc;
    path_fmt(&pc, "%s[%d][%d]", p->s, i, k);
    if (!cJSON_IsNumber(c))
        return tr_fail(w, pc.s, "cell is %s, expected an integer 0..9", jtype(c));
    double d = c->valuedouble;
    if (d > -1e15 && d < 1e15 && d != (double)(long long)d)
        return tr_fail(w, pc.s, "cell value %.17g is not an integer", d);
    return tr_fail(w, pc.s, "cell value %.17g outside 0..9", d);
}

/* Walk the whole grid; paths are only formatted on failure. */
static int check_grid(const Where *w, const cJSON *g, const Path *p, int *hp, int *wp) {
    if (!cJSON_IsArray(g))
        return tr_fail(w, p->s, "expected a grid (array of rows), got %s", jtype(g));
    if (!g->child) return tr_fail(w, p->s, "grid is empty");
    int h = 0, wd = -1;
    for (const cJSON *row = g->child; row; row = row->next, h++) {
        if (!cJSON_IsArray(row)) {
            Path pr;
            path_index(&pr, p, h);
            return tr_fail(w, pr.s, "expected a row (array of cells), got %s", jtype(row));
        }
        int n = 0;
        for (const cJSON *c = row->child; c; c = c->next, n++) {
            double d = c->valuedouble;
            if (!cJSON_IsNumber(c) || !(d >= 0 && d <= 9 && d == (double)(int)d))
                return bad_cell(w, p, h, n, c);
        }
        if (n == 0 || (wd >= 0 && n != wd)) {
            Path pr;
            path_index(&pr, p, h);
            return n ? tr_fail(w, pr.s, "row has %d cells, expected %d", n, wd)
                     : tr_fail(w, pr.s, "row is empty");
        }
        wd = n;
    }
    if (h > GRID_MAX || wd > GRID_MAX)
        return tr_fail(w, p->s, "grid is %dx%d, larger than %dx%d", h, wd, GRID_MAX, GRID_MAX);
    *hp = h, *wp = wd;
    return 0;
}

/* Append a checked grid's cells to the task's. */
static int make_grid(Task *t, const cJSON *g, int h, int wd, GridBytes *out) {
    size_t n = (size_t)h * (size_t)wd;
    if (t->ncells + n > UINT32_MAX) return -1;
    if (t->ncells + n > t->capcells) {
        size_t cap = t->capcells ? 2 * t->capcells : 1024;
        while (cap < t->ncells + n) cap *= 2;
        uint8_t *c = realloc(t->cells, cap);
        if (!c) return -1;
        t->cells = c, t->capcells = cap;
    }
    uint8_t *c = t->cells + t->ncells;
    for (const cJSON *row = g->child; row; row = row->next)
        for (const cJSON *e = row->child; e; e = e->next)
            *c++ = (uint8_t)e->valuedouble;
    *out = (GridBytes){(uint8_t)h, (uint8_t)wd, (uint32_t)t->ncells};
    t->ncells += n;
    return 0;
}

static int load_grid(const Where *w, const cJSON *g, const Path *p, Task *t, GridBytes *out) {
    int h, wd;
    if (check_grid(w, g, p, &h, &wd) < 0) return -1;
    if (make_grid(t, g, h, wd, out) < 0) return tr_fail(w, p->s, "out of memory");
    return 0;
}

/* ---- tasks -------------------------------------------------------------- */

/* One of "train"/"test": an array of {input, output}; output optional in test. */
static int load_pairs(const Where *w, const cJSON *a, const Path *pa, bool need_output, Task *t,
                      Sample **out, int *nout);

static int load_samples(const Where *w, const cJSON *obj, const Path *p, const char *key,
                        bool need_output, Task *t, Sample **out, int *nout) {
    Path pa;
    path_field(&pa, p, key);
    const cJSON *a = cJSON_GetObjectItemCaseSensitive(obj, key);
    if (!a) return tr_fail(w, p->s, "missing \"%s\"", key);
    if (!cJSON_IsArray(a)) return tr_fail(w, pa.s, "expected an array of pairs, got %s", jtype(a));
    return load_pairs(w, a, &pa, need_output, t, out, nout);
}

/* The array a of {input, output} at path pa. */
static int load_pairs(const Where *w, const cJSON *a, const Path *pa, bool need_output, Task *t,
                      Sample **out, int *nout) {
    int n = cJSON_GetArraySize(a), i = 0;
    Sample *s = calloc(n ? (size_t)n : 1, sizeof *s);
    if (!s) return tr_fail(w, pa->s, "out of memory");
    *out = s, *nout = 0;
    for (const cJSON *e = a->child; e; e = e->next, i++) {
        Path pe, pg;
        path_index(&pe, pa, i);
        if (!cJSON_IsObject(e))
            return tr_fail(w, pe.s, "expected an object {\"input\", \"output\"}, got %s", jtype(e));
        const cJSON *in = cJSON_GetObjectItemCaseSensitive(e, "input");
        const cJSON *o = cJSON_GetObjectItemCaseSensitive(e, "output");
        if (!in) return tr_fail(w, pe.s, "missing \"input\"");
        if (!o && need_output) return tr_fail(w, pe.s, "missing \"output\"");
        ++*nout;   /* counted now so a failure below frees what was built */
        path_field(&pg, &pe, "input");
        if (load_grid(w, in, &pg, t, &s[i].in) < 0) return -1;
        path_field(&pg, &pe, "output");
        if (o && load_grid(w, o, &pg, t, &s[i].out) < 0) return -1;
    }
    return 0;
}

/* A task object {"train": [...], "test": [...]} at path p. */
static int load_task(const Where *w, const cJSON *obj, const Path *p, Task *t) {
    if (!cJSON_IsObject(obj))
        return tr_fail(w, p->s, "expected a task object {\"train\", \"test\"}, got %s", jtype(obj));
    if (load_samples(w, obj, p, "train", true, t, &t->train, &t->ntrain) < 0) return -1;
    if (load_samples(w, obj, p, "test", false, t, &t->test, &t->ntest) < 0) return -1;
    uint8_t *fit = t->ncells ? realloc(t->cells, t->ncells) : NULL;   /* a large set holds many */
    if (fit) t->cells = fit, t->capcells = t->ncells;
    return 0;
}

/* re-arc's task file: an array of {input, output} (split by rearc_split). */
static int load_rearc(const Where *w, const cJSON *j, TaskSet *ts, int *cap) {
    Path root = {"$"};
    Task *t = tr_file_task(w, ts, cap);
    if (!t) return -1;
    Sample *all = NULL;
    int n = 0;
    int rc = load_pairs(w, j, &root, true, t, &all, &n);
    if (rc == 0 && rearc_split(t, all, n) < 0) rc = tr_fail(w, NULL, "out of memory");
    free(all);
    return rc;
}

static bool is_single_task(const cJSON *j) {
    return cJSON_GetObjectItemCaseSensitive(j, "train") ||
           cJSON_GetObjectItemCaseSensitive(j, "test");
}


static int load_single(const Where *w, const cJSON *j, TaskSet *ts, int *cap) {
    Path root = {"$"};
    Task *t = tr_file_task(w, ts, cap);
    return t ? load_task(w, j, &root, t) : -1;
}

/* Test outputs of a combined file from its solutions {id: [grid...]}. */
static int load_solutions(const Where *cw, const char *sol, TaskSet *ts, char *err, size_t errlen) {
    Where w = {sol, err, errlen, -1, NULL};
    cJSON *j = parse_file(&w);
    if (!j) return -1;
    int rc = 0;
    Path root = {"$"};
    if (!cJSON_IsObject(j)) {
        rc = tr_fail(&w, root.s, "expected an object {task id: [grids]}, got %s", jtype(j));
        goto out;
    }
    for (int i = 0; i < ts->ntasks && rc == 0; i++) {
        Task *t = &ts->tasks[i];
        Path pk;
        path_key(&pk, &root, t->id);
        const cJSON *a = cJSON_GetObjectItemCaseSensitive(j, t->id);
        if (!a) { rc = tr_fail(&w, root.s, "no solutions for task \"%s\" of %s", t->id, cw->file); break; }
        if (!cJSON_IsArray(a)) { rc = tr_fail(&w, pk.s, "expected an array of grids, got %s", jtype(a)); break; }
        int n = cJSON_GetArraySize(a), k = 0;
        if (n != t->ntest) {
            rc = tr_fail(&w, pk.s, "%d output%s, expected %d (one per test input)",
                      n, n == 1 ? "" : "s", t->ntest);
            break;
        }
        for (const cJSON *g = a->child; g; g = g->next, k++) {
            Path pg;
            path_index(&pg, &pk, k);
            if ((rc = load_grid(&w, g, &pg, t, &t->test[k].out)) < 0) break;
        }
    }
out:
    json_release(j);
    return rc;
}


/* A combined file {id: task}, in key order; split from "X_challenges.json". */
static int load_combined(const Where *w, const cJSON *j, const char *solutions, TaskSet *ts, int *cap) {
    Path root = {"$"};
    if (!j->child)
        return tr_fail(w, root.s, "empty object: neither a task {\"train\", \"test\"} nor {task id: task}");
    char *split = tr_combined_split(w);
    if (!split) return tr_fail(w, NULL, "out of memory");
    int rc = 0;
    for (const cJSON *e = j->child; e; e = e->next) {
        Task *t = tr_push(ts, cap);
        if (!t || !(t->id = strdup(e->string)) || !(t->split = strdup(split))) {
            rc = tr_fail(w, NULL, "out of memory");
            break;
        }
        Path pk;
        path_key(&pk, &root, e->string);
        if ((rc = load_task(w, e, &pk, t)) < 0) break;
    }
    free(split);
    if (rc < 0) return rc;

    char *found = NULL;
    bool oom = false;
    if (!solutions && (found = tr_solutions_beside(w, &oom)))
        solutions = found;
    if (oom) return tr_fail(w, NULL, "out of memory");
    if (solutions) rc = load_solutions(w, solutions, ts, w->err, w->errlen);
    free(found);
    return rc;
}


void tree_begin(void) {
    cJSON_Hooks h = {arena_alloc, arena_free};
    cJSON_InitHooks(&h);
}

void tree_end(void) {
    cJSON_InitHooks(NULL);
}

int tree_load(const Where *w, char *buf, size_t len, const char *solutions, bool in_dir,
              TaskSet *ts, int *cap) {
    cJSON *j = parse_text(w, buf, len);
    if (!j) return -1;
    int rc;
    if (solutions && (cJSON_IsArray(j) || (cJSON_IsObject(j) && is_single_task(j))))
        rc = tr_fail(w, NULL, "a solutions file applies only to a combined challenges file");
    else if (cJSON_IsArray(j))
        rc = load_rearc(w, j, ts, cap);
    else if (!cJSON_IsObject(j))
        rc = tr_fail(w, "$", "expected an object (a task or {task id: task}) or an array of pairs "
                  "(re-arc), got %s", jtype(j));
    else if (is_single_task(j))
        rc = load_single(w, j, ts, cap);
    else if (in_dir)
        rc = tr_fail(w, "$", "missing \"train\" (a directory holds one task per file)");
    else if (cJSON_IsArray(j->child))
        rc = tr_fail(w, "$", "missing \"train\" (a solutions file? load its _challenges.json)");
    else if (!cJSON_IsObject(j->child))
        rc = tr_fail(w, "$", "missing \"train\"");
    else
        rc = load_combined(w, j, solutions, ts, cap);
    json_release(j);
    return rc;
}
