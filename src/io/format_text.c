/* format_text.c -- the text output: a line per (program, task) pair, and
 * the closing summary of a run or of a batt run. */
#include "format.h"

void fmt_text_pair(FILE *out, const IrProgram *prog, const Task *task, const Instance *first,
                   int n, int correct, int unknown)
{
    int known = n - unknown;
    bool solved = known > 0 && correct == known;
    fprintf(out, "%-10s %-24s %d/%d%s", task->id, prog->name,
            correct, known, solved ? "  ok" : "");
    /* say why the others failed: first problem only, to keep lines short */
    for (int k = 0; k < n && !solved; k++) {
        const Instance *in = &first[k];
        char name[32];
        sample_name(task, in->sample, name, sizeof name);
        if (in->status == INST_ERROR || in->status == INST_BUDGET) {
            fprintf(out, "  %s: %s", name,
                    in->status == INST_BUDGET ? (stopped_by_clock(in)
                                                 ? "timeout (time budget)"
                                                 : "stopped (work budget)") : in->error);
            break;
        }
        if (instance_correct(in) == 0) {
            fprintf(out, "  %s: wrong output", name);
            break;
        }
    }
    if (unknown)
        fprintf(out, "  (%d without expected output)", unknown);
    fputc('\n', out);
}

void fmt_text_batt_summary(FILE *out, const RunCounts *c, int ngroups, bool interrupted,
                           bool quiet)
{
    if (!quiet)
        for (int i = 0; i < c->nscores; i++)
            fprintf(out, "%-40s %ld/%ld samples\n", c->scores[i].id,
                    c->scores[i].correct, c->scores[i].total);
    if (interrupted)
        fprintf(out, "interrupted: %ld of %d program/task pairs finished\n",
                c->groups_done, ngroups);
    fprintf(out, "%ld batt calls over %d tasks, %d solver ids", c->batt_calls,
            ngroups, c->nscores);
    if (c->errors)
        fprintf(out, ", %ld call%s raised", c->errors, c->errors == 1 ? "" : "s");
    fputc('\n', out);
}

void fmt_text_summary(FILE *out, const RunCounts *c, int ngroups, int unpaired, bool interrupted)
{
    if (interrupted)
        fprintf(out, "interrupted: %ld of %d program/task pairs finished\n",
                c->groups_done, ngroups);
    fprintf(out, "solved %ld/%d tasks, %ld/%ld pairs", c->groups_solved, ngroups,
            c->pairs_correct, c->pairs);
    if (c->errors)
        fprintf(out, ", %ld instance%s raised", c->errors, c->errors == 1 ? "" : "s");
    fputc('\n', out);
    if (unpaired)
        fprintf(out, "(%d program%s had no matching task)\n", unpaired, unpaired == 1 ? "" : "s");
}
