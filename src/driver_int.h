/* driver_int.h -- what the driver's files share: a (program, task) pair
 * as the run holds it, the run's totals, and what happens as an instance
 * ends (ending.c). */
#ifndef ARC_DRIVER_INT_H
#define ARC_DRIVER_INT_H

#include "driver.h"
#include "exec.h"
#include "byname.h"
#include "shape.h"
#include "linebuf.h"

#include <stdatomic.h>

/* One (program, task) pair: its instances finish independently; the line
 * is printed when the last one does.  A group's lines wait in its own
 * buffers and go out in group order as its waves end (a split group's
 * when its last part does), so the output does not depend on which
 * groups share a chunk (--jobs sizes the chunks);
 * within it, each line is keyed (linebuf.h) by its instance, or for
 * --trace by its lockstep position, so it does not depend on the waves
 * the group ran in either. */
typedef struct {
    const IrProgram *prog;
    const Task *task;
    int n, correct, unknown;
    int remaining;           /* samples not finished; -1 until its chunk starts */
    bool batt;               /* each sample twice: C=None, then C=O */
    bool split;              /* run in parts, chunks of their own: its ends and
                                its lines under totals_lock */
    atomic_bool failed;      /* search mode: a sample failed, the rest may stop */
    const OutShape *shape;   /* ARCRUN_SHAPE_CHECK: the shape its outputs must have */
    LineBuf out, trace;     /* its lines not written out yet */
    uint64_t spent_ns;       /* its instances' time in calls (--stats) */
    bool tracing;            /* --trace: assignments go to trace */
    int problem_k;           /* the first instance that went wrong, and how */
    char *problem;           /* (its pair's line says it; NULL: none yet) */
    int train_ok;            /* --submission --all-pairs: train samples solved, */
    char **pending;          /* and its test outputs until it is known to solve them all */
} Group;

typedef struct {
    const RunOptions *ro;
    FILE *out;
    RunCounts c;
    /* progress on a terminal, for runs longer than a second */
    bool progress;
    long done_instances, total_instances;
    uint64_t start_ns, last_ns;
    /* --all-pairs */
    const Task *tasks0;
    const IrProgram *progs0;
    PairTable pt;            /* filled in by note_pair */
    long shape_checked, shape_wrong;   /* ARCRUN_SHAPE_CHECK */
} Totals;

typedef struct {
    int ok;                  /* instance_correct */
    int8_t *batt_eq;         /* batt_matches */
    bool group_done;         /* it was its group's last instance */
} Ending;

/* The instance's own group's part of its end: its lines, its counts
 * (under no lock: one thread runs a group's instances). */
void ending_local(const RunOptions *ro, Instance *in, Ending *e);
/* The run's part: totals, progress, --submission (under the totals lock). */
void ending_shared(Totals *t, Instance *in, Ending *e);
/* Both, for a run on one thread (ExecOptions.on_done). */
void ending_on_done(Instance *in, void *arg);
/* --trace: an assignment (ExecOptions.on_assign). */
void ending_on_assign(Instance *in, const IrStmt *s, void *arg);
void ending_progress(Totals *t, bool final);
/* --all-pairs: a finished pair, and which programs solve which task */
void ending_note_pair(Totals *t, Group *g);
/* What a group still holds when the run ends: the test outputs of an
 * --all-pairs --submission pair that an interrupt left unfinished. */
void ending_group_release(Group *g);

#endif
