/* inline.h -- calls the executor makes as it scans the instances, outside
 * batches and the call cache.
 *
 * size(x), get_nth_t(t, 0), astuple(2, 3): a call whose work is a few
 * loads costs less than the call cache's key and lookup, and less than a
 * place in a step's batches; generated batt programs make such calls by
 * the hundred per sample.  Computed again each time, its result is a new
 * object as CPython's is, so no twin is needed; and what it returns is,
 * nearly always, one the call cache keys the same whichever instance
 * computed it (an int, an item of an argument, a tuple of arena values),
 * so later calls on it still meet in the cache.  The choice is the
 * callee's alone, never its arguments': instances that run a statement
 * inline all do, and stay in lockstep.  None of these has a GPU op. */
#ifndef ARC_INLINE_H
#define ARC_INLINE_H

#include "prim.h"

extern const bool inline_prim_[PRIM_COUNT];

/* Whether a call of callee with nargs arguments is run in the scan. */
static inline bool inline_call(const Value *callee, int nargs)
{
    return prim_direct(callee, nargs) && inline_prim_[callee->u.fn.prim];
}

#endif
