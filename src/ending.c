/* ending.c -- an instance's end: its lines, the pair's counts, the run's
 * totals and progress, --submission's offers, --all-pairs' solvers. */
#include "driver_int.h"
#include "jsonout.h"
#include "prim.h"
#include "vgrid.h"

#include <stdlib.h>
#include <string.h>
#include <unistd.h>

void *xmalloc_(size_t n);

static SolverScore *score_of(Totals *t, const char *id)
{
    int n = t->c.nscores;
    SolverScore *sc = byname_entry(&t->c.scores, &t->c.nscores, &t->c.capscores,
                                   sizeof(SolverScore), 32, id);
    if (t->c.nscores > n)
        sc->id = strdup(id);     /* id is the record's, freed with its instance */
    return sc;
}

/* A batt call's o records against the expected output: eq[i] for record
 * i, -1 where the record does not count (no equality test is left for
 * the shared part).  NULL when the call is not scored. */
static int8_t *batt_matches(const Instance *in)
{
    const Sample *s = task_sample(in->task, in->sample);
    if (in->c_is_output || in->status != INST_DONE || !s->output || !in->nrecords[1])
        return NULL;
    int8_t *eq = xmalloc_((size_t)in->nrecords[1]);
    for (int i = 0; i < in->nrecords[1]; i++) {
        Value *rec = in->records[1][i];
        eq[i] = rec->u.tup.len != 4 || v_titems(rec)[2]->type != V_STR
                ? -1 : v_eq(v_titems(rec)[3], s->output);
    }
    return eq;
}

static void score_batt(Totals *t, const Instance *in, const int8_t *eq)
{
    for (int i = 0; eq && i < in->nrecords[1]; i++)
        if (eq[i] >= 0) {
            SolverScore *sc = score_of(t, v_titems(in->records[1][i])[2]->u.str.s);
            sc->total++;
            sc->correct += eq[i];
        }
}

static bool group_solved(const Group *g)
{
    int known = g->n - g->unknown;
    return known > 0 && g->correct == known;
}

static void print_group(const RunOptions *ro, Group *g)
{
    if (!ro->quiet && !ro->all_pairs && ro->format == REPORT_TEXT) {
        fmt_text_pair(linebuf_begin(&g->out), g->prog, g->task, g->n, g->correct, g->unknown,
                      g->problem);
        linebuf_end(&g->out, g->n);
    }
    free(g->problem);
    g->problem = NULL;
}

/* An instance's place in its group: its sample, and for batt which of
 * the sample's two calls (C=None first). */
static int group_index(const Instance *in)
{
    const Group *g = in->user;
    return g->batt ? 2 * in->sample + in->c_is_output : in->sample;
}

/* A trace line goes where lockstep over the whole group wrote it: step
 * by step, instance by instance (waves run a group in parts). */
static int64_t trace_key(const Instance *in, const IrStmt *s)
{
    return instance_event_order(in, s) << 32 | (int64_t)group_index(in);
}

void ending_on_assign(Instance *in, const IrStmt *s, void *arg)
{
    (void)arg;
    Group *g = in->user;
    fmt_trace_assign(linebuf_begin(&g->trace), in, s);
    linebuf_end(&g->trace, trace_key(in, s));
}

void ending_progress(Totals *t, bool final)
{
    uint64_t now = now_ns();
    if (!final && (now - t->start_ns < 1000000000u || now - t->last_ns < 100000000u))
        return;
    t->last_ns = now;
    double frac = t->total_instances ? (double)t->done_instances / (double)t->total_instances : 1;
    char bar[31];
    int full = (int)(frac * 30);
    for (int i = 0; i < 30; i++)
        bar[i] = i < full ? '#' : '.';
    bar[30] = '\0';
    fprintf(stderr, "\r[%s] %ld/%ld instances, %.1f s", bar, t->done_instances,
            t->total_instances, (double)(now - t->start_ns) / 1e9);
    if (final)
        fputs("\r\033[K", stderr);   /* leave the terminal clean */
    fflush(stderr);
}

/* ARCRUN_SHAPE_CHECK: a finished instance's output against the shape the
 * analysis gave its program (shape.h); a difference is a bug there. */
static void shape_check(Totals *t, const Instance *in, const OutShape *s)
{
    const Value *r = in->result;
    int ph, pw;
    const Sample *sm = task_sample(in->task, in->sample);
    shape_predict(s, sm->in.h, sm->in.w, &ph, &pw);
    bool grid = r->type == V_TUPLE && v_len(r) > 0 && (vg_is(r) || v_titems(r)[0]->type == V_TUPLE);
    int oh = grid ? (int)v_len(r) : -1, ow = grid ? (int)vg_width(r) : -1;
    t->shape_checked++;
    if (oh != ph || ow != pw) {
        t->shape_wrong++;
        char name[32];
        fprintf(stderr, "arcrun: shape check: %s on %s %s: predicted %dx%d, output %dx%d\n",
                in->prog->name, in->task->id, sample_name(in->task, in->sample, name, sizeof name),
                ph, pw, oh, ow);
    }
}

/* An instance's end in two parts.  The first touches only the instance
 * and its group (a group runs on one chunk's thread, or in parts under
 * totals_lock): its lines and its equality tests, the costly part.  The
 * second adds to the run's totals, shared by chunks running side by side:
 * under totals_lock when they are. */
void ending_local(const RunOptions *ro, Instance *in, Ending *e)
{
    Group *g = in->user;
    int k = group_index(in);
    g->spent_ns += in->spent_ns;
    *e = (Ending){.group_done = --g->remaining == 0};
    if (g->batt) {
        e->batt_eq = batt_matches(in);
        if (ro->format == REPORT_JSONL) {
            fmt_jsonl_batt(linebuf_sb(&g->out), in);
            linebuf_sb_end(&g->out, k);
        }
        return;
    }
    int ok = e->ok = instance_correct(in);
    if (g->tracing) {
        fmt_trace_end(linebuf_begin(&g->trace), in, ok);
        linebuf_end(&g->trace, trace_key(in, NULL));
    }
    if (ok == 0)
        instance_note_failure(in);   /* a wrong output dooms the pair too */
    if (ok < 0)
        g->unknown++;
    else
        g->correct += ok;
    if (ro->format == REPORT_JSONL && !ro->all_pairs) {
        fmt_jsonl_instance(linebuf_begin(&g->out), in, ok);
        linebuf_end(&g->out, k);
    }
    if (ro->format == REPORT_TEXT && !ro->quiet && !ro->all_pairs &&
        (!g->problem || k < g->problem_k)) {
        char *p = fmt_text_problem(in, ok);
        if (p) {
            free(g->problem);
            g->problem = p;
            g->problem_k = k;
        }
    }
    if (e->group_done)
        print_group(ro, g);
}

/* --submission: each test output is offered; in search mode only the
 * outputs of a pair that solves every train sample, once it is done. */
static void submit(Totals *t, Group *g, const Instance *in, int ok, bool group_done)
{
    int task = (int)(g->task - t->tasks0), prog = (int)(g->prog - t->progs0);
    int k = in->sample - g->task->ntrain;
    StrBuf sb;
    sb_init(&sb);
    if (k < 0)
        g->train_ok += ok == 1;
    else if (in->status == INST_DONE && sb_json_grid(&sb, in->result)) {
        if (!t->ro->all_pairs)
            sub_offer_json(t->ro->submission, task, k, prog, sb.buf);
        else {
            if (!g->pending)
                g->pending = calloc((size_t)g->task->ntest, sizeof *g->pending);
            g->pending[k] = sb.buf;
        }
        sb_init(&sb);
    }
    sb_free(&sb);
    if (!group_done || !g->pending)
        return;
    bool solves = g->task->ntrain > 0 && g->train_ok == g->task->ntrain;
    for (int j = 0; solves && j < g->task->ntest; j++)
        if (g->pending[j]) {
            sub_offer_json(t->ro->submission, task, j, prog, g->pending[j]);
            g->pending[j] = NULL;       /* the submission owns it now */
        }
    ending_group_release(g);
}

void ending_shared(Totals *t, Instance *in, Ending *e)
{
    Group *g = in->user;
    t->done_instances++;
    if (t->progress)
        ending_progress(t, false);
    if (in->status != INST_DONE)
        t->c.errors++;
    if (e->group_done)
        t->c.groups_done++;
    if (g->batt) {
        t->c.batt_calls++;
        score_batt(t, in, e->batt_eq);
        free(e->batt_eq);
        if (t->ro->on_result)
            t->ro->on_result(in, -1, t->ro->on_result_arg);
        return;
    }
    if (g->shape && g->shape->known && in->status == INST_DONE)
        shape_check(t, in, g->shape);
    if (t->ro->submission)
        submit(t, g, in, e->ok, e->group_done);
    if (t->ro->on_result)
        t->ro->on_result(in, e->ok, t->ro->on_result_arg);
    if (e->ok >= 0) {
        t->c.pairs++;
        t->c.pairs_correct += e->ok;
    } else {
        t->c.unscored++;
    }
    if (in->status == INST_BUDGET) {
        if (stopped_by_clock(in))
            t->c.time_stops++;
        else
            t->c.work_stops++;
    }
    if (e->group_done)
        t->c.groups_solved += group_solved(g);
}

void ending_on_done(Instance *in, void *arg)
{
    Totals *t = arg;
    Ending e;
    ending_local(t->ro, in, &e);
    ending_shared(t, in, &e);
}


void ending_group_release(Group *g)
{
    if (!g->pending)
        return;
    for (int j = 0; j < g->task->ntest; j++)
        free(g->pending[j]);
    free(g->pending);
    g->pending = NULL;
}

/* --all-pairs: a finished pair, and which programs solve which task */
void ending_note_pair(Totals *t, Group *g)
{
    int k = (int)(g->task - t->tasks0), known = g->n - g->unknown;
    t->pt.pairs_done_of[k]++;
    if (g->batt || known == 0 || g->correct != known)
        return;
    if (t->pt.nsolvers_of[k] == t->pt.capsolvers_of[k]) {
        t->pt.capsolvers_of[k] = t->pt.capsolvers_of[k] ? 2 * t->pt.capsolvers_of[k] : 4;
        t->pt.solvers_of[k] = realloc(t->pt.solvers_of[k], sizeof(char *) * (size_t)t->pt.capsolvers_of[k]);
        if (!t->pt.solvers_of[k])
            abort();
    }
    t->pt.solvers_of[k][t->pt.nsolvers_of[k]++] = g->prog->name;
}



