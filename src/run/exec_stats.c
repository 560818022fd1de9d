/* exec_stats.c -- the executor's counts for --stats: per op name, per
 * statement (an open-addressing table on (program, pc)), and one run's
 * counts merged into another's. */
#include "exec.h"
#include "byname.h"

#include <stdlib.h>
#include <string.h>

OpStats *exec_op_stats(ExecStats *st, const char *name)
{
    return byname_entry(&st->ops, &st->nops, &st->capops, sizeof(OpStats), 64, name);
}

StmtStats *exec_stmt_stats(ExecStats *st, const IrProgram *prog, int32_t pc)
{
    if (2 * (st->nstmts + 1) > st->stmt_mask + 1) {
        size_t oldcap = st->stmts ? st->stmt_mask + 1 : 0, cap = oldcap ? 2 * oldcap : 256;
        StmtStats *old = st->stmts;
        st->stmts = calloc(cap, sizeof *st->stmts);
        if (!st->stmts)
            abort();
        st->stmt_mask = cap - 1;
        st->nstmts = 0;
        for (size_t i = 0; i < oldcap; i++)
            if (old[i].prog)
                *exec_stmt_stats(st, old[i].prog, old[i].pc) = old[i];
        free(old);
    }
    size_t i = ((uintptr_t)prog / sizeof(IrProgram) * 31 + (size_t)pc) * 0x9E3779B97F4A7C15u
               >> 7 & st->stmt_mask;
    for (;; i = (i + 1) & st->stmt_mask) {
        StmtStats *e = &st->stmts[i];
        if (e->prog == prog && e->pc == pc)
            return e;
        if (!e->prog) {
            *e = (StmtStats){.prog = prog, .pc = pc};
            st->nstmts++;
            return e;
        }
    }
}

void exec_stats_merge(ExecStats *into, const ExecStats *from)
{
    into->steps += from->steps;
    into->batches += from->batches;
    into->calls += from->calls;
    into->inlined += from->inlined;
    if (from->max_batch > into->max_batch)
        into->max_batch = from->max_batch;
    into->cache_hits += from->cache_hits;
    into->cache_waits += from->cache_waits;
    into->cache_twins += from->cache_twins;
    into->cache_misses += from->cache_misses;
    into->cancelled += from->cancelled;
    for (int i = 0; i < from->nops; i++) {
        const OpStats *f = &from->ops[i];
        OpStats *o = exec_op_stats(into, f->name);
        o->calls += f->calls;
        o->batches += f->batches;
        if (f->max_batch > o->max_batch)
            o->max_batch = f->max_batch;
        for (int k = 0; k < 8; k++)
            o->hist[k] += f->hist[k];
        o->seconds += f->seconds;
    }
    for (size_t i = 0; from->stmts && i <= from->stmt_mask; i++)
        if (from->stmts[i].prog) {
            StmtStats *e = exec_stmt_stats(into, from->stmts[i].prog, from->stmts[i].pc);
            e->calls += from->stmts[i].calls;
            e->seconds += from->stmts[i].seconds;
        }
}

void exec_stats_free(ExecStats *st)
{
    free(st->ops);
    free(st->stmts);
    free(st->slow);
    st->ops = NULL;
    st->stmts = NULL;
    st->slow = NULL;
}
