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
#include "common/binop.h"
#include "pyset.h"
#include "fsline.h"
#include "fsdistinct.h"
#include "fskeys.h"
#include "fsfar.h"
#include "fsrecipe.h"
#include "common/gridops.h"
#include "common/neighbours.h"
#include "common/rings.h"

#include "arcdsl/patch_util.h"

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
        Value *r = gu_getitem(cx, p, 0);
        if (!r || !gu_len(cx, r, &m))
            return NULL;
        return v_bool(p->u.tup.len == m);
    }
    if (!height_i(cx, p, &h) || !width_i(cx, p, &w) || !gu_len(cx, p, &n))
        return NULL;
    int64_t hw;             /* past 64 bits it is no len */
    if (__builtin_mul_overflow(h, w, &hw) || hw != (int64_t)n)
        return v_bool(false);
    return v_bool(h == w);   /* the reference recomputes both; same values */
}

/* vline: height == len and width == 1; hline: width == len and height == 1 */
static Value *line(Ctx *cx, Value *p, bool vert)
{
    int64_t x, y;
    size_t n;
    if (!(vert ? height_i : width_i)(cx, p, &x) || !gu_len(cx, p, &n))
        return NULL;
    if (x != (int64_t)n)
        return v_bool(false);
    if (!(vert ? width_i : height_i)(cx, p, &y))
        return NULL;
    return v_bool(y == 1);
}

Value *ad_vline(Ctx *cx, Value *const *a) { return line(cx, a[0], true); }
Value *ad_hline(Ctx *cx, Value *const *a) { return line(cx, a[0], false); }

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
    size_t n = v_len(ti), m;
    Value **it = v_items(ti);
    Value *t = NULL;
    if (!gu_zip_width(cx, it, n, &m))
        goto out;
    t = v_tuple_new(m);
    for (size_t k = 0; k < m; k++) {
        /* sum(column) // len(patch): ints summed inline until an item is
         * not, then Python's + and // on the values */
        int64_t s = 0;
        size_t x = 0;
        for (; x < n && v_is_int(v_items(it[x])[k]); x++)
            s += v_items(it[x])[k]->u.i;
        Value *acc = v_int(s), *len = v_int((int64_t)v_len(p));
        for (; acc && x < n; x++) {
            Value *nx = cm_binop(cx, CORE_ADD, acc, v_items(it[x])[k], false);
            v_decref(acc);
            acc = nx;
        }
        Value *q = acc ? cm_binop(cx, CORE_FLOORDIV, acc, len, false) : NULL;
        v_decref(acc);
        v_decref(len);
        if (!q) {
            v_tuple_abandon(t, k);
            t = NULL;
            goto out;
        }
        v_titems(t)[k] = q;
    }
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
    if (a[0]->type == V_INT && fs_is_line(a[1]))
        return charge(cx, v_len(a[1])) ? fs_line_recolor(a[0], a[1]) : NULL;
    Value *r;
    if (a[0]->type == V_INT && a[0]->u.i >= 0 && a[0]->u.i <= 9 &&
        (r = fs_keys_recolor(a[0], a[1]))) {
        /* charged as below: toindices' walk of an object's cells, then
         * each place */
        size_t walk = fs_keys_places(a[1]) ||
                              (__atomic_load_n(&a[1]->memo, __ATOMIC_ACQUIRE) & V_MEMO_PLACES)
                          ? 0
                          : v_len(a[1]);
        if ((walk == 0 || charge(cx, walk)) && charge(cx, v_len(r)))
            return r;
        v_decref(r);
        return NULL;
    }
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
    /* a frozenset's places are distinct, so the cells are too; a tuple
     * patch is its own toindices, and may repeat a place */
    bool distinct = ti->type == V_FSET;
    VBuf b = {0};
    if (!vb_reserve(cx, &b, n)) {
        v_decref(ti);
        return NULL;
    }
    for (size_t x = 0; x < n; x++)
        b.v[b.n++] = v_pair_steal(v_incref(a[0]), v_incref(it[x]));
    v_decref(ti);
    if (distinct)
        return vb_take_distinct(&b);
    r = fs_from_items(b.v, b.n);
    vb_drop(&b);
    return r;
}

/* A large frozenset of interned places or cells not laid out yet (a
 * merge of objects) moved as keys: its keys in no order where it lists
 * them so, the image holding p for its order (fs_keys_moved_view), else
 * in p's order (fs_keys_moved, or fs_far_moved past the span).  Neither
 * set gets a table until one is read in order, and paint or fill of the
 * image reads none.  A set already laid out, or a small one, is moved
 * item by item, which costs less when the image is read in order, as
 * most are.  NULL where p is not such a set. */
static Value *shift_keys_moved(Value *p, int64_t di, int64_t dj)
{
    FsKeys k = {0};
    FsMoveSrc m;
    Value *r = NULL;
    if (p->type != V_FSET || p->u.set.len < FS_KEYS_MERGE_MIN ||
        !(__atomic_load_n(&p->memo, __ATOMIC_ACQUIRE) & V_MEMO_UNBUILT))
        return NULL;
    /* keys in no order first: the image keeps p, and p's order waits */
    if (fs_arena_keys(p, &k) && k.n == p->u.set.len && fs_keys_move_from(k.k, k.n, &m) &&
        (r = fs_keys_moved_view(&m, di, dj, p))) {
        fs_keys_free(&k);
        return r;
    }
    k.n = 0;
    if (fs_ordered_keys(p, &k) && fs_keys_move_from(k.k, k.n, &m) &&
        !(r = fs_keys_moved(&m, di, dj)))
        r = fs_far_moved(&m, di, dj);
    fs_keys_free(&k);
    return r;
}

/* shift's generator over a non-empty patch of the given kind.  Shifting
 * is one to one, so a frozenset's images are distinct and go in as such
 * (fs_from_distinct: no comparisons); a tuple's may repeat. */
static Value *shift_by(Ctx *cx, Value *p, int kind, int64_t di, int64_t dj)
{
    size_t n = v_len(p);
    Value **it = v_items(p);
    if (!charge(cx, n))
        return NULL;
    VBuf b = {0};
    if (!vb_reserve(cx, &b, n))
        return NULL;
    for (size_t x = 0; x < n; x++) {
        Value *e = it[x], *loc = e, *c = NULL, **ij;
        int64_t i, j, mi, mj;
        int at = v_interned_at(e, &i, &j);
        if ((kind == PK_OBJ ? at >= 1 && at <= 10 : at == 0) &&
            !__builtin_add_overflow(i, di, &mi) && !__builtin_add_overflow(j, dj, &mj)) {
            Value *nv = v_interned_of(at, mi, mj);
            if (nv) {
                b.v[b.n++] = nv;
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
        if (!(ij = unpack2(cx, loc)) || !to_i64(cx, ij[0], &i) || !to_i64(cx, ij[1], &j) ||
            !core_coord_add(cx, i, di, &mi) || !core_coord_add(cx, j, dj, &mj))
            goto fail;
        Value *nv = v_pair_int(mi, mj);
        if (c)
            nv = v_pair_steal(v_incref(c), nv);
        b.v[b.n++] = nv;
    }
    if (p->type == V_FSET)
        return vb_take_distinct(&b);
    Value *r = fs_from_items(b.v, b.n);
    vb_drop(&b);
    return r;
fail:
    vb_drop(&b);
    return NULL;
}

/* i + d as Python adds a coordinate and an offset, whatever they are: a
 * float, a tuple that concatenates (a new reference either way). */
static Value *coord_add(Ctx *cx, Value *i, Value *d)
{
    int64_t r;
    if (v_is_int(i) && v_is_int(d))
        return core_coord_add(cx, i->u.i, d->u.i, &r) ? v_int(r) : NULL;
    return cm_binop_other(cx, CORE_ADD, i, d, false);
}

/* shift as CPython's generator runs it, item by item, the coordinates
 * added as Python adds them: for an offset or places not all ints;
 * charged as shift_by is. */
static Value *shift_any(Ctx *cx, Value *p, int kind, Value *di, Value *dj)
{
    size_t n = v_len(p);
    Value **it = v_items(p);
    VBuf b = {0};
    if (!charge(cx, n) || !vb_reserve(cx, &b, n))
        return NULL;
    for (size_t x = 0; x < n; x++) {
        Value *loc = it[x], *c = NULL, **ij, **cl;
        if (kind == PK_OBJ) {
            if (!(cl = unpack2(cx, loc)))
                return vb_drop(&b), NULL;
            c = cl[0];
            loc = cl[1];
        }
        Value *i, *j;
        if (!(ij = unpack2(cx, loc)) || !(i = coord_add(cx, ij[0], di)))
            return vb_drop(&b), NULL;
        if (!(j = coord_add(cx, ij[1], dj))) {
            v_decref(i);
            return vb_drop(&b), NULL;
        }
        Value *nv = v_pair_steal(i, j);
        b.v[b.n++] = c ? v_pair_steal(v_incref(c), nv) : nv;
    }
    Value *r = fs_from_items(b.v, b.n);
    vb_drop(&b);
    return r;
}

Value *ad_shift(Ctx *cx, Value *const *a)
{
    Value *p = a[0], **d;
    size_t n;
    int64_t di, dj;
    if (!gu_len(cx, p, &n))
        return NULL;
    if (n == 0)
        return v_incref(p);
    if (!(d = unpack2(cx, a[1])))
        return NULL;
    /* merged rings (common/rings.h) moved without laying them out: read
     * for their kind, they would be */
    Value *rings = v_is_int(d[0]) && v_is_int(d[1]) ? cm_rings_shift(p, d[0]->u.i, d[1]->u.i)
                                                    : NULL;
    if (rings)
        return charge(cx, n) ? rings : (v_decref(rings), NULL);
    int kind = pkind(cx, p);
    if (kind < 0)
        return NULL;
    if (!v_is_int(d[0]) || !v_is_int(d[1]))
        return shift_any(cx, p, kind, d[0], d[1]);
    di = d[0]->u.i;
    dj = d[1]->u.i;
    Value *moved = shift_keys_moved(p, di, dj);
    if (!moved) {
        Value *r = shift_by(cx, p, kind, di, dj);
        if (r || !cx_give_way(cx))
            return r;          /* else places not all ints: as CPython adds them */
        return shift_any(cx, p, kind, d[0], d[1]);
    }
    if (!charge(cx, n)) {
        v_decref(moved);
        return NULL;
    }
    return moved;
}

Value *ad_normalize(Ctx *cx, Value *const *a)
{
    Value *p = a[0];
    size_t n;
    BBox b;
    if (!gu_len(cx, p, &n))
        return NULL;
    if (n == 0)
        return v_incref(p);
    if (!bbox(p, &b)) {
        /* shift(patch, (-uppermost(patch), -leftmost(patch))) on whatever
         * the two are: each negated before the next is found */
        Value *u = coord_ext(cx, p, 0, CMP_LT), *nu = u ? core_neg(cx, u) : NULL;
        Value *l = nu ? coord_ext(cx, p, 1, CMP_LT) : NULL, *nl = l ? core_neg(cx, l) : NULL;
        if (!nl || !v_is_int(nu) || !v_is_int(nl)) {
            Value *off = nl ? v_pair_steal(nu, nl) : NULL, *args[2] = {p, off};
            Value *r = off ? ad_shift(cx, args) : (v_decref(nu), NULL);
            v_decref(off);
            return r;
        }
        b.i0 = -nu->u.i;
        b.j0 = -nl->u.i;
        v_decref(nu);
        v_decref(nl);
    }
    int kind = pkind(cx, p);
    return kind < 0 ? NULL : shift_by(cx, p, kind, -b.i0, -b.j0);
}

/* ---- neighbourhoods ----------------------------------------------------- */

static bool loc_ij(Ctx *cx, Value *loc, int64_t *i, int64_t *j)
{
    /* the set display's first item, (loc[0] - 1, loc[1]), does its
     * arithmetic before loc[1] is read: a float passes it */
    Value *vi = gu_getitem(cx, loc, 0);
    if (!vi || (vi->type != V_FLOAT && !coord_as_int(cx, vi, CORE_SUB, 1, i)))
        return false;
    Value *vj = gu_getitem(cx, loc, 1);
    return vj && coord_as_int(cx, vj, CORE_SUB, 1, j);
}

/* loc[k] + d: Python's float sum where loc[k] is a float, else an int's */
static Value *coord_plus(Ctx *cx, Value *c, int d)
{
    int64_t r;
    if (c->type == V_FLOAT)
        return v_float(c->u.f + d);
    return core_coord_add(cx, c->u.i, d, &r) ? v_int(r) : NULL;
}

/* a place with a float coordinate and numbers both (no ints to read) */
static bool float_place(const Value *loc)
{
    if (loc->type != V_TUPLE || loc->u.tup.len < 2)
        return false;
    Value **ij = v_titems(loc);
    return core_is_num(ij[0]) && core_is_num(ij[1]) &&
           (ij[0]->type == V_FLOAT || ij[1]->type == V_FLOAT);
}

/* frozenset({four offsets of loc}): directions first..first+3, charged 4 */
static Value *nbrs4(Ctx *cx, Value *loc, int first)
{
    int64_t i, j;
    if (!float_place(loc) && !loc_ij(cx, loc, &i, &j))
        return NULL;
    return charge(cx, 4) ? cm_nbrs4(cx, loc, first, coord_plus) : NULL;
}

Value *ad_dneighbors(Ctx *cx, Value *const *a) { return nbrs4(cx, a[0], 0); }
Value *ad_ineighbors(Ctx *cx, Value *const *a) { return nbrs4(cx, a[0], 4); }
Value *ad_neighbors(Ctx *cx, Value *const *a) { return cm_neighbors(cx, a[0], nbrs4, true); }
