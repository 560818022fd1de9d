/* rings.h -- box's rings over the interned span, laid out only when read
 * in order (rings.c). */
#ifndef TK_RINGS_H
#define TK_RINGS_H

#include "prim.h"

/* frozenset(vlines | hlines) of the ring with corners (si, sj), (ei, ej),
 * si <= ei and sj <= ej, all four in the interned span: a recipe that
 * lists its places and lays itself out, as CPython's comprehensions and
 * unions would, when first read in order (a copy of the last one laid
 * out for the same corners, if kept). */
Value *tk_ring(int64_t si, int64_t sj, int64_t ei, int64_t ej);

/* merge_t(cs) for a tuple cs of at least one such ring (laid out or not),
 * TK_RINGS_MIN places or more in all: a recipe tuple of their corners,
 * charged as merge_t's items; NULL (nothing done) for any other cs, or
 * with *raised where the charge ran out. */
#define TK_RINGS_MIN 32
Value *tk_rings_merge(Ctx *cx, Value *cs, bool *raised);

/* shift(t, (di, dj)) for such a merged tuple t, every ring moved staying
 * in the span: a frozenset recipe of the moved places, listed in no order
 * (fill reads them so) and laid out in t's order when read in order;
 * NULL for any other t. */
Value *tk_rings_shift(const Value *t, int64_t di, int64_t dj);

/* Whether v is such a shifted set (built or not). */
bool tk_rings_shifted(const Value *v);

#endif
