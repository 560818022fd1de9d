/* mshift.h -- mapply(lbind(shift, P), offsets) as a recipe tuple that fill
 * and paint read without laying out an image (mshift.c); both dialects:
 * arc-dsl's mapply over a tuple of offsets, tokpidjin's mapply_t. */
#ifndef ARC_MSHIFT_H
#define ARC_MSHIFT_H

#include "value.h"
#include "common/mgrid.h"

/* The mapply of f over c where f is the dialect's lbind(shift, P) and
 * shift's interned path takes every call, charged as the calls are:
 * true with *r the result (NULL raised); false, nothing done, where the
 * calls must be made. */
bool cm_mapply_shifts(Ctx *cx, Value *f, Value *c, bool arcdsl, Value **r);

/* What fill (colour) or paint (colour NULL) writes of a result t of
 * cm_mapply_shifts, read from its recipe, not its items; paint only where
 * t's cells' places all differ.  true with *ok false where a write
 * raised; false, nothing done, for any other t.  bg as gu_mgrid_put_ij's. */
bool cm_shifts_put(Ctx *cx, MGrid *m, const Value *t, Value *colour, const Value *bg, bool *ok);
/* Whether t is such a result (built or not). */
bool cm_shifts_of(const Value *t);

#endif
