/* team.h -- threads kept for the length of a run, each step's parallel
 * loop handed to them: the executor's steps are many and short, and a
 * thread started and joined per step cost more than a small step's calls. */
#ifndef ARC_TEAM_H
#define ARC_TEAM_H

#include <stdint.h>

typedef struct Team Team;

/* A call shorter than this is not worth a thread's wake, which costs the
 * waker a system call and the woken thread more. */
#define TEAM_ALONE_NS 30000u

/* A team with no threads yet.  Its caller works alone_ns into a call
 * before it asks for help, or asks at once where the last call was
 * longer; threads start when first asked for.  NULL when out of memory. */
Team *team_new(uint64_t alone_ns);

/* item(ctx, i) for every i in [0, n), each once, on the calling thread and
 * up to threads - 1 of the team's (a thread that cannot start is simply
 * not there); each thread that took part then calls leave(ctx) (NULL for
 * none).  Returns when all have left.  One caller at a time per team. */
void team_for(Team *t, int threads, int n, void (*item)(void *ctx, int i),
              void (*leave)(void *ctx), void *ctx);

/* How many threads it has started. */
int team_threads(const Team *t);

/* Ends the threads and frees the team; NULL is allowed. */
void team_free(Team *t);

#endif
