/* manhattan.c -- Manhattan minimum and gravitate's step loop, both
 * dialects (manhattan.h).  The location lists and the emptiness errors
 * stay with each dialect; tokpidjin's fast path pays no charge. */
#include "common/manhattan.h"

static inline int64_t iabs(int64_t x) { return x < 0 ? -x : x; }

/* Every value within +-2**60: then no sum or difference below can pass
 * 64 bits, and the plain loop runs. */
static bool near(const int64_t *v, size_t n)
{
    const int64_t lim = (int64_t)1 << 60;
    bool ok = true;
    for (size_t k = 0; k < n; k++)
        ok &= v[k] >= -lim && v[k] <= lim;
    return ok;
}

/* The loop where some place is far: a pair whose distance passes 64 bits
 * is past any best, unless every pair's does. */
static int64_t min_dist_far(const int64_t *la, size_t na, const int64_t *lb, size_t nb,
                            int64_t oi, int64_t oj)
{
    int64_t best = INT64_MAX;
    bool far = false;
    for (size_t x = 0; x < na; x++) {
        int64_t ai, aj;
        if (__builtin_add_overflow(la[2 * x], oi, &ai) ||
            __builtin_add_overflow(la[2 * x + 1], oj, &aj)) {
            far = true;
            continue;
        }
        for (size_t y = 0; y < nb; y++) {
            int64_t di, dj, d;
            if (__builtin_sub_overflow(ai, lb[2 * y], &di) ||
                __builtin_sub_overflow(aj, lb[2 * y + 1], &dj) || di == INT64_MIN ||
                dj == INT64_MIN || __builtin_add_overflow(iabs(di), iabs(dj), &d)) {
                far = true;
                continue;
            }
            if (d < best)
                best = d;
        }
    }
    return far && best == INT64_MAX ? -1 : best;
}

/* The plain loop, every place and offset near(). */
static int64_t min_dist_near(const int64_t *la, size_t na, const int64_t *lb, size_t nb,
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

int64_t gu_min_dist(const int64_t *la, size_t na, const int64_t *lb, size_t nb,
                    int64_t oi, int64_t oj)
{
    const int64_t off[2] = {oi, oj};
    if (!near(la, 2 * na) || !near(lb, 2 * nb) || !near(off, 2))
        return min_dist_far(la, na, lb, nb, oi, oj);
    return min_dist_near(la, na, lb, nb, oi, oj);
}

int64_t gu_gravitate_steps(Ctx *cx, const int64_t *la, size_t na, const int64_t *lb,
                           size_t nb, int64_t i, int64_t j, bool charged)
{
    int64_t c = 0;
    /* the places are looked at once, not at each of up to 42 steps; a
     * step within 2**54 keeps 42 of them within 2**60 */
    const int64_t s54 = (int64_t)1 << 54;
    bool plain = i >= -s54 && i <= s54 && j >= -s54 && j <= s54 && near(la, 2 * na) &&
                 near(lb, 2 * nb);
    for (;;) {
        if (charged && !cx_charge(cx, ((uint64_t)na * (uint64_t)nb) >> 4))
            return -1;
        if ((plain ? min_dist_near : gu_min_dist)(la, na, lb, nb, c * i, c * j) == 1 || c >= 42)
            return c;
        c++;
        if (charged && !cx_charge(cx, (uint64_t)na))    /* the shifted source */
            return -1;
    }
}
