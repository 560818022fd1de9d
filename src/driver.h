/* driver.h -- pair programs with tasks, run them, and print results. */
#ifndef ARC_DRIVER_H
#define ARC_DRIVER_H

#include <stdatomic.h>
#include <stdio.h>
#include "ir.h"
#include "task.h"
#include "format.h"
#include "submission.h"

typedef struct {
    ReportFormat format;
    int verbose;
    int quiet;
    uint64_t work_limit;
    double time_limit;       /* seconds per instance, 0 = none */
    atomic_int *interrupted;
    FILE *trace;             /* --trace: every assigned variable as JSON Lines */
    FILE *stats;             /* --stats: per-op table (or JSON with stats_json) */
    bool stats_json;
    int jobs;                /* --jobs */
    bool no_cache;           /* --no-cache */
    bool all_pairs;          /* --all-pairs: every program on every task */
    const char *entry;       /* --entry: PREFIX<id> runs on task <id>; NULL:
                                solve_ and verify_ (re-arc's verifiers) */
    double parse_s, load_s;  /* --stats: time spent reading the program and the tasks */
    Submission *submission;  /* --submission: test outputs are offered to it */
    /* each finished instance, ok as instance_correct (-1 for a batt call),
     * for the Python package; called under the run's totals lock */
    void (*on_result)(const Instance *in, int ok, void *arg);
    void *on_result_arg;
} RunOptions;



/* Run every program of m on the tasks it applies to (solve_<id> on task
 * <id>; other programs on every task), streaming one line per finished
 * (program, task) and a closing summary.  -1 if interrupted.  m's
 * constants are pinned (ir_pin_constants) for the runs to come. */
int report_run(IrModule *m, const TaskSet *ts, const RunOptions *ro, FILE *out);

#endif
