/* test_task.c -- TAP tests of task loading: good files, a directory, a
 * combined challenges file with solutions, and every bad file under
 * tests/tasks with the first line of its error in NAME.expected. */
#define _XOPEN_SOURCE 700
#include "taskread.h"
#include "taskscan.h"
#include "tap_c.h"

#include <dirent.h>
#include <malloc.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <unistd.h>

static bool is(const char *got, const char *want, const char *what) {
    bool c = got && strcmp(got, want) == 0;
    ok(c, "%s", what);
    if (!c) printf("#   got:  %s\n#   want: %s\n", got ? got : "(null)", want);
    return c;
}

static bool repr_is(const Value *v, const char *want, const char *what) {
    if (!v) return ok(false, "%s (no value)", what);
    char *s = v_repr_str(v);
    bool c = is(s, want, what);
    free(s);
    return c;
}

static void test_single(void) {
    TaskSet ts;
    char err[512];
    if (!ok(taskset_load("good/flip01.json", NULL, &ts, err, sizeof err) == 0,
            "load a single task file")) {
        printf("# %s\n", err);
        return;
    }
    ok(ts.ntasks == 1, "one task");
    Task *t = &ts.tasks[0];
    is(t->id, "flip01", "id is the file name without .json");
    is(t->split, "good", "split is the parent directory name");
    ok(t->ntrain == 2 && t->ntest == 1, "2 train pairs, 1 test pair");
    ok(!t->train[0].input && !t->pairs && t->train[1].in.h == 2 && t->train[1].in.w == 3,
       "loaded closed: grids as bytes only");
    task_open(t);
    task_open(t);
    repr_is(t->train[1].input, "((2, 3, 0), (0, 0, 4))", "train[1].input repr");
    repr_is(t->test[0].output, "((6, 5), (8, 7), (0, 9))", "test[0].output repr");
    ok(v_is_grid(t->train[0].output), "grids are grids");
    ok(v_titems(v_titems(t->train[0].input)[0])[0]->refs < 0, "cells are shared immortal ints");
    ok(t->pairs && v_len(t->pairs) == 2 &&
       v_titems(v_titems(t->pairs)[1])[0] == t->train[1].input, "open: S pairs the train grids");
    task_close(t);
    ok(t->train[0].input && t->pairs, "still open after one of two closes");
    task_close(t);
    ok(!t->train[0].input && !t->test[0].output && !t->pairs, "closed after the last");
    task_open(t);
    repr_is(t->test[0].output, "((6, 5), (8, 7), (0, 9))", "reopened: the same grids");
    ok(taskset_find(&ts, "flip01") == t && !taskset_find(&ts, "nope"), "taskset_find");
    taskset_free(&ts);
}

static void test_dir(void) {
    TaskSet ts;
    char err[512];
    if (!ok(taskset_load("good", NULL, &ts, err, sizeof err) == 0, "load a directory")) {
        printf("# %s\n", err);
        return;
    }
    ok(ts.ntasks == 2, "two .json files, README.txt ignored");
    if (ts.ntasks == 2) {
        is(ts.tasks[0].id, "flip01", "sorted by name: first");
        is(ts.tasks[1].id, "keep02", "sorted by name: second");
        is(ts.tasks[1].split, "good", "split is the directory name");
        task_open(&ts.tasks[1]);
        ok(ts.tasks[1].ntest == 2 && !sample_has_output(&ts.tasks[1].test[0]) &&
           !ts.tasks[1].test[0].output, "test outputs may be absent");
        repr_is(ts.tasks[1].test[1].input, "((4, 4),)", "one-row grid repr");
        repr_is(ts.tasks[1].train[0].input, "((1,),)", "1x1 grid repr");
    }
    taskset_free(&ts);
    ok(taskset_load("good/", NULL, &ts, err, sizeof err) == 0 && ts.ntasks == 2,
       "trailing slash on a directory");
    taskset_free(&ts);
}

/* A streamed task keeps only its grids' sizes while closed; opened, its
 * samples are those of the set read whole, and closed again it lets them
 * go. */
static void test_stream_closed(void) {
    TaskSet whole, ts;
    char err[512];
    setenv("ARCRUN_STREAM_CELLS", "0", 1);
    int rc = taskset_load("good", NULL, &ts, err, sizeof err);
    unsetenv("ARCRUN_STREAM_CELLS");
    if (!ok(rc == 0 && taskset_load("good", NULL, &whole, err, sizeof err) == 0 &&
            ts.ntasks == whole.ntasks && ts.ntasks > 0, "streamed and whole reads of a directory")) {
        printf("# %s\n", err);
        return;
    }
    for (int i = 0; i < ts.ntasks; i++) {
        Task *t = &ts.tasks[i];
        const Task *w = &whole.tasks[i];
        bool sizes = task_nsamples(t) == task_nsamples(w);
        for (int k = 0; sizes && k < task_nsamples(t); k++) {
            SampleDims d = task_dims(t, k);
            const Sample *s = task_sample(w, k);
            sizes = d.ih == s->in.h && d.iw == s->in.w && d.oh == s->out.h && d.ow == s->out.w;
        }
        ok(!t->cells && !t->train && !t->test && t->dims && sizes && !whole.tasks[i].dims,
           "%s closed: no cells, no samples, the sizes of the whole read", t->id);
        task_open(t);
        task_open(w);
        bool same = t->train && t->test;
        for (int k = 0; same && k < task_nsamples(t); k++) {
            const Sample *p = task_sample(t, k), *q = task_sample(w, k);
            same = memcmp(&p->in, &q->in, sizeof p->in) == 0 &&
                   memcmp(&p->out, &q->out, sizeof p->out) == 0 && v_eq(p->input, q->input) &&
                   (p->output ? q->output && v_eq(p->output, q->output) : !q->output);
        }
        ok(same, "%s opened: samples and values as the whole read's", t->id);
        task_close(t);
        task_close(w);
        ok(!t->cells && !t->train && !t->test && w->train && w->cells,
           "%s closed again: its samples go, the whole read's stay", t->id);
    }
    taskset_free(&ts);
    taskset_free(&whole);
}

static void check_mini(const TaskSet *ts, const char *how) {
    ok(ts->ntasks == 2, "%s: two tasks", how);
    if (ts->ntasks != 2) return;
    is(ts->tasks[0].id, "zz000001", "key order kept: first");
    is(ts->tasks[1].id, "aa000002", "key order kept: second");
    is(ts->tasks[0].split, "mini", "split is the prefix before _challenges");
    const Task *t = &ts->tasks[0];
    task_open(t);
    task_open(&ts->tasks[1]);
    ok(t->ntrain == 1 && t->ntest == 2, "%s: counts", how);
    repr_is(t->test[1].output, "((5,), (6,))", "test output from the solutions file");
    repr_is(ts->tasks[1].test[0].output, "((9, 9, 9),)", "second task's solution");
}

static void test_combined(void) {
    TaskSet ts;
    char err[512];
    if (ok(taskset_load("combined/mini_challenges.json", NULL, &ts, err, sizeof err) == 0,
           "combined file, solutions found beside it"))
        check_mini(&ts, "found");
    else
        printf("# %s\n", err);
    taskset_free(&ts);
    if (ok(taskset_load("combined/mini_challenges.json", "combined/mini_solutions.json",
                        &ts, err, sizeof err) == 0, "combined file, solutions given"))
        check_mini(&ts, "given");
    else
        printf("# %s\n", err);
    taskset_free(&ts);
    if (ok(taskset_load("combined/lone_challenges.json", NULL, &ts, err, sizeof err) == 0,
           "combined file without solutions")) {
        ok(ts.ntasks == 1 && ts.tasks[0].ntest == 1 && !sample_has_output(&ts.tasks[0].test[0]),
           "test outputs stay unknown");
        is(ts.ntasks ? ts.tasks[0].split : NULL, "lone", "split");
    } else
        printf("# %s\n", err);
    taskset_free(&ts);
}

/* Errors not tied to a file of their own. */
static void test_misc_errors(void) {
    TaskSet ts = {0};
    char err[512];
    ok(taskset_load("no_such_file.json", NULL, &ts, err, sizeof err) == -1 && !ts.tasks &&
       strcmp(err, "no_such_file.json: cannot open: No such file or directory") == 0,
       "missing file");
    ok(taskset_load("good/flip01.json", "combined/mini_solutions.json", &ts, err, sizeof err) == -1 &&
       strstr(err, "only to a combined"), "solutions with a single task file");
    ok(taskset_load("combined/mini_solutions.json", NULL, &ts, err, sizeof err) == -1 &&
       strstr(err, "solutions file?"), "a solutions file loaded as tasks");
    ok(taskset_load("combined/mini_challenges.json", "good/flip01.json", &ts, err, sizeof err) == -1 &&
       strstr(err, "good/flip01.json: $: no solutions for task \"zz000001\""),
       "wrong solutions file");
}

static int cmp_name(const void *a, const void *b) {
    return strcmp(*(char *const *)a, *(char *const *)b);
}

/* Every NAME.expected beside NAME.json: load fails with exactly that line. */
static void test_bad_files(void) {
    DIR *d = opendir(".");
    if (!ok(d != NULL, "open the data directory")) return;
    char *names[256];
    int n = 0;
    struct dirent *de;
    while ((de = readdir(d)) && n < 256) {
        size_t L = strlen(de->d_name);
        if (L > 9 && strcmp(de->d_name + L - 9, ".expected") == 0)
            names[n++] = strndup(de->d_name, L - 9);
    }
    closedir(d);
    qsort(names, (size_t)n, sizeof *names, cmp_name);
    ok(n >= 15, "found %d bad-file cases", n);
    for (int i = 0; i < n; i++) {
        char path[512], want[512] = "";
        snprintf(path, sizeof path, "%s.expected", names[i]);
        FILE *f = fopen(path, "r");
        if (f) {
            if (!fgets(want, sizeof want, f)) want[0] = '\0';
            fclose(f);
        }
        want[strcspn(want, "\n")] = '\0';
        snprintf(path, sizeof path, "%s.json", names[i]);
        TaskSet ts = {0};
        char err[512] = "";
        int rc = taskset_load(path, NULL, &ts, err, sizeof err);
        err[strcspn(err, "\n")] = '\0';
        ok(rc == -1 && !ts.tasks && ts.ntasks == 0, "%s: rejected", path);
        is(err, want, path);
        free(names[i]);
    }
}

/* The direct reader (taskscan.h): what it takes, read as the cJSON path
 * reads it, and what it must leave to that path. */
static void test_scan(void) {
    static const struct { const char *json, *want; } take[] = {
        {"{\"train\": [{\"input\": [[1, 2], [3, 4]], \"output\": [[5]]}], \"test\": []}",
         "train 2x2 1234 1x1 5; test"},
        {" {\"test\":[{\"output\":[[0,0,0]],\"input\":[[9]]},{\"input\":[[7],[8]]}],\r\n"
         "\t\"train\" : [ ] } \n", "train; test 1x1 9 1x3 000, 2x1 78 -"},
        /* rows as json.dump writes them, and rows that leave that form midway */
        {"{\"train\": [{\"input\": [[1,2, 3], [4, 5 ,6]], \"output\": [[7 ]]}], \"test\": []}",
         "train 2x3 123456 1x1 7; test"},
        {"{\"train\": [{\"input\": [[1, 1, 1, 1, 1, 1, 1, 1, 1, 1, 1, 1, 1, 1, 1, 1, 1, 1, 1, 1, 1, 1, 1, 1, 1, 1, 1, 1, 1, 1]], \"output\": [[2], [3]]}], \"test\": []}",
         "train 1x30 111111111111111111111111111111 2x1 23; test"},
        /* five cells at a time where the form holds: groups that end a row,
         * cut a row short or meet a blank too many */
        {"{\"train\": [{\"input\": [[1, 2, 3, 4, 5], [6, 7, 8, 9, 0]], \"output\": [[1, 2, 3, 4, 5, 6]]}], \"test\": []}",
         "train 2x5 1234567890 1x6 123456; test"},
        {"{\"train\": [{\"input\": [[1, 2, 3, 4, 5, 6, 7, 8, 9, 0, 1, 2, 3, 4, 5, 6]], \"output\": [[1, 2,  3, 4, 5, 6, 7]]}], \"test\": []}",
         "train 1x16 1234567890123456 1x7 1234567; test"},
        {"{\"train\": [{\"input\": [[9, 8, 7, 6, 5, 4, 3, 2, 1, 0, 9, 8, 7, 6, 5, 4, 3, 2, 1, 0, 9, 8, 7, 6, 5, 4, 3, 2, 1, 0]], \"output\": [[1, 2, 3, 4,\n5, 6]]}], \"test\": []}",
         "train 1x30 987654321098765432109876543210 1x6 123456; test"},
    };
    static const char *decline[] = {
        "{\"train\": [], \"test\": [], \"name\": \"x\"}",            /* another key */
        "{\"train\": [], \"train\": [], \"test\": []}",                /* a key twice */
        "{\"train\": [{\"input\": [[1.0]], \"output\": [[1]]}], \"test\": []}",
        "{\"train\": [{\"input\": [[10]], \"output\": [[1]]}], \"test\": []}",
        "{\"train\": [{\"input\": [[1e0]], \"output\": [[1]]}], \"test\": []}",
        "{\"tr\\u0061in\": [], \"test\": []}",                        /* an escape */
        "{\"train\": [{\"input\": [], \"output\": [[1]]}], \"test\": []}",
        "{\"train\": [{\"input\": [[]], \"output\": [[1]]}], \"test\": []}",
        "{\"train\": [{\"input\": [[1, 2], [3]], \"output\": [[1]]}], \"test\": []}",
        "{\"train\": [{\"input\": [[1]]}], \"test\": []}",           /* train needs output */
        "{\"train\": []}",
        "{\"train\": [], \"test\": []} x",
        "{\"train\": [], \"test\": [],}",
        "{\"train\": [{\"input\": [[1],], \"output\": [[1]]}], \"test\": []}",
        "{\"train\": [{\"input\": [[1, 2, ]], \"output\": [[1]]}], \"test\": []}",
        "{\"train\": [{\"input\": [[1, 2, 10]], \"output\": [[1]]}], \"test\": []}",
        "{\"train\": [{\"input\": [[1, 2, 3.5]], \"output\": [[1]]}], \"test\": []}",
        "{\"train\": [{\"input\": [[1, 2, 3, 4, 5, 6, 17, 8, 9]], \"output\": [[1]]}], \"test\": []}",
        "{\"train\": [{\"input\": [[1, 2, 3, 4, 5, 6, 7, 8, 9, 0, 1, 2, 3, 4, 5, 6, 7, 8, 9, 0, 1, 2, 3, 4, 5, 6, 7, 8, 9, 0, 1, 2, 3, 4, 5]], \"output\": [[1]]}], \"test\": []}",   /* 35 cells */
        "{\"train\": [{\"input\": [[1, 2, 3, 4, a, 6]], \"output\": [[1]]}], \"test\": []}",
        "{\"train\": [{\"input\": [[1,!2, 3, 4, 5, 6]], \"output\": [[1]]}], \"test\": []}",
        "{\"train\": [{\"input\": [[1, 2, 3, 4, 5; 6]], \"output\": [[1]]}], \"test\": []}",
        "{\"train\": [{\"input\": [[1, 1, 1, 1, 1, 1, 1, 1, 1, 1, 1, 1, 1, 1, 1, 1, 1, 1, 1, 1, 1, 1, 1, 1, 1, 1, 1, 1, 1, 1, 1]], \"output\": [[1]]}], \"test\": []}",   /* 31 cells */
    };
    for (size_t i = 0; i < sizeof take / sizeof take[0]; i++) {
        Task t = {0};
        if (!ok(taskscan(take[i].json, strlen(take[i].json), &t) == 0, "scan takes case %zu", i))
            continue;
        char got[256];
        size_t n = 0;
        for (int part = 0; part < 2; part++) {
            n += (size_t)snprintf(got + n, sizeof got - n, "%s%s", part ? "; test" : "train",
                                  "");
            Sample *sm = part ? t.test : t.train;
            for (int k = 0; k < (part ? t.ntest : t.ntrain); k++)
                for (int g = 0; g < 2; g++) {
                    GridBytes gb = g ? sm[k].out : sm[k].in;
                    if (!gb.h) {
                        n += (size_t)snprintf(got + n, sizeof got - n, " -");
                        continue;
                    }
                    n += (size_t)snprintf(got + n, sizeof got - n, "%s %dx%d ",
                                          g || !k ? "" : ",", gb.h, gb.w);
                    for (int c = 0; c < gb.h * gb.w; c++)
                        got[n++] = (char)('0' + t.cells[gb.off + (uint32_t)c]);
                    got[n] = '\0';
                }
        }
        is(got, take[i].want, "scan reads the grids in file order");
        free(t.train), free(t.test), free(t.cells);
    }
    for (size_t i = 0; i < sizeof decline / sizeof decline[0]; i++) {
        Task t = {0};
        ok(taskscan(decline[i], strlen(decline[i]), &t) == -1 && !t.train && !t.test && !t.cells,
           "scan declines, leaving nothing: %s", decline[i]);
    }
}

/* The two readers on every task file of ../shared: the same samples, grid
 * sizes and cells (streaming off: the sets are compared whole). */
static bool same_sets(const TaskSet *a, const TaskSet *b) {
    if (a->ntasks != b->ntasks) return false;
    for (int i = 0; i < a->ntasks; i++) {
        const Task *x = &a->tasks[i], *y = &b->tasks[i];
        if (strcmp(x->id, y->id) || strcmp(x->split, y->split) || x->ntrain != y->ntrain ||
            x->ntest != y->ntest ||
            x->ncells != y->ncells)
            return false;
        for (int k = 0; k < task_nsamples(x); k++) {
            const Sample *p = task_sample(x, k), *q = task_sample(y, k);
            if (p->in.h != q->in.h || p->in.w != q->in.w || p->out.h != q->out.h ||
                p->out.w != q->out.w ||
                memcmp(x->cells + p->in.off, y->cells + q->in.off, (size_t)p->in.h * p->in.w) ||
                (p->out.h && memcmp(x->cells + p->out.off, y->cells + q->out.off,
                                    (size_t)p->out.h * p->out.w)))
                return false;
        }
    }
    return true;
}

/* re-arc's task files: an array of pairs, the first three train. */
static void test_rearc(void) {
    char err[512];
    for (int k = 1; k <= 2; k++) {
        char path[64];
        snprintf(path, sizeof path, "rearc/arr0%d.json", k);
        TaskSet ts = {0};
        if (!ok(taskset_load(path, NULL, &ts, err, sizeof err) == 0, "%s loads", path)) {
            printf("# %s\n", err);
            continue;
        }
        Task *t = &ts.tasks[0];
        ok(ts.ntasks == 1 && t->ntrain == 3 && t->ntest == 2, "%s: 3 train pairs, 2 test", path);
        task_open(t);
        repr_is(t->train[2].input, "((7,),)", "pairs in file order, keys in any order");
        repr_is(t->test[0].input, "((8,), (9,))", "the fourth pair is the first test pair");
        repr_is(t->test[1].output, "((2, 2),)", "test outputs known");
        char id[16];
        snprintf(id, sizeof id, "arr0%d", k);
        is(t->id, id, "id from the file name");
        taskset_free(&ts);
    }
    static const char arr[] = "[{\"input\": [[1]], \"output\": [[2]]}]";
    Task t = {0};
    ok(taskscan(arr, strlen(arr), &t) == 0 && t.ntrain == 1 && t.ntest == 0,
       "scan takes an array of one pair: one train pair, no test");
    free(t.train), free(t.test), free(t.cells);
}

static void test_readers_agree(void) {
    const char *shared = getenv("SHARED");
    static const char *sets[] = {"arc-agi-1/training", "arc-agi-1/evaluation",
                                 "arc-agi-2/training", "arc-agi-2/evaluation", "rearc-100",
                                 /* combined files, their solutions found beside them */
                                 "arc-agi-1/training_challenges.json",
                                 "arc-agi-1/evaluation_challenges.json",
                                 "arc-agi-2/training_challenges.json",
                                 "arc-agi-2/evaluation_challenges.json"};
    char dir[4096], err[1024];
    setenv("ARCRUN_STREAM_CELLS", "18446744073709551615", 1);
    for (size_t i = 0; i < sizeof sets / sizeof sets[0]; i++) {
        snprintf(dir, sizeof dir, "%s/%s", shared && *shared ? shared : "../shared", sets[i]);
        if (access(dir, R_OK) != 0) {
            printf("ok %d # SKIP %s not present\n", ++ntest, dir);
            continue;
        }
        TaskSet a = {0}, b = {0};
        taskread_use_scan(true);
        int ra = taskset_load(dir, NULL, &a, err, sizeof err);
        taskread_use_scan(false);
        int rb = taskset_load(dir, NULL, &b, err, sizeof err);
        taskread_use_scan(true);
        ok(ra == 0 && rb == 0 && same_sets(&a, &b),
           "%s: the direct reader and cJSON read the same %d tasks", sets[i], a.ntasks);
        taskset_free(&a);
        taskset_free(&b);
    }
    unsetenv("ARCRUN_STREAM_CELLS");
}

/* kB in /proc/self/status's line `key` (VmRSS, VmHWM), or -1. */
static long status_kb(const char *key) {
    FILE *f = fopen("/proc/self/status", "r");
    char line[256];
    long kb = -1;
    size_t n = strlen(key);
    while (f && fgets(line, sizeof line, f))
        if (strncmp(line, key, n) == 0 && line[n] == ':')
            kb = strtol(line + n + 1, NULL, 10);
    if (f) fclose(f);
    return kb;
}

/* A set past the stream limit never holds all its cells, even while it
 * loads: the peak grows by far less than the cells the set has. */
static void test_stream_memory(void) {
#if defined(__SANITIZE_ADDRESS__) || defined(__SANITIZE_THREAD__)
    /* their allocators hold freed memory back (quarantine): no peak to read */
    printf("ok %d # SKIP under a sanitizer's allocator\n", ++ntest);
    return;
#endif
    const char *shared = getenv("SHARED");
    char dir[4096], err[1024];
    snprintf(dir, sizeof dir, "%s/rearc-100", shared && *shared ? shared : "../shared");
    FILE *clear = fopen("/proc/self/clear_refs", "w");
    if (access(dir, R_OK) != 0 || !clear || status_kb("VmHWM") < 0) {
        printf("ok %d # SKIP %s or /proc/self/clear_refs not there\n", ++ntest, dir);
        if (clear) fclose(clear);
        return;
    }
    malloc_trim(0);
    fputs("5", clear);                       /* the peak starts again from here */
    fclose(clear);
    long base = status_kb("VmRSS");
    setenv("ARCRUN_STREAM_CELLS", "1000000", 1);
    TaskSet ts = {0};
    int rc = taskset_load(dir, NULL, &ts, err, sizeof err);
    long grew = status_kb("VmHWM") - base;
    size_t cells = 0;
    bool streamed = rc == 0;
    for (int i = 0; rc == 0 && i < ts.ntasks; i++) {
        cells += ts.tasks[i].ncells;
        streamed &= !ts.tasks[i].cells;
    }
    ok(streamed && cells > (size_t)10 << 20 && grew * 1024 < (long)(cells / 2),
       "rearc-100 with a 1 MB stream limit: loading grew the peak by %ld kB for %zu kB of cells",
       grew, cells / 1024);
    taskset_free(&ts);
    unsetenv("ARCRUN_STREAM_CELLS");
}

int main(void) {
    const char *srcdir = getenv("srcdir");
    char dir[4096];
    snprintf(dir, sizeof dir, "%s/tests/tasks", srcdir && *srcdir ? srcdir : ".");
    if (chdir(dir) != 0) {
        printf("1..0 # SKIP cannot enter %s\n", dir);
        return 1;
    }
    test_stream_memory();                   /* first: a fresh heap */
    test_scan();
    test_readers_agree();
    test_rearc();
    test_single();
    test_dir();
    test_stream_closed();
    test_combined();
    test_misc_errors();
    test_bad_files();
    printf("1..%d\n", ntest);
    return nfail != 0;
}
