/* taskread.c -- load ARC tasks (single file, directory, Kaggle combined file).
 *
 * Every check reports "FILE: $.json.path: problem" so a bad task among a
 * thousand can be found and fixed by hand.  Grids are validated completely
 * before its cells are stored, so a failure never leaves half a grid. */
#define _XOPEN_SOURCE 700
#include "taskread.h"
#include "fanout.h"
#include "taskjson.h"
#include "taskscan.h"

#include <cjson/cJSON.h>
#include <dirent.h>
#include <errno.h>
#include <stdarg.h>
#include <limits.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <stdatomic.h>
#include <sys/stat.h>
#include <fcntl.h>
#include <unistd.h>

#define GRID_MAX 30

/* Where we are: file name for messages, error buffer; a directory's
 * file is opened by its name under the directory's descriptor (dir >= 0),
 * which spares the kernel the walk of the whole path. */
typedef struct {
    const char *file;
    char *err;
    size_t errlen;
    int dir;
    const char *name;
} Where;

__attribute__((format(printf, 3, 4)))
static int fail(const Where *w, const char *path, const char *fmt, ...) {
    int n = path ? snprintf(w->err, w->errlen, "%s: %s: ", w->file, path)
                 : snprintf(w->err, w->errlen, "%s: ", w->file);
    if (n >= 0 && (size_t)n < w->errlen) {
        va_list ap;
        va_start(ap, fmt);
        vsnprintf(w->err + n, w->errlen - (size_t)n, fmt, ap);
        va_end(ap);
    }
    return -1;
}

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

/* ---- files -------------------------------------------------------------- */

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

/* open, fstat, one read of the whole regular file, close: stdio would
 * fstat again and read in pages, and a directory of small tasks pays for
 * every extra system call. */
static char *read_file(const Where *w, size_t *lenp) {
    int fd = w->dir >= 0 ? openat(w->dir, w->name, O_RDONLY | O_CLOEXEC)
                         : open(w->file, O_RDONLY | O_CLOEXEC);
    if (fd < 0) { fail(w, NULL, "cannot open: %s", strerror(errno)); return NULL; }
    size_t cap = 1 << 16, len = 0, want = 0;
    struct stat st;
    if (fstat(fd, &st) == 0 && S_ISREG(st.st_mode) && st.st_size > 0)
        want = (size_t)st.st_size, cap = want + 1;
    char *buf = malloc(cap);
    for (;;) {
        if (!buf) { close(fd); fail(w, NULL, "out of memory"); return NULL; }
        ssize_t n = read(fd, buf + len, cap - 1 - len);
        if (n < 0 && errno == EINTR)
            continue;
        if (n < 0) {
            int e = errno;
            free(buf); close(fd);
            fail(w, NULL, "cannot read: %s", strerror(e));
            return NULL;
        }
        len += (size_t)n;
        /* a regular file read to its stat size is whole: no read for EOF */
        if (n == 0 || (want && len == want))
            break;
        if (len < cap - 1)
            continue;
        char *nb = realloc(buf, cap * 2);
        if (!nb) free(buf);
        buf = nb, cap *= 2;
    }
    close(fd);
    buf[len] = '\0';
    *lenp = len;
    return buf;
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
    char *buf = read_file(w, &len);
    return buf ? parse_text(w, buf, len) : NULL;
}

static const char *base_name(const char *path) {
    const char *s = strrchr(path, '/');
    return s ? s + 1 : path;
}

/* Name of the directory holding path (resolved, so "x.json" and "." work).
 * A directory's files share it: the last answer is kept, realpath being a
 * system call per path component. */
static _Thread_local char *last_dir, *last_name;

/* The kept answer goes with its thread (a loading thread ends). */
static void parent_name_forget(void) {
    free(last_dir), free(last_name);
    last_dir = last_name = NULL;
}

static char *parent_name(const char *path) {
    size_t dl = (size_t)(base_name(path) - path);
    if (last_dir && strlen(last_dir) == dl && strncmp(last_dir, path, dl) == 0)
        return strdup(last_name);
    char *full = realpath(path, NULL);
    if (!full) return strdup("");
    char *s = strrchr(full, '/');
    if (s) *s = '\0';
    char *r = strdup(base_name(full));
    free(full);
    char *d = strndup(path, dl), *n = r ? strdup(r) : NULL;
    if (d && n) {
        free(last_dir), free(last_name);
        last_dir = d, last_name = n;
    } else {
        free(d), free(n);
    }
    return r;
}

static char *strip_suffix(const char *name, const char *suffix) {
    size_t n = strlen(name), k = strlen(suffix);
    if (n >= k && strcmp(name + n - k, suffix) == 0) n -= k;
    char *r = malloc(n + 1);
    if (r) memcpy(r, name, n), r[n] = '\0';
    return r;
}

/* ---- grids -------------------------------------------------------------- */

static int bad_cell(const Where *w, const Path *p, int i, int k, const cJSON *c) {
    Path pc;
    path_fmt(&pc, "%s[%d][%d]", p->s, i, k);
    if (!cJSON_IsNumber(c))
        return fail(w, pc.s, "cell is %s, expected an integer 0..9", jtype(c));
    double d = c->valuedouble;
    if (d > -1e15 && d < 1e15 && d != (double)(long long)d)
        return fail(w, pc.s, "cell value %.17g is not an integer", d);
    return fail(w, pc.s, "cell value %.17g outside 0..9", d);
}

/* Walk the whole grid; paths are only formatted on failure. */
static int check_grid(const Where *w, const cJSON *g, const Path *p, int *hp, int *wp) {
    if (!cJSON_IsArray(g))
        return fail(w, p->s, "expected a grid (array of rows), got %s", jtype(g));
    if (!g->child) return fail(w, p->s, "grid is empty");
    int h = 0, wd = -1;
    for (const cJSON *row = g->child; row; row = row->next, h++) {
        if (!cJSON_IsArray(row)) {
            Path pr;
            path_index(&pr, p, h);
            return fail(w, pr.s, "expected a row (array of cells), got %s", jtype(row));
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
            return n ? fail(w, pr.s, "row has %d cells, expected %d", n, wd)
                     : fail(w, pr.s, "row is empty");
        }
        wd = n;
    }
    if (h > GRID_MAX || wd > GRID_MAX)
        return fail(w, p->s, "grid is %dx%d, larger than %dx%d", h, wd, GRID_MAX, GRID_MAX);
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
    if (make_grid(t, g, h, wd, out) < 0) return fail(w, p->s, "out of memory");
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
    if (!a) return fail(w, p->s, "missing \"%s\"", key);
    if (!cJSON_IsArray(a)) return fail(w, pa.s, "expected an array of pairs, got %s", jtype(a));
    return load_pairs(w, a, &pa, need_output, t, out, nout);
}

/* The array a of {input, output} at path pa. */
static int load_pairs(const Where *w, const cJSON *a, const Path *pa, bool need_output, Task *t,
                      Sample **out, int *nout) {
    int n = cJSON_GetArraySize(a), i = 0;
    Sample *s = calloc(n ? (size_t)n : 1, sizeof *s);
    if (!s) return fail(w, pa->s, "out of memory");
    *out = s, *nout = 0;
    for (const cJSON *e = a->child; e; e = e->next, i++) {
        Path pe, pg;
        path_index(&pe, pa, i);
        if (!cJSON_IsObject(e))
            return fail(w, pe.s, "expected an object {\"input\", \"output\"}, got %s", jtype(e));
        const cJSON *in = cJSON_GetObjectItemCaseSensitive(e, "input");
        const cJSON *o = cJSON_GetObjectItemCaseSensitive(e, "output");
        if (!in) return fail(w, pe.s, "missing \"input\"");
        if (!o && need_output) return fail(w, pe.s, "missing \"output\"");
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
        return fail(w, p->s, "expected a task object {\"train\", \"test\"}, got %s", jtype(obj));
    if (load_samples(w, obj, p, "train", true, t, &t->train, &t->ntrain) < 0) return -1;
    if (load_samples(w, obj, p, "test", false, t, &t->test, &t->ntest) < 0) return -1;
    uint8_t *fit = t->ncells ? realloc(t->cells, t->ncells) : NULL;   /* a large set holds many */
    if (fit) t->cells = fit, t->capcells = t->ncells;
    return 0;
}

static Task *file_task(const Where *w, TaskSet *ts, int *cap);

/* re-arc's task file: an array of {input, output} (split by rearc_split). */
static int load_rearc(const Where *w, const cJSON *j, TaskSet *ts, int *cap) {
    Path root = {"$"};
    Task *t = file_task(w, ts, cap);
    if (!t) return -1;
    Sample *all = NULL;
    int n = 0;
    int rc = load_pairs(w, j, &root, true, t, &all, &n);
    if (rc == 0 && rearc_split(t, all, n) < 0) rc = fail(w, NULL, "out of memory");
    free(all);
    return rc;
}

static bool is_single_task(const cJSON *j) {
    return cJSON_GetObjectItemCaseSensitive(j, "train") ||
           cJSON_GetObjectItemCaseSensitive(j, "test");
}

/* ---- task sets ---------------------------------------------------------- */

static Task *ts_push(TaskSet *ts, int *cap) {
    if (ts->ntasks == *cap) {
        int nc = *cap ? *cap * 2 : 1;      /* a directory's file holds one task */
        Task *nt = realloc(ts->tasks, (size_t)nc * sizeof *nt);
        if (!nt) return NULL;
        ts->tasks = nt, *cap = nc;
    }
    Task *t = &ts->tasks[ts->ntasks++];
    memset(t, 0, sizeof *t);
    return t;
}

/* A new task for a file that holds one: id from the file name, split from
 * its directory; NULL (said) when out of memory. */
static Task *file_task(const Where *w, TaskSet *ts, int *cap) {
    Task *t = ts_push(ts, cap);
    if (t) {
        t->id = strip_suffix(base_name(w->file), ".json");
        t->split = parent_name(w->file);
    }
    if (!t || !t->id || !t->split) {
        fail(w, NULL, "out of memory");
        return NULL;
    }
    return t;
}

static int load_single(const Where *w, const cJSON *j, TaskSet *ts, int *cap) {
    Path root = {"$"};
    Task *t = file_task(w, ts, cap);
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
        rc = fail(&w, root.s, "expected an object {task id: [grids]}, got %s", jtype(j));
        goto out;
    }
    for (int i = 0; i < ts->ntasks && rc == 0; i++) {
        Task *t = &ts->tasks[i];
        Path pk;
        path_key(&pk, &root, t->id);
        const cJSON *a = cJSON_GetObjectItemCaseSensitive(j, t->id);
        if (!a) { rc = fail(&w, root.s, "no solutions for task \"%s\" of %s", t->id, cw->file); break; }
        if (!cJSON_IsArray(a)) { rc = fail(&w, pk.s, "expected an array of grids, got %s", jtype(a)); break; }
        int n = cJSON_GetArraySize(a), k = 0;
        if (n != t->ntest) {
            rc = fail(&w, pk.s, "%d output%s, expected %d (one per test input)",
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
/* A combined file's split: its name before "_challenges", or without
 * ".json" (NULL: out of memory). */
static char *combined_split(const Where *w) {
    const char *base = base_name(w->file), *cut = strstr(base, "_challenges");
    return cut ? strndup(base, (size_t)(cut - base)) : strip_suffix(base, ".json");
}

/* X_challenges.json's X_solutions.json, when there is one (malloc'd;
 * NULL: none, or out of memory, said in *oom). */
static char *solutions_beside(const Where *w, bool *oom) {
    const char *cut = strstr(base_name(w->file), "_challenges");
    *oom = false;
    if (!cut || strcmp(cut, "_challenges.json") != 0) return NULL;
    size_t pre = strlen(w->file) - strlen(cut);
    char *found = malloc(pre + sizeof "_solutions.json");
    if (!found) { *oom = true; return NULL; }
    memcpy(found, w->file, pre);
    strcpy(found + pre, "_solutions.json");
    struct stat st;
    if (stat(found, &st) == 0) return found;   /* absent: outputs unknown */
    free(found);
    return NULL;
}

static int load_combined(const Where *w, const cJSON *j, const char *solutions, TaskSet *ts, int *cap) {
    Path root = {"$"};
    if (!j->child)
        return fail(w, root.s, "empty object: neither a task {\"train\", \"test\"} nor {task id: task}");
    char *split = combined_split(w);
    if (!split) return fail(w, NULL, "out of memory");
    int rc = 0;
    for (const cJSON *e = j->child; e; e = e->next) {
        Task *t = ts_push(ts, cap);
        if (!t || !(t->id = strdup(e->string)) || !(t->split = strdup(split))) {
            rc = fail(w, NULL, "out of memory");
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
    if (!solutions && (found = solutions_beside(w, &oom)))
        solutions = found;
    if (oom) return fail(w, NULL, "out of memory");
    if (solutions) rc = load_solutions(w, solutions, ts, w->err, w->errlen);
    free(found);
    return rc;
}

/* A combined file and its solutions read by taskscan, without a JSON
 * tree; 1 where either declines (then the cJSON path reads both and says
 * what is wrong), else 0. */
static int combined_fast(const Where *w, const char *buf, size_t len, const char *solutions,
                         TaskSet *ts, int *cap) {
    Task *tasks;
    int n;
    if (taskscan_combined(buf, len, &tasks, &n) != 0) return 1;
    bool oom = false;
    char *found = solutions ? NULL : solutions_beside(w, &oom), *split = combined_split(w);
    const char *sol = solutions ? solutions : found;
    bool ok = !oom && split;
    if (ok && sol) {
        char err[512];
        Where sw = {sol, err, sizeof err, -1, NULL};
        size_t slen;
        char *sbuf = read_file(&sw, &slen);
        ok = sbuf && taskscan_solutions(sbuf, slen, tasks, n) == 0;
        free(sbuf);
    }
    for (int i = 0; ok && i < n; i++) {
        Task *t = ts_push(ts, cap);
        char *tsplit = strdup(split);
        if (!t || !tsplit) {
            /* the ones moved so far are the set's to free, the rest here */
            free(tsplit);
            if (t) ts->ntasks--;
            for (int k = i; k < n; k++)
                free(tasks[k].id), free(tasks[k].train), free(tasks[k].test), free(tasks[k].cells);
            free(tasks);
            free(found), free(split);
            return fail(w, NULL, "out of memory");
        }
        *t = tasks[i];
        t->split = tsplit;
    }
    if (ok) free(tasks);
    else taskscan_free(tasks, n);
    free(found);
    free(split);
    return ok ? 0 : 1;
}

/* One file: single task, or combined challenges (not inside a directory). */
static bool use_scan = true;

void taskread_use_scan(bool on) { use_scan = on; }

static int load_file(const Where *w, const char *solutions, bool in_dir, TaskSet *ts, int *cap) {
    size_t len;
    char *buf = read_file(w, &len);
    if (!buf) return -1;
    if (!solutions && use_scan) {
        Task *t = file_task(w, ts, cap);
        if (!t) { free(buf); return -1; }
        if (taskscan(buf, len, t) == 0) {
            free(buf);
            t->path = in_dir ? strdup(w->file) : NULL;
            return in_dir && !t->path ? fail(w, NULL, "out of memory") : 0;
        }
        free(t->id), free(t->split);    /* declined: the cJSON path makes it */
        ts->ntasks--;
    }
    if (use_scan && !in_dir) {
        int rc = combined_fast(w, buf, len, solutions, ts, cap);
        if (rc <= 0) {
            free(buf);
            return rc;
        }
    }
    cJSON *j = parse_text(w, buf, len);
    if (!j) return -1;
    int rc;
    if (solutions && (cJSON_IsArray(j) || (cJSON_IsObject(j) && is_single_task(j))))
        rc = fail(w, NULL, "a solutions file applies only to a combined challenges file");
    else if (cJSON_IsArray(j))
        rc = load_rearc(w, j, ts, cap);
    else if (!cJSON_IsObject(j))
        rc = fail(w, "$", "expected an object (a task or {task id: task}) or an array of pairs "
                  "(re-arc), got %s", jtype(j));
    else if (is_single_task(j))
        rc = load_single(w, j, ts, cap);
    else if (in_dir)
        rc = fail(w, "$", "missing \"train\" (a directory holds one task per file)");
    else if (cJSON_IsArray(j->child))
        rc = fail(w, "$", "missing \"train\" (a solutions file? load its _challenges.json)");
    else if (!cJSON_IsObject(j->child))
        rc = fail(w, "$", "missing \"train\"");
    else
        rc = load_combined(w, j, solutions, ts, cap);
    json_release(j);
    return rc;
}

static int cmp_str(const void *a, const void *b) {
    return strcmp(*(char *const *)a, *(char *const *)b);
}

/* A directory's files, loaded by several threads: each file into its own
 * set, joined in name order.  A malformed file is left out, its message
 * kept (TaskSet.skipped); the directory fails only when every file does. */
typedef struct {
    const Where *w;
    int dir;                /* the directory's descriptor */
    char **names;
    size_t n;
    atomic_size_t next;
    struct { TaskSet ts; int cap, rc; char *err; } *one;   /* err: a failed file's */
    atomic_size_t cells;    /* read so far, by every worker */
    size_t limit;           /* past it, a file's cells are let go once read */
} DirLoad;

static void stream_task(Task *t);

/* A failed file's message; NULL was out of memory even for that. */
static const char *one_err(const char *err) { return err ? err : "out of memory"; }

static void *dir_worker(void *arg) {
    DirLoad *dl = arg;
    size_t len = strlen(dl->w->file);
    bool slash = len > 0 && dl->w->file[len - 1] == '/';
    char err[1024];
    for (size_t i; (i = atomic_fetch_add(&dl->next, 1)) < dl->n;) {
        Where fw = {NULL, err, sizeof err, dl->dir, dl->names[i]};
        size_t fl = len + 1 + strlen(dl->names[i]) + 1;
        char *file = malloc(fl);
        if (!file) {
            fw.file = dl->w->file;
            dl->one[i].rc = fail(&fw, NULL, "out of memory");
        } else {
            snprintf(file, fl, slash ? "%s%s" : "%s/%s", dl->w->file, dl->names[i]);
            fw.file = file;
            dl->one[i].rc = load_file(&fw, NULL, true, &dl->one[i].ts, &dl->one[i].cap);
            free(file);
        }
        /* a set too large to keep streams: once the files read so far
         * pass the limit, each file's cells go as soon as it is read, so
         * loading never holds more than the limit and a file per thread
         * (stream_large lets go of the ones read before) */
        for (int k = 0; dl->one[i].rc == 0 && k < dl->one[i].ts.ntasks; k++) {
            Task *t = &dl->one[i].ts.tasks[k];
            if (atomic_fetch_add(&dl->cells, t->ncells) + t->ncells > dl->limit)
                stream_task(t);
        }
        if (dl->one[i].rc < 0)
            dl->one[i].err = strdup(err);
    }
    parent_name_forget();
    taskscan_forget();
    return NULL;
}

/* A set whose cells pass this streams them (task.h): memory then follows
 * the tasks being run, not the size of the set. */
#define STREAM_CELLS ((size_t)8 << 20)

/* task_open's read of a streamed task: the same file, scanned again. */
static void reread_task(Task *t) {
    char err[512];
    Where w = {t->path, err, sizeof err, -1, NULL};
    size_t len;
    char *buf = read_file(&w, &len);
    Task again = {0};
    bool same = buf && taskscan(buf, len, &again) == 0 && again.ntrain == t->ntrain &&
                again.ntest == t->ntest && again.ncells == t->ncells;
    for (int k = 0; same && k < t->ntrain + t->ntest; k++) {
        const Sample *a = task_sample(&again, k), *b = task_sample(t, k);
        same = memcmp(&a->in, &b->in, sizeof a->in) == 0 && memcmp(&a->out, &b->out, sizeof a->out) == 0;
    }
    taskscan_forget();       /* a run's thread rereads seldom: no scratch kept */
    free(buf);
    free(again.train);
    free(again.test);
    if (!same) {
        fprintf(stderr, "arcrun: %s: %s\n", t->path,
                buf ? "changed since the run read it; stopping" : err);
        exit(3);
    }
    t->cells = again.cells;
}

/* Stream the tasks read by taskscan (they have a path) once the set is
 * large; the others keep their cells. */
static size_t stream_limit(void) {
    const char *test = getenv("ARCRUN_STREAM_CELLS");    /* tests: stream small sets too */
    return test && *test ? (size_t)strtoull(test, NULL, 10) : STREAM_CELLS;
}

/* A task read by taskscan (it has a path) lets go of its cells, read
 * again when it opens. */
static void stream_task(Task *t) {
    if (!t->path)
        return;
    free(t->cells);
    t->cells = NULL;
    t->reread = reread_task;
}

static void stream_large(TaskSet *ts) {
    size_t cells = 0;
    for (int i = 0; i < ts->ntasks; i++)
        cells += ts->tasks[i].ncells;
    if (cells <= stream_limit())
        return;
    for (int i = 0; i < ts->ntasks; i++)
        stream_task(&ts->tasks[i]);
}

static int load_dir(const Where *w, const char *solutions, int jobs, TaskSet *ts, int *cap) {
    if (solutions) return fail(w, NULL, "a solutions file applies only to a combined challenges file");
    DIR *d = opendir(w->file);
    if (!d) return fail(w, NULL, "cannot open directory: %s", strerror(errno));
    char **names = NULL;
    size_t n = 0, ncap = 0;
    int rc = 0;
    struct dirent *de;
    while ((de = readdir(d))) {
        size_t L = strlen(de->d_name);
        if (L <= 5 || strcmp(de->d_name + L - 5, ".json") != 0) continue;
        if (n == ncap) {
            ncap = ncap ? ncap * 2 : 256;
            char **nn = realloc(names, ncap * sizeof *nn);
            if (!nn) { rc = -1; break; }
            names = nn;
        }
        if (!(names[n] = strdup(de->d_name))) { rc = -1; break; }
        n++;
    }
    if (rc < 0) fail(w, NULL, "out of memory");
    else if (n == 0) rc = fail(w, NULL, "no .json task files in directory");
    if (rc == 0) qsort(names, n, sizeof *names, cmp_str);
    DirLoad dl = {.w = w, .dir = dirfd(d), .names = names, .n = rc == 0 ? n : 0,
                  .limit = stream_limit()};
    atomic_init(&dl.next, 0);
    atomic_init(&dl.cells, 0);
    if (dl.n && !(dl.one = calloc(dl.n, sizeof *dl.one)))
        rc = fail(w, NULL, "out of memory"), dl.n = 0;
    /* eight files a thread at least: a thread costs more than a few files */
    int workers = jobs < (int)(dl.n / 8) ? jobs : (int)(dl.n / 8);
    fanout(workers, dir_worker, &dl);
    closedir(d);
    size_t bad = 0, len = 0;
    for (size_t i = 0; i < dl.n; i++)
        if (dl.one[i].rc < 0) {
            if (!bad++) snprintf(w->err, w->errlen, "%s", one_err(dl.one[i].err));
            len += strlen(one_err(dl.one[i].err)) + 1;
        }
    if (rc == 0 && bad == dl.n && bad) rc = -1;    /* nothing to run: the first reason */
    else if (rc == 0 && bad) {
        char *s = ts->skipped = malloc(len + 1);
        if (!s) rc = fail(w, NULL, "out of memory");
        for (size_t i = 0; s && i < dl.n; i++)
            if (dl.one[i].rc < 0) s += sprintf(s, "%s\n", one_err(dl.one[i].err));
        ts->nskipped = (int)bad;
    }
    for (size_t i = 0; i < dl.n; i++) {
        /* a bad file's set may hold the task it failed in, half built */
        for (int k = 0; k < dl.one[i].ts.ntasks && rc == 0 && dl.one[i].rc == 0; k++) {
            Task *t = ts_push(ts, cap);
            if (!t) { rc = fail(w, NULL, "out of memory"); break; }
            *t = dl.one[i].ts.tasks[k];
            dl.one[i].ts.tasks[k] = (Task){0};
        }
        taskset_free(&dl.one[i].ts);
        free(dl.one[i].err);
    }
    free(dl.one);
    for (size_t i = 0; i < n; i++) free(names[i]);
    free(names);
    if (rc == 0) stream_large(ts);
    return rc;
}

int taskset_load(const char *path, const char *solutions, TaskSet *out, char *err, size_t errlen) {
    return taskset_load_jobs(path, solutions, 1, out, err, errlen);
}

int taskset_load_jobs(const char *path, const char *solutions, int jobs, TaskSet *out,
                      char *err, size_t errlen) {
    Where w = {path, err, errlen, -1, NULL};
    TaskSet ts = {0};
    int cap = 0, rc;
    if (errlen) err[0] = '\0';
    cJSON_Hooks h = {arena_alloc, arena_free};
    cJSON_InitHooks(&h);
    struct stat st;
    if (stat(path, &st) != 0) rc = fail(&w, NULL, "cannot open: %s", strerror(errno));
    else if (S_ISDIR(st.st_mode)) rc = load_dir(&w, solutions, jobs, &ts, &cap);
    else rc = load_file(&w, solutions, false, &ts, &cap);
    cJSON_InitHooks(NULL);
    parent_name_forget();
    taskscan_forget();
    if (rc < 0) {
        taskset_free(&ts);
        out->tasks = NULL, out->ntasks = 0;
        return -1;
    }
    *out = ts;
    return 0;
}
