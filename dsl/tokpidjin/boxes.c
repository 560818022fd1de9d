/* boxes.c -- tokpidjin boxes and lines of patches. */
#include "patch_util.h"
#include "common/gridops.h"
#include "common/iset.h"
#include "common/neighbours.h"
#include "common/rings.h"

/* Corners all ints (not bools, which a ring's places would show): the
 * ring is cm_ring's. */
static bool ring_ints(Value *const *v)
{
    for (int k = 0; k < 4; k++)
        if (v[k]->type != V_INT)
            return false;
    return true;
}

/* ---- boxes ---------------------------------------------------------------- */

/* len(range(s, e + 1)), exact for any two int64s; past 64 bits it is
 * UINT64_MAX, which every caller's limit refuses */
static uint64_t side(int64_t s, int64_t e)
{
    if (e < s)
        return 0;
    uint64_t d = (uint64_t)e - (uint64_t)s;
    return d == UINT64_MAX ? UINT64_MAX : d + 1;
}

static bool is_empty_patch(const Value *p)   /* p in [frozenset(), ()] */
{
    return v_is_container(p) && v_len(p) == 0;
}

/* frozenset((i, j) for i in range(si, ei + 1) for j in range(sj, ej + 1));
 * lazy: as a recipe (fsrect.h), which delta's difference would read in
 * order at once */
static Value *backdrop(Ctx *cx, Value *p, bool lazy)
{
    if (!v_is_container(p) || v_len(p) == 0)
        return v_incref(TKP_FSET0);
    Value *ul = w_corner(cx, p, C_UL), *lr = ul ? w_corner(cx, p, C_LR) : NULL, *r = NULL;
    Value **s, **e;
    int64_t si, sj, ei, ej;
    if (!lr || !(s = gu_unpack(cx, ul, 2)) || !(e = gu_unpack(cx, lr, 2)) ||
        !gu_int(cx, s[0], &si) || !gu_int(cx, e[0], &ei) ||
        !gu_int(cx, s[1], &sj) || !gu_int(cx, e[1], &ej))
        goto out;
    uint64_t h = side(si, ei), w = side(sj, ej);
    if ((h && w > TKP_MAX_ITEMS / h) || !tkp_charge(cx, h * w))
        goto out;
    r = lazy ? gu_box_lazy(cx, si, ei, sj, ej) : gu_box_set(cx, si, ei, sj, ej);
out:
    v_decref(ul);
    v_decref(lr);
    return r;
}

Value *tk_backdrop(Ctx *cx, Value *const *a) { return backdrop(cx, a[0], true); }

/* backdrop(p) - toindices(p) */
Value *tk_delta(Ctx *cx, Value *const *a)
{
    Value *p = a[0];
    if (!v_is_container(p) || v_len(p) == 0)
        return v_incref(TKP_FSET0);
    Value *bd = tkp_wrap(cx, backdrop(cx, p, false), TKP_FSET0);
    Value *ti = bd ? tkp_toindices(cx, p, TI_AUTO) : NULL, *r = NULL;
    if (!ti)
        goto out;
    if (ti->type != V_FSET)
        cx_raise(cx, "TypeError", "unsupported operand type(s) for -: 'frozenset' and '%s'",
                 v_typename(ti));
    else
        r = fs_sub(bd, ti);
out:
    v_decref(bd);
    v_decref(ti);
    return r;
}

/* {(i, fixed) for i in range(lo, hi + 1)}, or (fixed, i) when col */
static void add_line(PySet *s, int64_t lo, int64_t hi, Value *fixed, bool col)
{
    for (int64_t i = lo; i <= hi; i++) {
        Value *v = v_int(i);
        Value *t = col ? v_pair_steal(v_incref(fixed), v) : v_pair_steal(v, v_incref(fixed));
        pyset_add(s, t);
        v_decref(t);
    }
}

/* a | b of two set comprehensions, into r */
static void set_or(PySet *r, const PySet *a, const PySet *b)
{
    pyset_copy_from_set(r, a);
    pyset_merge_set(r, b);
}

/* The four set comprehensions of box/inbox/outbox, from the unordered
 * corners (a_i, a_j), (b_i, b_j): frozenset(vlines | hlines). */
static Value *ring(Ctx *cx, Value *ai, Value *aj, Value *bi, Value *bj)
{
    Value *si = core_minmax2(cx, ai, bi, CMP_LT), *sj = si ? core_minmax2(cx, aj, bj, CMP_LT) : NULL;
    Value *ei = sj ? core_minmax2(cx, ai, bi, CMP_GT) : NULL;
    Value *ej = ei ? core_minmax2(cx, aj, bj, CMP_GT) : NULL;
    int64_t i0, i1, j0, j1;
    if (!ej || !gu_int(cx, si, &i0) || !gu_int(cx, ei, &i1) ||
        !gu_int(cx, sj, &j0) || !gu_int(cx, ej, &j1))
        return NULL;
    uint64_t h = side(i0, i1), w = side(j0, j1);
    if (h > TKP_MAX_ITEMS || w > TKP_MAX_ITEMS || !tkp_charge(cx, 4 * (h + w)))
        return NULL;
    Value *corners[4] = {si, sj, ei, ej};
    if (ring_ints(corners))
        return cm_ring(i0, j0, i1, j1);     /* laid out when read in order */
    PySet l1, l2, v, h1, h2, hz, all;
    pyset_init(&l1);
    pyset_init(&l2);
    pyset_init(&v);
    pyset_init(&h1);
    pyset_init(&h2);
    pyset_init(&hz);
    pyset_init(&all);
    add_line(&l1, i0, i1, sj, false);
    add_line(&l2, i0, i1, ej, false);
    set_or(&v, &l1, &l2);
    add_line(&h1, j0, j1, si, true);
    add_line(&h2, j0, j1, ei, true);
    set_or(&hz, &h1, &h2);
    set_or(&all, &v, &hz);
    Value *r = pyset_to_frozenset(&all);
    pyset_clear(&l1);
    pyset_clear(&l2);
    pyset_clear(&v);
    pyset_clear(&h1);
    pyset_clear(&h2);
    pyset_clear(&hz);
    pyset_clear(&all);
    return r;
}

Value *tk_box(Ctx *cx, Value *const *a)
{
    Value *p = a[0];
    if (is_empty_patch(p))
        return v_incref(TKP_FSET0);
    Value *ul = w_corner(cx, p, C_UL), *lr = ul ? w_corner(cx, p, C_LR) : NULL, *r = NULL;
    Value **s, **e;
    if (lr && (s = gu_unpack(cx, ul, 2)) && (e = gu_unpack(cx, lr, 2)))
        r = ring(cx, s[0], s[1], e[0], e[1]);
    v_decref(ul);
    v_decref(lr);
    return r;
}

/* the ring one cell inside (d = 1) or outside (d = -1) the extremes */
static Value *in_out_box(Ctx *cx, Value *p, int64_t d)
{
    if (is_empty_patch(p))
        return v_incref(TKP_FSET0);
    static const int kop[4][2] = {
        { 0, CMP_LT }, { 1, CMP_LT }, { 0, CMP_GT }, { 1, CMP_GT } };
    Value *c[4] = { NULL, NULL, NULL, NULL }, *r = NULL;
    for (int k = 0; k < 4; k++) {
        Value *x = w_extreme(cx, p, TI_AUTO, kop[k][0], kop[k][1]);
        if (!x)
            goto out;
        c[k] = tkp_arith_i(cx, x, k < 2 ? d : -d, '+');
        v_decref(x);
        if (!c[k])
            goto out;
    }
    r = ring(cx, c[0], c[1], c[2], c[3]);
out:
    for (int k = 0; k < 4; k++)
        v_decref(c[k]);
    return r;
}

Value *tk_inbox(Ctx *cx, Value *const *a) { return in_out_box(cx, a[0], 1); }
Value *tk_outbox(Ctx *cx, Value *const *a) { return in_out_box(cx, a[0], -1); }

/* ---- lines ---------------------------------------------------------------- */

static bool is_empty_tuple(const Value *v) { return v->type == V_TUPLE && v->u.tup.len == 0; }

static Value *connect(Ctx *cx, Value *a, Value *b)
{
    if (is_empty_tuple(a) || is_empty_tuple(b))
        return v_incref(TKP_FSET0);
    Value **pa = gu_unpack(cx, a, 2), **pb = pa ? gu_unpack(cx, b, 2) : NULL;
    return pb ? cm_connect_any(cx, pa[0], pa[1], pb[0], pb[1], tkp_charge) : NULL;
}

Value *tk_connect(Ctx *cx, Value *const *a) { return connect(cx, a[0], a[1]); }

/* connect(start, (start[0] + 42 * direction[0], start[1] + 42 * direction[1])) */
Value *tk_shoot(Ctx *cx, Value *const *a)
{
    Value *st = a[0], *dir = a[1];
    if (is_empty_patch(st) || is_empty_patch(dir))
        return v_incref(TKP_FSET0);
    Value *end[2] = { NULL, NULL }, *r = NULL;
    for (int k = 0; k < 2; k++) {
        Value *s = gu_getitem(cx, st, (size_t)k), *d = s ? gu_getitem(cx, dir, (size_t)k) : NULL;
        Value *m = d ? tkp_arith_i(cx, d, 42, '*') : NULL;
        end[k] = m ? tkp_arith(cx, s, m, '+') : NULL;
        v_decref(m);
        if (!end[k])
            goto out;
    }
    Value *b = v_pair_steal(end[0], end[1]);
    end[0] = end[1] = NULL;
    r = tkp_wrap(cx, connect(cx, st, b), TKP_FSET0);
    v_decref(b);
out:
    v_decref(end[0]);
    v_decref(end[1]);
    return r;
}

/* frozenset((location[0], j) for j in range(30)) */
Value *tk_hfrontier(Ctx *cx, Value *const *a)
{
    if (is_empty_tuple(a[0]))
        return v_incref(TKP_FSET0);
    Value *i = gu_getitem(cx, a[0], 0);
    return i ? cm_zip_line(cx, i, 0, 0, 0, NULL, 0, 30, 1, tkp_charge) : NULL;
}

static Value *coord_plus(Ctx *cx, Value *c, int d) { return tkp_arith_i(cx, c, d, '+'); }

/* frozenset({four offsets of loc}): directions first..first+3; frozenset()
 * for a loc that is () or no tuple */
static Value *nbrs4(Ctx *cx, Value *loc, int first)
{
    if (loc->type != V_TUPLE || loc->u.tup.len == 0)
        return v_incref(TKP_FSET0);
    return gu_getitem(cx, loc, 1) ? cm_nbrs4(cx, loc, first, coord_plus) : NULL;
}

/* each half wrapped, as a nested DSL call is */
static Value *nbrs4_wrapped(Ctx *cx, Value *loc, int first)
{
    return tkp_wrap(cx, nbrs4(cx, loc, first), TKP_FSET0);
}

Value *tk_dneighbors(Ctx *cx, Value *const *a) { return nbrs4(cx, a[0], 0); }
Value *tk_ineighbors(Ctx *cx, Value *const *a) { return nbrs4(cx, a[0], 4); }

/* dneighbors(loc) | ineighbors(loc) */
Value *tk_neighbors(Ctx *cx, Value *const *a) { return cm_neighbors(cx, a[0], nbrs4_wrapped, false); }

/* mapply_t(f, c) = merge_t(apply_t(f, c)) where f makes a place's kept
 * neighbourhood: each one's items are read where they are kept, neither
 * cloned nor gathered into apply_t's tuple first, since nothing can see
 * those sets.  Charged as the calls are: apply_t, merge_t, a call per
 * place, apply_t's results and merge_t's items. */
bool tk_mapply_nb(Ctx *cx, Value *f, Value *c, Value **r)
{
    if (!prim_direct(f, 1) || (c->type != V_TUPLE && c->type != V_FSET) || v_len(c) == 0)
        return false;
    int prim = f->u.fn.prim, kind = prim == PRIM_TK_neighbors ? AD_NB_ALL
                                    : prim == PRIM_TK_dneighbors ? AD_NB_D
                                    : prim == PRIM_TK_ineighbors ? AD_NB_I : -1;
    if (kind < 0)
        return false;
    size_t n = v_len(c), total = 0;
    Value *const *it = v_items(c);
    for (size_t x = 0; x < n; x++) {
        Value **slot = ad_nb_kept(it[x], kind);
        if (!slot)
            return false;
        const Value *kept = __atomic_load_n(slot, __ATOMIC_ACQUIRE);
        if (!kept) {                /* made once, as a call makes it */
            Value *made = prim_table[prim].fn(cx, &it[x]);
            if (!made) {
                cx_clear(cx);
                return false;
            }
            v_decref(made);
            kept = __atomic_load_n(slot, __ATOMIC_ACQUIRE);
            if (!kept)
                return false;
        }
        total += kept->u.set.len;
    }
    *r = NULL;
    VBuf b = {0};
    if (!cx_charge(cx, 2 + n) || !core_work(cx, n) || !vb_reserve(cx, &b, total))
        return true;
    for (size_t x = 0; x < n; x++) {
        const Value *kept = __atomic_load_n(ad_nb_kept(it[x], kind), __ATOMIC_ACQUIRE);
        for (size_t k = 0; k < kept->u.set.len; k++)
            b.v[b.n++] = v_incref(kept->u.set.items[k]);
    }
    *r = vb_finish(cx, &b, V_TUPLE);
    return true;
}

