/* gather.c -- calls of a GPU op from every chunk worker gathered into one
 * device batch.  A chunk's own batches are small (a wave of one task's
 * samples), so the run starts more chunk workers than it has threads
 * (GATHER_WORKERS per thread) and lets at most `jobs` of them compute at
 * once: a worker that submits a batch gives its turn to one that waits
 * for it and sleeps until its batch is done; between chunks a worker gives
 * its turn to one whose batch came back.  The op's gathered calls go
 * to the device when they reach the gathering target, or when every
 * worker is asleep in here (nobody else can add to them), or when a
 * compute turn would go unused. */
#include "backend_gpu_int.h"

#include <stdlib.h>

/* Workers per thread.  More gather larger batches, and hold more chunks'
 * values live at once (a chunk's waves bound what it holds). */
enum { GATHER_WORKERS = 4 };
/* Calls past which a gathering goes to the device without waiting for the
 * other workers: the objects pipeline's chunk (run_packed.c). */
enum { GATHER_TARGET = 16384 };

typedef struct Req {
    Batch *b;
    bool done;                 /* its calls have their results */
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
    int turn_waiters;            /* all workers waiting for a turn */
    Req *head[GOP_COUNT], **tail[GOP_COUNT];
    int pending[GOP_COUNT];      /* calls gathered so far, per op */
    long submitted[GOP_COUNT];   /* batches submitted, per op */
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

bool gpu_gather_on(void)
{
    return is_worker;
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
    GA.turn_waiters++;
    while (GA.turns == 0 || (!resuming && GA.resuming > 0))
        pthread_cond_wait(&GA.turn, &GA.mu);
    GA.turn_waiters--;
    GA.resuming -= resuming;
    GA.turns--;
}

static void give_turn(void)
{
    GA.turns++;
    pthread_cond_broadcast(&GA.turn);
}

/* Runs op's gathered calls on the device as one batch (GA.mu held on
 * entry and exit, released while they run). */
static void launch(int op)
{
    Req *list = GA.head[op];
    int n = GA.pending[op];
    GA.head[op] = NULL;
    GA.tail[op] = &GA.head[op];
    GA.pending[op] = 0;
    if (!list)
        return;
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
    for (Req *r = list; r; r = r->next)
        r->done = true;
    pthread_cond_broadcast(&GA.done);
}

/* Launch what is gathered once waiting longer would idle a core: every
 * worker asleep in here (no more calls can come), or a turn free that no
 * worker waits for.  The caller, if asleep, counts as awake while it
 * launches, so that no other sleeper takes the run for stalled meanwhile. */
static bool stalled(void)
{
    if (GA.asleep != GA.live && (GA.turns == 0 || GA.turn_waiters > 0))
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
    Req me = {.b = b};
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
    while (!me.done) {
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
    GA.enabled = jobs > 0 && GA.factor > 1;
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
