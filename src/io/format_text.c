/* format_text.c -- the text output: a line per (program, task) pair, and
 * the closing summary of a run or of a batt run. */
#include "format.h"
#include "vgrid.h"

#include <stdio.h>
#include <stdlib.h>
#include <string.h>

/* How a wrong output differs from the expected grid: its shape, or how
 * many cells differ and the first few, (row, column) got/expected. */
static void wrong_output(Value *got, Value *want, char *buf, size_t n)
{
    size_t h = want->u.tup.len, w = vg_width(want);
    if (!v_is_grid(got)) {
        const char *t = v_typename(got);
        snprintf(buf, n, "wrong output: %s%s, expected a %zux%zu grid",
                 got->type == V_NONE ? "" : strchr("aeiou", t[0]) ? "an " : "a ",
                 got->type == V_NONE ? "None" : t, h, w);
        return;
    }
    size_t gh = got->u.tup.len, gw = vg_width(got);
    if (gh != h || gw != w) {
        snprintf(buf, n, "wrong output: a %zux%zu grid, expected %zux%zu", gh, gw, h, w);
        return;
    }
    size_t ndiff = 0, len = 0;
    char cells[96] = "";
    for (size_t i = 0; i < h; i++)
        for (size_t j = 0; j < w; j++) {
            Value *a = vg_at(got, i, j), *b = vg_at(want, i, j);
            if (v_eq(a, b))
                continue;
            if (++ndiff <= 3 && len < sizeof cells)
                len += (size_t)snprintf(cells + len, sizeof cells - len, "%s(%zu, %zu) %lld not %lld",
                                        ndiff > 1 ? ", " : "", i, j, (long long)a->u.i,
                                        (long long)b->u.i);
        }
    snprintf(buf, n, "wrong output: a %zux%zu grid as expected, %zu of %zu cells differ: %s%s", h, w,
             ndiff, h * w, cells, ndiff > 3 ? ", ..." : "");
}

char *fmt_text_problem(const Instance *in, int ok)
{
    const char *what;
    char wrong[192];
    if (in->status == INST_BUDGET)
        what = stopped_by_clock(in) ? "timeout (time budget)" : "stopped (work budget)";
    else if (in->status == INST_ERROR)
        what = in->error;
    else if (ok == 0)
        wrong_output(in->result, task_sample(in->task, in->sample)->output, wrong, sizeof wrong),
        what = wrong;
    else
        return NULL;
    char name[32], where[160], bare[64];
    size_t wl = strlen(what);
    if (wl >= 2 && wl < sizeof bare && strcmp(what + wl - 2, ": ") == 0) {
        memcpy(bare, what, wl - 2);     /* "StopIteration: ", no message */
        bare[wl - 2] = '\0';
        what = bare;
    }
    sample_name(in->task, in->sample, name, sizeof name);
    instance_where(in, where, sizeof where);
    size_t len = strlen(name) + strlen(what) + strlen(where) + 8;
    char *s = malloc(len);
    if (s)
        snprintf(s, len, *where ? "%s: %s (%s)" : "%s: %s", name, what, where);
    return s;
}

void fmt_text_pair(FILE *out, const IrProgram *prog, const Task *task, int n, int correct,
                   int unknown, const char *problem)
{
    int known = n - unknown;
    bool solved = known > 0 && correct == known;
    fprintf(out, "%-10s %-24s %d/%d%s", task->id, prog->name,
            correct, known, solved ? "  ok" : "");
    /* say why the others failed: first problem only, to keep lines short */
    if (!solved && problem)
        fprintf(out, "  %s", problem);
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
    /* a test-only challenges file: its test samples ran, nothing checked them */
    if (c->unscored)
        fprintf(out, "(%ld sample%s had no expected output: run, not scored; "
                "tasks count as solved on their other pairs)\n", c->unscored,
                c->unscored == 1 ? "" : "s");
    if (unpaired)
        fprintf(out, "(%d program%s had no matching task)\n", unpaired, unpaired == 1 ? "" : "s");
}
