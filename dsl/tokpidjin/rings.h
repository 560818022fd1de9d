/* rings.h -- box's rings over the interned span, laid out only when read
 * in order (rings.c). */
#ifndef TK_RINGS_H
#define TK_RINGS_H

#include "prim.h"
#include "common/grid_util.h"

/* frozenset(vlines | hlines) of the ring with corners (si, sj), (ei, ej),
 * si <= ei and sj <= ej: a recipe that lays itself out, as CPython's
 * comprehensions and unions would, when first read in order (a copy of
 * the last one laid out for the same corners, if kept), and lists its
 * places as keys where they lie in the interned span. */
Value *tk_ring(int64_t si, int64_t sj, int64_t ei, int64_t ej);

/* merge_t(cs) for a tuple cs of at least one such ring (laid out or not),
 * TK_RINGS_MIN places or more in all: a recipe tuple of their corners,
 * charged as merge_t's items; NULL (nothing done) for any other cs, or
 * with *raised where the charge ran out. */
#define TK_RINGS_MIN 32
Value *tk_rings_merge(Ctx *cx, Value *cs, bool *raised);

/* shift(t, (di, dj)) for such a merged tuple t: a frozenset recipe of the
 * moved places, laid out in t's order when read in order; its places
 * listed as keys where they lie in the interned span; NULL for any other
 * t. */
Value *tk_rings_shift(const Value *t, int64_t di, int64_t dj);

/* Whether v is such a shifted set (built or not). */
bool tk_rings_shifted(const Value *v);

/* 1: *out (malloc'd) and *n hold the places of such a shifted set v, in
 * no order, repeats allowed (what fill reads); 0: v is not one; -1:
 * raised. */
int tk_rings_locs(Ctx *cx, const Value *v, GLoc **out, size_t *n);

#endif
