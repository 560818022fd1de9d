/* exec.c -- the lockstep executor and its batch scheduler. */
#include "exec.h"
#include "prim.h"
#include "callcache.h"
#include "team.h"
#include "inline.h"

#include <pthread.h>
#include <stdatomic.h>
#include <stdlib.h>
#include <string.h>
#include <time.h>

void *xmalloc_(size_t n);

/* Time budgets from this long are kept on the coarse clock. */
#define COARSE_BUDGET_NS 1000000000ull

/* ---- op keys ------------------------------------------------------------ */

static uint64_t mix(uint64_t h, uint64_t x)
{
    h ^= x + 0x9e3779b97f4a7c15ULL + (h << 6) + (h >> 2);
    return h;
}

/* Field by field, not memset: a step makes one key per instance, and the
 * string store's start-up outweighed the few words it clears. */
static void opkey_make(const Instance *in, const IrStmt *s, OpKey *k)
{
    k->callee = operand_value(in, &s->callee);
    k->nargs = s->nargs;
    uint64_t h = mix(0, (uintptr_t)k->callee);
    k->fixed[0] = NULL;         /* past nargs nothing is read but this */
    for (int i = 0; i < s->nargs; i++) {
        const Value *v = operand_value(in, &s->args[i]);
        if (s->args[i].slot >= 0 && v->type != V_FUNC)
            v = NULL;
        h = mix(h, (uintptr_t)v);
        k->fixed[i] = v;
    }
    k->hash = h;
}

static int opkey_cmp(const OpKey *a, const OpKey *b)
{
    if (a->hash != b->hash)
        return a->hash < b->hash ? -1 : 1;
    if (a->callee != b->callee)
        return (uintptr_t)a->callee < (uintptr_t)b->callee ? -1 : 1;
    if (a->nargs != b->nargs)
        return a->nargs < b->nargs ? -1 : 1;
    for (int i = 0; i < a->nargs; i++)
        if (a->fixed[i] != b->fixed[i])
            return (uintptr_t)a->fixed[i] < (uintptr_t)b->fixed[i] ? -1 : 1;
    return 0;
}

static void label_operand(StrBuf *sb, const Value *v)
{
    if (!v) {
        sb_puts(sb, "\xc2\xb7");     /* middle dot: per-instance data */
    } else if (v->type == V_FUNC) {
        sb_puts(sb, v->u.fn.name);
    } else {
        char *r = v_repr_str(v);
        if (strlen(r) > 24)
            strcpy(r + 21, "...");
        sb_puts(sb, r);
        free(r);
    }
}

void opkey_label(const OpKey *k, StrBuf *sb)
{
    label_operand(sb, k->callee);
    sb_putc(sb, '(');
    for (int i = 0; i < k->nargs; i++) {
        if (i)
            sb_puts(sb, ", ");
        label_operand(sb, k->fixed[i]);
    }
    sb_putc(sb, ')');
}

static double now_seconds(void)
{
    struct timespec ts;
    clock_gettime(CLOCK_MONOTONIC, &ts);
    return (double)ts.tv_sec + 1e-9 * (double)ts.tv_nsec;
}

/* One piece of a batch counts its calls and time; the first piece also
 * counts the batch (its size is the whole batch's). */
static void op_account(ExecStats *st, const Value *callee, int n, double dt, bool first)
{
    OpStats *o = exec_op_stats(st, callee->type == V_FUNC ? callee->u.fn.name : "<not callable>");
    o->calls += n;
    o->seconds += dt;
    if (!first)
        return;
    o->batches++;
}

static void op_account_batch(ExecStats *st, const Value *callee, int n)
{
    OpStats *o = exec_op_stats(st, callee->type == V_FUNC ? callee->u.fn.name : "<not callable>");
    if (n > o->max_batch)
        o->max_batch = n;
    int b = 0;
    for (long lim = 1; b < 7 && n > lim; lim = lim == 1 ? 3 : lim * 4 + 3)
        b++;
    o->hist[b]++;
}

/* ---- work items and threads -------------------------------------------- */

typedef struct {
    Batch b;
    const Backend *be;
    bool first_piece;
    double seconds;
} WorkItem;

typedef struct {
    WorkItem *items;
    bool timed;
} WorkQueue;

static void work_item(void *arg, int i)
{
    WorkQueue *q = arg;
    WorkItem *w = &q->items[i];
    double t0 = q->timed ? now_seconds() : 0;
    w->b.waited = 0;
    w->be->run_batch(w->be, &w->b);
    if (q->timed)
        w->seconds = now_seconds() - t0 - w->b.waited;
}

static void work_leave(void *arg)
{
    (void)arg;
    prim_thread_done();     /* what a step's calls kept, not kept past it */
}

/* Each instance of a piece charges its statement with the time its call
 * took (cpu_call's clock, in spent_ns); pieces whose calls are not timed
 * one by one (the device's) share the piece's time evenly. */
typedef struct {
    uint64_t spent;
    int32_t pc;
} Before;

static void stmt_account(ExecStats *st, const WorkItem *w, const Before *before)
{
    uint64_t sum = 0;
    for (int i = 0; i < w->b.n; i++)
        sum += w->b.inst[i]->spent_ns - before[i].spent;
    for (int i = 0; i < w->b.n; i++) {
        const Instance *in = w->b.inst[i];
        StmtStats *e = exec_stmt_stats(st, in->prog, before[i].pc);
        e->calls++;
        e->seconds += sum ? (double)(in->spent_ns - before[i].spent) / 1e9
                          : w->seconds / w->b.n;
    }
}

/* The whole batch size of the batch whose first piece is items[w]. */
static int batch_size_of(const WorkItem *items, int nitems, int w)
{
    int n = items[w].b.n;
    for (int k = w + 1; k < nitems && !items[k].first_piece; k++)
        n += items[k].b.n;
    return n;
}

/* A cached result as a key of the calls that take it (callcache.c keys by
 * identity the values so marked); shared between threads, so is all it
 * reaches, counted atomically from now on. */
static void cache_mark(Value *v, bool shared)
{
    if (shared)
        v_make_atomic(v);
    else if (!v_in_arena(v) && v->refs >= 0)
        v->flags |= V_FLAG_ATOMIC;
}

/* Run the step's work items on up to `jobs` threads of the run's team,
 * started at the first step that has work for them.  Every instance is in
 * exactly one item, and items touch only their own instances. */
static void run_items(Team **team, WorkItem *items, int nitems, int jobs, bool timed)
{
    WorkQueue q = {.items = items, .timed = timed};
    if (jobs > 1 && nitems > 1 && (*team || (*team = team_new(TEAM_ALONE_NS)))) {
        team_for(*team, jobs, nitems, work_item, work_leave, &q);
        return;
    }
    for (int i = 0; i < nitems; i++)
        work_item(&q, i);
    work_leave(&q);
}

/* ---- the loop ----------------------------------------------------------- */

typedef struct {
    OpKey key;
    Instance *in;
    CacheEntry *entry;       /* the cache entry it computes, or waits for */
    bool waits;              /* an identical call in this step computes it */
} Pending;

/* An instance waiting at a call this step: its call's operands and cache key */
typedef struct {
    Instance *in;
    Value *callee, *argv[IR_MAX_ARGS];
    uint64_t h;
    bool keyed;              /* h is a key (the call is cacheable) */
} Ready;

static int pending_cmp(const void *a, const void *b)
{
    const Pending *x = a, *y = b;
    int c = opkey_cmp(&x->key, &y->key);
    if (c)
        return c;
    /* keep instance order inside a batch: results do not depend on it, logs do */
    return (x->in > y->in) - (x->in < y->in);
}

/* pend in pending_cmp's order.  A step holds a few instances of a program
 * (a batt task's samples, twice): for those an insertion sort, which
 * qsort's setup outweighs. */
static void pending_sort(Pending *p, int n)
{
    if (n > 16) {
        qsort(p, (size_t)n, sizeof *p, pending_cmp);
        return;
    }
    for (int i = 1; i < n; i++) {
        if (pending_cmp(&p[i - 1], &p[i]) <= 0)
            continue;           /* in order already, as a step's instances mostly are */
        Pending x = p[i];
        int j = i;
        for (; j > 0 && pending_cmp(&p[j - 1], &x) > 0; j--)
            p[j] = p[j - 1];
        p[j] = x;
    }
}

/* Drop the values no later statement reads: batt programs have hundreds
 * of statements and thousands of live instances. */
static void free_dead(Instance *in, int pc)
{
    if (!in->free_after || !in->free_after[pc])
        return;
    for (const int32_t *p = in->free_after[pc]; *p >= 0; p++) {
        v_decref(in->env[*p]);
        in->env[*p] = NULL;
    }
}

/* Per program: for each statement, the slots whose last read it is
 * (-1 terminated; NULL when none).  Slots never read are kept.  One
 * block, the lists after the pointers: every chunk of a batt run plans
 * its program again. */
static int32_t **plan_make(const IrProgram *p)
{
    size_t nst = (size_t)(p->nstmts ? p->nstmts : 1), nsl = (size_t)(p->nslots ? p->nslots : 1);
    int32_t *last = xmalloc_(sizeof(int32_t) * (nsl + nst));
    int32_t *count = last + nsl;
    for (int i = 0; i < p->nslots; i++)
        last[i] = -1;
    for (int k = 0; k < p->nstmts; k++) {
        const IrStmt *s = &p->stmts[k];
        count[k] = 0;
        if (s->kind == IR_CALL || s->kind == IR_UNPACK)
            if (s->callee.slot >= 0)
                last[s->callee.slot] = k;
        for (int a = 0; a < s->nargs; a++)
            if (s->args[a].slot >= 0)
                last[s->args[a].slot] = k;
    }
    size_t lists = 0;
    for (int i = 0; i < p->nslots; i++)
        if (last[i] >= 0)
            count[last[i]]++;
    for (int k = 0; k < p->nstmts; k++)
        if (count[k] && p->stmts[k].kind != IR_RETURN)
            lists += (size_t)count[k] + 1;
    int32_t **plan = xmalloc_(nst * sizeof(int32_t *) + lists * sizeof(int32_t));
    int32_t *next = (int32_t *)(plan + nst);
    for (int k = 0; k < p->nstmts; k++) {
        plan[k] = NULL;
        if (count[k] && p->stmts[k].kind != IR_RETURN) {
            plan[k] = next;
            next += count[k] + 1;
            plan[k][0] = -1;
            count[k] = 0;
        }
    }
    for (int i = 0; i < p->nslots; i++)
        if (last[i] >= 0 && plan[last[i]]) {
            plan[last[i]][count[last[i]]++] = i;
            plan[last[i]][count[last[i]]] = -1;
        }
    free(last);
    return plan;
}

/* Statements that read, directly or through earlier ones, a parameter
 * that varies by sample (param_varies). */
static uint8_t *plan_varies(const IrProgram *p)
{
    uint8_t *slot = calloc((size_t)(p->nslots ? p->nslots : 1), 1);
    uint8_t *stmt = calloc((size_t)(p->nstmts ? p->nstmts : 1), 1);
    if (!slot || !stmt)
        abort();
    for (int i = 0; i < p->nparams && i < p->nslots; i++)
        slot[i] = param_varies(p->dialect, i);
    for (int k = 0; k < p->nstmts; k++) {
        const IrStmt *s = &p->stmts[k];
        bool v = s->callee.slot >= 0 && slot[s->callee.slot];
        for (int a = 0; a < s->nargs; a++)
            v |= s->args[a].slot >= 0 && slot[s->args[a].slot];
        stmt[k] = v;
        if ((s->kind == IR_CALL || s->kind == IR_BIND) && s->dst >= 0)
            slot[s->dst] |= v;
        if (s->kind == IR_UNPACK)
            for (int d = 0; d < s->ndst; d++)
                if (s->dsts[d] >= 0)
                    slot[s->dsts[d]] |= v;
    }
    free(slot);
    return stmt;
}

/* step_at[j]: the step in which lockstep runs statement j, one call per
 * step; [nstmts]: the step of falling off the end. */
static int32_t *plan_steps(const IrProgram *p)
{
    int32_t *at = xmalloc_(sizeof *at * (size_t)(p->nstmts + 1)), calls = 0;
    for (int k = 0; k < p->nstmts; k++) {
        at[k] = 1 + calls;
        calls += p->stmts[k].kind == IR_CALL || p->stmts[k].kind == IR_UNPACK;
    }
    at[p->nstmts] = 1 + calls;
    return at;
}

/* prog's plans in p, made there the first time. */
static const ExecPlan *plans_of(ExecPlans *p, const IrProgram *prog)
{
    for (int q = 0; q < p->n; q++)
        if (p->plan[q].prog == prog)
            return &p->plan[q];
    if (p->n == p->cap) {
        p->cap = p->cap ? 2 * p->cap : 4;
        p->plan = realloc(p->plan, sizeof *p->plan * (size_t)p->cap);
        if (!p->plan)
            abort();
    }
    p->plan[p->n] = (ExecPlan){prog, plan_make(prog), plan_varies(prog), plan_steps(prog)};
    return &p->plan[p->n++];
}

void exec_plans_free(ExecPlans *p)
{
    for (int q = 0; q < p->n; q++) {
        free(p->plan[q].free_after);
        free(p->plan[q].varies);
        free(p->plan[q].steps);
    }
    free(p->plan);
    memset(p, 0, sizeof *p);
}

/* Advance an instance over statements that are not calls; true if it now
 * waits at a call. */
static __attribute__((noinline)) bool advance_walk(Instance *in, const ExecOptions *opt)
{
    while (in->status == INST_RUNNING) {
        if (in->pc >= in->prog->nstmts) {
            in->result = v_none();
            instance_finish(in, INST_DONE, opt);
            return false;
        }
        const IrStmt *s = &in->prog->stmts[in->pc];
        switch (s->kind) {
        case IR_CALL:
        case IR_UNPACK:
            return true;
        case IR_RETURN:
            if (s->nargs && s->args[0].slot < -1) {
                /* `return o, s`: the records are the result (in->records) */
                in->result = v_none();
            } else if (s->nargs == 1) {
                in->result = v_incref(operand_value(in, &s->args[0]));
            } else {
                Value *t = v_tuple_new(s->nargs);
                for (int i = 0; i < s->nargs; i++)
                    v_titems(t)[i] = v_incref(operand_value(in, &s->args[i]));
                in->result = t;
            }
            instance_finish(in, INST_DONE, opt);
            return false;
        case IR_BIND:
            in->env[s->dst] = v_incref(operand_value(in, &s->args[0]));
            if (opt->on_assign)
                opt->on_assign(in, s, opt->on_done_arg);
            free_dead(in, in->pc);
            in->pc++;
            break;
        case IR_RECORD: {
            Value *rec = v_tuple_new(s->nargs);
            for (int i = 0; i < s->nargs; i++)
                v_titems(rec)[i] = v_incref(operand_value(in, &s->args[i]));
            int l = s->dst ? 1 : 0;
            if (in->nrecords[l] == in->caprecords[l]) {
                in->caprecords[l] = in->caprecords[l] ? 2 * in->caprecords[l] : 16;
                in->records[l] = realloc(in->records[l], sizeof(Value *) * (size_t)in->caprecords[l]);
                if (!in->records[l])
                    abort();
            }
            in->records[l][in->nrecords[l]++] = rec;
            free_dead(in, in->pc);
            in->pc++;
            break;
        }
        default:   /* list declarations: no computation, but --trace records them */
            if (s->kind == IR_EMPTY_LIST && opt->on_assign)
                opt->on_assign(in, s, opt->on_done_arg);
            in->pc++;
            break;
        }
    }
    return false;
}

/* An instance at a call, as most are after their last one, answers
 * without advance_walk's frame. */
static inline bool advance(Instance *in, const ExecOptions *opt)
{
    if (in->status == INST_RUNNING && in->pc < in->prog->nstmts) {
        int kind = in->prog->stmts[in->pc].kind;
        if (kind == IR_CALL || kind == IR_UNPACK)
            return true;
    }
    return advance_walk(in, opt);
}

/* advance, and an instance it left stopped (not done: advance reports
 * those itself) finished; true when the instance waits at a call.  This
 * and call_done are inlined: a step runs them once per instance. */
static inline __attribute__((always_inline)) bool
advance_or_finish(Instance *in, const ExecOptions *opt)
{
    if (advance(in, opt))
        return true;
    if (in->status != INST_DONE && in->status != INST_RUNNING)
        instance_finish(in, in->status, opt);
    return false;
}

/* After an instance's call completed (instance_complete): finished where
 * the call stopped it, else its assignment reported and the slots dead
 * after the call's statement freed; true when it runs on. */
static inline __attribute__((always_inline)) bool
call_done(Instance *in, const ExecOptions *opt)
{
    if (in->status != INST_RUNNING) {
        instance_finish(in, in->status, opt);
        return false;
    }
    int pc = in->pc - 1;
    if (opt->on_assign)
        opt->on_assign(in, &in->prog->stmts[pc], opt->on_done_arg);
    free_dead(in, pc);
    return true;
}

/* The calls inline.h names, run one after another as the scan meets them
 * (accounted as a batch's would be); true when the instance then waits at
 * another call, false when it has finished. */
static bool run_inline(Instance *in, const ExecOptions *opt, ExecStats *st)
{
    uint64_t clock = 0;
    for (;;) {
        const IrStmt *s = &in->prog->stmts[in->pc];
        if (s->kind != IR_CALL)
            return true;
        Value *callee = operand_value(in, &s->callee);
        if (!inline_call(callee, s->nargs))
            return true;
        int pc = in->pc;
        uint64_t spent = in->spent_ns;
        double t0 = opt->collect_ops ? now_seconds() : 0;
        if (opt->verbose && opt->log) {
            OpKey k;
            opkey_make(in, s, &k);
            StrBuf sb;
            sb_init(&sb);
            opkey_label(&k, &sb);
            fprintf(opt->log, "inline: %s -> cpu\n", sb.buf);
            sb_free(&sb);
        }
        instance_complete(in, cpu_call_at(in, &clock));
        st->calls++;
        st->inlined++;
        if (opt->collect_ops) {
            op_account(st, callee, 1, now_seconds() - t0, false);
            StmtStats *e = exec_stmt_stats(st, in->prog, pc);
            e->calls++;
            e->seconds += (double)(in->spent_ns - spent) / 1e9;
            clock = 0;          /* the next call is not charged with this bookkeeping */
        }
        if (!call_done(in, opt) || !advance_or_finish(in, opt))
            return false;
    }
}

int exec_run(Instance **insts, int n, const ExecOptions *opt, ExecStats *st)
{
    Pending *pend = xmalloc_(sizeof(Pending) * (size_t)(n ? n : 1));
    Ready *ready = xmalloc_(sizeof(Ready) * (size_t)(n ? n : 1));
    Instance **members = xmalloc_(sizeof(Instance *) * (size_t)(n ? n : 1));
    Before *before = opt->collect_ops ? xmalloc_(sizeof *before * (size_t)(n ? n : 1)) : NULL;
    ExecStats local = {0};
    if (st)
        local = *st;   /* accumulate over chunks */
    int rc = 0;
    int jobs = opt->jobs > 0 ? opt->jobs : 1;
    /* A cached result reaches other instances, on other threads where the
     * step's calls fan out: then its counts change atomically.  On one
     * thread (the cache is the thread's own) they need not. */
    bool shared = jobs > 1;
    int capitems = 64;
    WorkItem *items = xmalloc_(sizeof *items * (size_t)capitems);
    Team *team = NULL;
    CallCache *cache = opt->no_cache ? NULL : cache_of_thread();
    prim_value(0);   /* lazily built tables: build them before any thread runs */
    v_int(0);
    /* one plan per distinct program (instances of a program are adjacent) */
    ExecPlans own = {0}, *plans = opt->plans ? opt->plans : &own;
    const ExecPlan *plan = NULL;
    for (int i = 0; i < n; i++) {
        Instance *in = insts[i];
        in->cx.work_limit = opt->work_limit;
        cx_arm(&in->cx);
        /* --stats times every instance (its costliest pairs), budget or not */
        in->time_limit_ns = opt->time_limit_ns ? opt->time_limit_ns
                            : opt->collect_ops ? UINT64_MAX / 4 : 0;
        /* a clock read per call was a few percent of runs of small calls;
         * a budget of seconds does not see the coarse clock's ticks */
        in->coarse_clock = !opt->collect_ops && in->time_limit_ns >= COARSE_BUDGET_NS;
        in->call_memo = !opt->no_cache;
        if (!plan || plan->prog != in->prog)
            plan = plans_of(plans, in->prog);
        in->free_after = (const int32_t *const *)plan->free_after;
        in->varies = plan->varies;
        in->step_at = plan->steps;
    }

    for (;;) {
        if (opt->interrupted && atomic_load_explicit(opt->interrupted, memory_order_relaxed)) {
            rc = -1;
            break;
        }
        int np = 0, nwait = 0;
        long step = ++local.steps;
        bool any = false;
        /* First the instances' keys, each one's slot fetched as its key
         * is known, so that the lookups below find them arrived: a step's
         * samples look up different keys, each slot cold. */
        int nready = 0;
        for (int i = 0; i < n; i++) {
            Instance *in = insts[i];
            if (in->status != INST_RUNNING)
                continue;
            if (instance_doomed(in)) {
                instance_cancel(in);
                local.cancelled++;
                instance_finish(in, in->status, opt);
                continue;
            }
            if (!advance_or_finish(in, opt) || !run_inline(in, opt, &local))
                continue;
            const IrStmt *s = &in->prog->stmts[in->pc];
            Ready *r = &ready[nready++];
            r->in = in;
            for (int a = 0; a < s->nargs; a++)
                r->argv[a] = operand_value(in, &s->args[a]);
            r->callee = operand_value(in, &s->callee);
            /* grids by value where equal ones recur: a generated batt
             * program reaches a primitive with the same grid along several
             * statement paths; a hand-written solver seldom does, and
             * hashing its new grids costs more than it saves */
            bool by_value = in->prog->dialect == DIALECT_TOKPIDJIN;
            r->keyed = cache && (s->kind == IR_CALL || s->kind == IR_UNPACK) &&
                       cache_key(r->callee, r->argv, s->nargs, by_value, &r->h);
            if (r->keyed)
                cache_prefetch(cache, r->h);
        }
        for (int k = 0; k < nready; k++) {
            Instance *in = ready[k].in;
            any = true;
            const IrStmt *s = &in->prog->stmts[in->pc];
            CacheEntry *e = NULL;
            uint64_t h = ready[k].h;
            Value *const *argv = ready[k].argv, *callee = ready[k].callee;
            if (ready[k].keyed) {
                if (!in->cache_filter) {
                    in->cache_filter = calloc(CACHE_FILTER_WORDS, sizeof(uint64_t));
                    if (!in->cache_filter)
                        abort();
                }
                /* never the same object twice (see callcache.h): an entry
                 * this instance took is passed over; its result comes back
                 * as a twin where one can be made, else a second entry made
                 * for the key serves every instance's second call */
                CacheEntry *mine;
                e = cache_find(cache, h, callee, argv, s->nargs, in->cache_filter, &mine);
                if (!e || !e->result) {
                    Value *twin = mine ? cache_twin(mine->result) : NULL;
                    if (twin) {
                        if (twin == mine->result)   /* the filter may err: it may be another's */
                            cache_mark(twin, shared);
                        instance_complete(in, twin);
                        in->done_step = step;
                        local.cache_twins++;
                        continue;
                    }
                }
                if (e && e->result) {
                    cache_mark(e->result, shared);
                    filter_set(in->cache_filter, e->id);
                    instance_complete(in, v_incref(e->result));
                    in->done_step = step;
                    local.cache_hits++;
                    continue;
                } else if (e) {
                    filter_set(in->cache_filter, e->id);
                    pend[n - 1 - nwait].in = in;    /* waiters fill pend from the end */
                    pend[n - 1 - nwait].entry = e;
                    pend[n - 1 - nwait].waits = true;
                    nwait++;
                    continue;
                } else {
                    e = cache_add(cache, h, callee, argv, s->nargs, in);
                    if (e) {
                        filter_set(in->cache_filter, e->id);
                        e->varies = in->varies[in->pc];
                    }
                }
            }
            pend[np].in = in;
            pend[np].entry = e;
            pend[np].waits = false;
            opkey_make(in, s, &pend[np].key);
            np++;
        }
        if (!any)
            break;
        pending_sort(pend, np);
        for (int i = 0; i < np; i++)
            members[i] = pend[i].in;
        /* plan: batches in key order, each to the first backend that takes it */
        int nitems = 0;
        for (int i = 0; i < np;) {
            int j = i + 1;
            while (j < np && opkey_cmp(&pend[i].key, &pend[j].key) == 0)
                j++;
            Batch b = {.key = pend[i].key, .n = j - i, .inst = members + i};
            const Backend *be = backend_pick(&b.key, b.n);
            if (opt->verbose && opt->log) {
                StrBuf sb;
                sb_init(&sb);
                opkey_label(&b.key, &sb);
                fprintf(opt->log, "batch %ld: %s x%d -> %s\n", local.batches,
                        sb.buf, b.n, be->name);
                sb_free(&sb);
            }
            local.batches++;
            local.calls += b.n;
            if (b.n > local.max_batch)
                local.max_batch = b.n;
            /* CPU batches split into pieces the worker threads can share */
            int piece = be == &backend_cpu && jobs > 1 ? (np + jobs * 4 - 1) / (jobs * 4) : b.n;
            if (piece < 1)
                piece = 1;
            for (int k = 0; k < b.n; k += piece) {
                if (nitems == capitems) {
                    capitems *= 2;
                    items = realloc(items, sizeof *items * (size_t)capitems);
                    if (!items)
                        abort();
                }
                WorkItem *w = &items[nitems++];
                w->b = b;
                w->b.inst = b.inst + k;
                w->b.n = b.n - k < piece ? b.n - k : piece;
                w->be = be;
                w->first_piece = k == 0;
                w->seconds = 0;
            }
            i = j;
        }
        if (before)
            for (int k = 0; k < np; k++)
                before[k] = (Before){.spent = members[k]->spent_ns, .pc = members[k]->pc};
        run_items(&team, items, nitems, jobs, opt->collect_ops);
        if (opt->collect_ops)
            for (int w = 0; w < nitems; w++)
            {
                op_account(&local, items[w].b.key.callee, items[w].b.n,
                           items[w].seconds, items[w].first_piece);
                if (items[w].first_piece)
                    op_account_batch(&local, items[w].b.key.callee,
                                     batch_size_of(items, nitems, w));
                stmt_account(&local, &items[w], before + (items[w].b.inst - members));
            }
        for (int k = 0; k < np; k++)
            members[k]->done_step = step;
        /* computed results join the cache; waiters take them */
        for (int k = 0; k < np; k++) {
            CacheEntry *e = pend[k].entry;
            if (!e)
                continue;
            Instance *rep = pend[k].in;
            if (rep->status == INST_RUNNING) {
                const IrStmt *done = &rep->prog->stmts[rep->pc - 1];
                Value *r = done->kind == IR_UNPACK ? rep->unpacked : rep->env[done->dst];
                /* made thread-safe when first shared, not before: most
                 * results are never asked for again */
                e->weight = v_is_container(r) ? 1 + (uint32_t)v_len(r) : 1;
                cache->pinned += e->weight;
                e->result = v_incref(r);
                e->rep = NULL;
                local.cache_misses++;
            }
        }
        int nretry = 0;
        for (int w = 0; w < nwait; w++) {
            Pending *p = &pend[n - 1 - w];
            if (p->entry->result) {
                cache_mark(p->entry->result, shared);
                instance_complete(p->in, v_incref(p->entry->result));
                p->in->done_step = step;
                local.cache_waits++;
            } else {
                members[nretry++] = p->in;   /* the computing call failed: compute our own */
            }
        }
        for (int k = 0; k < np; k++)
            if (pend[k].entry && !pend[k].entry->result)
                cache_drop(cache, pend[k].entry);
        if (nretry) {
            Batch b = {.n = nretry, .inst = members};
            backend_cpu.run_batch(&backend_cpu, &b);
            for (int k = 0; k < nretry; k++)
                members[k]->done_step = step;
        }
        if (cache && (cache->count >= cache->limit || cache->pinned >= cache->pinned_limit))
            cache_clear(cache);
        /* results stream out in a fixed order, whatever the thread count */
        for (int i = 0; i < n; i++) {
            Instance *in = insts[i];
            if (in->done_step != step)
                continue;
            if (in->status != INST_RUNNING)
                local.cancelled += in->cancelled;
            call_done(in, opt);
        }
    }
    if (cache && !opt->keep_cache)
        cache_clear(cache);
    free(items);
    team_free(team);
    exec_plans_free(&own);
    for (int i = 0; i < n; i++)
        insts[i]->free_after = NULL, insts[i]->varies = NULL, insts[i]->step_at = NULL;
    free(pend);
    free(ready);
    free(members);
    free(before);
    if (st)
        *st = local;
    return rc;
}
