/* task.h -- ARC tasks loaded with cJSON: one task file, a directory of
 * them, or a Kaggle-style combined challenges file with its solutions. */
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

/* Load tasks from path: a .json task file ({"train": [...], "test": [...]}),
 * a directory of them (sorted by file name), or a combined file
 * ({id: {train, test}}); for a combined file the solutions are read from
 * `solutions` if given, else from the sibling *_solutions.json if present.
 * On error returns -1 and writes "file: $.json.path: what is wrong" into
 * err.  Grids must be non-empty, rectangular, at most 30x30, cells 0..9. */
int taskset_load(const char *path, const char *solutions, TaskSet *out,
                 char *err, size_t errlen);
/* The same, a directory's files read by up to `jobs` threads. */
int taskset_load_jobs(const char *path, const char *solutions, int jobs, TaskSet *out,
                      char *err, size_t errlen);
void taskset_free(TaskSet *ts);
/* Find a task by id; NULL if absent. */
Task *taskset_find(const TaskSet *ts, const char *id);

#endif
