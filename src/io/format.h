/* format.h -- how a run's results read: a text line per (program, task)
 * pair and the closing summaries (format_text.c), JSON Lines per instance,
 * per batt call and per --trace event (format_jsonl.c), the --all-pairs
 * listing (format_pairs.c).  The driver decides when each is
 * written, and to which buffer. */
#ifndef ARC_FORMAT_H
#define ARC_FORMAT_H

#include <stdio.h>
#include "exec.h"

typedef enum { REPORT_TEXT, REPORT_JSONL } ReportFormat;

/* "train/<k>" or "test/<k - ntrain>": sample k of t */
const char *sample_name(const Task *t, int k, char *buf, size_t len);

/* batt summary: per solver id, samples where its o output equals O */
typedef struct {
    char *id;                /* first: found by name (byname.h) */
    long correct, total;
} SolverScore;

/* What the closing lines count. */
typedef struct {
    long groups_done, groups_solved, pairs, pairs_correct, errors;
    long unscored;           /* samples run with no expected output */
    long work_stops, time_stops;     /* instances stopped by a budget */
    long batt_calls;
    SolverScore *scores;
    int nscores, capscores;
} RunCounts;

/* --all-pairs, per task: the programs that solve it, and its pairs whose
 * samples all finished. */
typedef struct {
    const char ***solvers_of;
    int *nsolvers_of, *capsolvers_of;
    int *pairs_done_of;
} PairTable;

/* format_jsonl.c: one line per instance (ok as instance_correct), and one
 * per batt call (appended to sb: a line of tens of kilobytes, made whole) */
void fmt_jsonl_instance(FILE *out, const Instance *in, int ok);
void fmt_jsonl_batt(StrBuf *sb, const Instance *in);
/* The last line: the run's counts under "summary".  It also carries
 * "program": null and the other keys of an instance's line, all null, so
 * that readers keyed on those (../shared/tools/compare_golden.py) take it
 * for a line of their own kind that matches nothing. */
void fmt_jsonl_summary(FILE *out, const RunCounts *c, int ngroups, int unpaired, bool interrupted,
                       bool batt);

/* format_jsonl.c, --trace: the variables statement s assigned, and the
 * instance's end */
void fmt_trace_assign(FILE *f, const Instance *in, const IrStmt *s);
void fmt_trace_end(FILE *f, const Instance *in, int ok);

/* format_text.c: what went wrong with a finished instance (ok as
 * instance_correct), as its pair's line says it, malloc'd; NULL when
 * nothing did.  A pair's line, from its counts and the problem of its
 * first sample that had one (NULL: none); the closing summary of a run,
 * or of a batt run */
char *fmt_text_problem(const Instance *in, int ok);
void fmt_text_pair(FILE *out, const IrProgram *prog, const Task *task, int n, int correct,
                   int unknown, const char *problem);
void fmt_text_summary(FILE *out, const RunCounts *c, int ngroups, int unpaired, bool interrupted);
void fmt_text_batt_summary(FILE *out, const RunCounts *c, int ngroups, bool interrupted,
                           bool quiet);

/* format_pairs.c: which programs solve which task, then (text) the
 * totals; after Ctrl-C only the tasks whose every pair finished */
void fmt_all_pairs(FILE *out, const PairTable *pt, const RunCounts *c, const TaskSet *ts,
                   int ngroups, bool interrupted, ReportFormat format, bool quiet);

#endif
