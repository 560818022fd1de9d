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

/* |b - a| + 1 points, exact in unsigned for any two int64s; past
 * INT64_MAX it is INT64_MAX, which every caller's charge refuses */
static inline int64_t line_count(int64_t a, int64_t b, uint64_t *d)
{
    *d = b >= a ? (uint64_t)b - (uint64_t)a : (uint64_t)a - (uint64_t)b;
    return *d >= (uint64_t)INT64_MAX ? INT64_MAX : (int64_t)*d + 1;
}

static inline bool line_of(int64_t ai, int64_t aj, int64_t bi, int64_t bj, Line *l)
{
    uint64_t di, dj;
    int64_t ni = line_count(ai, bi, &di), nj = line_count(aj, bj, &dj);
    int64_t si = ai < bi ? ai : bi, sj = aj < bj ? aj : bj;
    if (ai == bi)
        *l = (Line){ai, sj, 0, 1, nj};
    else if (aj == bj)
        *l = (Line){si, aj, 1, 0, ni};
    else if (di != dj)
        return false;
    else if ((bi > ai) == (bj > aj))        /* bi - ai == bj - aj */
        *l = (Line){si, sj, 1, 1, ni};
    else                                    /* bi - ai == aj - bj */
        *l = (Line){si, aj > bj ? aj : bj, 1, -1, ni};
    return true;
}

/* A line of interned places (V_INTERN_SPAN <= 128) as a nonzero key:
 * start, direction, length; one line, one key. */
_Static_assert(V_INTERN_SPAN <= 128, "a line key holds a place's row and column in 7 bits each");

static inline uint32_t line_key(const Line *l)
{
    uint32_t d = l->di == 0 ? 0 : l->dj == 0 ? 1 : l->dj == 1 ? 2 : 3;
    return 1u << 31 | (uint32_t)(l->i - V_INTERN_MIN) << 17 | (uint32_t)(l->j - V_INTERN_MIN) << 10 |
           d << 8 | (uint32_t)(l->n - 1);
}

/* connect(a, b) of places (ai, aj) and (bi, bj): a_ij is a's two items
 * as unpacked (a bool coordinate stays a bool); charged its points. */
Value *ad_connect_line(Ctx *cx, Value *const *a_ij, int64_t ai, int64_t aj, int64_t bi, int64_t bj);

#endif
