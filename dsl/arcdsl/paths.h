/* paths.h -- closures that only take items of their argument (compose,
 * power and chain of first, last and identity: functional.c), as seen by
 * the ops that run them over many items at once. */
#ifndef ARC_ARCDSL_PATHS_H
#define ARC_ARCDSL_PATHS_H

#include "value.h"

/* Whether f is fork(equality, p, q) with p and q such closures (or first,
 * last, identity): their paths in *p, *q, and the work one call of f
 * charges, in *charge. */
bool ad_fork_eq_paths(const Value *f, unsigned *p, unsigned *q, unsigned *charge);

/* Steps of a path. */
unsigned ad_path_steps(unsigned path);
/* Whether step k of a path takes the last item (else the first). */
bool ad_path_last(unsigned path, unsigned k);
/* The item x leads to by steps from..end of the path, borrowed; NULL where
 * a step meets what is not a non-empty tuple or frozenset. */
Value *ad_path_walk_from(unsigned path, unsigned from, Value *x);

#endif
