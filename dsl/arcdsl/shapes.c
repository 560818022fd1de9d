/* shapes.c -- arc-dsl centres, lines, boxes, gravitate and the patch/grid
 * bridges. */
#include <stdlib.h>
#include "prim.h"
#include "pyset.h"
#include "fsdistinct.h"
#include "fsline.h"
#include "fsrecipe.h"
#include "common/gridops.h"
#include "common/manhattan.h"
#include "arcdsl/patch_util.h"
#include "arcdsl/line.h"
#include "common/cells.h"
#include "common/rings.h"

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
    /* each sum's operands before its `+`, the rows' sum before the columns' */
    Value *u = coord_ext(cx, p, 0, CMP_LT);
    if (!u || !height_i(cx, p, &h) || !coord_arith_int(cx, CORE_ADD, u, core_floordiv(h, 2), ci))
        return false;
    Value *l = coord_ext(cx, p, 1, CMP_LT);
    return l && width_i(cx, p, &w) && coord_arith_int(cx, CORE_ADD, l, core_floordiv(w, 2), cj);
}

Value *ad_center(Ctx *cx, Value *const *a)
{
    int64_t i, j;
    return center_i(cx, a[0], &i, &j) ? v_pair_int(i, j) : NULL;
}

/* The box toindices(p) would have, from the box p keeps, charged as
 * to_indices charges; 0 where p keeps none, -1 raised. */
static int kept_indices_box(Ctx *cx, Value *p, int kind, GBox *b)
{
    if (kind == PK_EMPTY || !gu_kept_box(p, b))
        return 0;
    return kind == PK_OBJ && !charge(cx, v_len(p)) ? -1 : 1;
}

/* center(toindices(p)) */
static bool center_idx(Ctx *cx, Value *p, int64_t *ci, int64_t *cj)
{
    int kind = pkind(cx, p);
    GBox kb;
    int kept = kind < 0 ? -1 : kept_indices_box(cx, p, kind, &kb);
    if (kept)                   /* p's box is its places' */
        return kept > 0 && center_i(cx, p, ci, cj);
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
Value *ad_connect_line(Ctx *cx, Value *const *a_ij, int64_t ai, int64_t aj, int64_t bi, int64_t bj)
{
    Line l;
    if (!line_of(ai, aj, bi, bj, &l))
        return v_incref(&v_empty_fset_);
    int64_t n = l.n, di = l.di, dj = l.dj, i = l.i, j = l.j;
    if (!ranged(cx, n))
        return NULL;
    /* Bools as coordinates stay as they are in the points: built at once */
    if (n >= FS_LINE_LAZY_MIN && a_ij[0]->type == V_INT && a_ij[1]->type == V_INT)
        return fs_line(i, j, (int)di, (int)dj, (size_t)n);
    /* the points of a line are distinct: no table compares them */
    Value *small[64], **pts = n <= 64 ? small : malloc((size_t)n * sizeof *pts);
    if (!pts)
        return cx_raise(cx, "MemoryError", "out of memory");
    for (int64_t k = 0; k < n; k++, i += di, j += dj)
        pts[k] = di == 0 && a_ij[0]->type == V_BOOL ? v_pair_steal(v_incref(a_ij[0]), v_int(j))
               : dj == 0 && a_ij[1]->type == V_BOOL ? v_pair_steal(v_int(i), v_incref(a_ij[1]))
               : v_pair_int(i, j);
    Value *r = fs_from_distinct(pts, (size_t)n);
    for (int64_t k = 0; k < n; k++)
        v_decref(pts[k]);
    if (pts != small)
        free(pts);
    return r;
}

/* both items of u and of l ints (or bools) */
static bool all_ints(Value *const *u, Value *const *l)
{
    return v_is_int(u[0]) && v_is_int(u[1]) && v_is_int(l[0]) && v_is_int(l[1]);
}

/* range(s, e + 1) as the reference's comprehensions build it: e + 1, then
 * both must be ints; false raised in CPython's words */
static bool incl_range(Ctx *cx, Value *s, Value *e)
{
    Value *e1 = cm_binop_int(cx, CORE_ADD, e, 1);
    int64_t x;
    bool ok = e1 && gu_int(cx, s, &x) && gu_int(cx, e1, &x);
    v_decref(e1);
    return ok;
}

/* Corners u and l not all ints: the reference's steps on the values (box
 * takes min and max first), for CPython's error; false, raised. */
static bool corner_ranges_fail(Ctx *cx, Value *const *u, Value *const *l, bool minmax)
{
    Value *si = u[0], *sj = u[1], *ei = l[0], *ej = l[1];
    int64_t x;
    if (minmax && (!(si = core_minmax2(cx, u[0], l[0], CMP_LT)) ||
                   !(sj = core_minmax2(cx, u[1], l[1], CMP_LT)) ||
                   !(ei = core_minmax2(cx, u[0], l[0], CMP_GT)) ||
                   !(ej = core_minmax2(cx, u[1], l[1], CMP_GT))))
        return false;
    if (!incl_range(cx, si, ei) || !incl_range(cx, sj, ej))
        return false;
    /* every step passed: a float equal to an int won the comparisons,
     * where CPython goes on with ints; arcrun reads ints only */
    for (int k = 0; k < 4; k++)
        if (!to_i64(cx, k < 2 ? u[k] : l[k - 2], &x))
            break;
    return false;
}

/* ulcorner(a) and lrcorner(b) as ints, in that order, each unpacked as it
 * comes; false raised. */
static bool corners_i(Ctx *cx, Value *a, Value *b, int64_t *ai, int64_t *aj, int64_t *bi,
                      int64_t *bj)
{
    Value *ul = corner(cx, a, OP_MIN, OP_MIN, OP_MIN), **u = ul ? unpack2(cx, ul) : NULL;
    Value *lr = u ? corner(cx, b, OP_MAX, OP_MAX, OP_MAX) : NULL, **l = lr ? unpack2(cx, lr) : NULL;
    bool ok = l && (all_ints(u, l) || corner_ranges_fail(cx, u, l, false));
    if (ok)
        *ai = u[0]->u.i, *aj = u[1]->u.i, *bi = l[0]->u.i, *bj = l[1]->u.i;
    v_decref(ul);
    v_decref(lr);
    return ok;
}

static bool ranged_cells(Ctx *cx, uint64_t n) { return ranged(cx, n > INT64_MAX ? INT64_MAX : (int64_t)n); }

Value *ad_connect(Ctx *cx, Value *const *a)
{
    /* `ai, aj = a; bi, bj = b` both unpack before anything compares */
    Value **pa = unpack2(cx, a[0]), **pb = pa ? unpack2(cx, a[1]) : NULL;
    if (!pb)
        return NULL;
    if (!all_ints(pa, pb))
        return cm_connect_any(cx, pa[0], pa[1], pb[0], pb[1], ranged_cells);
    return ad_connect_line(cx, pa, pa[0]->u.i, pa[1]->u.i, pb[0]->u.i, pb[1]->u.i);
}

/* start[k] + 42 * direction[k], as Python computes it: a new reference,
 * or NULL raised */
static Value *shoot_end(Ctx *cx, Value *start, Value *dir, size_t k)
{
    Value *s = gu_getitem(cx, start, k), *d = s ? gu_getitem(cx, dir, k) : NULL;
    Value *k42 = v_int(42), *m = d ? cm_binop(cx, CORE_MUL, k42, d, false) : NULL;
    Value *r = m ? cm_binop(cx, CORE_ADD, s, m, false) : NULL;
    v_decref(k42);
    v_decref(m);
    return r;
}

/* connect(start, (start[0] + 42 * direction[0], start[1] + 42 * direction[1])) */
Value *ad_shoot(Ctx *cx, Value *const *a)
{
    Value *ei = shoot_end(cx, a[0], a[1], 0), *ej = ei ? shoot_end(cx, a[0], a[1], 1) : NULL;
    Value **pa = ej ? unpack2(cx, a[0]) : NULL, *r = NULL, *end[2] = {ei, ej};
    if (pa && all_ints(pa, end))
        r = ad_connect_line(cx, pa, pa[0]->u.i, pa[1]->u.i, ei->u.i, ej->u.i);
    else if (pa)
        r = cm_connect_any(cx, pa[0], pa[1], ei, ej, ranged_cells);
    v_decref(ei);
    v_decref(ej);
    return r;
}

/* frozenset((i, j) ...) over a 30-long frontier; k: which item of loc stays */
static Value *frontier(Ctx *cx, Value *loc, int k)
{
    Value *keep = gu_getitem(cx, loc, (size_t)k);
    if (!keep || !charge(cx, 30))
        return NULL;
    /* an int column or row: the line from 0 to 29, made in that order */
    if (keep->type == V_INT)
        return k ? fs_line(0, keep->u.i, 1, 0, 30) : fs_line(keep->u.i, 0, 0, 1, 30);
    PySet s;
    pyset_init(&s);
    for (int x = 0; x < 30; x++) {
        Value *c = k ? v_pair_steal(v_int(x), v_incref(keep)) : v_pair_steal(v_incref(keep), v_int(x));
        core_set_put(&s, c);
    }
    return pyset_take(&s);
}

Value *ad_vfrontier(Ctx *cx, Value *const *a) { return frontier(cx, a[0], 1); }
Value *ad_hfrontier(Ctx *cx, Value *const *a) { return frontier(cx, a[0], 0); }

/* backdrop(p); lazy: as a recipe (fsrect.h), which delta's difference
 * would read in order at once */
static Value *backdrop(Ctx *cx, Value *p, bool lazy)
{
    size_t n;
    int64_t si, sj, ei, ej;
    if (!gu_len(cx, p, &n))
        return NULL;
    if (n == 0)
        return v_incref(&v_empty_fset_);
    int kind = pkind(cx, p);
    GBox kb;
    int kept = kind < 0 ? -1 : kept_indices_box(cx, p, kind, &kb);
    if (kept < 0)
        return NULL;
    if (kept) {
        si = kb.i0, sj = kb.j0, ei = kb.i1, ej = kb.j1;
    } else {
        Value *ti = to_indices(cx, p, kind);
        bool ok = ti && corners_i(cx, ti, p, &si, &sj, &ei, &ej);
        v_decref(ti);
        if (!ok)
            return NULL;
    }
    /* both >= 1 (min <= max), and not past 64 bits */
    if (!gu_span_fits(si, ei) || !gu_span_fits(sj, ej))
        return core_overflow(cx);
    int64_t h = ei - si + 1, w = ej - sj + 1;
    if (!ranged(cx, h > ((int64_t)1 << 28) / w ? (int64_t)1 << 29 : h * w))
        return NULL;
    return lazy ? gu_box_lazy(cx, si, ei, sj, ej) : gu_box_set(cx, si, ei, sj, ej);
}

Value *ad_backdrop(Ctx *cx, Value *const *a) { return backdrop(cx, a[0], true); }

Value *ad_delta(Ctx *cx, Value *const *a)
{
    Value *p = a[0];
    size_t n;
    if (!gu_len(cx, p, &n))
        return NULL;
    if (n == 0)
        return v_incref(&v_empty_fset_);
    Value *bd = backdrop(cx, p, false);
    if (!bd)
        return NULL;
    int kind = pkind(cx, p);
    GLoc *l;
    size_t nl;
    /* `-` reads only which places toindices(p) holds, and how many */
    int any = kind == PK_OBJ ? ao_locs(cx, p, &l, &nl) : 0;
    Value *ti = NULL, *r = NULL;
    if (any > 0) {
        if (charge(cx, n)) {
            PySet s;
            pyset_init(&s);
            for (size_t x = 0; x < nl; x++)
                core_set_put(&s, v_pair_int(l[x].i, l[x].j));
            ti = pyset_take(&s);
        }
        free(l);
    } else if (any == 0 && kind >= 0) {
        ti = to_indices(cx, p, kind);
    }
    if (ti && ti->type != V_FSET)
        cx_raise(cx, "TypeError", "unsupported operand type(s) for -: 'frozenset' and '%s'",
                 v_typename(ti));
    else if (ti)
        r = fs_sub(bd, ti);
    v_decref(bd);
    v_decref(ti);
    return r;
}

/* frozenset(vlines | hlines) of the rectangle, as the reference's box,
 * inbox and outbox build it (common/rings.h) */
static Value *box_lines(Ctx *cx, int64_t ai, int64_t aj, int64_t bi, int64_t bj)
{
    int64_t si = ai < bi ? ai : bi, sj = aj < bj ? aj : bj;
    int64_t ei = ai > bi ? ai : bi, ej = aj > bj ? aj : bj;
    /* the sides less one, exact in unsigned: any two int64s */
    uint64_t h = (uint64_t)ei - (uint64_t)si, w = (uint64_t)ej - (uint64_t)sj;
    const uint64_t side_max = (uint64_t)1 << 28;
    if (!ranged(cx, h >= side_max || w >= side_max ? INT64_MAX : 2 * (int64_t)(h + w + 2)))
        return NULL;
    return cm_ring(si, sj, ei, ej);
}

/* inbox (d 1) and outbox (d -1): ai, aj = uppermost + d, leftmost + d;
 * bi, bj = lowermost - d, rightmost - d, each found and moved in turn as
 * Python computes them (written + 1 or - 1) */
static Value *around(Ctx *cx, Value *p, int64_t d)
{
    BBox b;
    if (bbox(p, &b)) {
        int64_t c[4];
        if (__builtin_add_overflow(b.i0, d, &c[0]) || __builtin_add_overflow(b.j0, d, &c[1]) ||
            __builtin_sub_overflow(b.i1, d, &c[2]) || __builtin_sub_overflow(b.j1, d, &c[3]))
            return core_overflow(cx);
        return box_lines(cx, c[0], c[1], c[2], c[3]);
    }
    static const int k[4] = {0, 1, 0, 1}, ext[4] = {CMP_LT, CMP_LT, CMP_GT, CMP_GT};
    Value *v[4] = {NULL, NULL, NULL, NULL}, *r = NULL;
    bool ok = true;
    for (int q = 0; q < 4 && ok; q++) {
        Value *c = coord_ext(cx, p, k[q], ext[q]);
        ok = c && (v[q] = cm_binop_int(cx, (q < 2) == (d > 0) ? CORE_ADD : CORE_SUB, c, 1));
    }
    if (ok && (all_ints(v, v + 2) || corner_ranges_fail(cx, v, v + 2, true)))
        r = box_lines(cx, v[0]->u.i, v[1]->u.i, v[2]->u.i, v[3]->u.i);
    for (int q = 0; q < 4; q++)
        v_decref(v[q]);
    return r;
}

Value *ad_inbox(Ctx *cx, Value *const *a)  { return around(cx, a[0], 1); }
Value *ad_outbox(Ctx *cx, Value *const *a) { return around(cx, a[0], -1); }

/* box's set where a bound (c[0..3]: si, sj, ei, ej as min and max gave
 * them) is a bool: CPython keeps the first of equal items, and (True, 2)
 * == (1, 2).  vlines' items, added first, hold sj or ej as they are,
 * hlines' others si or ei.  Equal items hash alike, so the layout is the
 * ring's; `ring` is taken. */
static Value *box_bools(Value *ring, Value *const c[4])
{
    Value *r = fs_clone_flat(ring);
    Value **it = r->u.set.items;
    for (size_t k = 0; k < r->u.set.len; k++)   /* the clone's own: a ring past the span holds tuples */
        v_incref(it[k]);
    v_decref(ring);
    r->flags &= (uint8_t)~V_FLAG_FLAT;
    for (size_t k = 0; k < r->u.set.len; k++) {
        Value **ij = v_titems(it[k]);
        int64_t i = ij[0]->u.i, j = ij[1]->u.i;
        bool vline = j == c[1]->u.i || j == c[3]->u.i;
        Value *b = vline ? (j == c[1]->u.i ? c[1] : c[3]) : (i == c[0]->u.i ? c[0] : c[2]);
        if (b->type != V_BOOL)
            continue;
        Value *t = vline ? v_pair_steal(v_int(i), v_incref(b)) : v_pair_steal(v_incref(b), v_int(j));
        v_decref(it[k]);
        it[k] = t;
    }
    return r;
}

Value *ad_box(Ctx *cx, Value *const *a)
{
    Value *p = a[0], *ul, *lr = NULL, **u, **l, *r = NULL;
    size_t n;
    int64_t ai, aj, bi, bj;
    if (!gu_len(cx, p, &n))
        return NULL;
    if (n == 0)
        return v_incref(p);
    if ((ul = corner(cx, p, OP_MIN, OP_MIN, OP_MIN)) && (u = unpack2(cx, ul)) &&
        (lr = corner(cx, p, OP_MAX, OP_MAX, OP_MAX)) && (l = unpack2(cx, lr)) &&
        (all_ints(u, l) || corner_ranges_fail(cx, u, l, true)) &&
        (r = box_lines(cx, ai = u[0]->u.i, aj = u[1]->u.i, bi = l[0]->u.i, bj = l[1]->u.i))) {
        /* si, sj = min(ai, bi), min(aj, bj); ei, ej = max(...): the first
         * of equals */
        Value *const c[4] = {u[0], u[1], bi > ai ? l[0] : u[0], bj > aj ? l[1] : u[1]};
        if (c[0]->type == V_BOOL || c[1]->type == V_BOOL || c[2]->type == V_BOOL ||
            c[3]->type == V_BOOL)
            r = box_bools(r, c);
    }
    v_decref(ul);
    v_decref(lr);
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
    if ((c = fs_same_at(o, 0)))
        return v_incref(c);
    c = gu_getitem(cx, v_items(o)[0], 0);
    return c ? v_incref(c) : NULL;
}

/* `0 <= v < n` as Python chains it: 1, 0, or -1 raised (a str) */
static int py_below(Ctx *cx, Value *v, size_t n)
{
    if (v_is_int(v))
        return v->u.i >= 0 && (uint64_t)v->u.i < n;
    int r = v_richcmp(cx, v_int(0), v, CMP_LE);
    return r <= 0 ? r : v_richcmp(cx, v, v_int((int64_t)n), CMP_LT);
}

/* toobject's `if 0 <= i < h and 0 <= j < w` on (i, j), and then
 * grid[i][j]'s demand for ints: 1 inside (*i, *j set), 0 outside (a float
 * outside is skipped, as Python never indexes with it), -1 raised. */
static int place_in(Ctx *cx, Value **ij, size_t h, size_t w, int64_t *i, int64_t *j)
{
    int r = py_below(cx, ij[0], h);
    if (r == 1)
        r = py_below(cx, ij[1], w);
    if (r != 1)
        return r;
    for (int k = 0; k < 2; k++)
        if (!v_is_int(ij[k])) {
            cx_raise(cx, "TypeError", "tuple indices must be integers or slices, not %s",
                     v_typename(ij[k]));
            return -1;
        }
    *i = ij[0]->u.i;
    *j = ij[1]->u.i;
    return 1;
}

Value *ad_toobject(Ctx *cx, Value *const *a)
{
    Value *p = a[0], *g = a[1];
    size_t h, w;
    if (!gu_hw(cx, g, &h, &w))
        return NULL;
    int kind = pkind(cx, p);
    Value *ti = kind < 0 ? NULL : to_indices(cx, p, kind);
    if (!ti)
        return NULL;
    size_t n = v_len(ti);
    Value **it = v_items(ti);
    /* a frozenset's places are distinct, so are their cells: laid out
     * as ADD-ALL leaves them, no comparisons (fs_from_distinct) */
    bool distinct = ti->type == V_FSET;
    PySet s;
    VBuf b = {0};
    pyset_init(&s);
    if (distinct && !vb_reserve(cx, &b, n))
        goto fail;
    /* an interned place's cell read straight from tuples, interned where
     * its value is a colour */
    bool tuples = distinct && g->type == V_TUPLE && !(g->flags & V_FLAGS_PY);
    for (size_t x = 0; x < n; x++) {
        int64_t i, j;
        if (tuples && v_interned_at(it[x], &i, &j) == 0) {
            if (i < 0 || i >= (int64_t)h || j < 0 || j >= (int64_t)w)
                continue;
            Value *row = vg_is(g) ? NULL : v_titems(g)[i];
            Value *c = !row ? v_cell_interned(vg_at(g, (size_t)i, (size_t)j), i, j)
                       : row->type == V_TUPLE && !(row->flags & V_FLAGS_PY) && (size_t)j < row->u.tup.len
                           ? v_cell_interned(v_titems(row)[j], i, j)
                           : NULL;
            if (c) {
                b.v[b.n++] = c;
                continue;
            }
        }
        Value **ij = unpack2(cx, it[x]), *row, *v;
        i = j = 0;
        int in = ij ? place_in(cx, ij, h, w, &i, &j) : -1;
        if (in < 0)
            goto fail;
        if (!in)
            continue;
        if (!(row = gu_getitem(cx, g, (size_t)i)) || !(v = gu_getitem(cx, row, (size_t)j)))
            goto fail;
        Value *loc = it[x]->type == V_TUPLE ? v_incref(it[x]) : v_tuple2(ij[0], ij[1]);
        Value *c = v_pair_steal(v_incref(v), loc);
        if (distinct)
            b.v[b.n++] = c;
        else
            core_set_put(&s, c);
    }
    v_decref(ti);
    if (!charge(cx, distinct ? b.n : s.used)) {
        vb_drop(&b);
        pyset_clear(&s);
        return NULL;
    }
    return distinct ? vb_take_distinct(&b) : pyset_take(&s);
fail:
    v_decref(ti);
    vb_drop(&b);
    pyset_clear(&s);
    return NULL;
}

/* asobject of rows of ints (and bools): the cells' places differ, so
 * they are distinct and laid out at once, as ADD-ALL leaves them.  NULL,
 * nothing raised, where a row is not a container or a value is anything
 * else (the set then meets each cell as Python's does). */
static Value *asobject_distinct(Ctx *cx, Value **rows, size_t nr)
{
    size_t n = 0;
    for (size_t i = 0; i < nr; i++) {
        if (!v_is_container(rows[i]))
            return NULL;
        Value **cells = v_items(rows[i]);
        for (size_t j = 0, nc = v_len(rows[i]); j < nc; j++)
            if (cells[j]->type != V_INT && cells[j]->type != V_BOOL)
                return NULL;
        n += v_len(rows[i]);
    }
    Value **buf = malloc((n ? n : 1) * sizeof *buf);
    if (!buf)
        return cx_raise(cx, "MemoryError", "out of memory");
    size_t m = 0;
    bool ok = true;
    for (size_t i = 0; ok && i < nr; i++) {
        size_t nc = v_len(rows[i]);
        Value **cells = v_items(rows[i]);
        if (!(ok = charge(cx, nc)))
            break;
        for (size_t j = 0; j < nc; j++) {
            Value *c = v_cell_interned(cells[j], (int64_t)i, (int64_t)j);
            buf[m++] = c ? c : v_pair_steal(v_incref(cells[j]), v_pair_int((int64_t)i, (int64_t)j));
        }
    }
    Value *r = ok ? fs_from_distinct(buf, m) : NULL;
    for (size_t k = 0; k < m; k++)
        v_decref(buf[k]);
    free(buf);
    return r;
}

Value *ad_asobject(Ctx *cx, Value *const *a)
{
    Value *g = a[0];
    if (vg_is(g))
        return charge(cx, g->u.tup.len * vg_w(g)) ? cm_asobject_bytes(cx, g, cell_ad) : NULL;
    if (!v_is_container(g))
        return cx_raise(cx, "TypeError", "'%s' object is not iterable", v_typename(g));
    size_t nr = v_len(g);
    Value **rows = v_items(g);
    Value *r = asobject_distinct(cx, rows, nr);
    if (r || cx->err)
        return r;
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
            if (!v_hashable(cx, c)) {
                v_decref(c);
                pyset_clear(&s);
                return NULL;
            }
            core_set_put(&s, c);
        }
    }
    return pyset_take(&s);
}

/* the cell's colour at index 0; the kept objects charged */
Value *ad_colorfilter(Ctx *cx, Value *const *a) { return cm_colorfilter(cx, a[0], a[1], 0, true); }

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
    int64_t c = -1;
    if (ns == 0 || nd == 0)
        cx_raise(cx, "ValueError", "min() arg is an empty sequence");
    else
        c = gu_gravitate_steps(cx, ls, (size_t)ns, ld, (size_t)nd, i, j, true);
    free(ls);
    free(ld);
    return c >= 0 ? v_pair_int(c * i, c * j) : NULL;
}
