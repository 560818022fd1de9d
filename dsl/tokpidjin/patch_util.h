/* patch_util.h -- helpers of the tokpidjin patch group (patch.c): Python's
 * duck typing on the few value kinds the DSL has, number arithmetic, and the
 * "view" of a patch that tokpidjin's three toindices variants give.
 */
#ifndef ARC_TK_PATCH_UTIL_H
#define ARC_TK_PATCH_UTIL_H

#include <math.h>
#include <stdlib.h>
#include "prim.h"
#include "pyset.h"
#include "fsdistinct.h"
#include "common/rings.h"
#include "fskeys.h"
#include "common/core_util.h"
#include "common/binop.h"
#include "common/grid_util.h"

/* math.nan: one object, since the reference tests `x is math.nan`. */
#define tk_nan_ v_nan_   /* the one math.nan (value.c) */
#define TK_NAN (&tk_nan_)

/* Largest set built in one step (a huge range is MemoryError, not abort). */
#define TKP_MAX_ITEMS ((uint64_t)1 << 26)

static inline bool tkp_charge(Ctx *cx, uint64_t n)
{
    if (n > TKP_MAX_ITEMS) {
        cx_raise(cx, "MemoryError", "set too large");
        return false;
    }
    return cx_charge(cx, n);
}

/* A nested call of a wrapped DSL function: its exception becomes its
 * default d (borrowed immortal); only a spent budget stays an error. */
static inline Value *tkp_wrap(Ctx *cx, Value *r, Value *d)
{
    if (r || cx->over_budget)
        return r;
    cx_clear(cx);
    return v_incref(d);
}

#define TKP_FSET0 (&v_empty_fset_)
#define TKP_TUP0 (&v_empty_tuple_)
#define TKP_FALSE (&v_False_)

/* ---- numbers: int (bool) and float, as Python combines them ------------- */

/* op as a CORE_* operator: + - * and / (floor division) */
static inline int tkp_core_op(char op)
{
    return op == '+' ? CORE_ADD : op == '-' ? CORE_SUB : op == '*' ? CORE_MUL : CORE_FLOORDIV;
}

/* a OP b for OP in + - * / (floor division), as Python's operator: past
 * numbers, tuples concatenate and repeat, frozensets subtract */
static inline Value *tkp_arith(Ctx *cx, const Value *a, const Value *b, char op)
{
    return cm_binop(cx, tkp_core_op(op), (Value *)a, (Value *)b, false);
}

static inline Value *tkp_arith_i(Ctx *cx, const Value *a, int64_t k, char op)
{
    return cm_binop_int(cx, tkp_core_op(op), (Value *)a, k);
}

static inline Value *tkp_abs(Ctx *cx, const Value *a)
{
    if (v_is_int(a))
        return v_int(a->u.i < 0 ? -a->u.i : a->u.i);
    if (a->type == V_FLOAT)
        return v_float(fabs(a->u.f));
    return cx_raise(cx, "TypeError", "bad operand type for abs(): '%s'", v_typename(a));
}

static inline bool tkp_eq_int(const Value *x, int64_t k)
{
    if (v_is_int(x))
        return x->u.i == k;
    if (x->type == V_FLOAT)
        return x->u.f == (double)k;
    return false;
}

/* ---- views: what `for i, j in toindices*(p)` walks --------------------- */

/* Which toindices the body calls. */
enum { TI_AUTO, TI_IDX, TI_OBJ };   /* toindices, toindices_i, toindices_o */

/* The locations: items[0..n), each either a raw element that the consumer
 * unpacks itself (w = 0), or an (i, j, c) cell checked to hold three items
 * whose first two are the location (w = 3).  Duplicate locations of an
 * object stay; callers that depend on the set's order or size build it. */
typedef struct {
    Value **items;
    size_t n;
    int w;
    Value *own;    /* the built toindices set the view walks, if any */
} TkView;

static inline void tkp_view_done(TkView *v)
{
    v_decref(v->own);
    v->own = NULL;
}

/* 0: not all cells hold three items; 1: they do, locations all (int, int);
 * 2: they do, but some coordinate is a bool or float, so which of two equal
 * coordinates wins depends on the built set (its order, its duplicates) */
static inline int tkp_all3(Value *const *it, size_t n)
{
    int r = 1;
    for (size_t x = 0; x < n; x++) {
        if (!v_is_container(it[x]) || v_len(it[x]) != 3)
            return 0;
        Value **c = v_items(it[x]);
        if (c[0]->type != V_INT || c[1]->type != V_INT)
            r = 2;
    }
    return r;
}

static inline Value *tkp_pairs3(Value *const *it, size_t n);

/* Fill v for toindices-variant mode over p; false raised (only TI_IDX can:
 * the other two are wrapped and answer frozenset() instead). */
static inline bool tkp_view(Ctx *cx, Value *p, int mode, TkView *v)
{
    v->items = NULL;
    v->n = 0;
    v->w = 0;
    v->own = NULL;
    if (mode == TI_IDX) {
        if (!gu_iterable(cx, p))
            return false;
        v->items = v_items(p);
        v->n = v_len(p);
        return true;
    }
    if (!v_is_container(p) || v_len(p) == 0)
        return true;
    Value **it = v_items(p);
    size_t n = v_len(p);
    if (mode == TI_AUTO) {
        if (!v_is_container(it[0]))
            return true;
        if (v_len(it[0]) != 3) {      /* toindices returns the patch itself */
            v->items = it;
            v->n = n;
            return true;
        }
    }
    int k = tkp_all3(it, n);
    if (k == 1) {
        v->items = it;
        v->n = n;
        v->w = 3;
    } else if (k == 2) {
        v->own = tkp_pairs3(it, n);
        v->items = v_items(v->own);
        v->n = v_len(v->own);
    }
    return true;
}

/* frozenset((i, j) for i, j, _ in it) */
static inline Value *tkp_pairs3(Value *const *it, size_t n)
{
    PySet s;
    pyset_init(&s);
    for (size_t x = 0; x < n; x++) {
        Value **c = v_items(it[x]);
        Value *t = v_pair_steal(v_incref(c[0]), v_incref(c[1]));
        core_set_put(&s, t);
    }
    return pyset_take(&s);
}

/* The location items of the view's element x, borrowed; NULL raised. */
static inline Value **tkp_loc(Ctx *cx, const TkView *v, size_t x)
{
    if (v->w == 3)
        return v_items(v->items[x]);
    return gu_unpack(cx, v->items[x], 2);
}

/* toindices*(p) itself, as a new reference (never raises for the wrapped
 * variants: their failure is frozenset()). */
static inline Value *tkp_toindices(Ctx *cx, Value *p, int mode)
{
    TkView v;
    if (!tkp_view(cx, p, mode, &v))
        return NULL;
    if (mode == TI_IDX)
        return v_incref(p);
    if (v.own)
        return v.own;
    if (v.w == 0)
        return v_incref(v.n ? p : TKP_FSET0);
    if (!tkp_charge(cx, v.n))
        return NULL;
    return tkp_pairs3(v.items, v.n);
}

/* All locations as ints, in view order, 2 per location (malloc'd, *out);
 * 0: fine, 1: some location does not unpack or is not (int, int), which
 * the caller settles on its slow path. */
static inline int tkp_locs_int(const TkView *v, int64_t **out)
{
    int64_t *a = malloc((2 * v->n + 1) * sizeof *a);
    for (size_t x = 0; x < v->n; x++) {
        Value *e = v->items[x];
        if (!v_is_container(e) || v_len(e) != (v->w ? 3u : 2u))
            goto slow;
        Value **c = v_items(e);
        if (!v_is_int(c[0]) || !v_is_int(c[1]))
            goto slow;
        a[2 * x] = c[0]->u.i;
        a[2 * x + 1] = c[1]->u.i;
    }
    *out = a;
    return 0;
slow:
    free(a);
    *out = NULL;
    return 1;
}

/* p's bounding box where p is a non-empty frozenset of places that keeps
 * it (a box's ring, a line, shifted keys): its extremes and corners are
 * then read without laying out its items. */
static inline bool tkp_places_box(const Value *p, int mode, GBox *b)
{
    return mode == TI_AUTO && p->type == V_FSET && p->u.set.len &&
           (__atomic_load_n(&p->memo, __ATOMIC_ACQUIRE) & V_MEMO_PLACES) && gu_kept_box(p, b);
}

/* k: 0 rows, 1 columns; op: CMP_LT min, CMP_GT max; nan_guard: the body
 * answers math.nan for a falsy p.  New reference or NULL raised. */
static inline Value *extreme(Ctx *cx, Value *p, int mode, int k, int op, bool nan_guard)
{
    if (nan_guard && !v_truthy(p))
        return TK_NAN;
    GBox b;
    if (tkp_places_box(p, mode, &b))
        return v_int(k == 0 ? (op == CMP_LT ? b.i0 : b.i1) : (op == CMP_LT ? b.j0 : b.j1));
    TkView v;
    if (!tkp_view(cx, p, mode, &v))
        return NULL;
    Value *best = NULL;
    for (size_t x = 0; x < v.n; x++) {
        Value **ij = tkp_loc(cx, &v, x);
        int r = ij ? (best ? core_beats(cx, ij[k], best, op) : 1) : -1;
        if (r < 0) {
            tkp_view_done(&v);
            return NULL;
        }
        if (r)
            best = ij[k];
    }
    if (!best)
        return cx_raise(cx, "ValueError", "%s() arg is an empty sequence",
                        op == CMP_LT ? "min" : "max");
    v_incref(best);
    tkp_view_done(&v);
    return best;
}

/* The wrapped extreme a body sees (Integer: 0 on error). */
static inline Value *w_extreme(Ctx *cx, Value *p, int mode, int k, int op)
{
    bool guard = !(k == 1 && op == CMP_GT && mode != TI_AUTO);
    return tkp_wrap(cx, extreme(cx, p, mode, k, op, guard), v_int(0));
}

/* ---- corners: tuple(map(f, zip(*toindices*(p)))) ------------------------- */

enum { OP_MIN = CMP_LT, OP_MAX = CMP_GT, OP_KEYERR = -1 };

/* op0, op1 reduce the first two columns, rest any further ones. */
static inline Value *zcorner(Ctx *cx, Value *p, int mode, int op0, int op1, int rest)
{
    GBox b;
    if (tkp_places_box(p, mode, &b))     /* two columns: rest is never read */
        return v_pair_int(op0 == OP_MIN ? b.i0 : b.i1, op1 == OP_MIN ? b.j0 : b.j1);
    TkView v;
    if (!tkp_view(cx, p, mode, &v))
        return NULL;
    if (v.n == 0)
        return v_incref(TKP_TUP0);
    size_t m = 2;
    if (v.w == 0)                             /* zip stops at the shortest */
        for (size_t x = 0; x < v.n; x++) {
            if (!gu_iterable(cx, v.items[x])) {
                tkp_view_done(&v);
                return NULL;
            }
            if (x == 0 || v_len(v.items[x]) < m)
                m = v_len(v.items[x]);
        }
    Value *t = v_tuple_new(m);
    for (size_t k = 0; k < m; k++)
        v_titems(t)[k] = NULL;
    for (size_t k = 0; k < m; k++) {
        int op = k == 0 ? op0 : k == 1 ? op1 : rest;
        if (op == OP_KEYERR) {
            cx_raise(cx, "KeyError", "%zu", k);
            goto fail;
        }
        Value *best = NULL;
        for (size_t x = 0; x < v.n; x++) {
            Value *c = v_items(v.items[x])[k];
            int r = best ? core_beats(cx, c, best, op) : 1;
            if (r < 0)
                goto fail;
            if (r)
                best = c;
        }
        v_titems(t)[k] = v_incref(best);
    }
    tkp_view_done(&v);
    return t;
fail:
    tkp_view_done(&v);
    for (size_t k = 0; k < m; k++)
        if (!v_titems(t)[k])
            v_titems(t)[k] = v_incref(TKP_TUP0);   /* a whole tuple to free */
    v_decref(t);
    return NULL;
}

enum { C_UL, C_UR, C_LL, C_LR };

static const int corner_ops[4][3] = {
    { OP_MIN, OP_MIN, OP_MIN }, { OP_MIN, OP_MAX, OP_KEYERR },
    { OP_MAX, OP_MIN, OP_KEYERR }, { OP_MAX, OP_MAX, OP_MAX } };

static inline Value *corner_of(Ctx *cx, Value *p, int mode, int which)
{
    const int *o = corner_ops[which];
    return zcorner(cx, p, mode, o[0], o[1], o[2]);
}

/* The wrapped corner a body sees (IJ: () on error). */
static inline Value *w_corner(Ctx *cx, Value *p, int which)
{
    return tkp_wrap(cx, corner_of(cx, p, TI_AUTO, which), TKP_TUP0);
}

/* 0 if len(p) == 0 else hi - lo + 1, k: 0 height, 1 width */
static inline Value *extent(Ctx *cx, Value *p, int mode, int k)
{
    size_t n;
    if (!gu_len(cx, p, &n))
        return NULL;
    if (n == 0)
        return v_int(0);
    Value *hi = w_extreme(cx, p, mode, k, CMP_GT);
    if (!hi)
        return NULL;
    Value *lo = w_extreme(cx, p, mode, k, CMP_LT);
    if (!lo) {
        v_decref(hi);
        return NULL;
    }
    Value *r;
    int64_t span;
    if (v_is_int(hi) && v_is_int(lo) && !__builtin_sub_overflow(hi->u.i, lo->u.i, &span) &&
        span < INT64_MAX) {
        r = v_int(span + 1);
    } else {
        Value *d = tkp_arith(cx, hi, lo, '-');
        r = d ? tkp_arith_i(cx, d, 1, '+') : NULL;
        v_decref(d);
    }
    v_decref(hi);
    v_decref(lo);
    return r;
}

/* ---- height, width, shape ----------------------------------------------- */


static inline Value *w_extent(Ctx *cx, Value *p, int mode, int k)
{
    return tkp_wrap(cx, extent(cx, p, mode, k), v_int(0));
}

/* ---- shift and normalize ------------------------------------------------- */

static inline Value *shift(Ctx *cx, Value *p, Value *d)
{
    if (!v_truthy(p))
        return v_incref(TKP_FSET0);
    if (d->type == V_TUPLE && d->u.tup.len == 0)
        return v_incref(p);
    Value **dd = gu_unpack(cx, d, 2);
    if (!dd || !gu_iterable(cx, p))
        return NULL;
    /* merged rings (rings.h) moved without laying them out */
    Value *rings = v_is_int(dd[0]) && v_is_int(dd[1]) ? cm_rings_shift(p, dd[0]->u.i, dd[1]->u.i)
                                                      : NULL;
    if (rings && !tkp_charge(cx, v_len(p))) {
        v_decref(rings);
        return NULL;
    }
    if (rings)
        return rings;
    Value **it = v_items(p);
    size_t n = v_len(p);
    if (!v_is_container(it[0]))
        return cx_raise(cx, "TypeError", "object of type '%s' has no len()", v_typename(it[0]));
    size_t w = v_len(it[0]) == 3 ? 3 : 2;
    bool fast = v_is_int(dd[0]) && v_is_int(dd[1]);
    int64_t di = fast ? dd[0]->u.i : 0, dj = fast ? dd[1]->u.i : 0;
    if (!tkp_charge(cx, n))
        return NULL;
    /* Interned cells or places moved: one to one, so a frozenset's images
     * are distinct, and a tuple's repeat where its items do; the first of
     * each is laid out as such (fs_from_distinct), with no probe for an
     * equal item.  An image outside the span is a tuple of its own, and a
     * tuple's images are then told apart by value (fs_from_firsts). */
    if (fast) {
        Value *small[64], **img = n <= 64 ? small : malloc(n * sizeof *img);
        size_t x = 0;
        bool outside = false;   /* an image left the span: a tuple of its own */
        for (; img && x < n; x++) {
            int64_t i = 0, j = 0;
            int at = v_interned_at(it[x], &i, &j);
            /* past 64 bits: the general walk below raises */
            if (!(w == 3 ? at >= 11 : at == 0) || __builtin_add_overflow(i, di, &i) ||
                __builtin_add_overflow(j, dj, &j))
                break;
            if (!(img[x] = v_interned_of(at, i, j))) {
                img[x] = w == 3 ? v_triple_steal(v_int(i), v_int(j), v_small(at - 11))
                                : v_pair_int(i, j);
                outside = true;
            }
        }
        Value *r = !img || x < n          ? NULL
                   : p->type == V_FSET ? fs_from_distinct(img, n)
                   : outside           ? fs_from_firsts(img, n)
                                       : fs_from_interned(img, n);
        for (size_t k = 0; outside && k < x; k++)
            v_decref(img[k]);   /* arena values: nothing to do */
        if (img != small)
            free(img);
        if (r)
            return r;
    }
    PySet s;
    pyset_init(&s);
    for (size_t x = 0; x < n; x++) {
        Value *e = it[x], **c, *ni, *nj, *t;
        int64_t i = 0, j = 0;
        int at = fast ? v_interned_at(e, &i, &j) : -1;
        if ((w == 3 ? at >= 11 : at == 0) && !__builtin_add_overflow(i, di, &i) &&
            !__builtin_add_overflow(j, dj, &j)) {
            Value *nv = v_interned_of(at, i, j);
            if (nv) {
                pyset_add(&s, nv);
                continue;
            }
        }
        if (e->type == V_TUPLE && e->u.tup.len == w)
            c = v_titems(e);
        else if (!(c = gu_unpack(cx, e, w)))
            goto fail;
        int64_t mi, mj;
        if (fast && v_is_int(c[0]) && v_is_int(c[1]) && !__builtin_add_overflow(c[0]->u.i, di, &mi) &&
            !__builtin_add_overflow(c[1]->u.i, dj, &mj)) {
            ni = v_int(mi);
            nj = v_int(mj);
        } else {
            ni = tkp_arith(cx, c[0], dd[0], '+');
            nj = ni ? tkp_arith(cx, c[1], dd[1], '+') : NULL;
            if (!nj) {
                v_decref(ni);
                goto fail;
            }
        }
        t = w == 3 ? v_triple_steal(ni, nj, v_incref(c[2])) : v_pair_steal(ni, nj);
        core_set_put(&s, t);
    }
    return pyset_take(&s);
fail:
    pyset_clear(&s);
    return NULL;
}

#endif
