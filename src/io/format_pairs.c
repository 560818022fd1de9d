/* format_pairs.c -- the --all-pairs listing: which programs solve which
 * task (a text line, or a JSON line, per task), then the totals. */
#include "format.h"
#include "jsonout.h"

void fmt_all_pairs(FILE *out, const PairTable *pt, const RunCounts *c, const TaskSet *ts,
                   int ngroups, bool interrupted, ReportFormat format, bool quiet)
{
    int solved = 0, per_task = ts->ntasks ? ngroups / ts->ntasks : 0, listed = 0;
    long finished = 0;
    for (int k = 0; k < ts->ntasks; k++) {
        solved += pt->nsolvers_of[k] > 0;
        bool complete = pt->pairs_done_of[k] == per_task;
        listed += complete;
        finished += pt->pairs_done_of[k];
        if (format == REPORT_JSONL && complete) {
            fputs("{\"task\": ", out);
            json_string(out, ts->tasks[k].id);
            fputs(", \"solved_by\": [", out);
            for (int i = 0; i < pt->nsolvers_of[k]; i++) {
                fputs(i ? ", " : "", out);
                json_string(out, pt->solvers_of[k][i]);
            }
            fputs("]}\n", out);
        } else if (format == REPORT_TEXT && !quiet && pt->nsolvers_of[k]) {
            fprintf(out, "%-10s solved by %d:", ts->tasks[k].id, pt->nsolvers_of[k]);
            for (int i = 0; i < pt->nsolvers_of[k] && i < 8; i++)
                fprintf(out, " %s", pt->solvers_of[k][i]);
            if (pt->nsolvers_of[k] > 8)
                fprintf(out, " ...");
            fputs(complete ? "\n" : " (not all its pairs finished)\n", out);
        }
    }
    if (format == REPORT_TEXT) {
        if (interrupted)
            fprintf(out, "interrupted: %ld of %d program/task pairs finished, every pair of %d/%d tasks\n",
                    finished, ngroups, listed, ts->ntasks);
        fprintf(out, "all pairs: %d programs x tasks = %d pairs; %ld pairs solved; %d/%d tasks solved by some program"
                "; %ld instances stopped by the work budget, %ld by the time budget\n",
                per_task, ngroups, c->groups_solved, solved, ts->ntasks, c->work_stops, c->time_stops);
    }
}
