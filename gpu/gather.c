/* gather.c -- calls of a GPU op from every chunk worker gathered into one
 * device batch.  A chunk's own batches are small (a wave of one task's
 * samples), so the run starts more chunk workers than it has threads
 * (GATHER_WORKERS per thread) and lets at most `jobs` of them compute at
 * once: a worker that submits a batch gives its turn to one that waits
 * for it and sleeps until its batch is done; between chunks a worker gives
 * its turn to one whose batch came back.  The op's gathered calls go
 * to the device when they reach the gathering target, or when every
 * worker is asleep in here (nobody else can add to them); under auto a
 * gathering smaller than the op's crossover runs on the CPU instead, each
 * submitter its own calls. */
#include "backend_gpu_int.h"

#include <stdatomic.h>
#include <stdlib.h>

/* Workers per thread.  More gather larger batches, and hold more chunks'
 * values live at once (a chunk's waves bound what it holds). */
enum { GATHER_WORKERS = 4 };
/* auto stops gathering an op after this many gatherings in a row fell
 * short of its crossover: its workload does not reach the device, and its
 * calls should not wait for the others'. */
enum { GATHER_SHORT_MAX = 3 };
/* Calls past which a gathering goes to the device without waiting for the
 * other workers: the objects pipeline's chunk (run_packed.c). */
enum { GATHER_TARGET = 16384 };

typedef enum { REQ_WAITING, REQ_DONE, REQ_ON_CPU } ReqState;

typedef struct Req {
    Batch *b;
    ReqState state;
    struct Req *next;
} Req;

static struct {
    pthread_mutex_t mu;
    pthread_cond_t done;         /* a gathering finished: requests changed state */
    pthread_cond_t turn;         /* a compute turn came free */
    int factor;                  /* workers per thread; 0 until gpu_gather_setup */
    bool enabled;                /* this run gathers (gpu_gather_turns) */
    int turns;                   /* compute turns free */
    int live, asleep;            /* workers running, and those asleep in here */
    int resuming;                /* workers back from here, waiting for a turn */
    Req *head[GOP_COUNT], **tail[GOP_COUNT];
    int pending[GOP_COUNT];      /* calls gathered so far, per op */
    long submitted[GOP_COUNT];   /* batches submitted, per op */
    atomic_int short_in_a_row[GOP_COUNT];   /* auto: gatherings under the crossover */
} GA = {.mu = PTHREAD_MUTEX_INITIALIZER,
        .done = PTHREAD_COND_INITIALIZER,
        .turn = PTHREAD_COND_INITIALIZER};

static _Thread_local bool is_worker;

void gpu_gather_setup(void)
{
    const char *e = getenv("ARCRUN_GPU_GATHER");   /* for measuring: 0 turns it off */
    GA.factor = e && *e ? atoi(e) : GATHER_WORKERS;
    if (GA.factor < 0)
        GA.factor = 0;
    if (GA.factor > 16)
        GA.factor = 16;
    for (int op = 0; op < GOP_COUNT; op++)
        GA.tail[op] = &GA.head[op];
}

int gpu_gather_factor(void)
{
    return GA.factor > 1 ? GA.factor : 1;
}

bool gpu_gather_on(int op)
{
    return is_worker && GA.factor > 1 &&
           atomic_load_explicit(&GA.short_in_a_row[op], memory_order_relaxed) < GATHER_SHORT_MAX;
}

long gpu_gather_submitted(int op)
{
    return GA.submitted[op];
}

/* A worker whose batch came back (resuming) goes before one that would
 * start a chunk: the chunks already begun, the costliest first, are the
 * run's critical path. */
static void take_turn(bool resuming)
{
    GA.resuming += resuming;
    while (GA.turns == 0 || (!resuming && GA.resuming > 0))
        pthread_cond_wait(&GA.turn, &GA.mu);
    GA.resuming -= resuming;
    GA.turns--;
}

static void give_turn(void)
{
    GA.turns++;
    pthread_cond_broadcast(&GA.turn);
}

/* Runs op's gathered calls (GA.mu held on entry and exit, released while
 * they run): on the device as one batch, or back to their submitters. */
static void launch(int op)
{
    Req *list = GA.head[op];
    int n = GA.pending[op];
    GA.head[op] = NULL;
    GA.tail[op] = &GA.head[op];
    GA.pending[op] = 0;
    if (!list)
        return;
    bool device = !(gpu_state.o.mode == BACKEND_AUTO && !gpu_state.o.compare &&
                    n < gpu_state.crossover[op]);
    atomic_store_explicit(&GA.short_in_a_row[op],
                          device ? 0 : atomic_load_explicit(&GA.short_in_a_row[op], memory_order_relaxed) + 1,
                          memory_order_relaxed);
    if (device) {
        pthread_mutex_unlock(&GA.mu);
        Instance **all = xmalloc_(sizeof *all * (size_t)n);
        int k = 0;
        for (Req *r = list; r; r = r->next)
            for (int i = 0; i < r->b->n; i++)
                all[k++] = r->b->inst[i];
        Batch whole = {.key = list->b->key, .n = n, .inst = all};
        gpu_run_now(op, &whole);
        free(all);
        pthread_mutex_lock(&GA.mu);
    }
    for (Req *r = list; r; r = r->next)
        r->state = device ? REQ_DONE : REQ_ON_CPU;
    pthread_cond_broadcast(&GA.done);
}

/* With every worker asleep in here, no more calls will come: launch what
 * is gathered.  The caller, if asleep, counts as awake while it launches,
 * so that no other sleeper takes the run for stalled meanwhile. */
static bool stalled(void)
{
    if (GA.asleep != GA.live)
        return false;
    for (int op = 0; op < GOP_COUNT; op++)
        if (GA.head[op])
            return true;
    return false;
}

static void launch_all(void)
{
    for (int op = 0; op < GOP_COUNT; op++)
        if (GA.head[op])
            launch(op);
}

void gpu_gather_submit(int op, Batch *b)
{
    Req me = {.b = b, .state = REQ_WAITING};
    double t0 = now_s(), launching = 0;
    pthread_mutex_lock(&GA.mu);
    *GA.tail[op] = &me;
    GA.tail[op] = &me.next;
    GA.pending[op] += b->n;
    GA.submitted[op]++;
    give_turn();
    if (GA.pending[op] >= GATHER_TARGET) {
        double t1 = now_s();
        launch(op);
        launching += now_s() - t1;
    }
    GA.asleep++;
    while (me.state == REQ_WAITING) {
        if (stalled()) {
            double t1 = now_s();
            GA.asleep--;
            launch_all();
            GA.asleep++;
            launching += now_s() - t1;
        } else {
            pthread_cond_wait(&GA.done, &GA.mu);
        }
    }
    GA.asleep--;
    take_turn(true);
    pthread_mutex_unlock(&GA.mu);
    b->waited += now_s() - t0 - launching;
    if (me.state == REQ_ON_CPU)
        backend_cpu.run_batch(&backend_cpu, b);
}

void gpu_gather_worker_begin(void)
{
    if (!GA.enabled)
        return;
    pthread_mutex_lock(&GA.mu);
    is_worker = true;
    GA.live++;
    take_turn(false);
    pthread_mutex_unlock(&GA.mu);
}

void gpu_gather_worker_end(void)
{
    if (!is_worker)
        return;
    pthread_mutex_lock(&GA.mu);
    is_worker = false;
    GA.live--;
    give_turn();
    if (stalled())
        launch_all();
    pthread_mutex_unlock(&GA.mu);
}

void gpu_gather_turns(int jobs)
{
    pthread_mutex_lock(&GA.mu);
    GA.turns = jobs > 0 ? jobs : 1;
    GA.enabled = GA.factor > 1;
    pthread_mutex_unlock(&GA.mu);
}

void gpu_gather_worker_yield(void)
{
    if (!is_worker)
        return;
    pthread_mutex_lock(&GA.mu);
    if (GA.resuming > 0) {
        give_turn();
        take_turn(false);
    }
    pthread_mutex_unlock(&GA.mu);
}
