/* pairing.h -- which task each program of a module is for. */
#ifndef ARC_PAIRING_H
#define ARC_PAIRING_H

#include "ir.h"
#include "task.h"

/* own[p]: the first of the tasks program p is named for -- PREFIX<id>
 * with PREFIX entry (--entry), or solve_ and verify_ when entry is NULL --
 * or -1 when no task has that id, -2 when p is named for none (it runs on
 * every task); next[k]: the next task after k with task k's id, -1 after
 * the last.  So a solver's tasks are found without a look at every task
 * (a set of solvers x tasks compared by name took 2% of the solvers' run,
 * and a walk of every pair 1%).  Both malloc'd. */
int *own_tasks(const IrModule *m, const TaskSet *ts, const char *entry, int **next);

/* Whether name is PREFIX<something> for the entry prefixes above.  A def
 * another def calls (a helper) runs as a program only when it is. */
bool pairing_named(const char *entry, const char *name);

/* Whether p runs as a program of its own: its parameters fit the
 * harness's call, and no def calls it or its name pairs it (a helper
 * otherwise, run only where called, or never). */
bool pairing_runs_alone(const char *entry, const IrProgram *p);

#endif
