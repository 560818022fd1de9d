/* submission.h -- the ARC Prize submission file: for every test input of
 * every task, two attempts.
 *
 *   {"<task id>": [{"attempt_1": GRID, "attempt_2": GRID}, ...], ...}
 *
 * one entry per test input, in the task's order.  Programs offer their
 * outputs for a test input; the attempts are the two most common distinct
 * grids offered, ties going to the program found first in the file, and
 * BLANK where fewer than two were. */
#ifndef ARC_SUBMISSION_H
#define ARC_SUBMISSION_H

#include "task.h"

#define SUBMISSION_BLANK "[[0, 0], [0, 0]]"   /* as Kaggle's sample submission */

typedef struct Submission Submission;

Submission *sub_new(const TaskSet *ts);
void sub_free(Submission *s);
/* Program prog's output for test input k of task ts->tasks[task], a grid
 * as JSON (sb_json_grid; malloc'd, s takes it).  Not thread-safe: the
 * caller holds its lock. */
void sub_offer_json(Submission *s, int task, int k, int prog, char *json);
/* Write the file through path.tmp, renamed into place: a failed write
 * leaves no half file.  -1 with errno set on failure. */
int sub_write(Submission *s, const TaskSet *ts, const char *path);

#endif
