/* relations.c -- arc-dsl relations between patches. */
#include <stdlib.h>
#include "prim.h"
#include "pyset.h"
#include "common/gridops.h"
#include "common/manhattan.h"
#include "arcdsl/patch_util.h"

/* ---- relations between patches ----------------------------------------- */

Value *ad_hmatching(Ctx *cx, Value *const *a) { return core_bool(matching(cx, a[0], a[1], 0)); }
Value *ad_vmatching(Ctx *cx, Value *const *a) { return core_bool(matching(cx, a[0], a[1], 1)); }

/* After the int path failed: raise what CPython's
 * `min(abs(ai - bi) + abs(aj - bj) for ai, aj in toindices(a) for bi, bj in
 * toindices(b))` raises first.  toindices(b) is evaluated for each item of
 * a (the same value each time), so a's unpacks interleave with b's. */
static void manhattan_raise(Ctx *cx, Value *a, Value *b)
{
    cx_clear(cx);
    Value *ta = ad_toindices(cx, &a), *tb = NULL;
    bool any = false;
    for (size_t x = 0; ta && x < v_len(ta); x++) {
        Value **aij = unpack2(cx, v_items(ta)[x]);
        if (!aij || (!tb && !(tb = ad_toindices(cx, &b))))
            goto out;
        for (size_t y = 0; y < v_len(tb); y++) {
            Value **bij = unpack2(cx, v_items(tb)[y]);
            if (!bij)
                goto out;
            for (int k = 0; k < 2; k++)
                if (!v_is_int(aij[k]) || !v_is_int(bij[k])) {
                    cx_raise(cx, "TypeError", "unsupported operand type(s) for -: '%s' and '%s'",
                             v_typename(aij[k]), v_typename(bij[k]));
                    goto out;
                }
            any = true;
        }
    }
    if (ta && !any)
        cx_raise(cx, "ValueError", "min() arg is an empty sequence");
out:
    v_decref(ta);
    v_decref(tb);
    if (!cx->err)   /* the int path failed on something this walk let through */
        cx_raise(cx, "TypeError", "unsupported location in manhattan");
}

/* The place of a frozenset's one interned place or arc-dsl cell. */
static bool one_place(const Value *p, int64_t *i, int64_t *j)
{
    if (p->type != V_FSET || p->u.set.len != 1 ||
        (__atomic_load_n(&p->memo, __ATOMIC_ACQUIRE) & V_MEMO_UNBUILT))
        return false;
    int at = v_interned_at(p->u.set.items[0], i, j);
    return at >= 0 && at <= 10;
}

/* manhattan distance as an int; false raised */
static bool manhattan_i(Ctx *cx, Value *a, Value *b, int64_t *out)
{
    int64_t *la, *lb, ai, aj, bi, bj;
    if (one_place(a, &ai, &aj) && one_place(b, &bi, &bj)) {  /* initset against initset */
        *out = i64abs(ai - bi) + i64abs(aj - bj);
        return charge(cx, 0);
    }
    ptrdiff_t na = locs_int(cx, a, &la), nb;
    if (na < 0) {
        if (!cx->over_budget)
            manhattan_raise(cx, a, b);
        return false;
    }
    if (na == 0) {
        cx_raise(cx, "ValueError", "min() arg is an empty sequence");
        return false;
    }
    nb = locs_int(cx, b, &lb);
    if (nb < 0 && !cx->over_budget) {
        free(la);
        manhattan_raise(cx, a, b);
        return false;
    }
    bool ok = nb > 0 && charge(cx, ((uint64_t)na * (uint64_t)nb) >> 4);
    if (nb == 0)
        cx_raise(cx, "ValueError", "min() arg is an empty sequence");
    if (ok && (*out = gu_min_dist(la, (size_t)na, lb, (size_t)nb, 0, 0)) < 0) {
        core_overflow(cx);
        ok = false;
    }
    free(la);
    free(lb);
    return ok;
}

Value *ad_manhattan(Ctx *cx, Value *const *a)
{
    int64_t d;
    return manhattan_i(cx, a[0], a[1], &d) ? v_int(d) : NULL;
}

Value *ad_adjacent(Ctx *cx, Value *const *a)
{
    int64_t d;
    return manhattan_i(cx, a[0], a[1], &d) ? v_bool(d == 1) : NULL;
}

Value *ad_bordering(Ctx *cx, Value *const *a)
{
    Value *p = a[0], *g = a[1], *x;
    size_t n;
    static const struct { int k, op; } sides[4] = {
        { 0, CMP_LT }, { 1, CMP_LT }, { 0, CMP_GT }, { 1, CMP_GT } };
    GBox kb = {0};
    bool kept = gu_kept_box(p, &kb);    /* the extremes without reading the cells */
    const int64_t kx[4] = {kb.i0, kb.j0, kb.i1, kb.j1};
    for (int s = 0; s < 4; s++) {
        if (!kept && !(x = coord_ext(cx, p, sides[s].k, sides[s].op)))
            return NULL;
        int64_t want = 0;
        if (s >= 2) {
            if (s == 2 ? !gu_len(cx, g, &n) : !gu_width(cx, g, &n))
                return NULL;
            want = (int64_t)n - 1;
        }
        if (kept ? kx[s] == want : eq_int(x, want))
            return v_bool(true);
    }
    return v_bool(false);
}
