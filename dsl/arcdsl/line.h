/* line.h -- connect's line between two places, as arc-dsl's shapes.c
 * makes it and connects.c makes many at once. */
#ifndef ARC_ARCDSL_LINE_H
#define ARC_ARCDSL_LINE_H

#include <stdbool.h>
#include <stdint.h>
#include "value.h"

/* connect(a, b) as n points from (i, j) by (di, dj), from the lower end (the
 * higher column on the anti-diagonal); false where a and b share no row,
 * column or diagonal (the empty set). */
typedef struct { int64_t i, j, di, dj, n; } Line;

static inline bool line_of(int64_t ai, int64_t aj, int64_t bi, int64_t bj, Line *l)
{
    int64_t si = ai < bi ? ai : bi, ei = (ai > bi ? ai : bi) + 1;
    int64_t sj = aj < bj ? aj : bj, ej = (aj > bj ? aj : bj) + 1;
    if (ai == bi)
        *l = (Line){ai, sj, 0, 1, ej - sj};
    else if (aj == bj)
        *l = (Line){si, aj, 1, 0, ei - si};
    else if (bi - ai == bj - aj)
        *l = (Line){si, sj, 1, 1, ei - si};
    else if (bi - ai == aj - bj)
        *l = (Line){si, ej - 1, 1, -1, ei - si};
    else
        return false;
    return true;
}

/* connect(a, b) of places (ai, aj) and (bi, bj): a_ij is a's two items
 * as unpacked (a bool coordinate stays a bool); charged its points. */
Value *ad_connect_line(Ctx *cx, Value *const *a_ij, int64_t ai, int64_t aj, int64_t bi, int64_t bj);

#endif
