/* mirror.c -- the grid mirrors' and turns' bodies, both dialects
 * (gridops.h).  The type checks stay with each dialect (tokpidjin's
 * vmirror and dmirror take a frozenset of rows; arc-dsl's take a tuple,
 * anything else being a patch), and so does the charge of hmirror and
 * vmirror, which tokpidjin's do not pay. */
#include "common/gridops.h"
#include "common/grid_util.h"

bool cm_rows_sliceable(Ctx *cx, const Value *g, bool reversed)
{
    Value **rows = v_items(g);
    for (size_t k = 0, h = v_len(g); k < h; k++) {
        const Value *r = rows[reversed ? h - 1 - k : k];
        if (r->type != V_TUPLE) {
            cx_raise(cx, "TypeError", "'%s' object is not subscriptable", v_typename(r));
            return false;
        }
    }
    return true;
}

Value *cm_rows_reversed(Ctx *cx, const Value *g, bool charge)
{
    size_t n = g->u.tup.len;
    Value *out;
    if (vg_is(g)) {
        out = gu_bytes_flipped(g, true, false);
    } else {
        out = v_tuple_new(n);
        for (size_t i = 0; i < n; i++)
            v_titems(out)[i] = v_incref(v_titems(g)[n - 1 - i]);
    }
    if (charge && !gu_work(cx, n)) {
        v_decref(out);
        return NULL;
    }
    return out;
}

/* The flip as a byte grid when the rows are of one length >= 1 and every
 * cell is an int 0..255 (see turn_view_bytes); else NULL. */
static Value *flip_rows_bytes(Value *const *rows, size_t h, bool rev)
{
    size_t w = h ? rows[0]->u.tup.len : 0;
    if (!w)
        return NULL;
    for (size_t i = 1; i < h; i++)
        if (rows[i]->u.tup.len != w)
            return NULL;
    Value *g = vg_new(h, w);
    uint8_t *c = vg_cells(g);
    for (size_t i = 0; i < h; i++) {
        Value **r = v_titems(rows[rev ? h - 1 - i : i]);
        for (size_t j = 0; j < w; j++)
            if (!vg_byte(r[w - 1 - j], c++)) {
                v_decref(g);
                return NULL;
            }
    }
    return g;
}

Value *cm_flip_rows(Ctx *cx, const Value *g, bool rev, bool charge)
{
    if (vg_is(g)) {
        Value *out = gu_bytes_flipped(g, rev, true);
        if (charge && !gu_work(cx, g->u.tup.len * vg_w(g))) {
            v_decref(out);
            return NULL;
        }
        return out;
    }
    if (!cm_rows_sliceable(cx, g, rev))
        return NULL;
    size_t h = v_len(g), cells = 0;
    Value **rows = v_items(g);
    Value *out = flip_rows_bytes(rows, h, rev);
    if (out) {
        if (charge && !gu_work(cx, h * vg_w(out))) {
            v_decref(out);
            return NULL;
        }
        return out;
    }
    out = v_tuple_new(h);
    for (size_t i = 0; i < h; i++) {
        Value *r = rows[rev ? h - 1 - i : i];
        size_t n = r->u.tup.len;
        Value *nr = v_tuple_new(n);
        for (size_t j = 0; j < n; j++)
            v_titems(nr)[j] = v_incref(v_titems(r)[n - 1 - j]);
        v_mark_flat_known(nr, r->flags & V_FLAG_FLAT);
        v_titems(out)[i] = nr;
        cells += n;
    }
    if (charge && !gu_work(cx, cells)) {
        v_decref(out);
        return NULL;
    }
    return out;
}

Value *cm_turn_bytes(Ctx *cx, const Value *g, int t)
{
    return gu_work(cx, g->u.tup.len * vg_w(g)) ? gu_bytes_turned(g, t) : NULL;
}

bool cm_zip_rows(Ctx *cx, const Value *g, GView *v)
{
    gu_view_clear(v);
    if (!gu_iterable(cx, g))
        return false;
    size_t h = v_len(g), m;
    Value **rows = v_items(g);
    if (!gu_zip_width(cx, rows, h, &m) || !gu_work(cx, h * m))
        return false;
    v->h = h;
    v->w = m;
    if (!h || !m)
        return true;
    bool in = h <= GVIEW_INLINE;
    v->row = in ? v->row_in : gu_alloc(cx, h, sizeof *v->row);
    v->rlen = in ? v->rlen_in : gu_alloc(cx, h, sizeof *v->rlen);
    if (!v->row || !v->rlen) {
        gu_view_free(v);
        return false;
    }
    for (size_t i = 0; i < h; i++) {
        v->row[i] = v_items(rows[i]);
        v->rlen[i] = v_len(rows[i]);
    }
    return true;
}

static inline Value *view_cell(const GView *v, int t, size_t r, size_t x)
{
    size_t h = v->h, m = v->w;
    switch (t) {
    case GU_ROT90: return v->row[h - 1 - x][r];
    case GU_ROT270: return v->row[x][m - 1 - r];
    case GU_TRANSPOSE: return v->row[x][r];
    default: return v->row[h - 1 - x][v->rlen[h - 1 - x] - 1 - r];
    }
}

/* The turn as a byte grid when every cell it takes is an int 0..255, as
 * the rows of a merge of grids are: a tall tuple of such rows turned
 * would otherwise hold a pointer per cell.  NULL at the first other cell. */
static Value *turn_view_bytes(const GView *v, int t)
{
    size_t h = v->h, m = v->w;
    Value *g = vg_new(m, h);
    uint8_t *c = vg_cells(g);
    for (size_t r = 0; r < m; r++)
        for (size_t x = 0; x < h; x++)
            if (!vg_byte(view_cell(v, t, r, x), c++)) {
                v_decref(g);
                return NULL;
            }
    return g;
}

Value *cm_turn_view(const GView *v, int t, bool flat)
{
    size_t h = v->h, m = v->w;     /* result: m rows of h */
    Value *bytes = h && m ? turn_view_bytes(v, t) : NULL;
    if (bytes)
        return bytes;
    Value *out = v_tuple_new(h ? m : 0);
    for (size_t r = 0; h && r < m; r++) {
        Value *row = v_tuple_new(h);
        for (size_t x = 0; x < h; x++)
            v_titems(row)[x] = v_incref(view_cell(v, t, r, x));
        v_mark_flat_known(row, flat);
        v_titems(out)[r] = row;
    }
    return out;
}
