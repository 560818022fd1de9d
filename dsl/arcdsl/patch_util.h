/* patch_util.h -- helpers of arc-dsl's patch files: Python-ish unpacking
 * and what toindices sees of a patch. */
#ifndef ARC_ARCDSL_PATCH_UTIL_H
#define ARC_ARCDSL_PATCH_UTIL_H

#include <stdlib.h>
#include "prim.h"
#include "pyset.h"
#include "fskeys.h"
#include "common/core_util.h"
#include "common/grid_util.h"
#include "common/gridops.h"
#include "common/anyorder.h"
#include "common/binop.h"
#include "arcdsl/paths.h"

/* ---- Python-ish helpers ----------------------------------------------- */

/* prapply(connect, x, y) for x and y of interned places (shapes.c); NULL,
 * nothing raised, for others: the general prapply then runs. */
Value *ad_connect_all(Ctx *cx, Value *x, Value *y);
/* apply(fork(connect, p, q), product) for functional.c's map_product_fork:
 * each pair's result as its index among the distinct results (map, in
 * generation order), those in mem in first-pair order, each line made
 * once (as prapply's), charged as the fork's runs are.  1 done; 0 nothing
 * done, an argument not an interned place; -1 a call failed (the caller
 * undoes the charges, and the calls are made). */
int ad_connect_pairs(Ctx *cx, const ForkPairs *fp, size_t len, int32_t *map, VBuf *mem);

/* Cells produced count against the instance's work budget. */
static inline bool charge(Ctx *cx, uint64_t n)
{
    return cx_charge(cx, n);
}

/* `a, b = v`: v's two items, borrowed */
static inline Value **unpack2(Ctx *cx, const Value *v) { return gu_unpack(cx, v, 2); }

/* Coordinates take part in arithmetic: ints (and bools) only. */
static inline bool to_i64(Ctx *cx, const Value *v, int64_t *out)
{
    return gu_int_or(cx, v, out, "unsupported operand type(s): '%s'");
}

static inline bool eq_int(const Value *x, int64_t k)
{
    if (v_is_int(x))
        return x->u.i == k;
    Value *t = v_int(k);
    bool r = v_eq(x, t);
    v_decref(t);
    return r;
}

/* ---- what toindices sees ----------------------------------------------- */

enum { PK_EMPTY, PK_IDX, PK_OBJ };

/* len(p) == 0, or isinstance(next(iter(p))[1], tuple); -1 raised */
static inline int pkind(Ctx *cx, const Value *p)
{
    size_t n;
    if (!gu_len(cx, p, &n))
        return -1;
    if (n == 0)
        return PK_EMPTY;
    uint8_t memo = p->type == V_FSET ? __atomic_load_n(&p->memo, __ATOMIC_ACQUIRE) : 0;
    if (memo & (V_MEMO_CELLS | V_MEMO_PLACES))      /* a recipe stays unlaid */
        return memo & V_MEMO_CELLS ? PK_OBJ : PK_IDX;
    Value *x = gu_getitem(cx, v_items(p)[0], 1);
    if (!x)
        return -1;
    return x->type == V_TUPLE ? PK_OBJ : PK_IDX;
}

/* The location toindices takes from element e, borrowed. */
static inline Value *eloc(Ctx *cx, Value *e, int kind)
{
    if (kind != PK_OBJ)
        return e;
    int64_t i, j;
    int at = v_interned_at(e, &i, &j);   /* an interned cell's place, by address */
    if (at >= 1 && at <= 10)
        return v_interned_of(0, i, j);
    Value **vi = unpack2(cx, e);
    return vi ? vi[1] : NULL;
}

/* toindices(p) as a new reference; kind = pkind(p) */
static inline Value *to_indices(Ctx *cx, Value *p, int kind)
{
    if (kind == PK_EMPTY)
        return v_incref(&v_empty_fset_);
    if (kind == PK_IDX)
        return v_incref(p);
    size_t n = v_len(p);
    if (!charge(cx, n))
        return NULL;
    Value *lazy = kind == PK_OBJ ? fs_keys_toindices(p) : NULL;   /* p stays unlaid */
    if (lazy)
        return lazy;
    Value **it = v_items(p);
    if (kind == PK_OBJ) {       /* interned cells: their places, repeats dropped, laid out */
        Value *small[64], **locs = n <= 64 ? small : malloc(n * sizeof *locs);
        size_t x = 0;
        for (int64_t i, j; locs && x < n; x++) {
            int at = v_interned_at(it[x], &i, &j);
            if (at < 1 || at > 10)
                break;
            locs[x] = v_titems(it[x])[1];
        }
        Value *r = locs && x == n ? fs_from_interned(locs, n) : NULL;
        if (locs != small)
            free(locs);
        if (r)
            return r;
    }
    PySet s;
    pyset_init(&s);
    for (size_t x = 0; x < n; x++) {
        Value *loc = eloc(cx, it[x], kind);
        if (!loc) {
            pyset_clear(&s);
            return NULL;
        }
        pyset_add(&s, loc);
    }
    return pyset_take(&s);
}

/* ---- extremes ---------------------------------------------------------- */

typedef GBox BBox;

/* The bounding box of a non-empty frozenset of int locations or cells.
 * Objects are asked for their corners, centre and shape again and again
 * (argmax keys, compose chains): the answer is kept in the value. */
/* Fast path: the bounding box of a non-empty frozenset whose locations are
 * all (int, int).  false: anything else; the generic path then decides
 * (and raises where Python would). */
static inline bool bbox_scan(const Value *p, BBox *b)
{
    Value **it = v_items(p);
    size_t n = p->u.set.len;
    Value *f = it[0];
    if (f->type != V_TUPLE || f->u.tup.len != 2)
        return false;
    bool obj = v_titems(f)[1]->type == V_TUPLE;
    int64_t i0 = INT64_MAX, j0 = INT64_MAX, i1 = INT64_MIN, j1 = INT64_MIN;
    for (size_t x = 0; x < n; x++) {
        Value *l = it[x];
        int64_t i, j;
        int at = v_interned_at(l, &i, &j);     /* interned: known by address */
        if (obj ? at < 1 || at > 10 : at != 0) {
            if (obj) {
                if (l->type != V_TUPLE || l->u.tup.len != 2)
                    return false;
                l = v_titems(l)[1];
            }
            if (l->type != V_TUPLE || l->u.tup.len != 2)
                return false;
            Value *vi = v_titems(l)[0], *vj = v_titems(l)[1];
            if (vi->type != V_INT || vj->type != V_INT)   /* bools: keep identity */
                return false;
            i = vi->u.i;
            j = vj->u.i;
        }
        if (i < i0) i0 = i;
        if (i > i1) i1 = i;
        if (j < j0) j0 = j;
        if (j > j1) j1 = j;
    }
    /* a box whose sides pass 64 bits goes the generic way, which raises */
    if (!gu_span_fits(i0, i1) || !gu_span_fits(j0, j1))
        return false;
    *b = (BBox){ i0, j0, i1, j1 };
    return true;
}

static inline bool bbox(const Value *p, BBox *b)
{
    if (p->type != V_FSET || p->u.set.len == 0)
        return false;
    Value *m = (Value *)p;      /* the memo is a cache, not the value */
    if (gu_kept_box(p, b))
        return true;
    if (__atomic_load_n(&m->memo, __ATOMIC_ACQUIRE) & V_MEMO_NOBOX)
        return false;
    if (!bbox_scan(p, b)) {
        __atomic_fetch_or(&m->memo, V_MEMO_NOBOX, __ATOMIC_RELEASE);
        return false;
    }
    v_box_keep(m, b->i0, b->j0, b->i1, b->j1);
    return true;
}

/* min/max(c[k] for c in toindices(p)), each c unpacking to (i, j); the
 * winner is borrowed (Python returns the object itself).  An object's
 * toindices is a new set: every cell's `value, index` unpacks first, and
 * the places come in that set's order, which decides which of two places
 * that do not compare raises, and which of equals (True, 1) wins.  Its
 * items are p's own places, so the winner lives as long as p. */
static inline Value *coord_ext(Ctx *cx, Value *p, int k, int op)
{
    int kind = pkind(cx, p);
    Value *ti = kind < 0 ? NULL : to_indices(cx, p, kind);
    if (!ti)
        return NULL;
    size_t n = v_len(ti);
    Value **it = v_items(ti), *best = NULL;
    for (size_t x = 0; x < n; x++) {
        Value **ij = unpack2(cx, it[x]);
        if (!ij) {
            best = NULL;
            break;
        }
        Value *c = ij[k];
        int r = best ? core_beats(cx, c, best, op) : 1;
        if (r < 0) {
            best = NULL;
            break;
        }
        if (r)
            best = c;
    }
    bool raised = cx->err;
    v_decref(ti);
    if (!best && !raised)
        return cx_raise(cx, "ValueError", "%s() arg is an empty sequence",
                        op == CMP_LT ? "min" : "max");
    return best;
}

/* x OP k as an int, by Python's arithmetic: for a coordinate that is no
 * int, CPython's error (a float passes the op, and arcrun's own words,
 * that it reads ints only, follow). */
static inline bool coord_arith_int(Ctx *cx, int op, Value *x, int64_t k, int64_t *out)
{
    Value *r = cm_binop_int(cx, op, x, k);
    bool ok = r && to_i64(cx, r, out);
    v_decref(r);
    return ok;
}

/* v as an int, where the reference's first use of it is v OP k: anything
 * else raises what Python's OP raises on it (a float passes that, and
 * arcrun's own words follow) */
static inline bool coord_as_int(Ctx *cx, Value *v, int op, int64_t k, int64_t *out)
{
    if (v_is_int(v)) {
        *out = v->u.i;
        return true;
    }
    Value *r = cm_binop_int(cx, op, v, k);
    v_decref(r);
    return r && to_i64(cx, v, out);
}

/* ---- size -------------------------------------------------------------- */

/* lowermost(p) - uppermost(p) + 1 (k 0) or its columns' (k 1): both
 * operands first, then Python's `-` on them */
static inline bool span_i(Ctx *cx, Value *p, int k, int64_t *out)
{
    Value *hi = coord_ext(cx, p, k, CMP_GT), *lo = hi ? coord_ext(cx, p, k, CMP_LT) : NULL;
    if (!lo)
        return false;
    int64_t dx;     /* past 64 bits: the arithmetic below raises */
    if (v_is_int(hi) && v_is_int(lo) && !__builtin_sub_overflow(hi->u.i, lo->u.i, &dx) &&
        dx < INT64_MAX) {
        *out = dx + 1;
        return true;
    }
    Value *d = cm_binop(cx, CORE_SUB, hi, lo, false);
    bool ok = d && coord_arith_int(cx, CORE_ADD, d, 1, out);
    v_decref(d);
    return ok;
}

static inline bool height_i(Ctx *cx, Value *p, int64_t *out)
{
    size_t n;
    BBox b;
    if (!gu_len(cx, p, &n))
        return false;
    if (n == 0 || p->type == V_TUPLE)
        *out = (int64_t)n;
    else if (bbox(p, &b))
        *out = b.i1 - b.i0 + 1;
    else
        return span_i(cx, p, 0, out);
    return true;
}

static inline bool width_i(Ctx *cx, Value *p, int64_t *out)
{
    size_t n;
    BBox b;
    if (!gu_len(cx, p, &n))
        return false;
    if (n == 0) {
        *out = 0;
    } else if (p->type == V_TUPLE) {
        if (!gu_width(cx, p, &n))
            return false;
        *out = (int64_t)n;
    } else if (bbox(p, &b)) {
        *out = b.j1 - b.j0 + 1;
    } else {
        return span_i(cx, p, 1, out);
    }
    return true;
}

/* ---- corners: tuple(map(f, zip(*toindices(p)))) ------------------------- */

enum { OP_MIN = CMP_LT, OP_MAX = CMP_GT, OP_KEYERR = -1 };

/* corner's columns over p's locations in p's order: the values
 * toindices(p)'s order gives, and its errors where p holds indices. */
static inline Value *corner_in(Ctx *cx, Value *p, int kind, int op0, int op1, int rest)
{
    size_t n = v_len(p), m = 0;
    Value **it = v_items(p);
    for (size_t x = 0; x < n; x++) {          /* toindices, then zip's iter() */
        Value *loc = eloc(cx, it[x], kind);
        if (!loc)
            return NULL;
        if (!v_is_container(loc))
            return cx_raise(cx, "TypeError", "'%s' object is not iterable", v_typename(loc));
        if (x == 0 || v_len(loc) < m)
            m = v_len(loc);
    }
    Value **best = calloc(m ? m : 1, sizeof *best);
    for (size_t k = 0; k < m; k++) {
        int op = k == 0 ? op0 : k == 1 ? op1 : rest;
        if (op == OP_KEYERR) {
            free(best);
            return cx_raise(cx, "KeyError", "%zu", k);
        }
        best[k] = NULL;
        for (size_t x = 0; x < n; x++) {
            Value *c = v_items(eloc(cx, it[x], kind))[k];
            int r = best[k] ? core_beats(cx, c, best[k], op) : 1;
            if (r < 0) {
                free(best);
                return NULL;
            }
            if (r)
                best[k] = c;
        }
    }
    Value *t = v_tuple_from(best, m);
    free(best);
    return t;
}

/* ops[0], ops[1] reduce the first two columns, rest the others.  An
 * object's error is raised again over toindices(p), whose order (a new
 * set of the places) decides which value CPython's zip or min meets first. */
static inline Value *corner(Ctx *cx, Value *p, int op0, int op1, int rest)
{
    BBox b;
    if (bbox(p, &b))
        return v_pair_int(op0 == OP_MIN ? b.i0 : b.i1, op1 == OP_MIN ? b.j0 : b.j1);
    int kind = pkind(cx, p);
    if (kind < 0)
        return NULL;
    if (kind == PK_EMPTY)
        return v_incref(&v_empty_tuple_);
    Value *t = corner_in(cx, p, kind, op0, op1, rest);
    if (t || kind != PK_OBJ || cx->over_budget)
        return t;
    cx_clear(cx);
    Value *ti = to_indices(cx, p, kind);
    if (!ti)
        return NULL;
    t = corner_in(cx, ti, v_len(ti) ? PK_IDX : PK_EMPTY, op0, op1, rest);
    v_decref(ti);
    return t;
}

/* (i, j) of every location of toindices(p), ints, in p's order; an
 * object's duplicate locations stay (callers only take min/membership).
 * Returns the count, or -1 raised; *out is malloc'd (2 per location). */
/* set(loc[k] for loc in toindices(p)), any values, as CPython builds it */
static inline bool coords(Ctx *cx, Value *p, int k, PySet *out)
{
    pyset_init(out);
    int kind = pkind(cx, p);
    if (kind < 0)
        return false;
    if (kind == PK_EMPTY)
        return true;
    GLoc *l;
    size_t nl;
    int any = ao_locs(cx, p, &l, &nl);  /* matching asks only what the sets share */
    if (any < 0)
        return false;
    if (any) {
        for (size_t x = 0; x < nl; x++) {
            Value *c = v_int(k ? l[x].j : l[x].i);
            pyset_add(out, c);
            v_decref(c);
        }
        free(l);
        return true;
    }
    Value **it = v_items(p);
    for (size_t x = 0, n = v_len(p); x < n; x++) {
        Value *loc = eloc(cx, it[x], kind), **ij = loc ? unpack2(cx, loc) : NULL;
        if (!ij) {
            pyset_clear(out);
            return false;
        }
        pyset_add(out, ij[k]);
    }
    return true;
}

static inline int64_t i64abs(int64_t x) { return x < 0 ? -x : x; }

static inline ptrdiff_t locs_int(Ctx *cx, Value *p, int64_t **out)
{
    *out = NULL;
    int kind = pkind(cx, p);
    if (kind < 0)
        return -1;
    if (kind == PK_EMPTY)
        return 0;
    GLoc *l;
    size_t n;
    int any = ao_locs(cx, p, &l, &n);   /* places in no order: min_dist reads none */
    if (any < 0)
        return -1;
    if (any && n != v_len(p)) {        /* repeats: the charges count len(p) */
        free(l);
        any = 0;
    }
    if (any) {
        int64_t *v = xmalloc_(2 * n * sizeof *v);
        for (size_t x = 0; x < n; x++) {
            v[2 * x] = l[x].i;
            v[2 * x + 1] = l[x].j;
        }
        free(l);
        *out = v;
        return (ptrdiff_t)n;
    }
    n = v_len(p);
    Value **it = v_items(p);
    int64_t *v = malloc(2 * n * sizeof *v);
    for (size_t x = 0; x < n; x++) {
        Value *loc = eloc(cx, it[x], kind), **ij = loc ? unpack2(cx, loc) : NULL;
        if (!ij || !to_i64(cx, ij[0], &v[2 * x]) || !to_i64(cx, ij[1], &v[2 * x + 1])) {
            free(v);
            return -1;
        }
    }
    *out = v;
    return (ptrdiff_t)n;
}

/* whether a row (k = 0) or column (k = 1) holds cells of both */
static inline int matching(Ctx *cx, Value *a, Value *b, int k)
{
    GBox x, y;      /* kept boxes decide where their spans are apart, or one and the same line */
    if (gu_kept_box(a, &x) && gu_kept_box(b, &y)) {
        int64_t a0 = k ? x.j0 : x.i0, a1 = k ? x.j1 : x.i1, b0 = k ? y.j0 : y.i0, b1 = k ? y.j1 : y.i1;
        if (a1 < b0 || b1 < a0)
            return 0;
        if (a0 == a1 && b0 == b1)
            return 1;
    }
    PySet sa, sb;
    if (!coords(cx, a, k, &sa))
        return -1;
    if (!coords(cx, b, k, &sb)) {
        pyset_clear(&sa);
        return -1;
    }
    int hit = 0;
    for (uint32_t x = 0; x <= sb.mask && !hit; x++) {
        Value *key = sb.table[x].key;
        hit = key && key != PYSET_DUMMY && pyset_contains(&sa, key);
    }
    pyset_clear(&sa);
    pyset_clear(&sb);
    return hit;
}

#endif
