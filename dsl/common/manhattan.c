/* manhattan.c -- Manhattan minimum and gravitate's step loop, both
 * dialects (manhattan.h).  The location lists and the emptiness errors
 * stay with each dialect; tokpidjin's fast path pays no charge. */
#include "common/manhattan.h"

static inline int64_t iabs(int64_t x) { return x < 0 ? -x : x; }

int64_t gu_min_dist(const int64_t *la, size_t na, const int64_t *lb, size_t nb,
                    int64_t oi, int64_t oj)
{
    int64_t best = INT64_MAX;
    for (size_t x = 0; x < na; x++) {
        int64_t ai = la[2 * x] + oi, aj = la[2 * x + 1] + oj;
        for (size_t y = 0; y < nb; y++) {
            int64_t d = iabs(ai - lb[2 * y]) + iabs(aj - lb[2 * y + 1]);
            if (d < best) {
                best = d;
                if (d == 0)
                    return 0;
            }
        }
    }
    return best;
}

int64_t gu_gravitate_steps(Ctx *cx, const int64_t *la, size_t na, const int64_t *lb,
                           size_t nb, int64_t i, int64_t j, bool charged)
{
    int64_t c = 0;
    for (;;) {
        if (charged && !cx_charge(cx, ((uint64_t)na * (uint64_t)nb) >> 4))
            return -1;
        if (gu_min_dist(la, na, lb, nb, c * i, c * j) == 1 || c >= 42)
            return c;
        c++;
        if (charged && !cx_charge(cx, (uint64_t)na))    /* the shifted source */
            return -1;
    }
}
