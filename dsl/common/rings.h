/* rings.h -- the outline of a rectangle, as box, inbox and outbox make it
 * in both dialects, laid out only when read in order (rings.c). */
#ifndef CM_RINGS_H
#define CM_RINGS_H

#include "prim.h"
#include "common/grid_util.h"

/* frozenset(vlines | hlines) of the ring with corners (si, sj), (ei, ej),
 * si <= ei and sj <= ej: a recipe whose length, hash and bounding box are
 * set at once, equal to another such ring where their corners are; it
 * lays itself out, as CPython's comprehensions and unions would, when
 * first read in order (a copy of the last one laid out for the same
 * corners, if kept), and lists its places as keys where they lie in the
 * interned span. */
Value *cm_ring(int64_t si, int64_t sj, int64_t ei, int64_t ej);

/* The merge of a tuple cs of at least one such ring (laid out or not),
 * CM_RINGS_MIN places or more in all: a recipe tuple of their corners,
 * charged as core_merge's items; NULL (nothing done) for any other cs, or
 * with *raised where the charge ran out. */
#define CM_RINGS_MIN 32
Value *cm_rings_merge(Ctx *cx, Value *cs, bool *raised);

/* shift(t, (di, dj)) for such a merged tuple t: a frozenset recipe of the
 * moved places, laid out in t's order when read in order; its places
 * listed as keys where they lie in the interned span; NULL for any other
 * t. */
Value *cm_rings_shift(const Value *t, int64_t di, int64_t dj);

/* Whether v is such a shifted set (built or not). */
bool cm_rings_shifted(const Value *v);

/* 1: *out (malloc'd) and *n hold the places of such a shifted set v, in
 * no order, repeats allowed (what fill reads); 0: v is not one; -1:
 * raised. */
int cm_rings_locs(Ctx *cx, const Value *v, GLoc **out, size_t *n);

#endif
