/* team.c -- see team.h. */
#include "team.h"

#include <pthread.h>
#include <stdatomic.h>
#include <stdbool.h>
#include <stdint.h>
#include <stdlib.h>
#include <time.h>

enum { TEAM_MAX = 255 };


/* A call is open while its caller works through the items: threads join
 * it one by one once asked, each waking the next while two items or more
 * are left untaken, so a short call that the caller finishes alone wakes
 * no thread and waits for none. */
struct Team {
    pthread_mutex_t m;
    pthread_cond_t go, done;
    pthread_t tid[TEAM_MAX];
    int started;              /* threads alive */
    unsigned gen;             /* bumped for every call */
    bool open;                /* the call still takes threads */
    int want;                 /* threads it may take once it asks */
    int places;               /* threads it may still take */
    int active;               /* threads in it */
    uint64_t alone_ns;        /* team.h */
    uint64_t last_ns;         /* the last call's length */
    bool quit;
    int n;
    atomic_int next;          /* the first item not taken */
    void (*item)(void *, int);
    void (*leave)(void *);
    void *ctx;
};

static uint64_t now_ns(void)
{
    struct timespec ts;
    clock_gettime(CLOCK_MONOTONIC, &ts);
    return (uint64_t)ts.tv_sec * 1000000000u + (uint64_t)ts.tv_nsec;
}

static void *member_main(void *p);

/* Threads start when first asked for: a run of short steps starts none. */
static void ask_locked(Team *t)
{
    while (t->started < t->want &&
           pthread_create(&t->tid[t->started], NULL, member_main, t) == 0)
        t->started++;
    t->places = t->want < t->started ? t->want : t->started;
    if (t->places > 0)
        pthread_cond_signal(&t->go);
}

static void ask_for_help(Team *t)
{
    pthread_mutex_lock(&t->m);
    ask_locked(t);
    pthread_mutex_unlock(&t->m);
}

static void take_items(Team *t)
{
    for (int i; (i = atomic_fetch_add(&t->next, 1)) < t->n;)
        t->item(t->ctx, i);
    if (t->leave)
        t->leave(t->ctx);
}

/* take_items on the caller's side, asking for help once the call has
 * lasted alone_ns, or at once */
static void lead_items(Team *t, bool asked)
{
    uint64_t t0 = now_ns();
    for (int i; (i = atomic_fetch_add(&t->next, 1)) < t->n;) {
        t->item(t->ctx, i);
        if (!asked && atomic_load(&t->next) < t->n && now_ns() - t0 > t->alone_ns) {
            ask_for_help(t);
            asked = true;
        }
    }
    if (t->leave)
        t->leave(t->ctx);
    t->last_ns = now_ns() - t0;
}

static bool worth_joining(const Team *t)
{
    return t->open && t->places > 0 && atomic_load(&t->next) < t->n;
}

static void *member_main(void *p)
{
    Team *t = p;
    unsigned seen = 0;
    pthread_mutex_lock(&t->m);
    for (;;) {
        while (!t->quit && !(t->gen != seen && worth_joining(t)))
            pthread_cond_wait(&t->go, &t->m);
        if (t->quit)
            break;
        seen = t->gen;
        t->active++;
        t->places--;
        if (t->places > 0 && atomic_load(&t->next) < t->n - 1)
            pthread_cond_signal(&t->go);
        pthread_mutex_unlock(&t->m);
        take_items(t);
        pthread_mutex_lock(&t->m);
        if (--t->active == 0 && !t->open)
            pthread_cond_signal(&t->done);
    }
    pthread_mutex_unlock(&t->m);
    return NULL;
}

Team *team_new(uint64_t alone_ns)
{
    Team *t = calloc(1, sizeof *t);
    if (!t)
        return NULL;
    t->alone_ns = alone_ns;
    pthread_mutex_init(&t->m, NULL);
    pthread_cond_init(&t->go, NULL);
    pthread_cond_init(&t->done, NULL);
    return t;
}

void team_for(Team *t, int threads, int n, void (*item)(void *ctx, int i),
              void (*leave)(void *ctx), void *ctx)
{
    if (threads > n)
        threads = n;
    if (threads > TEAM_MAX + 1)
        threads = TEAM_MAX + 1;
    pthread_mutex_lock(&t->m);
    t->n = n;
    atomic_store(&t->next, 0);
    t->item = item;
    t->leave = leave;
    t->ctx = ctx;
    t->want = threads - 1;
    t->places = 0;
    t->open = true;
    t->gen++;
    bool asked = t->want < 1 || t->last_ns > t->alone_ns;
    if (asked)
        ask_locked(t);
    pthread_mutex_unlock(&t->m);
    lead_items(t, asked);
    pthread_mutex_lock(&t->m);
    t->open = false;
    while (t->active > 0)
        pthread_cond_wait(&t->done, &t->m);
    pthread_mutex_unlock(&t->m);
}

int team_threads(const Team *t)
{
    return t->started;
}

void team_free(Team *t)
{
    if (!t)
        return;
    pthread_mutex_lock(&t->m);
    t->quit = true;
    pthread_cond_broadcast(&t->go);
    pthread_mutex_unlock(&t->m);
    for (int i = 0; i < t->started; i++)
        pthread_join(t->tid[i], NULL);
    pthread_cond_destroy(&t->go);
    pthread_cond_destroy(&t->done);
    pthread_mutex_destroy(&t->m);
    free(t);
}
