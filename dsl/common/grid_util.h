/* grid_util.h -- helpers both dialects and objwalk.c share: Python-style
 * unpacking and indexing on DSL values, patches read as plain arrays of
 * locations/cells, grids read as views or bytes and built cell by cell
 * (the mutable copy fill and paint write is mgrid.h).
 *
 * Everything borrows; arrays returned through out-parameters are malloc'd
 * and hold borrowed Value pointers (the inputs keep them alive).
 */
#ifndef ARC_GRID_UTIL_H
#define ARC_GRID_UTIL_H

#include <stdlib.h>
#include <string.h>

#include "value.h"
#include "vgrid.h"
#include "pyset.h"
#include "fsdistinct.h"
#include "fsrect.h"
#include "common/core_util.h"

/* Charge n units of work; false (MemoryError raised) once over budget. */
static inline bool gu_work(Ctx *cx, uint64_t n)
{
    return cx_charge(cx, n);
}

/* n units a call is sure to charge later (its input is a grid, so nothing
 * can fail first): when they overrun the work budget, they are charged
 * now, before the work they pay for.  The call still charges as usual. */
static inline bool gu_work_ahead(Ctx *cx, uint64_t n)
{
    if (n > CX_WORK_MAX || (cx->work_limit && cx->work + n > cx->work_limit))
        return cx_charge(cx, n);
    return true;
}

/* A byte grid's cells (vgrid.h), with its h and w; NULL for any other
 * value, which is then read through its items. */
static inline const uint8_t *gu_bytes(const Value *v, size_t *h, size_t *w)
{
    if (!vg_is(v))
        return NULL;
    *h = v->u.tup.len;
    *w = vg_w(v);
    return vg_cells(v);
}

/* A grid of h x w cells (h, w >= 1) from cells c[] (borrowed): a byte
 * grid when each is an int 0..255, else NULL (nothing made). */
static inline Value *gu_bytes_from(Value *const *c, size_t h, size_t w)
{
    if (!h || !w)
        return NULL;
    Value *g = vg_new(h, w);
    if (vg_pack(c, h * w, vg_cells(g)))
        return g;
    v_decref(g);
    return NULL;
}

/* The h x w window at (i0, j0) of byte grid g (h, w >= 1, inside it) as
 * a byte grid of its own. */
static inline Value *gu_bytes_window(const Value *g, size_t i0, size_t h, size_t j0, size_t w)
{
    size_t gw = vg_w(g);
    Value *out = vg_new(h, w);
    for (size_t i = 0; i < h; i++)
        memcpy(vg_cells(out) + i * w, vg_cells(g) + (i0 + i) * gw + j0, w);
    return out;
}

/* Byte grid g with its rows in reverse order (rows), each row reversed
 * (cols), or both: hmirror, vmirror, rot180. */
static inline Value *gu_bytes_flipped(const Value *g, bool rows, bool cols)
{
    size_t h = g->u.tup.len, w = vg_w(g);
    const uint8_t *c = vg_cells(g);
    Value *out = vg_new(h, w);
    uint8_t *o = vg_cells(out);
    for (size_t i = 0; i < h; i++) {
        const uint8_t *r = c + (rows ? h - 1 - i : i) * w;
        if (!cols)
            memcpy(o + i * w, r, w);
        for (size_t j = 0; cols && j < w; j++)
            o[i * w + j] = r[w - 1 - j];
    }
    return out;
}

/* The turns of a grid zip() makes: out[r][x] of the w x h result. */
enum { GU_ROT90, GU_ROT270, GU_TRANSPOSE, GU_CMIRROR };
static inline Value *gu_bytes_turned(const Value *g, int t)
{
    size_t h = g->u.tup.len, m = vg_w(g);
    const uint8_t *c = vg_cells(g);
    Value *out = vg_new(m, h);
    uint8_t *o = vg_cells(out);
    for (size_t r = 0; r < m; r++)
        for (size_t x = 0; x < h; x++) {
            size_t i, j;
            switch (t) {
            case GU_ROT90: i = h - 1 - x, j = r; break;
            case GU_ROT270: i = x, j = m - 1 - r; break;
            case GU_TRANSPOSE: i = x, j = r; break;
            default: i = h - 1 - x, j = m - 1 - r; break;
            }
            o[r * h + x] = c[i * m + j];
        }
    return out;
}

/* Byte grid g upscaled: each cell fw times across, each row fh times
 * down (fh, fw >= 1). */
static inline Value *gu_bytes_scaled(const Value *g, size_t fh, size_t fw)
{
    size_t h = g->u.tup.len, w = vg_w(g), ow = w * fw;
    const uint8_t *b = vg_cells(g);
    Value *out = vg_new(h * fh, ow);
    for (size_t i = 0; i < h; i++) {
        uint8_t *r = vg_cells(out) + i * fh * ow;
        for (size_t j = 0; j < w; j++)
            memset(r + j * fw, b[i * w + j], fw);
        for (size_t x = 1; x < fh; x++)
            memcpy(r + x * ow, r, ow);
    }
    return out;
}

/* h * w of a grid (v_is_grid true), 0 otherwise */
static inline uint64_t gu_grid_cells(Value *grid)
{
    if (vg_is(grid))
        return (uint64_t)grid->u.tup.len * vg_w(grid);
    return v_is_grid(grid) ? (uint64_t)grid->u.tup.len * v_titems(grid)[0]->u.tup.len : 0;
}

static inline void *gu_alloc(Ctx *cx, size_t n, size_t size)
{
    void *p = calloc(n ? n : 1, size);
    if (!p)
        cx_raise(cx, "MemoryError", "out of memory");
    return p;
}

/* gu_alloc for a buffer the caller writes in full before reading: not
 * zeroed first. */
static inline void *gu_alloc_raw(Ctx *cx, size_t n, size_t size)
{
    void *p = size && n > SIZE_MAX / size ? NULL : malloc(n ? n * size : 1);
    if (!p)
        cx_raise(cx, "MemoryError", "out of memory");
    return p;
}

/* a == b, with the int/int case inline. */
static inline bool gu_eq(const Value *a, const Value *b)
{
    if (v_is_int(a) && v_is_int(b))
        return a->u.i == b->u.i;
    return v_eq(a, b);
}

/* The byte a byte grid's cell (an int 0..255) must be to equal v, as
 * Python's == says: an int or bool in range, or a float of such a whole
 * value; -1 where no cell can (a set, a tuple, NaN, 2.5, 256...). */
static inline int gu_byte_equal_to(const Value *v)
{
    if (v_is_int(v))
        return v->u.i >= 0 && v->u.i <= 255 ? (int)v->u.i : -1;
    if (v->type == V_FLOAT && v->u.f >= 0 && v->u.f <= 255 && v->u.f == (double)(int)v->u.f)
        return (int)v->u.f;
    return -1;
}

/* Membership-style equality (list.count, `in`, set keys): identity first. */
static inline bool gu_same(const Value *a, const Value *b)
{
    return a == b || gu_eq(a, b);
}

static inline bool gu_iterable(Ctx *cx, const Value *v)
{
    if (v_is_container(v))
        return true;
    cx_raise(cx, "TypeError", "'%s' object is not iterable", v_typename(v));
    return false;
}

/* zip(*items)'s width: the shortest item's length, 0 for no items; false
 * (TypeError raised) at the first item that is not iterable. */
static inline bool gu_zip_width(Ctx *cx, Value *const *items, size_t n, size_t *m)
{
    *m = 0;
    for (size_t x = 0; x < n; x++) {
        if (!gu_iterable(cx, items[x]))
            return false;
        if (x == 0 || v_len(items[x]) < *m)
            *m = v_len(items[x]);
    }
    return true;
}

/* len(set(items)) == 1 */
static inline bool gu_one_value(Value *const *items, size_t n)
{
    if (n == 0)
        return false;
    for (size_t k = 1; k < n; k++)
        if (!gu_same(items[0], items[k]))
            return false;
    return true;
}

/* len(v) */
static inline bool gu_len(Ctx *cx, const Value *v, size_t *n)
{
    if (v_is_container(v)) {
        *n = v_len(v);
        return true;
    }
    cx_raise(cx, "TypeError", "object of type '%s' has no len()", v_typename(v));
    return false;
}

/* v[k] for k >= 0 (tuples only are subscriptable among DSL values). */
static inline Value *gu_getitem(Ctx *cx, const Value *v, size_t k)
{
    if (v->type != V_TUPLE) {
        cx_raise(cx, "TypeError", "'%s' object is not subscriptable", v_typename(v));
        return NULL;
    }
    if (k >= v->u.tup.len) {
        cx_raise(cx, "IndexError", "tuple index out of range");
        return NULL;
    }
    return v_titems(v)[k];
}

/* v as an int (bools are ints), else TypeError(what % type name) */
static inline bool gu_int_or(Ctx *cx, const Value *v, int64_t *out, const char *what)
{
    if (v_is_int(v)) {
        *out = v->u.i;
        return true;
    }
    cx_raise(cx, "TypeError", what, v_typename(v));
    return false;
}

/* An int usable as an index or a range() bound. */
static inline bool gu_int(Ctx *cx, const Value *v, int64_t *out)
{
    return gu_int_or(cx, v, out, "'%s' object cannot be interpreted as an integer");
}

/* `len(grid[0])`: a byte grid's w, its rows not made */
static inline bool gu_width(Ctx *cx, const Value *grid, size_t *w)
{
    if (vg_is(grid)) {
        *w = vg_w(grid);
        return true;
    }
    Value *r0 = gu_getitem(cx, grid, 0);
    return r0 && gu_len(cx, r0, w);
}

/* `h, w = len(grid), len(grid[0])` */
static inline bool gu_hw(Ctx *cx, const Value *grid, size_t *h, size_t *w)
{
    return gu_len(cx, grid, h) && gu_width(cx, grid, w);
}

/* v[k] as an int */
static inline bool gu_getint(Ctx *cx, const Value *v, size_t k, int64_t *out)
{
    Value *e = gu_getitem(cx, v, k);
    return e && gu_int(cx, e, out);
}

/* `a, b(, c) = v`: v's n items (iteration order), borrowed */
static inline Value **gu_unpack(Ctx *cx, const Value *v, size_t n)
{
    if (v->type == V_TUPLE && v->u.tup.len == n)
        return v_titems(v);
    if (!v_is_container(v)) {
        cx_raise(cx, "TypeError", "cannot unpack non-iterable %s object", v_typename(v));
        return NULL;
    }
    size_t m = v_len(v);
    if (m == n)
        return v_items(v);
    if (m < n)
        cx_raise(cx, "ValueError", "not enough values to unpack (expected %zu, got %zu)", n, m);
    else
        cx_raise(cx, "ValueError", "too many values to unpack (expected %zu)", n);
    return NULL;
}

/* `a, b = v` */
static inline bool gu_unpack2(Ctx *cx, const Value *v, Value **a, Value **b)
{
    if (!v_is_container(v)) {
        cx_raise(cx, "TypeError", "cannot unpack non-iterable %s object", v_typename(v));
        return false;
    }
    size_t n = v_len(v);
    if (n != 2) {
        if (n > 2)
            cx_raise(cx, "ValueError", "too many values to unpack (expected 2)");
        else
            cx_raise(cx, "ValueError",
                     "not enough values to unpack (expected 2, got %zu)", n);
        return false;
    }
    *a = v_items(v)[0];
    *b = v_items(v)[1];
    return true;
}

/* `i, j = v` with int coordinates */
static inline bool gu_loc(Ctx *cx, const Value *v, int64_t *i, int64_t *j)
{
    Value *a, *b;
    if (v_interned_at(v, i, j) == 0)
        return true;
    return gu_unpack2(cx, v, &a, &b) && gu_int(cx, a, i) && gu_int(cx, b, j);
}

/* `c, (i, j) = v` */
static inline bool gu_cell(Ctx *cx, const Value *v, Value **c, int64_t *i, int64_t *j)
{
    Value *loc;
    int at = v_interned_at(v, i, j);
    if (at >= 1 && at <= 10) {
        *c = v_small(at - 1);
        return true;
    }
    return gu_unpack2(cx, v, c, &loc) && gu_loc(cx, loc, i, j);
}

/* Python slice bounds [a:b] (step 1) on a sequence of length n. */
static inline void gu_slice_bounds(size_t n, int64_t *a, int64_t *b)
{
    int64_t N = (int64_t)n;
    if (*a < 0) { *a += N; if (*a < 0) *a = 0; } else if (*a > N) *a = N;
    if (*b < 0) { *b += N; if (*b < 0) *b = 0; } else if (*b > N) *b = N;
    if (*b < *a)
        *b = *a;
}

/* t[a:b] for a tuple t (the same object when the slice is whole). */
static inline Value *gu_slice(Ctx *cx, Value *t, int64_t a, int64_t b)
{
    if (t->type != V_TUPLE)
        return cx_raise(cx, "TypeError", "'%s' object is not subscriptable",
                        v_typename(t));
    gu_slice_bounds(t->u.tup.len, &a, &b);
    if (a == 0 && (size_t)b == t->u.tup.len)
        return v_incref(t);
    if (vg_is(t) && b > a)
        return gu_bytes_window(t, (size_t)a, (size_t)(b - a), 0, vg_w(t));
    return v_tuple_from(v_titems(t) + a, (size_t)(b - a));
}

/* isinstance(next(iter(p))[1], tuple) for a non-empty p: 1 object, 0
 * indices, -1 raised. */
static inline int gu_is_object(Ctx *cx, const Value *p)
{
    uint8_t memo = p->type == V_FSET ? __atomic_load_n(&p->memo, __ATOMIC_ACQUIRE) : 0;
    if (memo & (V_MEMO_CELLS | V_MEMO_PLACES))
        return (memo & V_MEMO_CELLS) != 0;
    Value *e = gu_getitem(cx, v_items(p)[0], 1);
    if (!e)
        return -1;
    return e->type == V_TUPLE;
}

typedef struct { int64_t i, j; } GLoc;
typedef struct { Value *c; int64_t i, j; } GCell;

/* The locations of toindices(patch), as `for i, j in toindices(patch)`
 * sees them (duplicates of tuple inputs kept: callers don't care). */
static inline bool gu_locs(Ctx *cx, const Value *patch, GLoc **out, size_t *n)
{
    size_t len;
    *out = NULL;
    *n = 0;
    if (!gu_len(cx, patch, &len))
        return false;
    if (len == 0)
        return true;
    int obj = gu_is_object(cx, patch);
    if (obj < 0)
        return false;
    GLoc *l = gu_alloc_raw(cx, len, sizeof *l);
    if (!l)
        return false;
    Value **it = v_items(patch);
    for (size_t k = 0; k < len; k++) {
        Value *loc = it[k], *c;
        if ((obj && !gu_unpack2(cx, it[k], &c, &loc)) ||
            !gu_loc(cx, loc, &l[k].i, &l[k].j)) {
            free(l);
            return false;
        }
    }
    *out = l;
    *n = len;
    return true;
}

/* An element of an object read as a cell, in the dialect's layout; false
 * with the exception raised. */
typedef bool (*GCellOf)(Ctx *cx, Value *e, GCell *c);

/* The cells of an object in its iteration order, each read by cell_of. */
static inline bool gu_cells_with(Ctx *cx, const Value *obj, GCell **out, size_t *n,
                                 GCellOf cell_of)
{
    *out = NULL;
    *n = 0;
    if (!gu_iterable(cx, obj))
        return false;
    size_t len = v_len(obj);
    if (len == 0)
        return true;
    GCell *c = gu_alloc_raw(cx, len, sizeof *c);
    if (!c)
        return false;
    Value **it = v_items(obj);
    for (size_t k = 0; k < len; k++)
        if (!cell_of(cx, it[k], &c[k])) {
            free(c);
            return false;
        }
    *out = c;
    *n = len;
    return true;
}

static inline bool gu_cell_of(Ctx *cx, Value *e, GCell *c)
{
    return gu_cell(cx, e, &c->c, &c->i, &c->j);
}

/* The cells of `for c, (i, j) in obj`, in obj's iteration order. */
static inline bool gu_cells(Ctx *cx, const Value *obj, GCell **out, size_t *n)
{
    return gu_cells_with(cx, obj, out, n, gu_cell_of);
}

/* `for r in grid: for v in r`: every row iterable; the cells they hold. */
static inline bool gu_row_cells(Ctx *cx, const Value *g, size_t *cells)
{
    if (vg_is(g)) {
        *cells = g->u.tup.len * vg_w(g);
        return true;
    }
    if (!gu_iterable(cx, g))
        return false;
    *cells = 0;
    for (size_t i = 0; i < v_len(g); i++) {
        if (!gu_iterable(cx, v_items(g)[i]))
            return false;
        *cells += v_len(v_items(g)[i]);
    }
    return true;
}

/* Bounding box of locations: min/max row and column (n > 0). */
typedef struct { int64_t i0, j0, i1, j1; } GBox;
static inline GBox gu_box(const GLoc *l, size_t n)
{
    GBox b = {l[0].i, l[0].j, l[0].i, l[0].j};
    for (size_t k = 1; k < n; k++) {
        if (l[k].i < b.i0) b.i0 = l[k].i;
        if (l[k].i > b.i1) b.i1 = l[k].i;
        if (l[k].j < b.j0) b.j0 = l[k].j;
        if (l[k].j > b.j1) b.j1 = l[k].j;
    }
    return b;
}

/* Whether hi - lo + 1 (lo <= hi) fits in 64 bits: the difference is
 * exact in unsigned for any two int64s. */
static inline bool gu_span_fits(int64_t lo, int64_t hi)
{
    return (uint64_t)hi - (uint64_t)lo < (uint64_t)INT64_MAX;
}

/* Whether b's sides, i1 - i0 + 1 and j1 - j0 + 1, fit in 64 bits;
 * OverflowError, as arcrun's ints past 64 bits, where not. */
static inline bool gu_box_fits(Ctx *cx, const GBox *b)
{
    if (gu_span_fits(b->i0, b->i1) && gu_span_fits(b->j0, b->j1))
        return true;
    core_overflow(cx);
    return false;
}

/* The bounding box frozenset p keeps (V_MEMO_BOX): its items are then
 * locations or cells, and nothing reading their places can raise. */
static inline bool gu_kept_box(const Value *p, GBox *b)
{
    if (p->type != V_FSET || !(__atomic_load_n(&p->memo, __ATOMIC_ACQUIRE) & V_MEMO_BOX))
        return false;
    const int32_t *x = p->u.set.box;
    *b = (GBox){__atomic_load_n(&x[0], __ATOMIC_RELAXED), __atomic_load_n(&x[1], __ATOMIC_RELAXED),
                __atomic_load_n(&x[2], __ATOMIC_RELAXED), __atomic_load_n(&x[3], __ATOMIC_RELAXED)};
    return true;
}

/* shape(piece) */
static inline bool gu_shape(Ctx *cx, Value *p, int64_t *h, int64_t *w)
{
    size_t n;
    GBox b;
    if (!gu_len(cx, p, &n))
        return false;
    if (n == 0) {
        *h = *w = 0;
        return true;
    }
    if (gu_kept_box(p, &b)) {
        *h = b.i1 - b.i0 + 1;
        *w = b.j1 - b.j0 + 1;
        return true;
    }
    if (p->type == V_TUPLE) {
        size_t w0;
        if (!gu_len(cx, v_titems(p)[0], &w0))
            return false;
        *h = (int64_t)n;
        *w = (int64_t)w0;
        return true;
    }
    GLoc *l;
    if (!gu_locs(cx, p, &l, &n))
        return false;
    b = gu_box(l, n);
    free(l);
    if (!gu_box_fits(cx, &b))
        return false;
    *h = b.i1 - b.i0 + 1;
    *w = b.j1 - b.j0 + 1;
    return true;
}

/* frozenset((i, j) for i in range(i0, i1 + 1) for j in range(j0, j1 + 1)),
 * added in that order: distinct, so laid out at once */
static inline Value *gu_box_set(Ctx *cx, int64_t i0, int64_t i1, int64_t j0, int64_t j1)
{
    if (i1 < i0 || j1 < j0)
        return v_incref(&v_empty_fset_);
    size_t n = (size_t)(i1 - i0 + 1) * (size_t)(j1 - j0 + 1), k = 0;
    Value *small[64], **items = n <= 64 ? small : malloc(n * sizeof *items);
    if (!items) {
        cx_raise(cx, "MemoryError", "out of memory");
        return NULL;
    }
    for (int64_t i = i0; i <= i1; i++)
        for (int64_t j = j0; j <= j1; j++)
            items[k++] = v_pair_int(i, j);
    Value *r = fs_from_distinct(items, n);
    for (k = 0; k < n; k++)
        v_decref(items[k]);
    if (items != small)
        free(items);
    return r;
}

/* The same, as backdrop returns it: a recipe laid out only when read in
 * order (fsrect.h), unless small. */
static inline Value *gu_box_lazy(Ctx *cx, int64_t i0, int64_t i1, int64_t j0, int64_t j1)
{
    if (i1 < i0 || j1 < j0 || (uint64_t)(i1 - i0 + 1) * (uint64_t)(j1 - j0 + 1) < FS_RECT_LAZY_MIN)
        return gu_box_set(cx, i0, i1, j0, j1);
    return fs_rect(i0, j0, i1, j1);
}

/* ---- grids ---------------------------------------------------------------
 * A read view of a tuple of rows: rows[i] items and lengths, plus
 * w = len(grid[0]) as the reference reads it. */
#define GVIEW_INLINE 32     /* rows held in the view itself: every ARC grid */

typedef struct {
    size_t h, w;
    Value ***row;     /* row[i] = items of row i */
    size_t *rlen;
    Value **row_in[GVIEW_INLINE];
    size_t rlen_in[GVIEW_INLINE];
} GView;

/* An empty view (its inline arrays left as they are). */
static inline void gu_view_clear(GView *g)
{
    g->h = g->w = 0;
    g->row = NULL;
    g->rlen = NULL;
}

static inline void gu_view_free(GView *g)
{
    if (g->row != g->row_in)
        free(g->row);
    if (g->rlen != g->rlen_in)
        free(g->rlen);
    g->row = NULL;
    g->rlen = NULL;
}

/* `for r in grid` with every row iterable: a tuple's or a frozenset's
 * items in iteration order (w is left 0). */
static inline bool gu_rows(Ctx *cx, const Value *grid, GView *g)
{
    gu_view_clear(g);
    if (!gu_iterable(cx, grid))
        return false;
    g->h = v_len(grid);
    bool in = g->h <= GVIEW_INLINE;
    g->row = in ? g->row_in : gu_alloc(cx, g->h, sizeof *g->row);
    g->rlen = in ? g->rlen_in : gu_alloc(cx, g->h, sizeof *g->rlen);
    if (!g->row || !g->rlen) {
        gu_view_free(g);
        return false;
    }
    for (size_t i = 0; i < g->h; i++) {
        Value *r = v_items(grid)[i];
        if (!gu_iterable(cx, r)) {
            gu_view_free(g);
            return false;
        }
        g->row[i] = v_items(r);
        g->rlen[i] = v_len(r);
    }
    return true;
}

/* `h, w = len(grid), len(grid[0])` and every row iterable.  need_w: raise
 * IndexError on an empty grid as grid[0] would. */
static inline bool gu_view(Ctx *cx, const Value *grid, GView *g, bool need_w)
{
    size_t h, w = 0;
    gu_view_clear(g);
    if (!gu_len(cx, grid, &h))
        return false;
    if (need_w || h) {
        Value *r0 = gu_getitem(cx, grid, 0);
        if (!r0 || !gu_len(cx, r0, &w))
            return false;
    }
    if (grid->type != V_TUPLE) {
        cx_raise(cx, "TypeError", "'%s' object is not subscriptable", v_typename(grid));
        return false;
    }
    if (!gu_rows(cx, grid, g))
        return false;
    g->w = w;
    return true;
}

/* gu_view(..., true) for a caller that reads g->h and g->w only: a byte
 * grid is sized without making its rows. */
static inline bool gu_view_hw(Ctx *cx, const Value *grid, GView *g)
{
    size_t h = 0, w = 0;
    if (!gu_bytes(grid, &h, &w))
        return gu_view(cx, grid, g, true);
    gu_view_clear(g);
    g->h = h;
    g->w = w;
    return true;
}

/* `0 <= i < h and 0 <= j < w` on any values, short-circuiting as Python
 * does (an i out of range never compares j): 1, 0, or -1 raised. */
static inline int gu_in_range(Ctx *cx, Value *i, Value *j, size_t h, size_t w)
{
    Value *zero = v_int(0), *vh = v_int((int64_t)h), *vw = v_int((int64_t)w);
    const struct { Value *a, *b; int op; } test[4] = {
        { zero, i, CMP_LE }, { i, vh, CMP_LT }, { zero, j, CMP_LE }, { j, vw, CMP_LT } };
    int r = 1;
    for (int t = 0; r == 1 && t < 4; t++)
        r = v_richcmp(cx, test[t].a, test[t].b, test[t].op);
    v_decref(vh);
    v_decref(vw);
    return r;
}

/* Whether every row of a viewed grid is a tuple of at least w items, so
 * that any (i, j) inside h x w can be read without raising. */
static inline bool gu_view_full(const Value *grid, const GView *g)
{
    if (vg_is(grid))
        return true;
    for (size_t i = 0; i < g->h; i++)
        if (v_titems(grid)[i]->type != V_TUPLE || g->rlen[i] < g->w)
            return false;
    return true;
}

/* gu_view, or, when only rows past the first are not iterable, just
 * `h, w = len(grid), len(grid[0])` with *rows false: for loops that reach
 * the other rows only through their locations.  false raised.  A byte
 * grid is sized only, with *rows true: its rows are g's only if made. */
static inline bool gu_view_or_size(Ctx *cx, const Value *grid, GView *g, bool *rows)
{
    if (vg_is(grid))        /* sized only: its readers take the bytes (vgrid.h) */
        return *rows = true, gu_view_hw(cx, grid, g);
    if ((*rows = gu_view(cx, grid, g, true)))
        return true;
    cx_clear(cx);
    gu_view_clear(g);
    return gu_hw(cx, grid, &g->h, &g->w);
}

/* grid[i][j] as the reference indexes it: rows must be tuples. */
static inline Value *gu_at(Ctx *cx, const Value *grid, size_t i, size_t j)
{
    size_t h, w;
    const uint8_t *b = gu_bytes(grid, &h, &w);
    if (b && i < h && j < w)
        return v_small(b[i * w + j]);
    Value *r = gu_getitem(cx, grid, i);
    return r ? gu_getitem(cx, r, j) : NULL;
}

/* A cell of a grid being built: a new reference, or NULL raised. */
typedef Value *(*GCellFn)(Ctx *cx, Value *const *a, size_t i, size_t j, const void *arg);

/* tuple(tuple(cell(i, j) for j in range(w)) for i in range(h)), its h * w
 * cells charged first. */
static inline Value *gu_build(Ctx *cx, size_t h, size_t w, GCellFn cell, Value *const *a,
                              const void *arg)
{
    if (!gu_work(cx, h * w))
        return NULL;
    size_t n = h * w;
    Value **c = gu_alloc_raw(cx, n, sizeof *c);
    if (!c)
        return NULL;
    for (size_t k = 0; k < n; k++)
        if (!(c[k] = cell(cx, a, k / w, k % w, arg))) {
            while (k--)
                v_decref(c[k]);
            free(c);
            return NULL;
        }
    Value *out = gu_bytes_from(c, h, w);     /* as bytes where every cell is one */
    if (out) {
        for (size_t k = 0; k < n; k++)
            v_decref(c[k]);
    } else {
        out = v_tuple_new(h);
        for (size_t i = 0; i < h; i++) {
            Value *row = v_tuple_new(w);
            if (w)      /* the references move */
                memcpy(v_titems(row), c + i * w, w * sizeof *c);
            v_mark_flat(row, v_titems(row), w);
            v_titems(out)[i] = row;
        }
    }
    free(c);
    return out;
}

#endif
