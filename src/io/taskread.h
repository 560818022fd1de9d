/* taskread.h -- ARC tasks loaded with cJSON: one task file, a directory of
 * them, or a Kaggle-style combined challenges file with its solutions. */
#ifndef ARC_TASKREAD_H
#define ARC_TASKREAD_H

#include "task.h"

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

/* Whether files go through taskscan.h first (the default) or straight to
 * cJSON: tests compare the two readers on whole task sets. */
void taskread_use_scan(bool on);

#endif
