/* workpool.c -- see workpool.h. */
#include "workpool.h"

#include <pthread.h>
#include <stdatomic.h>

enum { POOL_MAX = 63 };

static struct {
    pthread_mutex_t m;
    pthread_cond_t go, done;
    int started;              /* pool threads alive */
    unsigned gen;             /* bumped for every job */
    int workers;              /* pool threads taking part in this job */
    int busy;                 /* of those, still working */
    PoolFn fn;
    void *ctx;
    int n, chunk;
    atomic_int next;
} P = {.m = PTHREAD_MUTEX_INITIALIZER, .go = PTHREAD_COND_INITIALIZER,
       .done = PTHREAD_COND_INITIALIZER};

static void drain(void)
{
    for (;;) {
        int lo = atomic_fetch_add(&P.next, P.chunk);
        if (lo >= P.n)
            return;
        P.fn(P.ctx, lo, lo + P.chunk < P.n ? lo + P.chunk : P.n);
    }
}

static void *worker(void *arg)
{
    int id = (int)(long)arg;
    unsigned seen = 0;
    pthread_mutex_lock(&P.m);
    for (;;) {
        while (P.gen == seen)
            pthread_cond_wait(&P.go, &P.m);
        seen = P.gen;
        if (id >= P.workers)
            continue;
        pthread_mutex_unlock(&P.m);
        drain();
        pthread_mutex_lock(&P.m);
        if (--P.busy == 0)
            pthread_cond_signal(&P.done);
    }
    return NULL;
}

void pool_for(int threads, int n, int chunk, PoolFn fn, void *ctx)
{
    if (threads > POOL_MAX + 1)
        threads = POOL_MAX + 1;
    if (threads <= 1 || n <= chunk) {
        fn(ctx, 0, n);
        return;
    }
    pthread_mutex_lock(&P.m);
    while (P.started < threads - 1) {
        pthread_t t;
        if (pthread_create(&t, NULL, worker, (void *)(long)P.started) != 0)
            break;
        pthread_detach(t);
        P.started++;
    }
    P.fn = fn;
    P.ctx = ctx;
    P.n = n;
    P.chunk = chunk;
    atomic_store(&P.next, 0);
    P.workers = P.busy = threads - 1 < P.started ? threads - 1 : P.started;
    P.gen++;
    pthread_cond_broadcast(&P.go);
    pthread_mutex_unlock(&P.m);
    drain();
    pthread_mutex_lock(&P.m);
    while (P.busy > 0)
        pthread_cond_wait(&P.done, &P.m);
    pthread_mutex_unlock(&P.m);
}
