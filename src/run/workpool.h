/* workpool.h -- a loop split over threads that stay alive between calls,
 * for the GPU backend's host work (packing, rebuilding values): threads
 * started once keep their allocator lists warm, which fresh threads per
 * batch do not. */
#ifndef ARC_WORKPOOL_H
#define ARC_WORKPOOL_H

typedef void (*PoolFn)(void *ctx, int lo, int hi);

/* fn(ctx, lo, hi) over [0, n) in chunks of `chunk`, on the calling thread
 * and up to threads - 1 pool threads; returns when all are done.  One
 * caller at a time. */
void pool_for(int threads, int n, int chunk, PoolFn fn, void *ctx);

#endif
