/* stats.c -- the --stats report: per op calls, batches, batch sizes, time,
 * what the call cache saved and the costliest pairs, as a table or JSON. */
#include "exec.h"
#include "stats.h"
#include "jsonout.h"

#include <stdlib.h>
#include <string.h>

static int op_by_time(const void *a, const void *b)
{
    const OpStats *x = a, *y = b;
    return (x->seconds < y->seconds) - (x->seconds > y->seconds);
}

static int stmt_by_time(const void *a, const void *b)
{
    const StmtStats *x = *(const StmtStats *const *)a, *y = *(const StmtStats *const *)b;
    if (x->seconds != y->seconds)
        return (x->seconds < y->seconds) - (x->seconds > y->seconds);
    int c = strcmp(x->prog->name, y->prog->name);
    return c ? c : (x->pc > y->pc) - (x->pc < y->pc);
}

/* The statement's callee as written: a primitive's name, or the variable
 * holding the function ("t8" in `t9 = t8(I)`). */
static const char *stmt_op(const StmtStats *e)
{
    const IrStmt *s = &e->prog->stmts[e->pc];
    if (s->callee.slot >= 0)
        return e->prog->slot_names[s->callee.slot];
    return s->callee.k->type == V_FUNC ? s->callee.k->u.fn.name : "<not callable>";
}

/* What it assigns: "x3", or "a, b" for an unpacking. */
static void stmt_assigns(const StmtStats *e, StrBuf *sb)
{
    const IrStmt *s = &e->prog->stmts[e->pc];
    if (s->kind != IR_UNPACK) {
        sb_puts(sb, e->prog->slot_names[s->dst]);
        return;
    }
    for (int k = 0; k < s->ndst; k++) {
        if (k)
            sb_puts(sb, ", ");
        sb_puts(sb, e->prog->slot_names[s->dsts[k]]);
    }
}

/* The costliest statements first, at most st->shown of them. */
static size_t costliest_stmts(const ExecStats *st, const StmtStats ***out)
{
    const StmtStats **by = xmalloc_(sizeof *by * (st->nstmts ? st->nstmts : 1));
    size_t n = 0;
    for (size_t i = 0; st->stmts && i <= st->stmt_mask; i++)
        if (st->stmts[i].prog)
            by[n++] = &st->stmts[i];
    qsort(by, n, sizeof *by, stmt_by_time);
    *out = by;
    return n < (size_t)st->shown ? n : (size_t)st->shown;
}

static const char *base_name(const char *path)
{
    const char *b = strrchr(path, '/');
    return b ? b + 1 : path;
}

void stats_print(FILE *f, ExecStats *st, bool json)
{
    double op_s = 0, device_s = backend_device_seconds();
    for (int i = 0; i < st->nops; i++)
        op_s += st->ops[i].seconds;
    qsort(st->ops, (size_t)st->nops, sizeof(OpStats), op_by_time);
    const StmtStats **by;
    size_t nby = costliest_stmts(st, &by);
    StrBuf sb;
    sb_init(&sb);
    static const char *const bins[8] = {"1", "2-3", "4-15", "16-63", "64-255",
                                        "256-1023", "1024-4095", "4096+"};
    if (json) {
        fprintf(f, "{\"steps\": %ld, \"batches\": %ld, \"calls\": %ld, \"inlined\": %ld, "
                   "\"cache_hits\": %ld, "
                   "\"cache_waits\": %ld, \"cache_twins\": %ld, \"cancelled\": %ld, \"ruled_out\": %ld, "
                   "\"parse_s\": %.6f, \"load_s\": %.6f, \"run_s\": %.6f, \"op_s\": %.6f, "
                   "\"device_s\": %.6f, \"ops\": [",
                st->steps, st->batches, st->calls, st->inlined, st->cache_hits, st->cache_waits,
                st->cache_twins,
                st->cancelled, st->ruled_out, st->parse_s, st->load_s, st->run_s, op_s, device_s);
        for (int i = 0; i < st->nops; i++) {
            OpStats *o = &st->ops[i];
            fprintf(f, "%s{\"op\": ", i ? ", " : "");
            json_string(f, o->name);
            fprintf(f, ", \"calls\": %ld, \"batches\": %ld, \"max_batch\": %ld, "
                       "\"seconds\": %.6f, \"batch_sizes\": {", o->calls, o->batches,
                    o->max_batch, o->seconds);
            for (int b = 0, first = 1; b < 8; b++)
                if (o->hist[b]) {
                    fprintf(f, "%s\"%s\": %ld", first ? "" : ", ", bins[b], o->hist[b]);
                    first = 0;
                }
            fputs("}}", f);
        }
        fputs("], \"slowest\": [", f);
        for (int i = 0; i < st->nslow; i++) {
            fprintf(f, "%s{\"program\": ", i ? ", " : "");
            json_string(f, st->slow[i].prog);
            fputs(", \"task\": ", f);
            json_string(f, st->slow[i].task);
            fprintf(f, ", \"instances\": %d, \"seconds\": %.9f}", st->slow[i].instances,
                    st->slow[i].seconds);
        }
        fputs("], \"statements\": [", f);
        for (size_t i = 0; i < nby; i++) {
            fputs(i ? ", {\"file\": " : "{\"file\": ", f);
            json_string(f, by[i]->prog->file ? by[i]->prog->file : st->path ? st->path : "");
            fprintf(f, ", \"line\": %d, \"program\": ", (int)by[i]->prog->stmts[by[i]->pc].line);
            json_string(f, by[i]->prog->name);
            fputs(", \"assigns\": ", f);
            sb.len = 0;
            stmt_assigns(by[i], &sb);
            json_string(f, sb.buf);
            fputs(", \"op\": ", f);
            json_string(f, stmt_op(by[i]));
            fprintf(f, ", \"calls\": %ld, \"seconds\": %.9f}", by[i]->calls, by[i]->seconds);
        }
        fputs("]}\n", f);
        free(by);
        sb_free(&sb);
        return;
    }
    fprintf(f, "%-34s %9s %8s %9s %10s %9s\n", "op", "calls", "batches", "mean", "max batch", "ms");
    for (int i = 0; i < st->nops; i++) {
        OpStats *o = &st->ops[i];
        fprintf(f, "%-34.34s %9ld %8ld %9.1f %10ld %9.2f\n", o->name, o->calls, o->batches,
                (double)o->calls / (double)o->batches, o->max_batch, 1e3 * o->seconds);
    }
    if (st->nslow) {
        fprintf(f, "%-34s %-24s %9s %9s\n", "costliest pairs: program", "task", "instances", "ms");
        for (int i = 0; i < st->nslow; i++)
            fprintf(f, "%-34.34s %-24.24s %9d %9.2f\n", st->slow[i].prog, st->slow[i].task,
                    st->slow[i].instances, 1e3 * st->slow[i].seconds);
    }
    if (nby) {
        fprintf(f, "%-34s %-24s %-9s %-16s %9s %9s\n", "costliest statements: where", "program",
                "assigns", "op", "calls", "ms");
        for (size_t i = 0; i < nby; i++) {
            char where[64];
            snprintf(where, sizeof where, "%s:%d",
                     base_name(by[i]->prog->file ? by[i]->prog->file : st->path ? st->path : "?"),
                     (int)by[i]->prog->stmts[by[i]->pc].line);
            sb.len = 0;
            stmt_assigns(by[i], &sb);
            fprintf(f, "%-34.34s %-24.24s %-9.9s %-16.16s %9ld %9.2f\n", where, by[i]->prog->name,
                    sb.buf, stmt_op(by[i]), by[i]->calls, 1e3 * by[i]->seconds);
        }
    }
    free(by);
    sb_free(&sb);
    fprintf(f, "%ld steps, %ld batches, %ld calls, %ld of them run inline outside the batches "
               "(nested calls inside an op are counted in its time)\n",
            st->steps, st->batches, st->calls, st->inlined);
    long answered = st->cache_hits + st->cache_waits + st->cache_twins, asked = st->calls + answered;
    fprintf(f, "call cache: %ld of %ld calls answered without computing (%.1f%%): %ld from earlier steps, "
               "%ld shared within a step, %ld as copies of the instance's own earlier result\n",
            answered, asked, asked ? 100.0 * (double)answered / (double)asked : 0.0,
            st->cache_hits, st->cache_waits, st->cache_twins);
    if (device_s > 0)   /* a device batch's time is one of its op's rows */
        fprintf(f, "op time: %.1f ms, of which %.1f ms (%.1f%%) in device batches (validation, "
                   "packing, transfers, kernels, rebuilding)\n",
                1e3 * op_s, 1e3 * device_s, op_s > 0 ? 100.0 * device_s / op_s : 0.0);
    fprintf(f, "wall time: program %.1f ms, tasks %.1f ms, run %.1f ms\n",
            1e3 * st->parse_s, 1e3 * st->load_s, 1e3 * st->run_s);
    if (st->cancelled)
        fprintf(f, "search: %ld instance%s stopped early, another sample of their program and task having failed\n",
                st->cancelled, st->cancelled == 1 ? "" : "s");
    if (st->ruled_out)
        fprintf(f, "search: %ld pair%s not run: the program's output shape follows from its input's "
                   "(shape.h), and an expected output of the task has another\n",
                st->ruled_out, st->ruled_out == 1 ? "" : "s");
}

