/* grid.c -- arc-dsl primitives on grids (tuples of row tuples): colours,
 * rotations and mirrors, painting, scaling, splitting and slicing.
 *
 * Grids are read through v_items, so ragged rows, empty grids and the odd
 * non-grid tuple behave as the reference's slicing and zip() do.  Mirrors
 * also take patches; those rebuild a frozenset in the input's iteration
 * order, as the reference's generator expressions do.
 */
#include "prim.h"
#include "common/mshift.h"
#include "arcdsl/grid_util.h"
#include "common/colours.h"
#include "common/gridops.h"
#include "common/mgrid.h"
#include "common/binop.h"
#include "common/anyorder.h"
#include "common/core_util.h"
#include "arcdsl/patch_util.h"

/* ---- colours ------------------------------------------------------------ */

Value *ad_mostcolor(Ctx *cx, Value *const *a)
{
    return v_incref(gu_extreme_color(cx, a[0], true));
}

Value *ad_leastcolor(Ctx *cx, Value *const *a)
{
    return v_incref(gu_extreme_color(cx, a[0], false));
}

Value *ad_colorcount(Ctx *cx, Value *const *a)
{
    Value *e = a[0], *val = a[1];
    int64_t n = 0;
    size_t bh, bw;
    const uint8_t *b = gu_bytes(e, &bh, &bw);
    if (b) {
        int t = gu_byte_equal_to(val);
        for (size_t k = 0; t >= 0 && k < bh * bw; k++)
            n += b[k] == t;
        return v_int(n);
    }
    if (e->type == V_TUPLE) {
        for (size_t i = 0; i < e->u.tup.len; i++) {
            Value *r = v_titems(e)[i];
            if (r->type != V_TUPLE)
                return cx_raise(cx, "AttributeError",
                                "'%s' object has no attribute 'count'", v_typename(r));
            for (size_t j = 0; j < r->u.tup.len; j++)
                n += gu_same(v_titems(r)[j], val);
        }
        return v_int(n);
    }
    if (!gu_iterable(cx, e))
        return NULL;
    Value *one = fs_same_at(e, 0);      /* every cell's colour: no order to read */
    if (one)
        return v_int(gu_eq(one, val) ? (int64_t)v_len(e) : 0);
    GCell *c;                           /* a count reads no order: an unbuilt set's keys */
    size_t nc;
    int any = ao_cells(cx, e, &c, &nc, false);
    if (any < 0)
        return NULL;
    if (any) {
        for (size_t x = 0; x < nc; x++)
            n += gu_eq(c[x].c, val);
        free(c);
        if (nc == v_len(e))             /* no repeats listed: one per cell */
            return v_int(n);
        n = 0;
    }
    Value **it = v_items(e);
    for (size_t x = 0, len = v_len(e); x < len; x++) {
        Value *c, *rest;
        if (!gu_unpack2(cx, it[x], &c, &rest))
            return NULL;
        n += gu_eq(c, val);
    }
    return v_int(n);
}

Value *ad_palette(Ctx *cx, Value *const *a)
{
    GColors k;
    if (!gu_colors(cx, a[0], &k))
        return NULL;
    PySet s;
    pyset_init(&s);
    for (size_t x = 0; x < k.n; x++)
        pyset_add(&s, k.v[x]);
    gu_colors_free(&k);
    Value *r = pyset_to_frozenset(&s);   /* frozenset({setcomp}): a COPY */
    pyset_clear(&s);
    return r;
}

Value *ad_numcolors(Ctx *cx, Value *const *a)
{
    GColors k;
    if (!gu_colors_of(cx, a[0], &k, true))
        return NULL;
    size_t n = k.n;
    gu_colors_free(&k);
    return v_int((int64_t)n);
}

/* ---- index sets --------------------------------------------------------- */

Value *ad_asindices(Ctx *cx, Value *const *a)
{
    size_t h, w;
    if (!gu_len(cx, a[0], &h))
        return NULL;
    if (h == 0)
        return v_incref(&v_empty_fset_);
    if (!gu_width(cx, a[0], &w) || !gu_work(cx, h * w))
        return NULL;
    /* the rectangle backdrop makes, row by row: laid out when read in
     * order; past fs_rect's bound (no ARC grid comes near) at once */
    if (w && h > ((size_t)1 << 28) / w)
        return gu_box_set(cx, 0, (int64_t)h - 1, 0, (int64_t)w - 1);
    return gu_box_lazy(cx, 0, (int64_t)h - 1, 0, (int64_t)w - 1);
}

Value *ad_ofcolor(Ctx *cx, Value *const *a)
{
    Value *g = a[0], *val = a[1];
    size_t bh, bw;
    const uint8_t *b = gu_bytes(g, &bh, &bw);
    if (b) {
        if (!gu_work(cx, bh * bw))
            return NULL;
        Value **items = gu_alloc_raw(cx, bh * bw, sizeof *items);
        if (!items)
            return NULL;
        /* generated batts often ask for a set or a function: no cell */
        int t = gu_byte_equal_to(val);
        size_t n = 0;
        if (t >= 0)
            for (size_t k = 0; k < bh * bw; k++)
                if (b[k] == t)
                    items[n++] = v_pair_int((int64_t)(k / bw), (int64_t)(k % bw));
        return fs_take_items(items, n, true);
    }
    if (!gu_iterable(cx, g))
        return NULL;
    size_t total = 0, h = v_len(g);
    for (size_t i = 0; i < h; i++) {
        if (!gu_iterable(cx, v_items(g)[i]))
            return NULL;
        total += v_len(v_items(g)[i]);
    }
    if (!gu_work(cx, total))
        return NULL;
    Value **items = gu_alloc_raw(cx, total, sizeof *items);   /* the first n are read */
    if (!items)
        return NULL;
    size_t n = 0;
    for (size_t i = 0; i < h; i++) {
        Value *r = v_items(g)[i];
        for (size_t j = 0, w = v_len(r); j < w; j++)
            if (gu_eq(v_items(r)[j], val))
                items[n++] = v_pair_int((int64_t)i, (int64_t)j);
    }
    return fs_take_items(items, n, true);
}

/* ---- slicing ------------------------------------------------------------ */

/* start[k] and dims[k] as `seq[start[k]:start[k]+dims[k]]` reads them:
 * both items first (an IndexError of either comes before any TypeError),
 * as ints.  Otherwise what CPython raises next: the sum's error, seq (the
 * grid, or the first row sliced where known) not subscriptable, or the
 * slice's indices. */
static bool crop_bounds(Ctx *cx, const Value *seq, const Value *start, const Value *dims,
                        size_t k, int64_t *s, int64_t *d)
{
    Value *e = gu_getitem(cx, start, k), *f = e ? gu_getitem(cx, dims, k) : NULL;
    if (!f)
        return false;
    if (v_is_int(e) && v_is_int(f)) {
        *s = e->u.i;
        *d = f->u.i;
        return true;
    }
    Value *end = cm_binop(cx, CORE_ADD, e, f, false);
    if (!end)
        return false;
    v_decref(end);
    if (seq && seq->type != V_TUPLE)
        cx_raise(cx, "TypeError", "'%s' object is not subscriptable", v_typename(seq));
    else
        cx_raise(cx, "TypeError", "slice indices must be integers or None or have an __index__ method");
    return false;
}

Value *ad_crop(Ctx *cx, Value *const *a)
{
    int64_t s0, d0, s1 = 0, d1 = 0;
    if (!crop_bounds(cx, a[0], a[1], a[2], 0, &s0, &d0))
        return NULL;
    if (a[0]->type == V_TUPLE) {
        int64_t x = s0, y = s0 + d0;
        gu_slice_bounds(a[0]->u.tup.len, &x, &y);
        /* the first row the slice keeps is the first sliced */
        if (y > x && !crop_bounds(cx, vg_is(a[0]) ? NULL : v_titems(a[0])[x], a[1], a[2], 1, &s1, &d1))
            return NULL;
    }
    return crop4(cx, a[0], s0, d0, true, s1, d1);
}

/* grid[lo:hi] where len(grid) came first */
static Value *half_rows(Ctx *cx, Value *g, bool bottom)
{
    size_t n;
    if (!gu_len(cx, g, &n))
        return NULL;
    if (g->type != V_TUPLE)
        return cx_raise(cx, "TypeError", "'%s' object is not subscriptable", v_typename(g));
    return bottom ? gu_slice(cx, g, (int64_t)(n / 2 + n % 2), (int64_t)n) : gu_slice(cx, g, 0, (int64_t)(n / 2));
}

Value *ad_tophalf(Ctx *cx, Value *const *a) { return half_rows(cx, a[0], false); }
Value *ad_bottomhalf(Ctx *cx, Value *const *a) { return half_rows(cx, a[0], true); }

Value *ad_trim(Ctx *cx, Value *const *a)
{
    Value *g = a[0];
    if (g->type != V_TUPLE)
        return cx_raise(cx, "TypeError", "'%s' object is not subscriptable", v_typename(g));
    int64_t x = 1, y = -1;
    gu_slice_bounds(g->u.tup.len, &x, &y);
    if (vg_is(g) && y > x && vg_w(g) > 2)
        return gu_bytes_window(g, (size_t)x, (size_t)(y - x), 1, vg_w(g) - 2);
    Value *out = v_tuple_new((size_t)(y - x));
    for (int64_t i = x; i < y; i++) {
        Value *r = gu_slice(cx, v_titems(g)[i], 1, -1);
        if (!r) {
            v_tuple_abandon(out, (size_t)(i - x));
            return NULL;
        }
        v_titems(out)[i - x] = r;
    }
    return out;
}

/* ---- rotations and mirrors ---------------------------------------------- */

/* The zip-based turns (GU_ROT90 ...) of a tuple grid; cmirror slices
 * each row as well, so it needs them sliceable. */
static Value *transform(Ctx *cx, Value *g, int t)
{
    if (vg_is(g))
        return cm_turn_bytes(cx, g, t);
    GView v;
    /* cmirror slices each row of grid[::-1] before zip gets them */
    if (t == GU_CMIRROR && g->type == V_TUPLE && !cm_rows_sliceable(cx, g, true))
        return NULL;
    if (!zip_view(cx, g, &v, t != GU_TRANSPOSE))
        return NULL;
    Value *out = NULL;
    if (gu_work(cx, v.h * v.w))
        out = cm_turn_view(&v, t, v_rows_flat(g));
    gu_view_free(&v);
    return out;
}

Value *ad_rot90(Ctx *cx, Value *const *a) { return transform(cx, a[0], GU_ROT90); }
Value *ad_rot270(Ctx *cx, Value *const *a) { return transform(cx, a[0], GU_ROT270); }

/* tuple(row[::-1] for row in g), rows in reverse order too when `rows` */
static Value *flip_rows(Ctx *cx, Value *g, bool rows)
{
    if (g->type != V_TUPLE)
        return cx_raise(cx, "TypeError", "'%s' object is not subscriptable", v_typename(g));
    return cm_flip_rows(cx, g, rows, true);
}

Value *ad_rot180(Ctx *cx, Value *const *a) { return flip_rows(cx, a[0], true); }

/* Mirrors of a patch: a frozenset built in the patch's iteration order. */
enum { M_H, M_V, M_D };

/* One mirrored location, as CPython's generator computes it from (i, j):
 * (i, d - j), (d - i, j), or dmirror's (j - b + a, i - a + b). */
static Value *mirror_loc(Ctx *cx, int kind, Value *i, Value *j, Value *d, Value *a, Value *b)
{
    if (kind != M_D) {
        Value *m = cm_binop(cx, CORE_SUB, d, kind == M_V ? j : i, false);
        if (!m)
            return NULL;
        return kind == M_V ? v_pair_steal(v_incref(i), m) : v_pair_steal(m, v_incref(j));
    }
    Value *t = cm_binop(cx, CORE_SUB, j, b, false), *ni = t ? cm_binop(cx, CORE_ADD, t, a, false) : NULL;
    v_decref(t);
    t = ni ? cm_binop(cx, CORE_SUB, i, a, false) : NULL;
    Value *nj = t ? cm_binop(cx, CORE_ADD, t, b, false) : NULL;
    v_decref(t);
    if (!nj) {
        v_decref(ni);
        return NULL;
    }
    return v_pair_steal(ni, nj);
}

/* A patch gu_locs cannot read (places not all int pairs), as CPython's
 * mirror runs: ulcorner (toindices, zip, min), then dmirror's `a, b =`,
 * or hmirror's and vmirror's [k] of ulcorner and of lrcorner and their
 * sum d, then the generator, place by place, its unpacks and arithmetic
 * on whatever values the places hold. */
static Value *mirror_any(Ctx *cx, Value *p, int kind)
{
    if (!cx_give_way(cx))
        return NULL;
    size_t k = kind == M_V ? 1 : 0, m;
    Value *ul = corner(cx, p, OP_MIN, OP_MIN, OP_MIN), *lr = NULL, *d = NULL, *out = NULL;
    if (!ul)
        return NULL;
    if (kind == M_D && (m = v_len(ul)) != 2)
        cx_raise(cx, "ValueError", m < 2 ? "not enough values to unpack (expected 2, got %zu)"
                                         : "too many values to unpack (expected 2)", m);
    else if (kind != M_D && (v_len(ul) <= k ||
                             ((lr = corner(cx, p, OP_MAX, OP_MAX, OP_MAX)) && v_len(lr) <= k)))
        cx_raise(cx, "IndexError", "tuple index out of range");
    else if (kind != M_D && lr)
        d = cm_binop(cx, CORE_ADD, v_items(ul)[k], v_items(lr)[k], false);
    int obj = cx->err ? -1 : gu_is_object(cx, p);
    size_t n = v_len(p);
    Value **items = obj < 0 || !gu_work(cx, n) ? NULL : gu_alloc(cx, n, sizeof *items);
    Value *const *it = items ? v_items(p) : NULL;
    size_t got = 0;
    for (; items && got < n; got++) {
        Value *c = NULL, *loc = it[got], *i, *j;
        if ((obj && !gu_unpack2(cx, it[got], &c, &loc)) || !gu_unpack2(cx, loc, &i, &j))
            break;
        Value *r = mirror_loc(cx, kind, i, j, d, v_items(ul)[0], v_items(ul)[kind == M_D]);
        if (!r)
            break;
        items[got] = obj ? v_pair_steal(v_incref(c), r) : r;
    }
    if (items && got == n)
        out = fs_from_items(items, n);
    for (size_t x = 0; items && x < got; x++)
        v_decref(items[x]);
    free(items);
    v_decref(ul);
    v_decref(lr);
    v_decref(d);
    return out;
}

/* The k-th value of item e's place where it is a bool, which a mirror
 * keeps as it is (vmirror's i, hmirror's j); NULL for an int. */
static Value *kept_bool(const Value *e, bool obj, int k)
{
    if (v_in_arena(e))              /* interned: ints */
        return NULL;
    const Value *loc = obj ? v_titems(e)[1] : e;
    Value *c = v_in_arena(loc) ? NULL : v_titems(loc)[k];
    return c && c->type == V_BOOL ? c : NULL;
}

static Value *mirror_patch(Ctx *cx, const Value *p, int kind)
{
    GLoc *l;
    size_t n;
    if (!gu_locs(cx, p, &l, &n))
        return mirror_any(cx, (Value *)p, kind);
    if (n == 0) {       /* ulcorner(empty) is () */
        if (kind == M_D)
            return cx_raise(cx, "ValueError",
                            "not enough values to unpack (expected 2, got 0)");
        return cx_raise(cx, "IndexError", "tuple index out of range");
    }
    GBox b = gu_box(l, n);
    int obj = gu_is_object(cx, p);
    Value **items = obj < 0 || !gu_box_fits(cx, &b) || !gu_work(cx, n)
                        ? NULL : gu_alloc(cx, n, sizeof *items);
    if (!items) {
        free(l);
        return NULL;
    }
    Value **it = v_items(p);
    for (size_t k = 0; k < n; k++) {
        int64_t i = l[k].i, j = l[k].j, ni = i, nj = j;
        bool past = false;      /* the box's sides fit; a diagonal's move may not */
        switch (kind) {
        case M_H: ni = b.i0 + (b.i1 - i); break;
        case M_V: nj = b.j0 + (b.j1 - j); break;
        default:
            past = __builtin_add_overflow(j - b.j0, b.i0, &ni) ||
                   __builtin_add_overflow(i - b.i0, b.j0, &nj);
            break;
        }
        if (past) {
            while (k--)
                v_decref(items[k]);
            free(items);
            free(l);
            return core_overflow(cx);
        }
        Value *keep = kind == M_D ? NULL : kept_bool(it[k], obj, kind == M_V ? 0 : 1);
        Value *pair = !keep        ? v_pair_int(ni, nj)
                      : kind == M_V ? v_pair_steal(v_incref(keep), v_int(nj))
                                    : v_pair_steal(v_int(ni), v_incref(keep));
        if (obj) {       /* gu_locs checked the cell is a pair */
            items[k] = v_pair_steal(v_incref(v_items(it[k])[0]), pair);
        } else {
            items[k] = pair;
        }
    }
    free(l);
    return fs_take_items(items, n, true);
}

Value *ad_hmirror(Ctx *cx, Value *const *a)
{
    if (a[0]->type != V_TUPLE)
        return mirror_patch(cx, a[0], M_H);
    return cm_rows_reversed(cx, a[0], true);
}

Value *ad_vmirror(Ctx *cx, Value *const *a)
{
    if (a[0]->type != V_TUPLE)
        return mirror_patch(cx, a[0], M_V);
    return flip_rows(cx, a[0], false);
}

Value *ad_dmirror(Ctx *cx, Value *const *a)
{
    if (a[0]->type != V_TUPLE)
        return mirror_patch(cx, a[0], M_D);
    return transform(cx, a[0], GU_TRANSPOSE);
}

Value *ad_cmirror(Ctx *cx, Value *const *a)
{
    if (a[0]->type == V_TUPLE)
        return transform(cx, a[0], GU_CMIRROR);
    static const int steps[3] = { M_V, M_D, M_V };   /* vmirror(dmirror(vmirror(p))) */
    Value *cur = v_incref(a[0]);
    for (int k = 0; cur && k < 3; k++) {
        Value *nxt = mirror_patch(cx, cur, steps[k]);
        v_decref(cur);
        cur = nxt;
    }
    return cur;
}

/* ---- painting ----------------------------------------------------------- */

/* g[i][j] = val for every in-grid location (under: only where g is bg). */
static bool fill_locs(Ctx *cx, MGrid *m, Value *val, const GLoc *l, size_t n,
                      const Value *bg)
{
    for (size_t k = 0; k < n; k++)
        if (gu_mgrid_in(m, l[k].i, l[k].j) && !gu_mgrid_put_ij(cx, m, l[k].i, l[k].j, val, bg))
            return false;
    return true;
}

static bool paint_cells(Ctx *cx, MGrid *m, const GCell *c, size_t n, const Value *bg)
{
    for (size_t k = 0; k < n; k++)
        if (gu_mgrid_in(m, c[k].i, c[k].j) && !gu_mgrid_put_ij(cx, m, c[k].i, c[k].j, c[k].c, bg))
            return false;
    return true;
}

static Value *mostcolor(Ctx *cx, const Value *grid) { return gu_extreme_color(cx, grid, true); }

/* fill's loop over a patch gu_locs cannot read, as CPython runs it:
 * `for i, j in toindices(patch): if 0 <= i < h and 0 <= j < w:
 * g[i][j] = value`, so that a write into a short row raises before a
 * later location fails to unpack. */
static bool fill_any(Ctx *cx, MGrid *m, Value *patch, Value *val, const Value *bg)
{
    Value *ix = ad_toindices(cx, &patch);
    if (!ix)
        return false;
    bool ok = true;
    Value *const *it = v_items(ix);
    for (size_t k = 0, n = v_len(ix); ok && k < n; k++) {
        Value *i, *j;
        int r = gu_unpack2(cx, it[k], &i, &j) ? gu_in_range(cx, i, j, m->h, m->w) : -1;
        ok = r >= 0 && (!r || gu_mgrid_put(cx, m, i, j, val, bg));
    }
    v_decref(ix);
    return ok;
}

/* The locations of toindices(patch) written, or fill_any's loop where
 * they are not all pairs of ints. */
static bool fill_read(Ctx *cx, MGrid *m, Value *patch, Value *val, const Value *bg)
{
    GLoc *l = NULL;
    size_t n;
    if (!gu_locs(cx, patch, &l, &n)) {
        if (!cx_give_way(cx))
            return false;
        return fill_any(cx, m, patch, val, bg);
    }
    bool ok = fill_locs(cx, m, val, l, n, bg);
    free(l);
    return ok;
}

static bool fill_patch(Ctx *cx, MGrid *m, Value *patch, Value *val, const Value *bg)
{
    GLoc *l = NULL;
    size_t n;
    bool ok;
    if (cm_shifts_put(cx, m, patch, val, bg, &ok))
        return ok;
    int any = ao_locs_in(cx, patch, m->h, m->w, &l, &n);
    ok = any > 0 ? fill_locs(cx, m, val, l, n, bg) : any == 0 && fill_read(cx, m, patch, val, bg);
    free(l);
    return ok;
}

static Value *do_fill(Ctx *cx, Value *grid, Value *val, Value *patch, bool under)
{
    return gu_paint(cx, grid, under, mostcolor, fill_patch, patch, val);
}

Value *ad_fill(Ctx *cx, Value *const *a) { return do_fill(cx, a[0], a[1], a[2], false); }
Value *ad_underfill(Ctx *cx, Value *const *a) { return do_fill(cx, a[0], a[1], a[2], true); }

/* paint's loop over values gu_cells rejects, as CPython runs it:
 * `for value, (i, j) in obj: if 0 <= i < h and 0 <= j < w: g[i][j] = value`,
 * the comparisons short-circuiting (an out-of-range i lets any j pass). */
static bool paint_any(Ctx *cx, MGrid *m, Value *obj, const Value *bg)
{
    if (!v_is_container(obj)) {
        cx_raise(cx, "TypeError", "'%s' object is not iterable", v_typename(obj));
        return false;
    }
    Value *const *it = v_items(obj);
    for (size_t k = 0, n = v_len(obj); k < n; k++) {
        Value *val, *loc, *i, *j;
        if (!gu_unpack2(cx, it[k], &val, &loc) || !gu_unpack2(cx, loc, &i, &j))
            return false;
        int r = gu_in_range(cx, i, j, m->h, m->w);
        if (r < 0)
            return false;
        if (r && !gu_mgrid_put(cx, m, i, j, val, bg))
            return false;
    }
    return true;
}

static bool paint_obj(Ctx *cx, MGrid *m, Value *obj, Value *unused, const Value *bg)
{
    GCell *c = NULL;
    size_t n;
    bool ok;
    (void)unused;
    if (cm_shifts_put(cx, m, obj, NULL, bg, &ok))
        return ok;
    int any = ao_cells_in(cx, obj, m->h, m->w, &c, &n);
    if (any > 0 && ao_clash(c, n, m->h, m->w)) {
        free(c);
        c = NULL;
        any = ao_cells(cx, obj, &c, &n, true);
    }
    if (any < 0)
        return false;
    if (any) {
        ok = paint_cells(cx, m, c, n, bg);
        free(c);
        return ok;
    }
    if (gu_cells(cx, obj, &c, &n)) {
        ok = paint_cells(cx, m, c, n, bg);
    } else if (cx->over_budget) {
        ok = false;
    } else {   /* not cells: the loop CPython runs may still get through */
        cx_clear(cx);
        ok = paint_any(cx, m, obj, bg);
    }
    free(c);
    return ok;
}

static Value *do_paint(Ctx *cx, Value *grid, Value *obj, bool under)
{
    return gu_paint(cx, grid, under, mostcolor, paint_obj, obj, NULL);
}

Value *ad_paint(Ctx *cx, Value *const *a) { return do_paint(cx, a[0], a[1], false); }
Value *ad_underpaint(Ctx *cx, Value *const *a) { return do_paint(cx, a[0], a[1], true); }

/* fill(grid, mostcolor(grid), toindices(patch)) into m; false on error. */
static bool cover_into(Ctx *cx, Value *grid, Value *patch, MGrid *m)
{
    GLoc *l = NULL;
    size_t n;
    Value *bg = gu_extreme_color(cx, grid, true);
    /* CPython's order: toindices(patch) (an object's `value, index`
     * unpacks), then fill's len(grid[0]), then its `i, j` unpacks */
    if (!bg)
        return false;
    int any = ao_locs(cx, patch, &l, &n);
    Value *ti = NULL;
    if (!any && !gu_locs(cx, patch, &l, &n)) {
        /* places not all int pairs: cover's toindices(patch) as a value,
         * which fill takes toindices of again (not the same where its
         * items' second items are tuples) */
        if (!cx_give_way(cx))
            return false;
        int kind = pkind(cx, patch);
        if (!(ti = kind < 0 ? NULL : to_indices(cx, patch, kind)))
            return false;
    } else if (!any) {
        any = 1;
    }
    if (any < 0 || !gu_mgrid(cx, grid, m)) {
        free(l);
        v_decref(ti);
        return false;
    }
    bool ok = ti ? fill_read(cx, m, ti, bg, NULL) : fill_locs(cx, m, bg, l, n, NULL);
    if (!ok)
        gu_mgrid_free(m);
    free(l);
    v_decref(ti);
    return ok;
}

Value *ad_cover(Ctx *cx, Value *const *a)
{
    MGrid m;
    if (!cover_into(cx, a[0], a[1], &m))
        return NULL;
    Value *out = gu_mgrid_out(cx, &m);
    gu_mgrid_free(&m);
    return out;
}

/* paint(cover(grid, obj), shift(obj, offset)) on the values, where the
 * offset or obj's places are not ints; m holds cover's grid */
static Value *move_any(Ctx *cx, MGrid *m, Value *obj, Value *offset)
{
    if (!cx_give_way(cx))
        return NULL;
    Value *args[2] = {obj, offset}, *moved = ad_shift(cx, args);
    Value *covered = moved ? gu_mgrid_out(cx, m) : NULL;
    Value *pargs[2] = {covered, moved}, *r = covered ? ad_paint(cx, pargs) : NULL;
    v_decref(covered);
    v_decref(moved);
    return r;
}

Value *ad_move(Ctx *cx, Value *const *a)
{
    Value *obj = a[1], *out = NULL, *moved = NULL;
    GCell *c = NULL;
    size_t n = 0;
    MGrid m;
    if (!cover_into(cx, a[0], obj, &m))
        return NULL;
    if (v_len(obj) > 0) {   /* shift(obj, offset), then paint it */
        int64_t di, dj;
        if (!gu_loc(cx, a[2], &di, &dj)) {
            out = move_any(cx, &m, obj, a[2]);
            goto done;
        }
        int isobj = gu_is_object(cx, obj);
        if (isobj < 0)
            goto done;
        if (!isobj) {
            cx_raise(cx, "TypeError", "cannot unpack non-iterable int object");
            goto done;
        }
        if (!gu_cells(cx, obj, &c, &n)) {
            out = move_any(cx, &m, obj, a[2]);
            goto done;
        }
        Value **items = gu_alloc(cx, n, sizeof *items);
        if (!items)
            goto done;
        for (size_t k = 0; k < n; k++) {
            int64_t i, j;
            if (!core_coord_add(cx, c[k].i, di, &i) || !core_coord_add(cx, c[k].j, dj, &j)) {
                while (k--)
                    v_decref(items[k]);
                free(items);
                goto done;
            }
            items[k] = v_pair_steal(v_incref(c[k].c), v_pair_int(i, j));
        }
        moved = fs_take_items(items, n, false);
        free(c);
        c = NULL;
        if (!gu_cells(cx, moved, &c, &n) || !paint_cells(cx, &m, c, n, NULL))
            goto done;
    }
    out = gu_mgrid_out(cx, &m);
done:
    free(c);
    v_decref(moved);
    gu_mgrid_free(&m);
    return out;
}

/* ---- value maps --------------------------------------------------------- */

Value *ad_replace(Ctx *cx, Value *const *a) { return cm_map_cells(cx, a[0], a[1], a[2], false, false); }
Value *ad_switch(Ctx *cx, Value *const *a) { return cm_map_cells(cx, a[0], a[1], a[2], true, false); }

/* a[0][i][j] where it equals a[1][i][j], else a[2] */
static Value *cellwise_at(Ctx *cx, Value *const *a, size_t i, size_t j, const void *unused)
{
    (void)unused;
    Value *x = gu_at(cx, a[0], i, j), *y = x ? gu_at(cx, a[1], i, j) : NULL;
    return y ? v_incref(gu_eq(x, y) ? x : a[2]) : NULL;
}

/* h, w = len(a), len(a[0]); then cell by cell, a's before b's, so that a
 * bad row of either raises where CPython's loop meets it */
Value *ad_cellwise(Ctx *cx, Value *const *a)
{
    size_t h, w;
    if (!gu_hw(cx, a[0], &h, &w))
        return NULL;
    return gu_build(cx, h, w, cellwise_at, a, NULL);
}

Value *ad_index(Ctx *cx, Value *const *a)
{
    Value *vi, *vj;
    int64_t i, j;
    size_t h, w;
    /* `i, j = loc`, then `h, w = len(grid), len(grid[0])`, then the range
     * test, short-circuiting: an i out of range returns None whatever j is */
    if (!gu_unpack2(cx, a[1], &vi, &vj) || !gu_hw(cx, a[0], &h, &w))
        return NULL;
    int r = gu_in_range(cx, vi, vj, h, w);
    if (r < 0)
        return NULL;
    if (!r)
        return v_none();
    if (!gu_int(cx, vi, &i) || !gu_int(cx, vj, &j))
        return NULL;
    if (a[1]->type != V_TUPLE)
        return cx_raise(cx, "TypeError", "'%s' object is not subscriptable",
                        v_typename(a[1]));
    return v_incref(gu_at(cx, a[0], (size_t)i, (size_t)j));
}

Value *ad_canvas(Ctx *cx, Value *const *a)
{
    int64_t h, w;
    if (!gu_getint(cx, a[1], 0, &h))
        return NULL;
    if (h <= 0)
        return v_incref(&v_empty_tuple_);
    if (!gu_getint(cx, a[1], 1, &w))
        return NULL;
    if (w < 0)
        w = 0;
    uint64_t cells = cx_mul((uint64_t)h, (uint64_t)w);
    if (!core_fits(cx, (uint64_t)h) || !core_fits(cx, cells) ||
        !gu_work(cx, cells + (uint64_t)h))
        return NULL;
    int64_t c;
    if (w > 0 && v_small_of(a[0], &c) && (uint64_t)c <= 255) {
        Value *out = vg_new((size_t)h, (size_t)w);
        memset(vg_cells(out), (int)c, (size_t)h * (size_t)w);
        return out;
    }
    Value *row = v_tuple_new((size_t)w);
    for (int64_t j = 0; j < w; j++)
        v_titems(row)[j] = v_incref(a[0]);
    v_mark_flat_known(row, v_in_arena(a[0]));
    Value *out = v_tuple_new((size_t)h);
    for (int64_t i = 0; i < h; i++)
        v_titems(out)[i] = v_incref(row);
    v_decref(row);
    return out;
}
