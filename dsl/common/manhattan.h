/* manhattan.h -- the Manhattan minimum over two int location lists and
 * gravitate's step loop on it, both dialects (manhattan.c). */
#ifndef ARC_MANHATTAN_H
#define ARC_MANHATTAN_H

#include "value.h"

/* min |ai + oi - bi| + |aj + oj - bj| over all pairs of la (na (i, j)
 * pairs) and lb; stops at 0.  INT64_MAX when either is empty; -1 when
 * every pair's distance passes 64 bits (the caller raises). */
int64_t gu_min_dist(const int64_t *la, size_t na, const int64_t *lb, size_t nb,
                    int64_t oi, int64_t oj);

/* gravitate's count: the first c in 0..42 at which la offset by (c*i,
 * c*j) is at distance 1 from lb, else 42.  charged (arc-dsl): each step
 * pays (na*nb)>>4 for the distances, and each shift na; -1 when a
 * charge fails.  Both lists nonempty. */
int64_t gu_gravitate_steps(Ctx *cx, const int64_t *la, size_t na, const int64_t *lb,
                           size_t nb, int64_t i, int64_t j, bool charged);

#endif
