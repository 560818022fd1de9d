/* driver.c -- the run: programs paired with tasks into groups, groups
 * into chunks, chunks onto worker threads, and the closing summary.  What
 * an instance's end changes is ending.c; how the lines read,
 * src/io/format.h. */
#include "driver_int.h"
#include "callcache.h"
#include "prim.h"
#include "fanout.h"
#include "stats.h"
#include "pairing.h"
#include "spool.h"

#include <pthread.h>
#include <stdatomic.h>
#include <stdlib.h>
#include <unistd.h>
#include <string.h>

void *xmalloc_(size_t n);

/* A chunk's lines of one kind (out or trace) held until their turn: len
 * bytes in its thread's spool at off, else in memory (mem). */
typedef struct {
    char *mem;
    Spool *sp;
    size_t off, len;
} Held;

/* A thread's spool for one kind of lines, made on first use; tried once
 * one could not be (its lines then stay in memory). */
typedef struct {
    Spool *sp;
    bool tried;
} ThreadSpool;

/* A chunk: groups g0..g1, or (s1 > 0) samples s0..s1 of group g0 alone. */
typedef struct {
    int g0, g1, s0, s1;
} ChunkBounds;

typedef struct {
    Group *groups;
    const IrModule *m;
    ExecOptions eo;
    ChunkBounds *bounds;
    int n;
    atomic_int next;
    ExecStats *st;
    int rc;
    FILE *out, *trace;
    bool search;             /* --all-pairs without --trace: stop doomed pairs */
    /* chunks side by side: each writes to its thread's spool (spool.h),
     * else to memory, and the lines go out in chunk order, so the output
     * is the same for any --jobs */
    bool buffered;
    struct { Held out, trace; bool ready; } *bufs;
    Spool **spools;          /* every thread's, freed after the run */
    int nspools;
    int committed;
    int *order;              /* threads take chunks in this order (NULL: 0, 1, ...) */
    bool *taken;             /* [n], under output_lock */
    int first_free;          /* no chunk before it is free to take */
    size_t waiting;          /* bytes of finished chunks not written yet */
} Chunks;

/* Samples per part of a split group (see report_run). */
enum { PART_SAMPLES = 64 };

/* Lines that finished chunks may hold back while an earlier chunk runs:
 * past this, threads take the first chunk nobody has taken, which is what
 * holds them back.  Costliest first would otherwise keep most of a run's
 * lines waiting: in a spool they weigh on the disk (or a tmpfs), in memory
 * they outweighed everything else a run holds. */
#define WAITING_MAX ((size_t)8 << 20)

/* The stream a chunk writes h's lines to: its thread's spool ts, else
 * memory.  Under output_lock. */
static FILE *held_open(Chunks *cs, ThreadSpool *ts, Held *h)
{
    if (!ts->sp && !ts->tried) {
        ts->tried = true;
        Spool *sp = spool_new();
        Spool **grown = sp ? realloc(cs->spools, sizeof *grown * (size_t)(cs->nspools + 1)) : NULL;
        if (grown) {
            cs->spools = grown;
            cs->spools[cs->nspools++] = ts->sp = sp;
        } else {
            spool_free(sp);
        }
    }
    if (ts->sp) {
        h->sp = ts->sp;
        return spool_begin(h->sp, &h->off);
    }
    FILE *f = open_memstream(&h->mem, &h->len);
    if (!f) {
        fputs("arcrun: out of memory\n", stderr);
        abort();
    }
    return f;
}

/* The chunk has written all h's lines (to f, from held_open). */
static void held_close(Held *h, FILE *f)
{
    if (h->sp)
        h->len = spool_end(h->sp, h->off);
    else
        fclose(f);
}

/* h's lines out to `to` (under output_lock); nothing held after. */
static void held_write(Held *h, FILE *to)
{
    if (h->sp)
        spool_copy(h->sp, h->off, h->len, to);
    else if (h->len)
        fwrite(h->mem, 1, h->len, to);
    free(h->mem);
    h->mem = NULL;
}

/* Write out the finished chunks that are next in order (under output_lock);
 * at the end, `all` writes every finished one (a run stopped by Ctrl-C). */
static void commit_chunks(Chunks *cs, bool all)
{
    for (; cs->committed < cs->n; cs->committed++) {
        int c = cs->committed;
        if (!cs->bufs[c].ready) {
            if (all)
                continue;
            break;
        }
        /* none from a chunk that wrote its own */
        held_write(&cs->bufs[c].out, cs->out);
        held_write(&cs->bufs[c].trace, cs->trace);
        cs->waiting -= cs->bufs[c].out.len + cs->bufs[c].trace.len;
    }
    fflush(cs->out);
    if (cs->trace)
        fflush(cs->trace);
}

static pthread_mutex_t totals_lock = PTHREAD_MUTEX_INITIALIZER;
/* commit_chunks' writes: apart from the totals, which other chunks' ends
 * should not wait on while a chunk's lines go out */
static pthread_mutex_t output_lock = PTHREAD_MUTEX_INITIALIZER;

static void on_done_locked(Instance *in, void *arg)
{
    Totals *t = arg;
    Ending e;
    bool split = ((Group *)in->user)->split;   /* its parts end on several threads */
    if (split)
        pthread_mutex_lock(&totals_lock);
    ending_local(t->ro, in, &e);
    if (!split)
        pthread_mutex_lock(&totals_lock);
    ending_shared(t, in, &e);
    pthread_mutex_unlock(&totals_lock);
}

/* The sample a search runs first: the smallest input with a known output.
 * A wrong pair fails on any sample, and a program's time grows with its
 * grid, so the answer "lost" comes soonest there. */
static int lead_sample(const Task *t, int n)
{
    int best = n > 0 ? 0 : -1;
    size_t best_cells = SIZE_MAX;
    for (int s = 0; s < n; s++) {
        SampleDims d = task_dims(t, s);
        if (!d.oh)
            continue;
        size_t cells = (size_t)d.ih * d.iw;
        if (cells < best_cells) {
            best_cells = cells;
            best = s;
        }
    }
    return best;
}

/* A guess at a group's time, for ordering chunks: its program's length
 * times its samples' input cells.  Over the 400 solvers it ranks the
 * slowest pair (solve_a64e4611, 14% of the run) first. */
static uint64_t group_cost(const Group *g)
{
    uint64_t cells = 0;
    for (int s = 0; s < g->n; s++) {
        SampleDims d = task_dims(g->task, g->batt ? s / 2 : s);
        cells += (size_t)d.ih * d.iw;
    }
    return cells * (uint64_t)(g->prog->nstmts + 1);
}

typedef struct { uint64_t cost; int chunk; } ChunkCost;

static int by_cost(const void *a, const void *b)
{
    const ChunkCost *x = a, *y = b;
    if (x->cost != y->cost)
        return x->cost < y->cost ? 1 : -1;
    return (x->chunk > y->chunk) - (x->chunk < y->chunk);
}

/* Threads take the costliest chunks first (longest processing time first):
 * taken in file order, a long pair that comes late in the file runs alone
 * at the end while the other threads idle.  Lines still go out in chunk
 * order. */
static int *chunk_order(const Chunks *cs)
{
    ChunkCost *cc = xmalloc_(sizeof *cc * (size_t)cs->n);
    int *order = xmalloc_(sizeof *order * (size_t)cs->n);
    for (int c = 0; c < cs->n; c++) {
        cc[c] = (ChunkCost){0, c};
        for (int g = cs->bounds[c].g0; g < cs->bounds[c].g1; g++)
            cc[c].cost += group_cost(&cs->groups[g]);
        if (cs->bounds[c].s1)    /* a part: its share */
            cc[c].cost = cc[c].cost / (uint64_t)cs->groups[cs->bounds[c].g0].n *
                         (uint64_t)(cs->bounds[c].s1 - cs->bounds[c].s0);
    }
    qsort(cc, (size_t)cs->n, sizeof *cc, by_cost);
    for (int c = 0; c < cs->n; c++)
        order[c] = cc[c].chunk;
    free(cc);
    return order;
}

/* Takes chunks until none is left (or the run was interrupted). */
/* Open (or close) the tasks of groups g0..g1: a chunk's grids are made
 * as values when it starts and freed when it ends (task.h).  Groups of
 * one task sit side by side; should a task come back, it is simply
 * counted twice. */
static void chunk_tasks(const Chunks *cs, int g0, int g1, void (*fn)(const Task *))
{
    for (int g = g0; g < g1; g++)
        if (g == g0 || cs->groups[g].task != cs->groups[g - 1].task)
            fn(cs->groups[g].task);
}

/* The chunk a thread takes next, or -1 when none is left. */
static int next_chunk(Chunks *cs)
{
    if (!cs->buffered) {
        int i = atomic_fetch_add(&cs->next, 1);
        return i < cs->n ? (cs->order ? cs->order[i] : i) : -1;
    }
    pthread_mutex_lock(&output_lock);
    int c = -1;
    while (cs->first_free < cs->n && cs->taken[cs->first_free])
        cs->first_free++;
    if (cs->waiting > WAITING_MAX && cs->first_free < cs->n)
        c = cs->first_free;
    while (c < 0 && atomic_load(&cs->next) < cs->n) {
        int i = atomic_fetch_add(&cs->next, 1);
        int k = cs->order ? cs->order[i] : i;
        if (!cs->taken[k])
            c = k;
    }
    if (c >= 0)
        cs->taken[c] = true;
    pthread_mutex_unlock(&output_lock);
    return c;
}

/* A chunk's lines on their way out: the first of its groups whose lines
 * have not all gone, and where they go. */
typedef struct {
    Group *groups;
    int next, g1;
    FILE *out, *trace;
    bool stream;             /* hand lines on after each wave */
} ChunkLines;

/* After a wave: what it made is freed at once; the end of the chunk skips
 * it.  Lines go out as soon as no later instance can write one before
 * them, so a pair with thousands of samples does not hold all its lines:
 * instances run in group order, sample by sample, so the groups before
 * the wave's last one are done, and that one has written its lines up to
 * its next sample, all but --trace's, which follow lockstep over the
 * whole group. */
static void after_wave(Instance **wave, int m, void *arg)
{
    ChunkLines *cl = arg;
    for (int k = 0; k < m; k++) {
        instance_release(wave[k]);
        wave[k]->prog = NULL;
    }
    if (!cl->stream)
        return;
    const Group *last = wave[m - 1]->user;
    for (; cl->next < cl->g1; cl->next++) {
        Group *g = &cl->groups[cl->next];
        linebuf_flush(&g->out, cl->out);
        if (g == last && g->remaining > 0)
            break;
        linebuf_flush(&g->trace, cl->trace);
        if (g == last) {
            cl->next++;
            break;
        }
    }
}

static void *chunk_worker(void *arg)
{
    Chunks *cs = arg;
    Instance *insts = NULL, **ptrs = NULL;
    int cap = 0;
    ThreadSpool sp_out = {0}, sp_trace = {0};
    ExecStats st;
    memset(&st, 0, sizeof st);
    /* a batt program is planned once per thread, not once per task */
    ExecPlans plans = {0};
    ExecOptions eo = cs->eo;
    eo.plans = &plans;
    backend_worker_begin();
    for (int c; (c = next_chunk(cs)) >= 0; backend_worker_yield()) {
        pthread_mutex_lock(&totals_lock);
        bool stop = cs->rc != 0;
        pthread_mutex_unlock(&totals_lock);
        if (stop)
            break;
        int g0 = cs->bounds[c].g0, g1 = cs->bounds[c].g1, k = 0;
        int s0 = cs->bounds[c].s0, s1 = cs->bounds[c].s1;
        for (int g = g0; g < g1; g++)
            k += s1 ? s1 - s0 : cs->groups[g].n;
        if (k > cap) {
            free(insts);
            free(ptrs);
            cap = k;
            insts = xmalloc_(sizeof(Instance) * (size_t)cap);
            ptrs = xmalloc_(sizeof(Instance *) * (size_t)cap);
        }
        FILE *out = cs->out, *trace = cs->trace;
        bool direct = !cs->buffered;
        if (cs->buffered) {
            /* the first chunk not written out writes its lines itself: no
             * later one goes out before it is done */
            pthread_mutex_lock(&output_lock);
            direct = cs->committed == c;
            if (!direct) {
                out = held_open(cs, &sp_out, &cs->bufs[c].out);
                if (trace)
                    trace = held_open(cs, &sp_trace, &cs->bufs[c].trace);
            }
            pthread_mutex_unlock(&output_lock);
        }
        /* Search mode runs one sample of each pair (lead_sample), then the
         * other samples of the pairs it did not lose: nearly every pair
         * fails at its first sample, and samples in lockstep would all run
         * to the end of the program before the first one's answer is known. */
        memset(insts, 0, sizeof(Instance) * (size_t)k);
        chunk_tasks(cs, g0, g1, task_open);
        int rc = 0;
        for (int pass = 0; pass < (cs->search ? 2 : 1) && rc == 0; pass++) {
            int n = 0;
            k = 0;
            for (int gi = g0; gi < g1; gi++) {
                Group *g = &cs->groups[gi];
                bool stop_early = cs->search && !g->batt;
                int lead = stop_early ? lead_sample(g->task, g->n) : -1;
                int lo = s1 ? s0 : 0, hi = s1 ? s1 : g->n;
                if (pass == 0 && !g->split) {   /* a split group's were set up front */
                    g->tracing = trace != NULL;
                    g->remaining = g->n;
                    atomic_init(&g->failed, false);
                }
                for (int s = lo; s < hi; s++) {
                    if ((lead < 0 || s == lead) != (pass == 0))
                        continue;
                    Instance *in = &insts[k + s - lo];
                    instance_init(in, g->prog, g->task, g->batt ? s / 2 : s, cs->m->dialect,
                                  g->batt && s % 2 == 1);
                    in->cx.rearc = cs->m->rearc;
                    in->user = g;
                    if (stop_early)
                        in->pair_failed = &g->failed;
                    ptrs[n++] = in;
                }
                k += hi - lo;
            }
            ChunkLines cl = {cs->groups, g0, g1, out, trace, !cs->search && !s1};
            rc = exec_waves(ptrs, n, &eo, &st, after_wave, &cl);
        }
        /* instances are initialised in group order; an interrupted search
         * leaves the later samples of every group untouched */
        for (int i = 0; i < k; i++)
            if (insts[i].prog)
                instance_release(&insts[i]);
        chunk_tasks(cs, g0, g1, task_close);
        for (int gi = g0; gi < g1; gi++) {
            Group *g = &cs->groups[gi];
            /* a split group's lines go out with the part that ends it, its
             * parts being chunks of their own, side by side */
            if (g->split)
                pthread_mutex_lock(&totals_lock);
            if (!g->split || g->remaining == 0 || rc) {
                linebuf_flush(&g->out, out);
                linebuf_flush(&g->trace, trace);
            }
            if (g->split)
                pthread_mutex_unlock(&totals_lock);
        }
        fflush(out);
        if (trace)
            fflush(trace);
        if (!direct) {
            held_close(&cs->bufs[c].out, out);
            if (trace)
                held_close(&cs->bufs[c].trace, trace);
        }
        pthread_mutex_lock(&totals_lock);
        if (rc)
            cs->rc = rc;
        pthread_mutex_unlock(&totals_lock);
        if (cs->buffered) {
            pthread_mutex_lock(&output_lock);
            cs->bufs[c].ready = true;
            cs->waiting += cs->bufs[c].out.len + cs->bufs[c].trace.len;
            commit_chunks(cs, false);
            pthread_mutex_unlock(&output_lock);
        }
    }
    backend_worker_end();
    exec_plans_free(&plans);
    free(insts);
    free(ptrs);
    cache_thread_done();
    prim_thread_done();
    linebuf_thread_done();
    instance_thread_done();
    pthread_mutex_lock(&totals_lock);
    exec_stats_merge(cs->st, &st);
    pthread_mutex_unlock(&totals_lock);
    exec_stats_free(&st);
    return NULL;
}

static int by_spent(const void *a, const void *b)
{
    const Group *x = *(const Group *const *)a, *y = *(const Group *const *)b;
    return (x->spent_ns < y->spent_ns) - (x->spent_ns > y->spent_ns);
}

/* --stats names the pairs that took longest: where a slow run's time went. */
static void slowest_pairs(ExecStats *st, Group *groups, int ngroups)
{
    int shown = st->shown;
    Group **by = xmalloc_(sizeof(Group *) * (size_t)(ngroups + 1));
    int n = 0;
    for (int g = 0; g < ngroups; g++)
        if (groups[g].spent_ns)
            by[n++] = &groups[g];
    qsort(by, (size_t)n, sizeof *by, by_spent);
    st->nslow = n < shown ? n : shown;
    st->slow = xmalloc_(sizeof(SlowPair) * (size_t)(st->nslow ? st->nslow : 1));
    for (int i = 0; i < st->nslow; i++)
        st->slow[i] = (SlowPair){.prog = by[i]->prog->name, .task = by[i]->task->id,
                                 .instances = by[i]->n, .seconds = (double)by[i]->spent_ns / 1e9};
    free(by);
}

/* The (program, task) pairs in run order: task by task for --all-pairs,
 * else program by program, a solve_<id> taking only its own tasks (own,
 * next: pairing.h). */
typedef struct {
    int np, nt, p, k;
    const int *own, *next;      /* NULL for --all-pairs */
} PairWalk;

static bool pair_next(PairWalk *w, int *p, int *k)
{
    if (!w->own) {              /* programs fastest */
        if (w->k < 0)
            w->k = 0;
        else if (++w->p == w->np)
            w->p = 0, w->k++;
        if (w->np == 0 || w->k >= w->nt)
            return false;
    } else {
        for (;; w->p++, w->k = -1) {
            if (w->p >= w->np)
                return false;
            int o = w->own[w->p];
            w->k = o == -2 ? (w->k + 1 < w->nt ? w->k + 1 : -1) : w->k < 0 ? o : w->next[w->k];
            if (w->k >= 0)
                break;
        }
    }
    *p = w->p, *k = w->k;
    return true;
}

int report_run(IrModule *m, const TaskSet *ts, const RunOptions *ro, FILE *out)
{
    ir_pin_constants(m);   /* read by every instance, on every thread */
    /* pair: solve_<id> with task <id>; any other program with every task */
    int ngroups = 0, ninst = 0, cap = 64;
    Group *groups = xmalloc_(sizeof(Group) * (size_t)cap);
    int unpaired = 0;
    /* --all-pairs goes task by task, so that the instances lockstepped
     * together share their task's grids: the call cache then computes
     * objects(I, ...) once for all programs, and one pathological program
     * is never hundreds of live instances at once. */
    bool *paired = calloc((size_t)m->nprogs + 1, sizeof(bool));
    if (!paired)
        abort();
    /* Search mode: a pair whose program's output shape (shape.h) no
     * expected output has is not run; it keeps its place, with no samples.
     * ARCRUN_NO_SHAPE_RULE runs it anyway (for measuring what this saves). */
    bool search = ro->all_pairs && !ro->trace;
    bool rule = search && !getenv("ARCRUN_NO_SHAPE_RULE"), check = getenv("ARCRUN_SHAPE_CHECK");
    OutShape *shapes = calloc((size_t)m->nprogs + 1, sizeof *shapes);
    if (!shapes)
        abort();
    if (rule || check)
        for (int p = 0; p < m->nprogs; p++)
            shapes[p] = shape_of_output(&m->progs[p]);
    long ruled_out = 0;
    int *next = NULL, *own = ro->all_pairs ? NULL : own_tasks(m, ts, ro->entry, &next);
    PairWalk walk = {.np = m->nprogs, .nt = ts->ntasks, .k = -1, .own = own, .next = next};
    for (int p, k; pair_next(&walk, &p, &k);) {
        const IrProgram *prog = &m->progs[p];
        const Task *t = &ts->tasks[k];
        if (!pairing_runs_alone(ro->entry, prog)) {
            paired[p] = true;          /* a helper: it runs where called, if anywhere */
            continue;
        }
        if (ngroups == cap) {
            cap *= 2;
            groups = realloc(groups, sizeof(Group) * (size_t)cap);
            if (!groups)
                abort();
        }
        bool batt = m->dialect == DIALECT_TOKPIDJIN;
        int n = task_nsamples(t) * (batt ? 2 : 1);
        if (rule && shape_rules_out(&shapes[p], t)) {
            n = 0;
            ruled_out++;
        }
        groups[ngroups++] = (Group){.prog = prog, .task = t, .n = n, .remaining = -1, .batt = batt,
                                    .shape = check ? &shapes[p] : NULL};
        ninst += n;
        paired[p] = true;
    }
    for (int p = 0; p < m->nprogs; p++)
        unpaired += !paired[p];
    free(paired);
    free(own);
    free(next);
    Totals tot = {.ro = ro, .out = out, .tasks0 = ts->tasks, .progs0 = m->progs,
                  .progress = isatty(2) && !ro->verbose && !getenv("ARCRUN_NO_PROGRESS"),
                  .total_instances = ninst, .start_ns = now_ns()};
    if (ro->all_pairs) {
        tot.pt.solvers_of = calloc((size_t)ts->ntasks + 1, sizeof(char **));
        tot.pt.nsolvers_of = calloc((size_t)ts->ntasks + 1, sizeof(int));
        tot.pt.capsolvers_of = calloc((size_t)ts->ntasks + 1, sizeof(int));
        tot.pt.pairs_done_of = calloc((size_t)ts->ntasks + 1, sizeof(int));
        if (!tot.pt.solvers_of || !tot.pt.nsolvers_of || !tot.pt.capsolvers_of || !tot.pt.pairs_done_of)
            abort();
    }
    ExecOptions eo = {
        .verbose = ro->verbose, .log = stderr, .work_limit = ro->work_limit,
        .time_limit_ns = (uint64_t)(ro->time_limit * 1e9),
        .on_done = ending_on_done, .on_done_arg = &tot, .interrupted = ro->interrupted,
        .on_assign = ro->trace ? ending_on_assign : NULL,
        .collect_ops = ro->stats != NULL, .jobs = ro->jobs, .no_cache = ro->no_cache,
    };
    ExecStats st;
    memset(&st, 0, sizeof st);
    st.ruled_out = ruled_out;
    /* Lockstep over a chunk of instances at a time.  --all-pairs wants a
     * whole task's programs in one chunk, so that they share work through
     * the cache.  Otherwise instances share calls within their group (a
     * task's samples) and hardly across groups, and the CPU runs a chunk
     * of one group fastest: a batt instance's slots (thousands) stay in
     * cache from step to step (test_batt 1.2x, batt_mega 1.26x against
     * chunks of 512).  Only a GPU that takes batches a chunk can reach
     * wants chunks of 512. */
    int gpu_batch = backend_smallest_batch();
    int chunk = ro->all_pairs ? 2048 : gpu_batch > 0 && gpu_batch <= 512 ? 512 : 1;
    /* A backend that gathers batches across chunks wants more chunks in
     * flight than threads (backend.h workers_per_thread). */
    int workers = ro->verbose ? 1 : backend_workers(ro->jobs > 1 ? ro->jobs : 1);
    if (workers > FANOUT_MAX)
        workers = FANOUT_MAX;
    /* Threads take chunks from a queue: eight per thread at least, or a
     * 16-core host runs test_batt's 3,436 instances as 7 chunks of 512 on
     * 7 threads.  Smaller chunks cost nothing measurable on one thread
     * (tasks share no calls with each other; a group is split only into
     * parts, below). */
    int threads = ro->jobs > 1 && !ro->verbose ? ro->jobs : 1;
    if (threads > 1 && !ro->all_pairs && ninst / (threads * 8) < chunk)
        chunk = ninst / (threads * 8) > 1 ? ninst / (threads * 8) : 1;
    /* Search mode reports only which pairs are solved: once one sample of
     * a pair fails, its other samples are not worth running. */
    Chunks cs = {.groups = groups, .m = m, .eo = eo, .st = &st, .out = out, .trace = ro->trace,
                 .search = search};
    /* With threads, a group of many samples runs in parts, each a chunk:
     * one pair of a thousand samples would otherwise keep one thread busy
     * long after the others ran out of work.  Not in a search (its samples
     * wait on a lead sample's answer), nor with --trace or -v. */
    int part = workers > 1 && !search && !ro->all_pairs && !ro->trace ? PART_SAMPLES : 0;
    size_t nbounds = (size_t)ngroups + 1;
    for (int g = 0; part && g < ngroups; g++)
        nbounds += (size_t)(groups[g].n / part);
    cs.bounds = xmalloc_(sizeof *cs.bounds * nbounds);
    for (int g0 = 0; g0 < ngroups;) {
        Group *g = &groups[g0];
        if (part && g->n > part && !g->batt) {
            int parts = (g->n + part - 1) / part, size = (g->n + parts - 1) / parts;
            g->split = true;
            g->remaining = g->n;
            atomic_init(&g->failed, false);
            for (int s0 = 0; s0 < g->n; s0 += size)
                cs.bounds[cs.n++] = (ChunkBounds){g0, g0 + 1, s0,
                                                          s0 + size < g->n ? s0 + size : g->n};
            g0++;
            continue;
        }
        /* a group larger than a chunk gets a chunk of its own size */
        int k = groups[g0].n, g1 = g0 + 1;
        while (g1 < ngroups && k + groups[g1].n <= chunk)
            k += groups[g1++].n;
        cs.bounds[cs.n++] = (ChunkBounds){g0, g1, 0, 0};
        g0 = g1;
    }
    /* With threads, chunks run side by side, one each (or a share of
     * them): a step's slowest call then holds up only its own chunk, not
     * every thread at the step's barrier.  Totals are summed under a lock,
     * lines are buffered per chunk and written in chunk order; -v keeps the
     * one-chunk-at-a-time path, its batch log being in step order. */
    if (workers > cs.n)
        workers = cs.n;
    if (workers > 1) {
        prim_value(0);      /* lazily built tables: built before any thread runs */
        v_int(0);
        cs.eo.jobs = ro->jobs / workers;
        cs.eo.on_done = on_done_locked;
        cs.buffered = true;
        cs.bufs = calloc((size_t)cs.n, sizeof *cs.bufs);
        cs.taken = calloc((size_t)cs.n, sizeof *cs.taken);
        if (!cs.bufs || !cs.taken)
            abort();
        cs.order = chunk_order(&cs);
        fanout(workers, chunk_worker, &cs);
        commit_chunks(&cs, true);
        for (int i = 0; i < cs.nspools; i++)
            spool_free(cs.spools[i]);
        free(cs.spools);
        free(cs.bufs);
        free(cs.taken);
        free(cs.order);
    } else {
        chunk_worker(&cs);
    }
    int rc = cs.rc;
    free(cs.bounds);
    /* interrupted: a split group whose parts did not all end keeps lines
     * that no part wrote out (a part ends it or was interrupted itself) */
    for (int g = 0; g < ngroups; g++)
        if (groups[g].split)
            linebuf_flush(&groups[g].out, out);
    if (ro->all_pairs)      /* in program/task order, whatever finished first */
        for (int g = 0; g < ngroups; g++)
            if (groups[g].remaining == 0)
                ending_note_pair(&tot, &groups[g]);
    if (tot.progress && now_ns() - tot.start_ns >= 1000000000u)
        ending_progress(&tot, true);
    if (ro->stats) {
        /* ARCRUN_SLOWEST=N: N pairs and statements (bench/arcdsl.sh takes
         * every pair) */
        const char *env = getenv("ARCRUN_SLOWEST");
        st.shown = env && atoi(env) > 0 ? atoi(env) : 10;
        st.path = m->path;
        slowest_pairs(&st, groups, ngroups);
        st.parse_s = ro->parse_s;
        st.load_s = ro->load_s;
        st.run_s = (double)(now_ns() - tot.start_ns) / 1e9;
        stats_print(ro->stats, &st, ro->stats_json);
    }
    exec_stats_free(&st);
    bool batt_run = m->dialect == DIALECT_TOKPIDJIN;
    if (batt_run && ro->format == REPORT_TEXT)
        fmt_text_batt_summary(out, &tot.c, ngroups, rc < 0, ro->quiet);
    else if (ro->format == REPORT_TEXT && !ro->all_pairs)
        fmt_text_summary(out, &tot.c, ngroups, unpaired, rc < 0);
    else if (ro->format == REPORT_JSONL && !ro->all_pairs)
        fmt_jsonl_summary(out, &tot.c, ngroups, unpaired, rc < 0, batt_run);
    if (ro->verbose)
        fprintf(stderr, "executor: %d instances, %ld steps, %ld batches, %ld calls computed, "
                "%ld answered by the call cache, largest batch %ld\n",
                ninst, st.steps, st.batches, st.calls, st.cache_hits + st.cache_waits + st.cache_twins,
                st.max_batch);
    if (ro->all_pairs) {
        fmt_all_pairs(out, &tot.pt, &tot.c, ts, ngroups, rc < 0, ro->format, ro->quiet);
        for (int k = 0; k < ts->ntasks; k++)
            free(tot.pt.solvers_of[k]);
        free(tot.pt.solvers_of);
        free(tot.pt.nsolvers_of);
        free(tot.pt.capsolvers_of);
        free(tot.pt.pairs_done_of);
    }
    if (check)
        fprintf(stderr, "arcrun: shape check: %ld outputs of programs with a known shape, %ld of another shape\n",
                tot.shape_checked, tot.shape_wrong);
    free(shapes);
    for (int g = 0; g < ngroups; g++)
        ending_group_release(&groups[g]);
    free(groups);
    for (int i = 0; i < tot.c.nscores; i++)
        free(tot.c.scores[i].id);
    free(tot.c.scores);
    return rc;
}
