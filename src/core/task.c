/* task.c -- the task set as the run holds it: samples by index, their
 * values made while the task is open, lookup, release.  Reading tasks
 * from files is io's (src/io/taskread.c). */
#include "task.h"
#include "vgrid.h"

#include <pthread.h>
#include <stdlib.h>
#include <string.h>

int task_nsamples(const Task *t) { return t->ntrain + t->ntest; }

const Sample *task_sample(const Task *t, int k)
{
    return k < t->ntrain ? &t->train[k] : &t->test[k - t->ntrain];
}

SampleDims task_dims(const Task *t, int k)
{
    if (t->dims)
        return t->dims[k];
    const Sample *s = task_sample(t, k);
    return (SampleDims){s->in.h, s->in.w, s->out.h, s->out.w};
}

Value *task_grid_value(const Task *t, GridBytes g)
{
    const uint8_t *c = t->cells + g.off;
    if (g.w) {      /* as bytes: its rows are made if something reads them */
        Value *grid = vg_new(g.h, g.w);
        memcpy(vg_cells(grid), c, (size_t)g.h * g.w);
        v_make_shared(grid);
        return grid;
    }
    Value *grid = v_tuple_new(g.h);
    for (int i = 0; i < g.h; i++) {
        Value *row = v_tuple_new(g.w);
        for (int j = 0; j < g.w; j++)
            v_titems(row)[j] = v_small(c[i * g.w + j]);
        row->flags |= V_FLAG_FLAT;      /* its cells are arena ints: sharing and freeing skip them */
        v_titems(grid)[i] = row;
    }
    grid->flags |= V_FLAG_GRID;
    v_make_shared(grid);
    return grid;
}

/* Opening and closing happen once per chunk of instances: one lock for
 * every task is no contention. */
static pthread_mutex_t open_lock = PTHREAD_MUTEX_INITIALIZER;

static void samples_open(const Task *t, Sample *s, int n)
{
    for (int i = 0; i < n; i++) {
        s[i].input = task_grid_value(t, s[i].in);
        s[i].output = sample_has_output(&s[i]) ? task_grid_value(t, s[i].out) : NULL;
    }
}

static void samples_close(Sample *s, int n)
{
    for (int i = 0; i < n; i++) {
        v_free_shared(s[i].input);
        v_free_shared(s[i].output);
        s[i].input = s[i].output = NULL;
    }
}

void task_open(const Task *ct)
{
    Task *t = (Task *)ct;
    pthread_mutex_lock(&open_lock);
    if (t->opened++ == 0) {
        if (!t->cells && t->reread)
            t->reread(t);
        samples_open(t, t->train, t->ntrain);
        samples_open(t, t->test, t->ntest);
        t->pairs = v_tuple_new((size_t)t->ntrain);
        for (int i = 0; i < t->ntrain; i++)
            v_titems(t->pairs)[i] = v_tuple2(t->train[i].input,
                                                t->train[i].output ? t->train[i].output : v_none());
        v_make_atomic(t->pairs);
    }
    pthread_mutex_unlock(&open_lock);
}

static void task_values_free(Task *t)
{
    v_decref(t->pairs);
    t->pairs = NULL;
    samples_close(t->train, t->ntrain);
    samples_close(t->test, t->ntest);
}

void task_close(const Task *ct)
{
    Task *t = (Task *)ct;
    pthread_mutex_lock(&open_lock);
    if (t->opened > 0 && --t->opened == 0) {
        task_values_free(t);
        if (t->reread) {
            free(t->cells);
            t->cells = NULL;
        }
        if (t->reread && t->dims) {
            free(t->train);
            free(t->test);
            t->train = t->test = NULL;
        }
    }
    pthread_mutex_unlock(&open_lock);
}

static void task_free(Task *t)
{
    if (t->opened)
        task_values_free(t);
    free(t->train);
    free(t->test);
    free(t->dims);
    free(t->cells);
    free(t->path);
    free(t->id);
    free(t->split);
    memset(t, 0, sizeof *t);
}

void taskset_free(TaskSet *ts)
{
    if (!ts)
        return;
    for (int i = 0; i < ts->ntasks; i++)
        task_free(&ts->tasks[i]);
    free(ts->tasks);
    free(ts->skipped);
    ts->tasks = NULL, ts->ntasks = 0;
    ts->skipped = NULL, ts->nskipped = 0;
}

void taskset_append(TaskSet *dst, TaskSet *src)
{
    size_t n = (size_t)(dst->ntasks + src->ntasks);
    Task *all = realloc(dst->tasks, (n ? n : 1) * sizeof *all);
    if (!all)
        abort();
    memcpy(all + dst->ntasks, src->tasks, (size_t)src->ntasks * sizeof *all);
    dst->tasks = all;
    dst->ntasks = (int)n;
    if (src->skipped) {
        size_t a = dst->skipped ? strlen(dst->skipped) : 0, b = strlen(src->skipped);
        char *s = realloc(dst->skipped, a + b + 1);
        if (!s)
            abort();
        memcpy(s + a, src->skipped, b + 1);
        dst->skipped = s;
        dst->nskipped += src->nskipped;
    }
    free(src->tasks);
    free(src->skipped);
    *src = (TaskSet){0};
}

int taskset_select(TaskSet *ts, char *const *ids, int n, const char **missing)
{
    for (int k = 0; k < n; k++)
        if (!taskset_find(ts, ids[k])) {
            *missing = ids[k];
            return -1;
        }
    int kept = 0;
    for (int i = 0; i < ts->ntasks; i++) {
        bool keep = false;
        for (int k = 0; k < n && !keep; k++)
            keep = strcmp(ts->tasks[i].id, ids[k]) == 0;
        if (keep)
            ts->tasks[kept++] = ts->tasks[i];
        else
            task_free(&ts->tasks[i]);
    }
    ts->ntasks = kept;
    return 0;
}

Task *taskset_find(const TaskSet *ts, const char *id)
{
    for (int i = 0; i < ts->ntasks; i++)
        if (strcmp(ts->tasks[i].id, id) == 0)
            return &ts->tasks[i];
    return NULL;
}
