/* taskread_int.h -- what taskread.c (files, directories, the direct
 * reader) and tasktree.c (the cJSON tree, with located messages) share.
 * Not an interface: taskread.h is. */
#ifndef ARC_TASKREAD_INT_H
#define ARC_TASKREAD_INT_H

#include "task.h"

#include <stdbool.h>
#include <stddef.h>

/* Where we are: file name for messages, error buffer; a directory's
 * file is opened by its name under the directory's descriptor (dir >= 0),
 * which spares the kernel the walk of the whole path. */
typedef struct {
    const char *file;
    char *err;
    size_t errlen;
    int dir;
    const char *name;
} Where;

/* "FILE: PATH: message" (or "FILE: message") into w's buffer; -1. */
__attribute__((format(printf, 3, 4)))
int tr_fail(const Where *w, const char *path, const char *fmt, ...);
/* The whole file, NUL-terminated (malloc'd); NULL, said, on failure. */
char *tr_read_file(const Where *w, size_t *lenp);
const char *tr_base_name(const char *path);
/* name without suffix (malloc'd) */
char *tr_strip_suffix(const char *name, const char *suffix);
/* A new task at the end of ts (zeroed); NULL when out of memory. */
Task *tr_push(TaskSet *ts, int *cap);
/* A new task for a file that holds one: id from the file name, split from
 * its directory; NULL (said) when out of memory. */
Task *tr_file_task(const Where *w, TaskSet *ts, int *cap);
/* A combined file's split: its name before "_challenges", or without
 * ".json" (NULL: out of memory). */
char *tr_combined_split(const Where *w);
/* X_challenges.json's X_solutions.json, when there is one (malloc'd;
 * NULL: none, or out of memory, said in *oom). */
char *tr_solutions_beside(const Where *w, bool *oom);

/* tasktree.c: a file's text (freed here) through cJSON into ts: a task, a
 * re-arc array, or a combined file and its solutions; every problem said
 * as "FILE: $.json.path: problem". */
int tree_load(const Where *w, char *buf, size_t len, const char *solutions, bool in_dir,
              TaskSet *ts, int *cap);
/* cJSON's allocations from the loading threads' arenas, for one load */
void tree_begin(void);
void tree_end(void);

#endif
