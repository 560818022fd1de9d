/* apply.c -- arc-dsl's apply family: apply, rapply, mapply, papply,
 * mpapply, prapply.  type(container)(function(e) for e in container), with
 * the shapes solvers hand it (a fork over a product, shifts of one patch)
 * made without the per-item calls, charged as the calls would be. */
#include "prim.h"
#include "fastdiv.h"
#include "fsderived.h"
#include "fsproduct.h"
#include "fskeys.h"
#include "fsfar.h"
#include "arcdsl/paths.h"
#include "arcdsl/patch_util.h"
#include "common/core_util.h"
#include "common/closures.h"
#include "common/mshift.h"

/* apply(fork(outer, p, q), product(A, B)) with p and q closures that
 * take items (paths), the product not yet laid out: the derived set
 * core_map_gen makes, without a pair tuple, the fork or the paths' walks
 * per pair -- each side's value is walked once per item of A and of B,
 * and outer called on the two, charged as the fork's run would be.
 * false (nothing charged, nothing raised) where that does not apply or a
 * call fails: core_map then decides, as for any other function. */
static bool map_product_fork(Ctx *cx, Value *f, Value *c, Value **r)
{
    ForkPairs fp;
    CoreGen g;
    if (!fs_gen_lazy(c) || !fs_is_product(c) || !ad_fork_pairs(f, c, &fp))
        return false;
    size_t len = v_len(c);
    bool ok = core_gen_open(&g, cx, len, true), made = false;
    if (ok && fp.outer == prim_value(PRIM_AD_connect)) {
        int done = ad_connect_pairs(cx, &fp, len, g.map, &g.mem);
        ok = done >= 0, made = done > 0;
    }
    FastDiv by_n = fastdiv_of((uint32_t)fp.n);
    for (size_t x = 0; ok && !made && x < len; x++) {   /* generation order */
        size_t i = fastmod(by_n, (uint32_t)x), j = fp.n + fastdiv(by_n, (uint32_t)x);
        Value *ab[2] = {ad_fork_pair_arg(&fp, 0, i, j), ad_fork_pair_arg(&fp, 1, i, j)};
        Value *res = cx_charge(cx, fp.charge) ? prim_call(cx, fp.outer, 2, ab) : NULL;
        if (res && (res->flags & V_FLAGS_PY)) {
            v_decref(res);
            res = NULL;
        }
        ok = res && (g.map[x] = core_gen_member(&g, res)) >= 0;
    }
    ad_fork_pairs_free(&fp);
    if (!ok || !core_work(cx, len)) {
        core_gen_undo(&g);
        return false;
    }
    *r = fs_derived(c, g.map, g.mem.v, g.mem.n);
    g.mem.n = 0;                /* taken */
    core_gen_close(&g);
    return true;
}

Value *ad_apply(Ctx *cx, Value *const *a)
{
    Value *r;
    if (a[1]->type == V_FSET && (map_product_fork(cx, a[0], a[1], &r) || ad_apply_pairs(cx, a[0], a[1], &r)))
        return r;
    return core_map(cx, a[0], a[1], a[1]->type, false, true);
}

/* type(functions)(function(value) for function in functions) */
Value *ad_rapply(Ctx *cx, Value *const *a) { return core_map(cx, a[1], a[0], a[0]->type, true, true); }

static Value *merged(Ctx *cx, Value *v)
{
    if (!v)
        return NULL;
    Value *r = ad_merge(cx, &v);
    v_decref(v);
    return r;
}

/* An offset shift moves by without a call: two ints (bools go the way of
 * the call). */
static bool shift_offset(const Value *d, int64_t o[2])
{
    if (d->type != V_TUPLE || d->u.tup.len != 2 || v_titems(d)[0]->type != V_INT ||
        v_titems(d)[1]->type != V_INT)
        return false;
    o[0] = v_titems(d)[0]->u.i;
    o[1] = v_titems(d)[1]->u.i;
    return true;
}

/* A patch shift moves without a call: a non-empty frozenset of interned
 * places or cells, its keys listed in its order into k (emptied first). */
static bool shift_keys(const Value *p, FsKeys *k, FsMoveSrc *m)
{
    k->n = 0;
    return p->type == V_FSET && v_len(p) && fs_ordered_keys(p, k) &&
           fs_keys_move_from(k->k, k->n, m);
}

/* What map_shifts moves by: the fixed patch's keys (lbind) or offset
 * (rbind), and each item's. */
typedef struct {
    bool left;
    FsKeys k;
    FsMoveSrc m;
    int64_t d[2];
} Shifts;

/* An item's image as moved keys, charged as the calls would be (the
 * bind's, shift's, shift's per cell); NULL, nothing raised, where the
 * keys do not cover it. */
static Value *shift_item(Ctx *cx, Value *e, void *ud)
{
    Shifts *sh = ud;
    bool moves = sh->left ? shift_offset(e, sh->d) : shift_keys(e, &sh->k, &sh->m);
    Value *r = moves ? fs_keys_moved(&sh->m, sh->d[0], sh->d[1]) : NULL;
    if (moves && !r)            /* past the span */
        r = fs_far_moved(&sh->m, sh->d[0], sh->d[1]);
    if (r && !(cx_charge(cx, 2) && cx_charge(cx, sh->m.n))) {
        v_decref(r);
        r = NULL;
    }
    return r;
}

/* apply(lbind(shift, P), offsets) or apply(rbind(shift, offset), patches)
 * for mapply: each image kept as its moved keys (fs_keys_moved), which
 * the merge then holds as a union, unordered until read, or as codes
 * where it leaves the interned span (fs_far_moved); CPython lays every
 * image out.  An item the keys do not cover (an offset not two ints, a
 * patch not of places or cells) is shifted by the call.  false (nothing
 * done) where f is not such a bind or c is walked in generation order
 * (core_map_gen). */
/* PRIM_AD_lbind or PRIM_AD_rbind where f binds shift and c is a frozenset
 * walked in its order; -1 otherwise. */
static int shift_bind_over(const Value *f, const Value *c)
{
    int prim = f->type == V_FUNC ? f->u.fn.prim : -1;
    if ((prim != PRIM_AD_lbind && prim != PRIM_AD_rbind) || f->u.fn.ncap != 2 ||
        CAP(f, 0) != prim_value(PRIM_AD_shift) || c->type != V_FSET || fs_gen_lazy(c))
        return -1;
    return prim;
}

static bool map_shifts(Ctx *cx, Value *f, Value *c, Value **r)
{
    int prim = shift_bind_over(f, c);
    if (prim < 0)
        return false;
    Shifts sh = {.left = prim == PRIM_AD_lbind};
    bool ok = sh.left ? shift_keys(CAP(f, 1), &sh.k, &sh.m) : shift_offset(CAP(f, 1), sh.d);
    if (ok)
        *r = core_map_by(cx, f, c, V_FSET, false, true, shift_item, &sh);
    fs_keys_free(&sh.k);
    return ok;
}

/* Fewer images' cells than this, or one image, cost less as moved keys
 * (map_shifts) than as a union with its region's bitmap. */
#define SHIFT_UNION_MIN 64

/* mapply(lbind(shift, P), offsets) over a frozenset of offsets as one far
 * set of the images' union (fs_far_shifts), charged as map_shifts' calls
 * and the merge are; false (nothing done) where it does not apply. */
static bool mapply_shift_union(Ctx *cx, Value *f, Value *c, Value **r)
{
    if (shift_bind_over(f, c) != PRIM_AD_lbind || !v_len(c))
        return false;
    size_t m = v_len(c);
    Value *const *offs = v_items(c);
    int64_t d[2];
    for (size_t q = 0; q < m; q++)
        if (!shift_offset(offs[q], d))
            return false;
    Value *u = NULL, *p = CAP(f, 1);
    size_t n = p->type == V_FSET ? v_len(p) : 0;
    FsKeys k = {0};             /* P's keys in any order: its order is read only if u's is */
    if (m >= 2 && (uint64_t)m * n >= SHIFT_UNION_MIN && (uint64_t)m * n <= CORE_MAX_ITEMS &&
        fs_arena_keys(p, &k))
        u = fs_far_shifts(p, k.k, k.n, c);
    fs_keys_free(&k);
    if (!u)
        return false;
    /* each offset's calls (the bind's, shift's, its cells), apply's
     * results, merge's items */
    bool paid = true;
    for (size_t q = 0; paid && q < m; q++)
        paid = cx_charge(cx, 2) && cx_charge(cx, n);
    if (!paid || !core_work(cx, m) || !core_work(cx, m * n)) {
        v_decref(u);
        u = NULL;
    }
    *r = u;
    return true;
}

Value *ad_mapply(Ctx *cx, Value *const *a)
{
    Value *r;
    if (a[1]->type == V_TUPLE && !(a[1]->flags & V_FLAGS_PY) &&
        cm_mapply_shifts(cx, a[0], a[1], true, &r))
        return r;
    if (mapply_shift_union(cx, a[0], a[1], &r))
        return r;
    if (map_shifts(cx, a[0], a[1], &r))
        return merged(cx, r);
    return merged(cx, ad_apply(cx, a));
}

/* papply(pair, a, b) of two byte grids: each pair of rows zipped from
 * the bytes (interned places for colours), no row made; charged as each
 * call of pair is (the call, then its items). */
static bool pair_rows(Ctx *cx, const Value *ga, const Value *gb, size_t n, VBuf *b)
{
    size_t wa = vg_w(ga), wb = vg_w(gb), w = wa < wb ? wa : wb;
    const uint8_t *ca = vg_cells(ga), *cb = vg_cells(gb);
    for (size_t i = 0; i < n; i++) {
        if (!cx_charge(cx, 1) || !core_work(cx, w))
            return false;
        Value *t = v_tuple_new(w);
        for (size_t k = 0; k < w; k++)
            v_titems(t)[k] = v_pair_int(ca[i * wa + k], cb[i * wb + k]);
        b->v[b->n++] = t;
    }
    return true;
}

/* tuple(function(i, j) for i, j in zip(a, b)) */
Value *ad_papply(Ctx *cx, Value *const *a)
{
    if (!core_iterable(cx, a[1]) || !core_iterable(cx, a[2]))
        return NULL;
    size_t n = v_len(a[1]) < v_len(a[2]) ? v_len(a[1]) : v_len(a[2]);
    VBuf b = {0};
    if (!vb_reserve(cx, &b, n))
        return NULL;
    if (prim_direct(a[0], 2) && a[0]->u.fn.prim == PRIM_AD_pair && vg_is(a[1]) && vg_is(a[2]))
        return pair_rows(cx, a[1], a[2], n, &b) ? vb_finish(cx, &b, V_TUPLE) : (vb_drop(&b), NULL);
    for (size_t i = 0; i < n; i++) {
        Value *args[2] = {v_items(a[1])[i], v_items(a[2])[i]};
        Value *r = core_gen_call(cx, a[0], 2, args);
        if (!r)
            return vb_drop(&b), NULL;
        b.v[b.n++] = r;
    }
    return vb_finish(cx, &b, V_TUPLE);
}

Value *ad_mpapply(Ctx *cx, Value *const *a) { return merged(cx, ad_papply(cx, a)); }

/* frozenset(function(i, j) for j in b for i in a) */
Value *ad_prapply(Ctx *cx, Value *const *a)
{
    Value *x = a[1], *y = a[2];
    if (!core_iterable(cx, y))
        return NULL;
    if (v_len(y) && !core_iterable(cx, x))
        return NULL;
    size_t n = v_len(y) ? v_len(x) : 0, m = v_len(y);
    if (n && m > CORE_MAX_ITEMS / n)
        return cx_raise(cx, "MemoryError", "product too large");
    if (!core_work(cx, (uint64_t)n * m))
        return NULL;
    if (n && a[0] == prim_value(PRIM_AD_connect)) {
        Value *r = ad_connect_all(cx, x, y);
        if (r || cx->err)
            return r;
    }
    /* results go into the set as they come, as frozenset(genexpr) adds
     * them: n * m of them often make a few distinct values */
    PySet s;
    pyset_init(&s);
    for (size_t j = 0; j < m; j++)
        for (size_t i = 0; i < n; i++) {
            Value *args[2] = {v_items(x)[i], v_items(y)[j]};
            Value *r = core_gen_call(cx, a[0], 2, args);
            if (r && !v_hashable(cx, r)) {
                v_decref(r);
                r = NULL;
            }
            if (!r) {
                pyset_clear(&s);
                return NULL;
            }
            core_set_put(&s, r);
        }
    return core_set_finish(cx, &s, n * m);
}
