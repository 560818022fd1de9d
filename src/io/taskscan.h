/* taskscan.h -- an ARC task file read straight into a Task, without a
 * JSON tree: the shape every ARC and re-arc task file has,
 *   {"train": [pair, ...], "test": [pair, ...]}, keys in any order, once,
 *   pair = {"input": grid, "output": grid} (output optional in test),
 *   grid = non-empty rectangular rows of one-digit cells, at most 30 x 30,
 * or re-arc's [pair, ...] (every output given), with JSON whitespace
 * anywhere.  Anything else -- other keys, escapes,
 * other numbers, a bad grid, malformed JSON -- it declines, and the caller
 * reads the file with cJSON, which alone judges and locates what is wrong;
 * what it accepts, that path reads the same way. */
#ifndef ARC_TASKSCAN_H
#define ARC_TASKSCAN_H

#include "task.h"

/* Fill t's samples and cells from buf[0..len); 0, or -1 (declined, t's
 * samples and cells left empty).  id and split are the caller's.  Also
 * takes re-arc's task files, an array of pairs (rearc_split). */
int taskscan(const char *buf, size_t len, Task *t);
/* Free the calling thread's scratch (before the thread ends). */
void taskscan_forget(void);

/* A Kaggle combined file, {task id: task, ...} in the shape above: its
 * tasks into out, in file order, each with its id and cells (split is the
 * caller's); 0, or -1 (declined, nothing kept). */
int taskscan_combined(const char *buf, size_t len, TaskSet *out);
/* Its solutions file, {task id: [grid, ...], ...}: every task's test
 * outputs, as many as its test inputs, from the first entry of its id
 * (others are read and dropped); 0, or -1 (declined: the tasks are left
 * half filled, for the caller to free). */
int taskscan_solutions(const char *buf, size_t len, Task *tasks, int n);

/* re-arc's task file is an array of {input, output}: its first three
 * pairs are the train pairs (S, for batt programs), the rest the test
 * pairs, as ../shared/tools/gen_rearc.py splits them; every one is run.
 * t takes copies of all[0..n); 0, or -1 out of memory. */
int rearc_split(Task *t, Sample *all, int n);

#endif
