/* task.c -- the task set as the run holds it: samples by index, lookup,
 * release.  Reading one from files is io's (src/io/taskread.c). */
#include "task.h"

#include <stdlib.h>
#include <string.h>

int task_nsamples(const Task *t) { return t->ntrain + t->ntest; }

const Sample *task_sample(const Task *t, int k)
{
    return k < t->ntrain ? &t->train[k] : &t->test[k - t->ntrain];
}

static void task_free(Task *t) {
    v_decref(t->pairs);
    for (int i = 0; i < t->ntrain; i++) v_free_shared(t->train[i].input), v_free_shared(t->train[i].output);
    for (int i = 0; i < t->ntest; i++) v_free_shared(t->test[i].input), v_free_shared(t->test[i].output);
    free(t->train);
    free(t->test);
    free(t->id);
    free(t->split);
    memset(t, 0, sizeof *t);
}

void taskset_free(TaskSet *ts) {
    if (!ts) return;
    for (int i = 0; i < ts->ntasks; i++) task_free(&ts->tasks[i]);
    free(ts->tasks);
    ts->tasks = NULL, ts->ntasks = 0;
}

Task *taskset_find(const TaskSet *ts, const char *id) {
    for (int i = 0; i < ts->ntasks; i++)
        if (strcmp(ts->tasks[i].id, id) == 0) return &ts->tasks[i];
    return NULL;
}
