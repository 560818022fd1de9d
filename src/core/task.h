/* task.h -- ARC tasks as the run holds them: samples of grids, the batt
 * protocol's S, a set of tasks.  src/io/taskread.h reads them from files.
 *
 * A task keeps its grids compact, as bytes, for as long as the run lasts;
 * their Python values (tuples of tuples, S) exist only while the task is
 * open, from task_open to the matching task_close, so memory follows the
 * tasks being run, not the size of the task set. */
#ifndef ARC_TASK_H
#define ARC_TASK_H

#include "value.h"

/* h rows of w cells, 0..9, row by row at offset off of the task's cells;
 * h == 0: no grid (an unknown expected output). */
typedef struct {
    uint8_t h, w;
    uint32_t off;
} GridBytes;

typedef struct {
    GridBytes in, out;
    /* while the task is open: the grids as values (shared: no refcount);
     * output NULL when unknown */
    Value *input, *output;
} Sample;

/* A sample's grid sizes (oh == 0: no output), which a closed streamed
 * task keeps in place of its samples: a byte a side, not 32 a sample. */
typedef struct {
    uint8_t ih, iw, oh, ow;
} SampleDims;

typedef struct Task Task;
struct Task {
    char *id;                /* "007bbfb7" */
    char *split;             /* "training", "evaluation", or the directory name */
    Sample *train; int ntrain;   /* NULL while a streamed task is closed */
    Sample *test;  int ntest;
    SampleDims *dims;        /* a streamed task's, train then test; else NULL */
    uint8_t *cells;          /* every grid's cells; NULL while a streamed task is closed */
    size_t ncells, capcells;
    /* a large set streams: a task's cells and samples are read again
     * from its file (path) when it opens and freed when it closes, dims
     * staying; reread is the reader's (io), which ends the run if the
     * file no longer holds them */
    char *path;
    void (*reread)(Task *t);
    int opened;              /* task_open count */
    /* while open: S of the batt protocol, ((input, output), ...) of the
     * train pairs: one value per task, so that calls on S are shared by
     * the call cache across the task's samples (atomic refcount; the task
     * holds one) */
    Value *pairs;
};

typedef struct {
    Task *tasks;
    int ntasks;
    /* files of a directory left out as malformed: their messages, one a
     * line, in name order (NULL: none) */
    char *skipped;
    int nskipped;
} TaskSet;

/* The sample's input/expected output by index (train then test); a
 * streamed task's only while it is open. */
const Sample *task_sample(const Task *t, int k);
int task_nsamples(const Task *t);
static inline bool sample_has_output(const Sample *s) { return s->out.h != 0; }
/* The sample's grid sizes, open or not. */
SampleDims task_dims(const Task *t, int k);

/* Make the task's values (Sample.input/output, pairs), or count one more
 * user of them; task_close counts one fewer and frees them after the
 * last.  Thread-safe.  The values are a cache of the bytes, so a task
 * read through a const pointer may be opened. */
void task_open(const Task *t);
void task_close(const Task *t);

/* A grid of the task as a new value (shared: immortal until
 * v_free_shared), as task_open makes them. */
Value *task_grid_value(const Task *t, GridBytes g);

void taskset_free(TaskSet *ts);
/* Move src's tasks (and skipped files) to the end of dst; src is left empty. */
void taskset_append(TaskSet *dst, TaskSet *src);
/* Keep the tasks whose id is one of ids[0..n), in the set's order, and
 * free the others; -1 (nothing freed) with *missing the first id no task
 * has. */
int taskset_select(TaskSet *ts, char *const *ids, int n, const char **missing);
/* Find a task by id; NULL if absent. */
Task *taskset_find(const TaskSet *ts, const char *id);

#endif
