/* dsl/rearc/list.h -- where re-arc's dsl.py (michaelhodel/re-arc) differs
 * from arc-dsl's: X-macro rows RA(name, arity, ret, gpu, shape), as
 * arcdsl/list.h's, each bound to ra_<name>.  A re-arc program runs in the
 * arc-dsl dialect with these names resolved to these rows; every other
 * name is arc-dsl's, whose code re-arc's repeats (renamed variables and
 * annotations aside). */
RA(argmax, 2, RET_TUPLE, NONE, NONE)        /* max(..., default=None): None when empty */
RA(argmin, 2, RET_TUPLE, NONE, NONE)        /* min(..., default=None) */
RA(occurrences, 2, RET_FSET, NONE, NONE)    /* every (i, j) of the grid is tried */
