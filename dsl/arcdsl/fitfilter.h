/* fitfilter.h -- sfilter(c, p) where p asks how much of a patch, shifted
 * by each item, falls outside a set:
 *
 *     p(x) == (size(difference(shift(S, x), D)) == t)
 *
 * (template matching: the places where S fits inside D), written with
 * compose, chain and matcher around lbind(shift, S), rbind(difference, D)
 * and size, and such tests joined by forks of both and either, negated
 * by flip, or taken at x plus a vector (lbind or rbind of add).  Each
 * item's answer is counted from S's keys moved by x and a bitmap of D's
 * keys, no shifted patch or difference made, and charged as the calls
 * would be: one per call, S's length per shift, the difference's length
 * per difference (fitfilter.c).  An item that is not an interned place,
 * or moves S out of the interned span, is called as written. */
#ifndef ARC_ARCDSL_FITFILTER_H
#define ARC_ARCDSL_FITFILTER_H

#include "value.h"

/* sfilter(c, pred) done so where pred has that form: true, *r the result
 * (NULL where raised); false, nothing done, where it has not. */
bool ad_fit_filter(Ctx *cx, Value *c, Value *pred, Value **r);

#endif
