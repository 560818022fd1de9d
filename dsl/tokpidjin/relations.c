/* relations.c -- tokpidjin relations between patches, and arc-dsl bodies
 * over tokpidjin's toindices. */
#include <stdatomic.h>
#include "patch_util.h"
#include "common/gridops.h"
#include "common/manhattan.h"

/* ---- relations between patches ------------------------------------------ */

/* min(abs(ai - bi) + abs(aj - bj) ...) over toindices(a) x toindices(b);
 * oa, ob offset a's locations (gravitate's shifted copies). */
static Value *manhattan_view(Ctx *cx, const TkView *va, const TkView *vb)
{
    if (va->n == 0 || vb->n == 0)
        return cx_raise(cx, "ValueError", "min() arg is an empty sequence");
    int64_t *la, *lb = NULL;
    if (tkp_locs_int(va, &la) == 0 && tkp_locs_int(vb, &lb) == 0) {
        int64_t best = gu_min_dist(la, va->n, lb, vb->n, 0, 0);
        free(la);
        free(lb);
        return best < 0 ? core_overflow(cx) : v_int(best);
    }
    free(la);
    /* slow path: any unpacking error or non-int coordinate, as Python does */
    Value *best = NULL;
    for (size_t x = 0; x < va->n; x++) {
        Value **pa = tkp_loc(cx, va, x);
        if (!pa)
            goto fail;
        for (size_t y = 0; y < vb->n; y++) {
            Value **pb = tkp_loc(cx, vb, y);
            if (!pb)
                goto fail;
            Value *t1 = tkp_arith(cx, pa[0], pb[0], '-'), *a1 = t1 ? tkp_abs(cx, t1) : NULL;
            Value *t2 = a1 ? tkp_arith(cx, pa[1], pb[1], '-') : NULL;
            Value *a2 = t2 ? tkp_abs(cx, t2) : NULL, *d = a2 ? tkp_arith(cx, a1, a2, '+') : NULL;
            v_decref(t1);
            v_decref(a1);
            v_decref(t2);
            v_decref(a2);
            if (!d)
                goto fail;
            int r = best ? core_beats(cx, d, best, CMP_LT) : 1;
            if (r < 0) {
                v_decref(d);
                goto fail;
            }
            if (r) {
                v_decref(best);
                best = d;
            } else {
                v_decref(d);
            }
        }
    }
    return best;
fail:
    v_decref(best);
    return NULL;
}

static Value *manhattan(Ctx *cx, Value *a, Value *b)
{
    /* eval's tuple (a class) has __len__, and len() of it raises */
    if (!(v_is_container(a) || v_is_class(a)) || !(v_is_container(b) || v_is_class(b)))
        return v_float(INFINITY);
    for (int k = 0; k < 2; k++) {
        const Value *p = k ? b : a;
        if (v_is_class(p))
            return cx_raise(cx, "TypeError", "object of type 'type' has no len()");
        if (v_len(p) == 0)
            return v_float(INFINITY);
    }
    TkView va, vb;
    tkp_view(cx, a, TI_AUTO, &va);
    tkp_view(cx, b, TI_AUTO, &vb);
    Value *r = manhattan_view(cx, &va, &vb);
    tkp_view_done(&va);
    tkp_view_done(&vb);
    return r;
}

Value *tk_manhattan(Ctx *cx, Value *const *a) { return manhattan(cx, a[0], a[1]); }

/* manhattan(a, b) == 1, manhattan wrapped (0 on error); -1: budget */
static int adjacent(Ctx *cx, Value *a, Value *b)
{
    Value *m = tkp_wrap(cx, manhattan(cx, a, b), v_int(0));
    if (!m)
        return -1;
    bool r = tkp_eq_int(m, 1);
    v_decref(m);
    return r;
}

Value *tk_adjacent(Ctx *cx, Value *const *a)
{
    int r = adjacent(cx, a[0], a[1]);
    return core_bool(r);
}

/* {k-th coordinate of toindices(a)} & {... of toindices(b)} is non-empty */
#define MATCH_LO (-512)
#define MATCH_HI 511

/* s made, and the small ints marked in bits added to it: a's coordinates
 * were all such ints until now, and a set is needed after all. */
static void bits_to_set(const uint64_t bits[16], PySet *s)
{
    pyset_init(s);
    for (int w = 0; w < 16; w++)
        for (uint64_t m = bits[w]; m; m &= m - 1)
            pyset_add(s, v_int(MATCH_LO + 64 * w + __builtin_ctzll(m)));
}

static int matching(Ctx *cx, Value *a, Value *b, int k)
{
    TkView va, vb;
    tkp_view(cx, a, TI_AUTO, &va);
    tkp_view(cx, b, TI_AUTO, &vb);
    uint64_t bits[16] = { 0 };              /* small ints MATCH_LO..MATCH_HI */
    bool small = true;                      /* a's coordinates are all in bits, s unmade */
    PySet s;
    int hit = 0;
    for (size_t x = 0; x < va.n; x++) {
        Value **l = tkp_loc(cx, &va, x);
        if (!l)
            goto fail;
        Value *c = l[k];
        if (small && v_is_int(c) && c->u.i >= MATCH_LO && c->u.i <= MATCH_HI) {
            uint64_t u = (uint64_t)(c->u.i - MATCH_LO);
            bits[u >> 6] |= (uint64_t)1 << (u & 63);
            continue;
        }
        if (small)
            bits_to_set(bits, &s);
        small = false;
        pyset_add(&s, c);
    }
    for (size_t y = 0; y < vb.n; y++) {   /* the whole comprehension runs */
        Value **l = tkp_loc(cx, &vb, y);
        if (!l)
            goto fail;
        Value *c = l[k];
        if (hit)
            continue;
        if (small && v_is_int(c)) {
            if (c->u.i >= MATCH_LO && c->u.i <= MATCH_HI) {
                uint64_t u = (uint64_t)(c->u.i - MATCH_LO);
                hit = (bits[u >> 6] >> (u & 63)) & 1;
            }
        } else {
            if (small)                      /* a float may equal an int */
                bits_to_set(bits, &s);
            small = false;
            hit = pyset_contains(&s, c);
        }
    }
    if (!small)
        pyset_clear(&s);
    tkp_view_done(&va);
    tkp_view_done(&vb);
    return hit;
fail:
    if (!small)
        pyset_clear(&s);
    tkp_view_done(&va);
    tkp_view_done(&vb);
    return -1;
}

Value *tk_hmatching(Ctx *cx, Value *const *a) { return core_bool(matching(cx, a[0], a[1], 0)); }
Value *tk_vmatching(Ctx *cx, Value *const *a) { return core_bool(matching(cx, a[0], a[1], 1)); }

/* (uppermost + height_f // 2, leftmost + width_f // 2); () for math.nan */
static Value *center(Ctx *cx, Value *p)
{
    Value *u = w_extreme(cx, p, TI_AUTO, 0, CMP_LT);
    if (!u)
        return NULL;
    if (u == TK_NAN)
        return v_incref(TKP_TUP0);
    Value *l = w_extreme(cx, p, TI_AUTO, 1, CMP_LT);
    if (!l || l == TK_NAN) {
        v_decref(u);
        return l ? v_incref(TKP_TUP0) : NULL;
    }
    Value *ext[2] = { w_extent(cx, p, TI_AUTO, 0), NULL }, *c[2] = { NULL, NULL }, *r = NULL;
    if (ext[0])
        ext[1] = w_extent(cx, p, TI_AUTO, 1);
    for (int k = 0; k < 2 && ext[1]; k++) {
        Value *h = tkp_arith_i(cx, ext[k], 2, '/');
        c[k] = h ? tkp_arith(cx, k ? l : u, h, '+') : NULL;
        v_decref(h);
        if (!c[k])
            goto out;
    }
    if (c[1]) {
        r = v_pair_steal(c[0], c[1]);
        c[0] = c[1] = NULL;
    }
out:
    v_decref(u);
    v_decref(l);
    v_decref(ext[0]);
    v_decref(ext[1]);
    v_decref(c[0]);
    v_decref(c[1]);
    return r;
}

Value *tk_center(Ctx *cx, Value *const *a) { return center(cx, a[0]); }

/* Fast gravitate loop: all locations (int, int) and each element shaped as
 * shift wants it, so a shifted copy has the same locations plus the offset.
 * Returns steps taken (0..42), -1 when the fast path does not apply. */
static int gravitate_fast(Ctx *cx, Value *src, Value *dst, int64_t i, int64_t j)
{
    TkView vs, vd;
    tkp_view(cx, src, TI_AUTO, &vs);
    tkp_view(cx, dst, TI_AUTO, &vd);
    int64_t *ls = NULL, *ld = NULL;
    bool ok = vs.n && vd.n && !vs.own && !vd.own &&
              !tkp_locs_int(&vs, &ls) && !tkp_locs_int(&vd, &ld);
    tkp_view_done(&vs);
    tkp_view_done(&vd);
    if (!ok) {
        free(ls);
        return -1;
    }
    int c = (int)gu_gravitate_steps(cx, ls, vs.n, ld, vd.n, i, j, false);
    free(ls);
    free(ld);
    return c;
}

Value *tk_gravitate(Ctx *cx, Value *const *a)
{
    Value *src = a[0], *dst = a[1];
    if (!v_truthy(dst))
        return v_incref(src);
    Value *cs = center(cx, src), *cd = NULL, *r = NULL;
    cs = tkp_wrap(cx, cs, TKP_TUP0);
    if (cs)
        cd = tkp_wrap(cx, center(cx, dst), TKP_TUP0);
    Value **ps, **pd;
    if (!cd || !(ps = gu_unpack(cx, cs, 2)) || !(pd = gu_unpack(cx, cd, 2)))
        goto out;
    int64_t i = 0, j = 0;
    int vm = matching(cx, src, dst, 1);
    if (vm < 0) {
        if (cx->over_budget)
            goto out;
        cx_clear(cx);
        vm = 0;
    }
    int lt = v_richcmp(cx, vm ? ps[0] : ps[1], vm ? pd[0] : pd[1], CMP_LT);
    if (lt < 0)
        goto out;
    if (vm)
        i = lt ? 1 : -1;
    else
        j = lt ? 1 : -1;
    int steps = gravitate_fast(cx, src, dst, i, j);
    if (steps < 0) {                          /* the reference's loop, literally */
        Value *cur = v_incref(src);
        steps = 0;
        for (;;) {
            int adj = adjacent(cx, cur, dst);
            if (adj < 0) {
                v_decref(cur);
                goto out;
            }
            if (adj || steps == 42)
                break;
            steps++;
            Value *d = v_pair_int(i, j);
            Value *nx = tkp_wrap(cx, shift(cx, cur, d), TKP_FSET0);
            v_decref(d);
            v_decref(cur);
            if (!(cur = nx))
                goto out;
        }
        v_decref(cur);
    }
    r = v_pair_int(steps * i, steps * j);
out:
    v_decref(cs);
    v_decref(cd);
    return r;
}

/* ---- arc-dsl bodies over tokpidjin's toindices ---------------------------
 * The bodies are arc-dsl's, but the functions they call differ here (an
 * (i, j, c) cell is no arc-dsl cell), so arc-dsl's C cannot stand in. */

/* uppermost == 0 or leftmost == 0 or lowermost == len(grid) - 1 or
 * rightmost == len(grid[0]) - 1, each extreme wrapped (0 on error) */
Value *tk_bordering(Ctx *cx, Value *const *a)
{
    Value *p = a[0], *g = a[1], *r0;
    static const int kop[4][2] = {
        { 0, CMP_LT }, { 1, CMP_LT }, { 0, CMP_GT }, { 1, CMP_GT } };
    for (int k = 0; k < 4; k++) {
        Value *x = w_extreme(cx, p, TI_AUTO, kop[k][0], kop[k][1]);
        if (!x)
            return NULL;
        size_t n = 1;
        if (k == 2 && !gu_len(cx, g, &n))
            n = 0;
        if (k == 3 && (!(r0 = gu_getitem(cx, g, 0)) || !gu_len(cx, r0, &n)))
            n = 0;
        if (n == 0 && cx->err) {
            v_decref(x);
            return NULL;
        }
        bool hit = tkp_eq_int(x, k < 2 ? 0 : (int64_t)n - 1);
        v_decref(x);
        if (hit)
            return v_bool(true);
    }
    return v_bool(false);
}

/* tuple(sum(column) // len(patch) for column in zip(*toindices(patch))) */
Value *tk_centerofmass(Ctx *cx, Value *const *a)
{
    Value *ti = tkp_toindices(cx, a[0], TI_AUTO), *t = NULL;
    if (!ti)
        return NULL;
    size_t n = v_len(ti), m;
    Value **it = v_items(ti);
    if (!gu_zip_width(cx, it, n, &m))
        goto out;
    Value *len = v_int((int64_t)v_len(a[0]));   /* n > 0: a[0] has a len */
    t = v_tuple_new(m);
    for (size_t k = 0; k < m; k++)
        v_titems(t)[k] = NULL;
    for (size_t k = 0; k < m; k++) {
        Value *sum = v_int(0);
        for (size_t x = 0; x < n && sum; x++) {
            Value *nx = tkp_arith(cx, sum, v_items(it[x])[k], '+');
            v_decref(sum);
            sum = nx;
        }
        Value *q = sum ? tkp_arith(cx, sum, len, '/') : NULL;
        v_decref(sum);
        if (!q) {
            for (size_t j = k; j < m; j++)
                v_titems(t)[j] = v_incref(TKP_TUP0);
            v_decref(t);
            t = NULL;
            break;
        }
        v_titems(t)[k] = q;
    }
    v_decref(len);
out:
    v_decref(ti);
    return t;
}

/* frozenset({ulcorner, urcorner, llcorner, lrcorner}), each wrapped */
Value *tk_corners(Ctx *cx, Value *const *a)
{
    return cm_corners(cx, a[0], w_corner);
}

/* sign of b's centre relative to a's, from center(toindices(.)) */
Value *tk_position(Ctx *cx, Value *const *a)
{
    Value *c[2] = { NULL, NULL }, **pa, **pb, *r = NULL;
    for (int k = 0; k < 2; k++) {
        Value *ti = tkp_wrap(cx, tkp_toindices(cx, a[k], TI_AUTO), TKP_FSET0);
        c[k] = ti ? tkp_wrap(cx, center(cx, ti), TKP_TUP0) : NULL;
        v_decref(ti);
        if (!c[k])
            goto out;
    }
    if (!(pa = gu_unpack(cx, c[0], 2)) || !(pb = gu_unpack(cx, c[1], 2)))
        goto out;
    Value *ia = pa[0], *ja = pa[1], *ib = pb[0], *jb = pb[1];
    int lt;
    if (v_eq(ia, ib)) {
        if ((lt = v_richcmp(cx, ja, jb, CMP_LT)) >= 0)
            r = v_pair_int(0, lt ? 1 : -1);
    } else if (v_eq(ja, jb)) {
        if ((lt = v_richcmp(cx, ia, ib, CMP_LT)) >= 0)
            r = v_pair_int(lt ? 1 : -1, 0);
    } else {
        int sgn = 0, gt;
        if ((lt = v_richcmp(cx, ia, ib, CMP_LT)) < 0)
            goto out;
        if (lt)
            sgn = 1;
        else if ((gt = v_richcmp(cx, ia, ib, CMP_GT)) < 0)
            goto out;
        else if (gt)
            sgn = -1;
        if (!sgn) {
            r = v_none();                      /* falls off the end */
        } else if ((lt = v_richcmp(cx, ja, jb, CMP_LT)) >= 0) {
            r = v_pair_int(sgn, lt ? 1 : -1);
        }
    }
out:
    v_decref(c[0]);
    v_decref(c[1]);
    return r;
}
