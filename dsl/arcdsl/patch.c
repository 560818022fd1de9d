/* patch.c -- arc-dsl geometry of patches.
 *
 * A patch is Indices (frozenset of (i, j)) or an Object (frozenset of
 * (color, (i, j))); most of these also take tuples, and a few take grids,
 * exactly as far as the reference's duck typing lets them.  Which of the two
 * a patch is gets decided like the reference does: by peeking at the first
 * element's second item.
 *
 * Every frozenset is built along the reference's own construction path
 * (generator -> ADD-ALL then adopt; set display or comprehension -> ADD-ALL
 * then COPY; `|`, `-` -> fs_or/fs_sub), since that decides iteration order.
 */
#include <stdlib.h>
#include "prim.h"
#include "pyset.h"
#include "common/gridops.h"

/* ---- Python-ish helpers ----------------------------------------------- */

/* Cells produced count against the instance's work budget. */
static bool charge(Ctx *cx, uint64_t n)
{
    return cx_charge(cx, n);
}

static bool py_len(Ctx *cx, const Value *v, size_t *n)
{
    if (!v_is_container(v)) {
        cx_raise(cx, "TypeError", "object of type '%s' has no len()", v_typename(v));
        return false;
    }
    *n = v_len(v);
    return true;
}

/* v[k], borrowed */
static Value *subscr(Ctx *cx, const Value *v, size_t k)
{
    if (v->type != V_TUPLE)
        return cx_raise(cx, "TypeError", "'%s' object is not subscriptable", v_typename(v));
    if (k >= v->u.tup.len)
        return cx_raise(cx, "IndexError", "tuple index out of range");
    return v->u.tup.items[k];
}

/* `a, b = v`: v's two items, borrowed */
static inline Value **unpack2(Ctx *cx, const Value *v)
{
    if (v->type == V_TUPLE && v->u.tup.len == 2)
        return v->u.tup.items;
    if (!v_is_container(v)) {
        cx_raise(cx, "TypeError", "cannot unpack non-iterable %s object", v_typename(v));
        return NULL;
    }
    size_t n = v_len(v);
    if (n == 2)
        return v_items(v);
    if (n < 2)
        cx_raise(cx, "ValueError", "not enough values to unpack (expected 2, got %zu)", n);
    else
        cx_raise(cx, "ValueError", "too many values to unpack (expected 2)");
    return NULL;
}

/* Coordinates take part in arithmetic: ints (and bools) only. */
static inline bool to_i64(Ctx *cx, const Value *v, int64_t *out)
{
    if (v_is_int(v)) {
        *out = v->u.i;
        return true;
    }
    cx_raise(cx, "TypeError", "unsupported operand type(s): '%s'", v_typename(v));
    return false;
}

static inline int64_t floordiv(int64_t a, int64_t b)
{
    int64_t q = a / b;
    return (a % b != 0 && ((a < 0) != (b < 0))) ? q - 1 : q;
}

static bool eq_int(const Value *x, int64_t k)
{
    if (v_is_int(x))
        return x->u.i == k;
    Value *t = v_int(k);
    bool r = v_eq(x, t);
    v_decref(t);
    return r;
}

/* x beats best under min (op CMP_LT) or max (CMP_GT): 1/0, -1 raised */
static inline int beats(Ctx *cx, const Value *x, const Value *best, int op)
{
    if (v_is_int(x) && v_is_int(best))
        return op == CMP_LT ? x->u.i < best->u.i : x->u.i > best->u.i;
    return v_richcmp(cx, x, best, op);
}

/* ---- what toindices sees ----------------------------------------------- */

enum { PK_EMPTY, PK_IDX, PK_OBJ };

/* len(p) == 0, or isinstance(next(iter(p))[1], tuple); -1 raised */
static int pkind(Ctx *cx, const Value *p)
{
    size_t n;
    if (!py_len(cx, p, &n))
        return -1;
    if (n == 0)
        return PK_EMPTY;
    Value *x = subscr(cx, v_items(p)[0], 1);
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
static Value *to_indices(Ctx *cx, Value *p, int kind)
{
    if (kind == PK_EMPTY)
        return v_incref(&v_empty_fset_);
    if (kind == PK_IDX)
        return v_incref(p);
    size_t n = v_len(p);
    Value **it = v_items(p);
    if (!charge(cx, n))
        return NULL;
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

typedef struct { int64_t i0, j0, i1, j1; } BBox;

/* Fast path: the bounding box of a non-empty frozenset whose locations are
 * all (int, int).  false: anything else; the generic path then decides
 * (and raises where Python would). */
static bool bbox_scan(const Value *p, BBox *b)
{
    Value **it = p->u.set.items;
    size_t n = p->u.set.len;
    Value *f = it[0];
    if (f->type != V_TUPLE || f->u.tup.len != 2)
        return false;
    bool obj = f->u.tup.items[1]->type == V_TUPLE;
    int64_t i0 = INT64_MAX, j0 = INT64_MAX, i1 = INT64_MIN, j1 = INT64_MIN;
    for (size_t x = 0; x < n; x++) {
        Value *l = it[x];
        int64_t i, j;
        int at = v_interned_at(l, &i, &j);     /* interned: known by address */
        if (obj ? at < 1 || at > 10 : at != 0) {
            if (obj) {
                if (l->type != V_TUPLE || l->u.tup.len != 2)
                    return false;
                l = l->u.tup.items[1];
            }
            if (l->type != V_TUPLE || l->u.tup.len != 2)
                return false;
            Value *vi = l->u.tup.items[0], *vj = l->u.tup.items[1];
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
    *b = (BBox){ i0, j0, i1, j1 };
    return true;
}

static bool fits32(int64_t x) { return x >= INT32_MIN && x <= INT32_MAX; }

/* The bounding box of a non-empty frozenset of int locations or cells.
 * Objects are asked for their corners, centre and shape again and again
 * (argmax keys, compose chains): the answer is kept in the value. */
static bool bbox(const Value *p, BBox *b)
{
    if (p->type != V_FSET || p->u.set.len == 0)
        return false;
    Value *m = (Value *)p;      /* the memo is a cache, not the value */
    uint8_t memo = __atomic_load_n(&m->memo, __ATOMIC_ACQUIRE);
    if (memo & V_MEMO_BOX) {
        int32_t *x = m->u.set.box;
        *b = (BBox){__atomic_load_n(&x[0], __ATOMIC_RELAXED), __atomic_load_n(&x[1], __ATOMIC_RELAXED),
                    __atomic_load_n(&x[2], __ATOMIC_RELAXED), __atomic_load_n(&x[3], __ATOMIC_RELAXED)};
        return true;
    }
    if (memo & V_MEMO_NOBOX)
        return false;
    if (!bbox_scan(p, b)) {
        __atomic_fetch_or(&m->memo, V_MEMO_NOBOX, __ATOMIC_RELEASE);
        return false;
    }
    if (fits32(b->i0) && fits32(b->j0) && fits32(b->i1) && fits32(b->j1)) {
        int32_t *x = m->u.set.box;
        __atomic_store_n(&x[0], (int32_t)b->i0, __ATOMIC_RELAXED);
        __atomic_store_n(&x[1], (int32_t)b->j0, __ATOMIC_RELAXED);
        __atomic_store_n(&x[2], (int32_t)b->i1, __ATOMIC_RELAXED);
        __atomic_store_n(&x[3], (int32_t)b->j1, __ATOMIC_RELAXED);
        __atomic_fetch_or(&m->memo, V_MEMO_BOX, __ATOMIC_RELEASE);
    }
    return true;
}

/* min/max(c[k] for c in toindices(p)), each c unpacking to (i, j); the
 * winner is borrowed (Python returns the object itself). */
static Value *coord_ext(Ctx *cx, Value *p, int k, int op)
{
    int kind = pkind(cx, p);
    if (kind < 0)
        return NULL;
    size_t n = v_len(p);
    Value **it = v_items(p), *best = NULL;
    for (size_t x = 0; x < n; x++) {
        Value *loc = eloc(cx, it[x], kind);
        Value **ij = loc ? unpack2(cx, loc) : NULL;
        if (!ij)
            return NULL;
        Value *c = ij[k];
        if (!best) {
            best = c;
            continue;
        }
        int r = beats(cx, c, best, op);
        if (r < 0)
            return NULL;
        if (r)
            best = c;
    }
    if (!best)
        return cx_raise(cx, "ValueError", "%s() arg is an empty sequence",
                        op == CMP_LT ? "min" : "max");
    return best;
}

static bool coord_int(Ctx *cx, Value *p, int k, int op, int64_t *out)
{
    Value *v = coord_ext(cx, p, k, op);
    return v && to_i64(cx, v, out);
}

/* uppermost, leftmost, lowermost, rightmost as ints */
static bool bbox_int(Ctx *cx, Value *p, BBox *b)
{
    return bbox(p, b) ||
        (coord_int(cx, p, 0, CMP_LT, &b->i0) && coord_int(cx, p, 1, CMP_LT, &b->j0) &&
         coord_int(cx, p, 0, CMP_GT, &b->i1) && coord_int(cx, p, 1, CMP_GT, &b->j1));
}

static Value *ext_prim(Ctx *cx, Value *p, int k, int op)
{
    BBox b;
    if (bbox(p, &b))
        return v_int(k ? (op == CMP_LT ? b.j0 : b.j1) : (op == CMP_LT ? b.i0 : b.i1));
    return v_incref(coord_ext(cx, p, k, op));
}

Value *ad_uppermost(Ctx *cx, Value *const *a) { return ext_prim(cx, a[0], 0, CMP_LT); }
Value *ad_lowermost(Ctx *cx, Value *const *a) { return ext_prim(cx, a[0], 0, CMP_GT); }
Value *ad_leftmost(Ctx *cx, Value *const *a)  { return ext_prim(cx, a[0], 1, CMP_LT); }
Value *ad_rightmost(Ctx *cx, Value *const *a) { return ext_prim(cx, a[0], 1, CMP_GT); }

/* ---- size -------------------------------------------------------------- */

static bool height_i(Ctx *cx, Value *p, int64_t *out)
{
    size_t n;
    BBox b;
    int64_t lo, hi;
    if (!py_len(cx, p, &n))
        return false;
    if (n == 0 || p->type == V_TUPLE)
        *out = (int64_t)n;
    else if (bbox(p, &b))
        *out = b.i1 - b.i0 + 1;
    else if (coord_int(cx, p, 0, CMP_GT, &hi) && coord_int(cx, p, 0, CMP_LT, &lo))
        *out = hi - lo + 1;
    else
        return false;
    return true;
}

static bool width_i(Ctx *cx, Value *p, int64_t *out)
{
    size_t n;
    BBox b;
    int64_t lo, hi;
    if (!py_len(cx, p, &n))
        return false;
    if (n == 0) {
        *out = 0;
    } else if (p->type == V_TUPLE) {
        Value *r = subscr(cx, p, 0);
        if (!r || !py_len(cx, r, &n))
            return false;
        *out = (int64_t)n;
    } else if (bbox(p, &b)) {
        *out = b.j1 - b.j0 + 1;
    } else if (coord_int(cx, p, 1, CMP_GT, &hi) && coord_int(cx, p, 1, CMP_LT, &lo)) {
        *out = hi - lo + 1;
    } else {
        return false;
    }
    return true;
}

Value *ad_height(Ctx *cx, Value *const *a)
{
    int64_t h;
    return height_i(cx, a[0], &h) ? v_int(h) : NULL;
}

Value *ad_width(Ctx *cx, Value *const *a)
{
    int64_t w;
    return width_i(cx, a[0], &w) ? v_int(w) : NULL;
}

Value *ad_shape(Ctx *cx, Value *const *a)
{
    int64_t h, w;
    if (!height_i(cx, a[0], &h) || !width_i(cx, a[0], &w))
        return NULL;
    return v_pair_int(h, w);
}

Value *ad_portrait(Ctx *cx, Value *const *a)
{
    int64_t h, w;
    if (!height_i(cx, a[0], &h) || !width_i(cx, a[0], &w))
        return NULL;
    return v_bool(h > w);
}

Value *ad_square(Ctx *cx, Value *const *a)
{
    Value *p = a[0];
    size_t n, m;
    int64_t h, w;
    if (p->type == V_TUPLE) {
        Value *r = subscr(cx, p, 0);
        if (!r || !py_len(cx, r, &m))
            return NULL;
        return v_bool(p->u.tup.len == m);
    }
    if (!height_i(cx, p, &h) || !width_i(cx, p, &w) || !py_len(cx, p, &n))
        return NULL;
    if (h * w != (int64_t)n)
        return v_bool(false);
    return v_bool(h == w);   /* the reference recomputes both; same values */
}

/* vline: height == len and width == 1; hline: width == len and height == 1 */
static Value *line(Ctx *cx, Value *p, bool vert)
{
    int64_t x, y;
    size_t n;
    if (!(vert ? height_i : width_i)(cx, p, &x) || !py_len(cx, p, &n))
        return NULL;
    if (x != (int64_t)n)
        return v_bool(false);
    if (!(vert ? width_i : height_i)(cx, p, &y))
        return NULL;
    return v_bool(y == 1);
}

Value *ad_vline(Ctx *cx, Value *const *a) { return line(cx, a[0], true); }
Value *ad_hline(Ctx *cx, Value *const *a) { return line(cx, a[0], false); }

/* ---- corners: tuple(map(f, zip(*toindices(p)))) ------------------------- */

enum { OP_MIN = CMP_LT, OP_MAX = CMP_GT, OP_KEYERR = -1 };

/* ops[0], ops[1] reduce the first two columns, rest the others. */
static Value *corner(Ctx *cx, Value *p, int op0, int op1, int rest)
{
    BBox b;
    if (bbox(p, &b))
        return v_pair_int(op0 == OP_MIN ? b.i0 : b.i1, op1 == OP_MIN ? b.j0 : b.j1);
    int kind = pkind(cx, p);
    if (kind < 0)
        return NULL;
    if (kind == PK_EMPTY)
        return v_incref(&v_empty_tuple_);
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
            int r = best[k] ? beats(cx, c, best[k], op) : 1;
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

Value *ad_ulcorner(Ctx *cx, Value *const *a) { return corner(cx, a[0], OP_MIN, OP_MIN, OP_MIN); }
Value *ad_urcorner(Ctx *cx, Value *const *a) { return corner(cx, a[0], OP_MIN, OP_MAX, OP_KEYERR); }
Value *ad_llcorner(Ctx *cx, Value *const *a) { return corner(cx, a[0], OP_MAX, OP_MIN, OP_KEYERR); }
Value *ad_lrcorner(Ctx *cx, Value *const *a) { return corner(cx, a[0], OP_MAX, OP_MAX, OP_MAX); }

/* corner k (0 ul, 1 ur, 2 ll, 3 lr) as cm_corners asks for it */
static Value *corner_k(Ctx *cx, Value *p, int k)
{
    int op0 = k < 2 ? OP_MIN : OP_MAX, op1 = k % 2 ? OP_MAX : OP_MIN;
    return corner(cx, p, op0, op1, op0 == op1 ? op0 : OP_KEYERR);
}

Value *ad_corners(Ctx *cx, Value *const *a)
{
    return cm_corners(cx, a[0], corner_k);
}

/* sum of each zip(*toindices(p)) column, floor-divided by len(p) */
Value *ad_centerofmass(Ctx *cx, Value *const *a)
{
    Value *p = a[0];
    int kind = pkind(cx, p);
    if (kind < 0)
        return NULL;
    Value *ti = to_indices(cx, p, kind);      /* dedups an object's locations */
    if (!ti)
        return NULL;
    size_t n = v_len(ti), m = n ? SIZE_MAX : 0;
    Value **it = v_items(ti);
    Value *t = NULL;
    for (size_t x = 0; x < n; x++) {
        if (!v_is_container(it[x])) {
            cx_raise(cx, "TypeError", "'%s' object is not iterable", v_typename(it[x]));
            goto out;
        }
        if (v_len(it[x]) < m)
            m = v_len(it[x]);
    }
    int64_t *sum = calloc(m ? m : 1, sizeof *sum);
    for (size_t k = 0; k < m; k++)
        for (size_t x = 0; x < n; x++) {
            int64_t v;
            if (!to_i64(cx, v_items(it[x])[k], &v)) {
                free(sum);
                goto out;
            }
            sum[k] += v;
        }
    t = v_tuple_new(m);
    for (size_t k = 0; k < m; k++)
        t->u.tup.items[k] = v_int(floordiv(sum[k], (int64_t)v_len(p)));
    free(sum);
out:
    v_decref(ti);
    return t;
}

/* ---- toindices, recolor, shift, normalize ------------------------------- */

Value *ad_toindices(Ctx *cx, Value *const *a)
{
    int kind = pkind(cx, a[0]);
    return kind < 0 ? NULL : to_indices(cx, a[0], kind);
}

Value *ad_recolor(Ctx *cx, Value *const *a)
{
    int kind = pkind(cx, a[1]);
    if (kind < 0)
        return NULL;
    Value *ti = to_indices(cx, a[1], kind);
    if (!ti)
        return NULL;
    size_t n = v_len(ti);
    Value **it = v_items(ti);
    if (!charge(cx, n)) {
        v_decref(ti);
        return NULL;
    }
    PySet s;
    pyset_init(&s);
    for (size_t x = 0; x < n; x++) {
        Value *c = v_pair_steal(v_incref(a[0]), v_incref(it[x]));
        pyset_add(&s, c);
        v_decref(c);
    }
    v_decref(ti);
    return pyset_take(&s);
}

/* shift's generator over a non-empty patch of the given kind */
static Value *shift_by(Ctx *cx, Value *p, int kind, int64_t di, int64_t dj)
{
    size_t n = v_len(p);
    Value **it = v_items(p);
    if (!charge(cx, n))
        return NULL;
    PySet s;
    pyset_init(&s);
    for (size_t x = 0; x < n; x++) {
        Value *e = it[x], *loc = e, *c = NULL, **ij;
        int64_t i, j;
        int at = v_interned_at(e, &i, &j);
        if (kind == PK_OBJ ? at >= 1 && at <= 10 : at == 0) {
            Value *nv = v_interned_of(at, i + di, j + dj);
            if (nv) {
                pyset_add(&s, nv);
                continue;
            }
        }
        if (kind == PK_OBJ) {
            Value **cl = unpack2(cx, e);
            if (!cl)
                goto fail;
            c = cl[0];
            loc = cl[1];
        }
        if (!(ij = unpack2(cx, loc)) || !to_i64(cx, ij[0], &i) || !to_i64(cx, ij[1], &j))
            goto fail;
        Value *nv = v_pair_int(i + di, j + dj);
        if (c)
            nv = v_pair_steal(v_incref(c), nv);
        pyset_add(&s, nv);
        v_decref(nv);
    }
    return pyset_take(&s);
fail:
    pyset_clear(&s);
    return NULL;
}

Value *ad_shift(Ctx *cx, Value *const *a)
{
    Value *p = a[0], **d;
    size_t n;
    int64_t di, dj;
    if (!py_len(cx, p, &n))
        return NULL;
    if (n == 0)
        return v_incref(p);
    if (!(d = unpack2(cx, a[1])))
        return NULL;
    int kind = pkind(cx, p);
    if (kind < 0)
        return NULL;
    if (!v_is_int(d[0]) || !v_is_int(d[1])) {
        /* CPython gets as far as the first item's unpack before `i + di` */
        Value *e = v_items(p)[0], **vl = kind == PK_OBJ ? unpack2(cx, e) : NULL;
        if ((kind == PK_OBJ && !vl) || !unpack2(cx, kind == PK_OBJ ? vl[1] : e))
            return NULL;
    }
    if (!to_i64(cx, d[0], &di) || !to_i64(cx, d[1], &dj))
        return NULL;
    return shift_by(cx, p, kind, di, dj);
}

Value *ad_normalize(Ctx *cx, Value *const *a)
{
    Value *p = a[0];
    size_t n;
    BBox b;
    if (!py_len(cx, p, &n))
        return NULL;
    if (n == 0)
        return v_incref(p);
    if (!bbox(p, &b) &&
        !(coord_int(cx, p, 0, CMP_LT, &b.i0) && coord_int(cx, p, 1, CMP_LT, &b.j0)))
        return NULL;
    int kind = pkind(cx, p);
    return kind < 0 ? NULL : shift_by(cx, p, kind, -b.i0, -b.j0);
}

/* ---- neighbourhoods ----------------------------------------------------- */

static bool loc_ij(Ctx *cx, Value *loc, int64_t *i, int64_t *j)
{
    /* the set display's first item, (loc[0] - 1, loc[1]), does its
     * arithmetic before loc[1] is read */
    Value *vi = subscr(cx, loc, 0);
    if (!vi || !to_i64(cx, vi, i))
        return false;
    Value *vj = subscr(cx, loc, 1);
    return vj && to_i64(cx, vj, j);
}

/* frozenset({four offsets of loc}): a set display, then a COPY */
static Value *nbrs4(Ctx *cx, Value *loc, const int off[4][2])
{
    int64_t i, j;
    if (!loc_ij(cx, loc, &i, &j) || !charge(cx, 4))
        return NULL;
    Value **ij = loc->u.tup.items;            /* an unshifted item is kept as is */
    PySet s;
    pyset_init(&s);
    for (int k = 0; k < 4; k++) {
        Value *c = v_pair_steal(off[k][0] ? v_int(i + off[k][0]) : v_incref(ij[0]),
                                off[k][1] ? v_int(j + off[k][1]) : v_incref(ij[1]));
        pyset_add(&s, c);
        v_decref(c);
    }
    Value *r = pyset_to_frozenset(&s);
    pyset_clear(&s);
    return r;
}

static const int d_off[4][2] = { { -1, 0 }, { 1, 0 }, { 0, -1 }, { 0, 1 } };
static const int i_off[4][2] = { { -1, -1 }, { -1, 1 }, { 1, -1 }, { 1, 1 } };

Value *ad_dneighbors(Ctx *cx, Value *const *a) { return nbrs4(cx, a[0], d_off); }
Value *ad_ineighbors(Ctx *cx, Value *const *a) { return nbrs4(cx, a[0], i_off); }

Value *ad_neighbors(Ctx *cx, Value *const *a)
{
    Value *d = nbrs4(cx, a[0], d_off);
    if (!d)
        return NULL;
    Value *i = nbrs4(cx, a[0], i_off);
    Value *r = i ? fs_or(d, i) : NULL;
    v_decref(d);
    v_decref(i);
    return r;
}

/* ---- relations between patches ----------------------------------------- */

/* (i, j) of every location of toindices(p), ints, in p's order; an
 * object's duplicate locations stay (callers only take min/membership).
 * Returns the count, or -1 raised; *out is malloc'd (2 per location). */
static ptrdiff_t locs_int(Ctx *cx, Value *p, int64_t **out)
{
    *out = NULL;
    int kind = pkind(cx, p);
    if (kind < 0)
        return -1;
    if (kind == PK_EMPTY)
        return 0;
    size_t n = v_len(p);
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

/* set(loc[k] for loc in toindices(p)), any values, as CPython builds it */
static bool coords(Ctx *cx, Value *p, int k, PySet *out)
{
    pyset_init(out);
    int kind = pkind(cx, p);
    if (kind < 0)
        return false;
    if (kind == PK_EMPTY)
        return true;
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

/* whether a row (k = 0) or column (k = 1) holds cells of both */
static int matching(Ctx *cx, Value *a, Value *b, int k)
{
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

Value *ad_hmatching(Ctx *cx, Value *const *a)
{
    int r = matching(cx, a[0], a[1], 0);
    return r < 0 ? NULL : v_bool(r);
}

Value *ad_vmatching(Ctx *cx, Value *const *a)
{
    int r = matching(cx, a[0], a[1], 1);
    return r < 0 ? NULL : v_bool(r);
}

static inline int64_t i64abs(int64_t x) { return x < 0 ? -x : x; }

/* min |ai + oi - bi| + |aj + oj - bj| over all pairs; stops at 0 */
static int64_t min_dist(const int64_t *la, size_t na, const int64_t *lb, size_t nb,
                        int64_t oi, int64_t oj)
{
    int64_t best = INT64_MAX;
    for (size_t x = 0; x < na; x++) {
        int64_t ai = la[2 * x] + oi, aj = la[2 * x + 1] + oj;
        for (size_t y = 0; y < nb; y++) {
            int64_t d = i64abs(ai - lb[2 * y]) + i64abs(aj - lb[2 * y + 1]);
            if (d < best) {
                best = d;
                if (d == 0)
                    return 0;
            }
        }
    }
    return best;
}

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

/* manhattan distance as an int; false raised */
static bool manhattan_i(Ctx *cx, Value *a, Value *b, int64_t *out)
{
    int64_t *la, *lb;
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
    if (ok)
        *out = min_dist(la, (size_t)na, lb, (size_t)nb, 0, 0);
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
    for (int s = 0; s < 4; s++) {
        if (!(x = coord_ext(cx, p, sides[s].k, sides[s].op)))
            return NULL;
        int64_t want = 0;
        if (s >= 2) {
            Value *c = s == 2 ? g : subscr(cx, g, 0);
            if (!c || !py_len(cx, c, &n))
                return NULL;
            want = (int64_t)n - 1;
        }
        if (eq_int(x, want))
            return v_bool(true);
    }
    return v_bool(false);
}

/* ---- centres ------------------------------------------------------------ */

/* (uppermost + height // 2, leftmost + width // 2) */
static bool center_i(Ctx *cx, Value *p, int64_t *ci, int64_t *cj)
{
    BBox b;
    int64_t h, w;
    if (bbox(p, &b)) {
        *ci = b.i0 + (b.i1 - b.i0 + 1) / 2;
        *cj = b.j0 + (b.j1 - b.j0 + 1) / 2;
        return true;
    }
    if (!coord_int(cx, p, 0, CMP_LT, ci) || !height_i(cx, p, &h) ||
        !coord_int(cx, p, 1, CMP_LT, cj) || !width_i(cx, p, &w))
        return false;
    *ci += floordiv(h, 2);
    *cj += floordiv(w, 2);
    return true;
}

Value *ad_center(Ctx *cx, Value *const *a)
{
    int64_t i, j;
    return center_i(cx, a[0], &i, &j) ? v_pair_int(i, j) : NULL;
}

/* center(toindices(p)) */
static bool center_idx(Ctx *cx, Value *p, int64_t *ci, int64_t *cj)
{
    int kind = pkind(cx, p);
    Value *ti = kind < 0 ? NULL : to_indices(cx, p, kind);
    if (!ti)
        return false;
    bool ok = center_i(cx, ti, ci, cj);
    v_decref(ti);
    return ok;
}

Value *ad_position(Ctx *cx, Value *const *a)
{
    int64_t ia, ja, ib, jb;
    if (!center_idx(cx, a[0], &ia, &ja) || !center_idx(cx, a[1], &ib, &jb))
        return NULL;
    int64_t dj = ja < jb ? 1 : -1;
    if (ia == ib)
        return v_pair_int(0, dj);
    if (ja == jb)
        return v_pair_int(ia < ib ? 1 : -1, 0);
    return v_pair_int(ia < ib ? 1 : -1, dj);
}

/* ---- lines and boxes ---------------------------------------------------- */

static bool ranged(Ctx *cx, int64_t count)
{
    if (count > (int64_t)1 << 28) {
        cx_raise(cx, "MemoryError", "too many cells");
        return false;
    }
    return charge(cx, count > 0 ? (uint64_t)count : 0);
}

/* a_ij: a's two items as unpacked; a line along a row keeps ai itself,
 * one along a column aj (`(ai, j) for j in ...`), so a bool stays a bool */
static Value *connect_i(Ctx *cx, Value *const *a_ij, int64_t ai, int64_t aj, int64_t bi, int64_t bj)
{
    int64_t si = ai < bi ? ai : bi, ei = (ai > bi ? ai : bi) + 1;
    int64_t sj = aj < bj ? aj : bj, ej = (aj > bj ? aj : bj) + 1;
    int64_t n, di, dj, i, j;
    if (ai == bi) {
        n = ej - sj, i = ai, j = sj, di = 0, dj = 1;
    } else if (aj == bj) {
        n = ei - si, i = si, j = aj, di = 1, dj = 0;
    } else if (bi - ai == bj - aj) {
        n = ei - si, i = si, j = sj, di = 1, dj = 1;
    } else if (bi - ai == aj - bj) {
        n = ei - si, i = si, j = ej - 1, di = 1, dj = -1;
    } else {
        return v_incref(&v_empty_fset_);
    }
    if (!ranged(cx, n))
        return NULL;
    PySet s;
    pyset_init(&s);
    for (int64_t k = 0; k < n; k++, i += di, j += dj) {
        Value *c = di == 0 && a_ij[0]->type == V_BOOL ? v_pair_steal(v_incref(a_ij[0]), v_int(j))
                 : dj == 0 && a_ij[1]->type == V_BOOL ? v_pair_steal(v_int(i), v_incref(a_ij[1]))
                 : v_pair_int(i, j);
        pyset_add(&s, c);
        v_decref(c);
    }
    return pyset_take(&s);
}

/* `i, j = v` as ints: v's two items, or NULL raised */
static Value **ivec(Ctx *cx, Value *v, int64_t *i, int64_t *j)
{
    Value **ij = unpack2(cx, v);
    return ij && to_i64(cx, ij[0], i) && to_i64(cx, ij[1], j) ? ij : NULL;
}

Value *ad_connect(Ctx *cx, Value *const *a)
{
    /* `ai, aj = a; bi, bj = b` both unpack before anything compares */
    int64_t ai, aj, bi, bj;
    Value **pa = unpack2(cx, a[0]), **pb = pa ? unpack2(cx, a[1]) : NULL;
    if (!pb || !to_i64(cx, pa[0], &ai) || !to_i64(cx, pa[1], &aj) ||
        !to_i64(cx, pb[0], &bi) || !to_i64(cx, pb[1], &bj))
        return NULL;
    return connect_i(cx, pa, ai, aj, bi, bj);
}

/* start[k] + 42 * direction[k]: the subscripts, then the arithmetic.
 * 1: *out set; 0: two tuples, which Python repeats and concatenates (the
 * caller's connect fails later); -1 raised. */
static int shoot_end(Ctx *cx, Value *start, Value *dir, size_t k, int64_t *out)
{
    Value *s = subscr(cx, start, k), *d = s ? subscr(cx, dir, k) : NULL;
    int64_t si, di;
    if (!d)
        return -1;
    if (s->type == V_TUPLE && d->type == V_TUPLE)
        return 0;
    if (!to_i64(cx, d, &di) || !to_i64(cx, s, &si))
        return -1;
    *out = si + 42 * di;
    return 1;
}

Value *ad_shoot(Ctx *cx, Value *const *a)
{
    int64_t ei = 0, ej = 0, ai, aj;
    int ri = shoot_end(cx, a[0], a[1], 0, &ei), rj = ri < 0 ? -1 : shoot_end(cx, a[0], a[1], 1, &ej);
    Value **pa = rj < 0 ? NULL : ivec(cx, a[0], &ai, &aj);   /* connect's `ai, aj = start` */
    if (!pa)
        return NULL;
    if (!ri || !rj)
        return cx_raise(cx, "TypeError", "can only concatenate tuple (not \"int\") to tuple");
    return connect_i(cx, pa, ai, aj, ei, ej);
}

/* frozenset((i, j) ...) over a 30-long frontier; k: which item of loc stays */
static Value *frontier(Ctx *cx, Value *loc, int k)
{
    Value *keep = subscr(cx, loc, (size_t)k);
    if (!keep || !charge(cx, 30))
        return NULL;
    PySet s;
    pyset_init(&s);
    for (int x = 0; x < 30; x++) {
        Value *c = k ? v_pair_steal(v_int(x), v_incref(keep)) : v_pair_steal(v_incref(keep), v_int(x));
        pyset_add(&s, c);
        v_decref(c);
    }
    return pyset_take(&s);
}

Value *ad_vfrontier(Ctx *cx, Value *const *a) { return frontier(cx, a[0], 1); }
Value *ad_hfrontier(Ctx *cx, Value *const *a) { return frontier(cx, a[0], 0); }

Value *ad_backdrop(Ctx *cx, Value *const *a)
{
    Value *p = a[0];
    size_t n;
    int64_t si, sj, ei, ej;
    if (!py_len(cx, p, &n))
        return NULL;
    if (n == 0)
        return v_incref(&v_empty_fset_);
    int kind = pkind(cx, p);
    Value *ti = kind < 0 ? NULL : to_indices(cx, p, kind);
    if (!ti)
        return NULL;
    Value *ul = corner(cx, ti, OP_MIN, OP_MIN, OP_MIN);
    v_decref(ti);
    if (!ul)
        return NULL;
    bool ok = ivec(cx, ul, &si, &sj);
    v_decref(ul);
    Value *lr = ok ? corner(cx, p, OP_MAX, OP_MAX, OP_MAX) : NULL;
    if (!lr)
        return NULL;
    ok = ivec(cx, lr, &ei, &ej);
    v_decref(lr);
    int64_t h = ei - si + 1, w = ej - sj + 1;   /* both >= 1: min <= max */
    if (!ok || !ranged(cx, h > ((int64_t)1 << 28) / w ? (int64_t)1 << 29 : h * w))
        return NULL;
    PySet s;
    pyset_init(&s);
    for (int64_t i = si; i <= ei; i++)
        for (int64_t j = sj; j <= ej; j++) {
            Value *c = v_pair_int(i, j);
            pyset_add(&s, c);
            v_decref(c);
        }
    return pyset_take(&s);
}

Value *ad_delta(Ctx *cx, Value *const *a)
{
    Value *p = a[0];
    size_t n;
    if (!py_len(cx, p, &n))
        return NULL;
    if (n == 0)
        return v_incref(&v_empty_fset_);
    Value *bd = ad_backdrop(cx, a);
    if (!bd)
        return NULL;
    int kind = pkind(cx, p);
    Value *ti = kind < 0 ? NULL : to_indices(cx, p, kind), *r = NULL;
    if (ti && ti->type != V_FSET)
        cx_raise(cx, "TypeError", "unsupported operand type(s) for -: 'frozenset' and '%s'",
                 v_typename(ti));
    else if (ti)
        r = fs_sub(bd, ti);
    v_decref(bd);
    v_decref(ti);
    return r;
}

static void add_range(PySet *s, int64_t i, int64_t j, int64_t di, int64_t dj, int64_t n)
{
    for (int64_t k = 0; k < n; k++, i += di, j += dj) {
        Value *c = v_pair_int(i, j);
        pyset_add(s, c);
        v_decref(c);
    }
}

/* frozenset(vlines | hlines), each side a set comprehension, as the
 * reference's box/inbox/outbox build it */
static Value *box_lines(Ctx *cx, int64_t ai, int64_t aj, int64_t bi, int64_t bj)
{
    int64_t si = ai < bi ? ai : bi, sj = aj < bj ? aj : bj;
    int64_t ei = ai > bi ? ai : bi, ej = aj > bj ? aj : bj;
    int64_t h = ei - si + 1, w = ej - sj + 1;
    if (!ranged(cx, 2 * (h + w)))
        return NULL;
    PySet l[4], v, hz, u;
    for (int k = 0; k < 4; k++)
        pyset_init(&l[k]);
    add_range(&l[0], si, sj, 1, 0, h);
    add_range(&l[1], si, ej, 1, 0, h);
    add_range(&l[2], si, sj, 0, 1, w);
    add_range(&l[3], ei, sj, 0, 1, w);
    pyset_copy_from_set(&v, &l[0]);
    pyset_merge_set(&v, &l[1]);
    pyset_copy_from_set(&hz, &l[2]);
    pyset_merge_set(&hz, &l[3]);
    pyset_copy_from_set(&u, &v);
    pyset_merge_set(&u, &hz);
    Value *r = pyset_to_frozenset(&u);
    for (int k = 0; k < 4; k++)
        pyset_clear(&l[k]);
    pyset_clear(&v);
    pyset_clear(&hz);
    pyset_clear(&u);
    return r;
}

static Value *around(Ctx *cx, Value *p, int64_t d)
{
    BBox b;
    if (!bbox_int(cx, p, &b))
        return NULL;
    return box_lines(cx, b.i0 + d, b.j0 + d, b.i1 - d, b.j1 - d);
}

Value *ad_inbox(Ctx *cx, Value *const *a)  { return around(cx, a[0], 1); }
Value *ad_outbox(Ctx *cx, Value *const *a) { return around(cx, a[0], -1); }

Value *ad_box(Ctx *cx, Value *const *a)
{
    Value *p = a[0];
    size_t n;
    int64_t ai, aj, bi, bj;
    if (!py_len(cx, p, &n))
        return NULL;
    if (n == 0)
        return v_incref(p);
    Value *ul = corner(cx, p, OP_MIN, OP_MIN, OP_MIN);
    if (!ul)
        return NULL;
    bool ok = ivec(cx, ul, &ai, &aj);
    v_decref(ul);
    Value *lr = ok ? corner(cx, p, OP_MAX, OP_MAX, OP_MAX) : NULL;
    if (!lr)
        return NULL;
    ok = ivec(cx, lr, &bi, &bj);
    v_decref(lr);
    return ok ? box_lines(cx, ai, aj, bi, bj) : NULL;
}

/* ---- gravitate ---------------------------------------------------------- */

/* Step source towards destination (rows if they share a column, else
 * columns) until adjacent, at most 42 steps; the reference's shifted
 * copies are replaced by an offset on the source's locations. */
Value *ad_gravitate(Ctx *cx, Value *const *a)
{
    int64_t si, sj, di, dj, i = 0, j = 0;
    if (!center_i(cx, a[0], &si, &sj) || !center_i(cx, a[1], &di, &dj))
        return NULL;
    int vm = matching(cx, a[0], a[1], 1);
    if (vm < 0)
        return NULL;
    if (vm)
        i = si < di ? 1 : -1;
    else
        j = sj < dj ? 1 : -1;
    int64_t *ls, *ld;
    ptrdiff_t ns = locs_int(cx, a[0], &ls), nd;
    if (ns < 0)
        return NULL;
    if ((nd = locs_int(cx, a[1], &ld)) < 0) {
        free(ls);
        return NULL;
    }
    int64_t c = 0;
    Value *r = NULL;
    if (ns == 0 || nd == 0) {
        cx_raise(cx, "ValueError", "min() arg is an empty sequence");
        goto out;
    }
    for (;;) {
        if (!charge(cx, ((uint64_t)ns * (uint64_t)nd) >> 4))
            goto out;
        if (min_dist(ls, (size_t)ns, ld, (size_t)nd, c * i, c * j) == 1 || c >= 42)
            break;
        c++;
        if (!charge(cx, (uint64_t)ns))          /* the shifted source */
            goto out;
    }
    r = v_pair_int(c * i, c * j);
out:
    free(ls);
    free(ld);
    return r;
}

/* ---- objects and grids -------------------------------------------------- */

Value *ad_color(Ctx *cx, Value *const *a)
{
    Value *o = a[0], *c;
    if (!v_is_container(o))
        return cx_raise(cx, "TypeError", "'%s' object is not iterable", v_typename(o));
    if (v_len(o) == 0)
        return cx_raise(cx, "StopIteration", "%s", "");
    c = subscr(cx, v_items(o)[0], 0);
    return c ? v_incref(c) : NULL;
}

Value *ad_toobject(Ctx *cx, Value *const *a)
{
    Value *p = a[0], *g = a[1], *r0;
    size_t h, w;
    if (!py_len(cx, g, &h) || !(r0 = subscr(cx, g, 0)) || !py_len(cx, r0, &w))
        return NULL;
    int kind = pkind(cx, p);
    Value *ti = kind < 0 ? NULL : to_indices(cx, p, kind);
    if (!ti)
        return NULL;
    size_t n = v_len(ti);
    Value **it = v_items(ti);
    PySet s;
    pyset_init(&s);
    for (size_t x = 0; x < n; x++) {
        Value **ij = unpack2(cx, it[x]), *row, *v;
        int64_t i, j;
        if (!ij || !to_i64(cx, ij[0], &i) || !to_i64(cx, ij[1], &j))
            goto fail;
        if (i < 0 || i >= (int64_t)h || j < 0 || j >= (int64_t)w)
            continue;
        if (!(row = subscr(cx, g, (size_t)i)) || !(v = subscr(cx, row, (size_t)j)))
            goto fail;
        Value *loc = it[x]->type == V_TUPLE ? v_incref(it[x]) : v_tuple2(ij[0], ij[1]);
        Value *c = v_pair_steal(v_incref(v), loc);
        pyset_add(&s, c);
        v_decref(c);
    }
    v_decref(ti);
    if (!charge(cx, s.used)) {
        pyset_clear(&s);
        return NULL;
    }
    return pyset_take(&s);
fail:
    v_decref(ti);
    pyset_clear(&s);
    return NULL;
}

Value *ad_asobject(Ctx *cx, Value *const *a)
{
    Value *g = a[0];
    if (!v_is_container(g))
        return cx_raise(cx, "TypeError", "'%s' object is not iterable", v_typename(g));
    size_t nr = v_len(g);
    Value **rows = v_items(g);
    PySet s;
    pyset_init(&s);
    for (size_t i = 0; i < nr; i++) {
        Value *r = rows[i];
        if (!v_is_container(r)) {
            pyset_clear(&s);
            return cx_raise(cx, "TypeError", "'%s' object is not iterable", v_typename(r));
        }
        size_t nc = v_len(r);
        Value **cells = v_items(r);
        if (!charge(cx, nc)) {
            pyset_clear(&s);
            return NULL;
        }
        for (size_t j = 0; j < nc; j++) {
            Value *c = v_pair_steal(v_incref(cells[j]), v_pair_int((int64_t)i, (int64_t)j));
            pyset_add(&s, c);
            v_decref(c);
        }
    }
    return pyset_take(&s);
}

Value *ad_colorfilter(Ctx *cx, Value *const *a)
{
    Value *objs = a[0];
    if (!v_is_container(objs))
        return cx_raise(cx, "TypeError", "'%s' object is not iterable", v_typename(objs));
    size_t n = v_len(objs);
    Value **it = v_items(objs);
    PySet s;
    pyset_init(&s);
    for (size_t x = 0; x < n; x++) {
        Value *o = it[x], *c;
        if (!v_is_container(o)) {
            cx_raise(cx, "TypeError", "'%s' object is not iterable", v_typename(o));
            goto fail;
        }
        if (v_len(o) == 0) {                  /* StopIteration inside a generator */
            cx_raise(cx, "RuntimeError", "generator raised StopIteration");
            goto fail;
        }
        if (!(c = subscr(cx, v_items(o)[0], 0)))
            goto fail;
        if (v_eq(c, a[1]))
            pyset_add(&s, o);
    }
    if (!charge(cx, s.used))
        goto fail;
    return pyset_take(&s);
fail:
    pyset_clear(&s);
    return NULL;
}
