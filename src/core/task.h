/* task.h -- ARC tasks as the run holds them: samples of grids, the batt
 * protocol's S, a set of tasks.  src/io/taskread.h reads them from files. */
#ifndef ARC_TASK_H
#define ARC_TASK_H

#include "value.h"

typedef struct {
    Value *input;            /* grid: tuple of tuples of ints */
    Value *output;           /* expected output grid, or NULL if unknown */
} Sample;

typedef struct {
    char *id;                /* "007bbfb7" */
    char *split;             /* "training", "evaluation", or the directory name */
    Sample *train; int ntrain;
    Sample *test;  int ntest;
    /* S of the batt protocol, ((input, output), ...) of the train pairs:
     * one value per task, so that calls on S are shared by the call cache
     * across the task's samples (atomic refcount; the task holds one) */
    Value *pairs;
} Task;

typedef struct {
    Task *tasks;
    int ntasks;
} TaskSet;

/* The sample's input/expected output by index (train then test). */
const Sample *task_sample(const Task *t, int k);
int task_nsamples(const Task *t);
void taskset_free(TaskSet *ts);
/* Find a task by id; NULL if absent. */
Task *taskset_find(const TaskSet *ts, const char *id);

#endif
