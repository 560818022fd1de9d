/* test_team.c -- TAP tests of team.h: every item runs once whatever the
 * thread count, every thread that takes part leaves once, a caller that
 * never asks starts no thread, and one that asks gets help. */
#include "tap_c.h"
#include "team.h"

#include <pthread.h>
#include <stdatomic.h>
#include <stdlib.h>
#include <time.h>

enum { MAX_ITEMS = 1000 };

typedef struct {
    atomic_int ran[MAX_ITEMS];
    atomic_int left;            /* leave calls */
    atomic_int joined;          /* threads that took part (first item or leave) */
} Count;

static _Thread_local unsigned in_call;   /* the call this thread last counted itself in */
static unsigned call_no;

static void count_item(void *ctx, int i)
{
    Count *c = ctx;
    atomic_fetch_add(&c->ran[i], 1);
    if (in_call != call_no) {
        in_call = call_no;
        atomic_fetch_add(&c->joined, 1);
    }
}

static void count_leave(void *ctx)
{
    Count *c = ctx;
    if (in_call != call_no) {
        in_call = call_no;
        atomic_fetch_add(&c->joined, 1);
    }
    atomic_fetch_add(&c->left, 1);
}

static void sleep_ms(int ms)
{
    struct timespec ts = {0, ms * 1000000L};
    nanosleep(&ts, NULL);
}

/* items 0 and 1: item 0 outlasts any alone_ns below a millisecond; item
 * 1 waits (up to 10 s) for a second thread to enter some item, which only
 * a helper can do, and says whether one did */
typedef struct {
    atomic_int entered;
    atomic_bool helped;
    pthread_t caller;
} Wait;

static void wait_item(void *ctx, int i)
{
    Wait *w = ctx;
    if (!pthread_equal(pthread_self(), w->caller))
        atomic_fetch_add(&w->entered, 1);
    if (i == 0)
        sleep_ms(2);
    if (i != 1)
        return;
    for (int k = 0; k < 10000 && atomic_load(&w->entered) == 0; k++)
        sleep_ms(1);
    atomic_store(&w->helped, atomic_load(&w->entered) > 0);
}

int main(void)
{
    const int ns[] = {1, 2, 3, 7, 64, 1000}, threads[] = {1, 2, 4, 16};
    static Count c;
    for (int a = 0; a < 2; a++) {
        Team *t = team_new(a ? 0 : TEAM_ALONE_NS);
        for (size_t x = 0; x < sizeof ns / sizeof *ns; x++)
            for (size_t y = 0; y < sizeof threads / sizeof *threads; y++) {
                int n = ns[x], th = threads[y], bad = 0;
                for (int rep = 0; rep < 50; rep++) {
                    for (int i = 0; i < n; i++)
                        atomic_store(&c.ran[i], 0);
                    atomic_store(&c.left, 0);
                    atomic_store(&c.joined, 0);
                    call_no++;
                    team_for(t, th, n, count_item, count_leave, &c);
                    for (int i = 0; i < n; i++)
                        bad += atomic_load(&c.ran[i]) != 1;
                    int j = atomic_load(&c.joined), l = atomic_load(&c.left);
                    bad += l != j || l < 1 || l > th;
                }
                ok(bad == 0, "alone_ns %s, %d items on up to %d threads: each item once, "
                   "one leave per thread that took part (50 calls)", a ? "0" : "default", n, th);
            }
        ok(team_threads(t) <= 15, "alone_ns %s: at most threads - 1 started (%d)",
           a ? "0" : "default", team_threads(t));
        team_free(t);
    }

    Team *lone = team_new(UINT64_MAX);
    for (int rep = 0; rep < 1000; rep++)
        team_for(lone, 8, 16, count_item, count_leave, &c);
    ok(team_threads(lone) == 0, "a caller that never asks starts no thread");
    team_free(lone);

    Team *t = team_new(100000);         /* 0.1 ms */
    Wait w = {.caller = pthread_self()};
    team_for(t, 4, 8, wait_item, NULL, &w);
    ok(atomic_load(&w.helped), "a call that lasts past alone_ns gets a helper");
    ok(team_threads(t) >= 1 && team_threads(t) <= 3, "and starts 1 to 3 threads (%d)",
       team_threads(t));
    team_free(t);
    team_free(NULL);
    printf("1..%d\n", ntest);
    return nfail != 0;
}
