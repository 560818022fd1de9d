/* taskread.c -- load ARC tasks (single file, directory, Kaggle combined
 * file): files read, directories by several threads, a large set
 * streamed; each file by the direct reader (taskscan.c) where it can, by
 * cJSON's tree (tasktree.c, which locates every problem) where it
 * declines. */
#define _XOPEN_SOURCE 700
#include "taskread.h"
#include "taskread_int.h"
#include "fanout.h"
#include "taskscan.h"

#include <dirent.h>
#include <errno.h>
#include <stdarg.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <stdatomic.h>
#include <sys/stat.h>
#include <fcntl.h>
#include <unistd.h>

__attribute__((format(printf, 3, 4)))
int tr_fail(const Where *w, const char *path, const char *fmt, ...) {
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

/* ---- files -------------------------------------------------------------- */

/* open, fstat, one read of the whole regular file, close: stdio would
 * fstat again and read in pages, and a directory of small tasks pays for
 * every extra system call. */
char *tr_read_file(const Where *w, size_t *lenp) {
    int fd = w->dir >= 0 ? openat(w->dir, w->name, O_RDONLY | O_CLOEXEC)
                         : open(w->file, O_RDONLY | O_CLOEXEC);
    if (fd < 0) { tr_fail(w, NULL, "cannot open: %s", strerror(errno)); return NULL; }
    size_t cap = 1 << 16, len = 0, want = 0;
    struct stat st;
    if (fstat(fd, &st) == 0 && S_ISREG(st.st_mode) && st.st_size > 0)
        want = (size_t)st.st_size, cap = want + 1;
    char *buf = malloc(cap);
    for (;;) {
        if (!buf) { close(fd); tr_fail(w, NULL, "out of memory"); return NULL; }
        ssize_t n = read(fd, buf + len, cap - 1 - len);
        if (n < 0 && errno == EINTR)
            continue;
        if (n < 0) {
            int e = errno;
            free(buf); close(fd);
            tr_fail(w, NULL, "cannot read: %s", strerror(e));
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

const char *tr_base_name(const char *path) {
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
    size_t dl = (size_t)(tr_base_name(path) - path);
    if (last_dir && strlen(last_dir) == dl && strncmp(last_dir, path, dl) == 0)
        return strdup(last_name);
    char *full = realpath(path, NULL);
    if (!full) return strdup("");
    char *s = strrchr(full, '/');
    if (s) *s = '\0';
    char *r = strdup(tr_base_name(full));
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

char *tr_strip_suffix(const char *name, const char *suffix) {
    size_t n = strlen(name), k = strlen(suffix);
    if (n >= k && strcmp(name + n - k, suffix) == 0) n -= k;
    char *r = malloc(n + 1);
    if (r) memcpy(r, name, n), r[n] = '\0';
    return r;
}

/* ---- task sets ---------------------------------------------------------- */

Task *tr_push(TaskSet *ts, int *cap) {
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
Task *tr_file_task(const Where *w, TaskSet *ts, int *cap) {
    Task *t = tr_push(ts, cap);
    if (t) {
        t->id = tr_strip_suffix(tr_base_name(w->file), ".json");
        t->split = parent_name(w->file);
    }
    if (!t || !t->id || !t->split) {
        tr_fail(w, NULL, "out of memory");
        return NULL;
    }
    return t;
}

/* A combined file's split: its name before "_challenges", or without
 * ".json" (NULL: out of memory). */
char *tr_combined_split(const Where *w) {
    const char *base = tr_base_name(w->file), *cut = strstr(base, "_challenges");
    return cut ? strndup(base, (size_t)(cut - base)) : tr_strip_suffix(base, ".json");
}

/* X_challenges.json's X_solutions.json, when there is one (malloc'd;
 * NULL: none, or out of memory, said in *oom). */
char *tr_solutions_beside(const Where *w, bool *oom) {
    const char *cut = strstr(tr_base_name(w->file), "_challenges");
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

/* A combined file and its solutions read by taskscan, without a JSON
 * tree; 1 where either declines (then the cJSON path reads both and says
 * what is wrong), else 0. */
static int combined_fast(const Where *w, const char *buf, size_t len, const char *solutions,
                         TaskSet *ts, int *cap) {
    TaskSet set;
    if (taskscan_combined(buf, len, &set) != 0) return 1;
    bool oom = false;
    char *found = solutions ? NULL : tr_solutions_beside(w, &oom), *split = tr_combined_split(w);
    const char *sol = solutions ? solutions : found;
    bool ok = !oom && split;
    if (ok && sol) {
        char err[512];
        Where sw = {sol, err, sizeof err, -1, NULL};
        size_t slen;
        char *sbuf = tr_read_file(&sw, &slen);
        ok = sbuf && taskscan_solutions(sbuf, slen, set.tasks, set.ntasks) == 0;
        free(sbuf);
    }
    for (int i = 0; ok && i < set.ntasks; i++)
        ok = (set.tasks[i].split = strdup(split)) != NULL;
    if (ok) {
        taskset_append(ts, &set);
        *cap = ts->ntasks;           /* tr_push grows from here */
    }
    taskset_free(&set);              /* empty once appended */
    free(found);
    free(split);
    return ok ? 0 : 1;
}

/* One file: single task, or combined challenges (not inside a directory). */
static bool use_scan = true;

void taskread_use_scan(bool on) { use_scan = on; }

static int load_file(const Where *w, const char *solutions, bool in_dir, TaskSet *ts, int *cap) {
    size_t len;
    char *buf = tr_read_file(w, &len);
    if (!buf) return -1;
    if (!solutions && use_scan) {
        Task *t = tr_file_task(w, ts, cap);
        if (!t) { free(buf); return -1; }
        if (taskscan(buf, len, t) == 0) {
            free(buf);
            t->path = in_dir ? strdup(w->file) : NULL;
            return in_dir && !t->path ? tr_fail(w, NULL, "out of memory") : 0;
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
    return tree_load(w, buf, len, solutions, in_dir, ts, cap);
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
            dl->one[i].rc = tr_fail(&fw, NULL, "out of memory");
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
    char *buf = tr_read_file(&w, &len);
    Task again = {0};
    bool same = buf && taskscan(buf, len, &again) == 0 && again.ntrain == t->ntrain &&
                again.ntest == t->ntest && again.ncells == t->ncells;
    for (int k = 0; same && k < t->ntrain + t->ntest; k++) {
        SampleDims a = task_dims(&again, k), b = task_dims(t, k);
        same = a.ih == b.ih && a.iw == b.iw && a.oh == b.oh && a.ow == b.ow;
    }
    taskscan_forget();       /* a run's thread rereads seldom: no scratch kept */
    free(buf);
    if (same && !t->train) {  /* the samples went with the cells (stream_task) */
        t->train = again.train;
        t->test = again.test;
        again.train = again.test = NULL;
    }
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
 * again when it opens, and of its samples, but for their sizes. */
static void stream_task(Task *t) {
    if (!t->path)
        return;
    free(t->cells);
    t->cells = NULL;
    t->reread = reread_task;
    int n = task_nsamples(t);
    SampleDims *dims = t->dims ? NULL : malloc(sizeof *dims * (size_t)(n ? n : 1));
    if (!dims)
        return;              /* kept already, or no memory for them (samples kept) */
    for (int k = 0; k < n; k++)
        dims[k] = task_dims(t, k);
    t->dims = dims;
    free(t->train);
    free(t->test);
    t->train = t->test = NULL;
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
    if (solutions) return tr_fail(w, NULL, "a solutions file applies only to a combined challenges file");
    DIR *d = opendir(w->file);
    if (!d) return tr_fail(w, NULL, "cannot open directory: %s", strerror(errno));
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
    if (rc < 0) tr_fail(w, NULL, "out of memory");
    else if (n == 0) rc = tr_fail(w, NULL, "no .json task files in directory");
    if (rc == 0) qsort(names, n, sizeof *names, cmp_str);
    DirLoad dl = {.w = w, .dir = dirfd(d), .names = names, .n = rc == 0 ? n : 0,
                  .limit = stream_limit()};
    atomic_init(&dl.next, 0);
    atomic_init(&dl.cells, 0);
    if (dl.n && !(dl.one = calloc(dl.n, sizeof *dl.one)))
        rc = tr_fail(w, NULL, "out of memory"), dl.n = 0;
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
        if (!s) rc = tr_fail(w, NULL, "out of memory");
        for (size_t i = 0; s && i < dl.n; i++)
            if (dl.one[i].rc < 0) s += sprintf(s, "%s\n", one_err(dl.one[i].err));
        ts->nskipped = (int)bad;
    }
    for (size_t i = 0; i < dl.n; i++) {
        /* a bad file's set may hold the task it failed in, half built */
        for (int k = 0; k < dl.one[i].ts.ntasks && rc == 0 && dl.one[i].rc == 0; k++) {
            Task *t = tr_push(ts, cap);
            if (!t) { rc = tr_fail(w, NULL, "out of memory"); break; }
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
    tree_begin();
    struct stat st;
    if (stat(path, &st) != 0) rc = tr_fail(&w, NULL, "cannot open: %s", strerror(errno));
    else if (S_ISDIR(st.st_mode)) rc = load_dir(&w, solutions, jobs, &ts, &cap);
    else rc = load_file(&w, solutions, false, &ts, &cap);
    tree_end();
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
