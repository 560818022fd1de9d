/* mgrid.h -- the mutable copy of a grid that fill, paint, cover and their
 * under- forms write: list(list(row) for row in grid), then tuple(tuple(row)
 * ...) of it.  A byte grid's copy is written as bytes (vgrid.h).
 */
#ifndef ARC_MGRID_H
#define ARC_MGRID_H

#include "common/grid_util.h"

/* A mutable copy: list(list(row) for row in grid).  The copy of a byte
 * grid is bytes, written straight into the byte grid it becomes (out),
 * until a value that is no byte is written: then it turns into values. */
typedef struct {
    size_t h, w;
    size_t *off, *rlen;
    Value **c;        /* borrowed; NULL while bytes */
    Value *out;       /* while bytes: the byte grid being written */
} MGrid;

/* off, rlen and c are one block, from off */
static inline void gu_mgrid_free(MGrid *m)
{
    free(m->off);
    v_decref(m->out);
    memset(m, 0, sizeof *m);
}

/* m's block for h rows of total cells; false raised. */
static inline bool gu_mgrid_alloc(Ctx *cx, MGrid *m, size_t h, size_t total)
{
    if (total > (SIZE_MAX / sizeof(Value *)) - 2 * h)
        return cx_raise(cx, "MemoryError", "out of memory"), false;
    m->off = malloc((h ? 2 * h : 1) * sizeof(size_t) + total * sizeof(Value *));
    if (!m->off)
        return cx_raise(cx, "MemoryError", "out of memory"), false;
    m->rlen = m->off + h;
    m->c = (Value **)(m->rlen + h);
    return true;
}

/* A bytes copy turned into values (a value no byte is written). */
static inline bool gu_mgrid_unbyte(Ctx *cx, MGrid *m)
{
    Value *g = m->out;
    m->out = NULL;
    if (!gu_mgrid_alloc(cx, m, m->h, m->h * m->w)) {
        v_decref(g);
        return false;
    }
    const uint8_t *b = vg_cells(g);
    for (size_t i = 0; i < m->h; i++) {
        m->off[i] = i * m->w;
        m->rlen[i] = m->w;
    }
    for (size_t k = 0; k < m->h * m->w; k++)
        m->c[k] = v_small(b[k]);
    v_decref(g);
    return true;
}

static inline bool gu_mgrid(Ctx *cx, const Value *grid, MGrid *m)
{
    memset(m, 0, sizeof *m);
    size_t bh, bw;
    const uint8_t *b = gu_bytes(grid, &bh, &bw);
    if (b) {
        m->h = bh;
        m->w = bw;
        m->out = vg_new(bh, bw);
        memcpy(vg_cells(m->out), b, bh * bw);
        return true;
    }
    GView g;
    if (!gu_view(cx, grid, &g, true))
        return false;
    size_t total = 0;
    for (size_t i = 0; i < g.h; i++)
        total += g.rlen[i];
    if (!gu_mgrid_alloc(cx, m, g.h, total)) {
        gu_view_free(&g);
        return false;
    }
    m->h = g.h;
    m->w = g.w;
    size_t o = 0;
    for (size_t i = 0; i < g.h; i++) {
        m->off[i] = o;
        m->rlen[i] = g.rlen[i];
        if (g.rlen[i])
            memcpy(m->c + o, g.row[i], g.rlen[i] * sizeof *m->c);
        o += g.rlen[i];
    }
    gu_view_free(&g);
    return true;
}

/* 0 <= i < h and 0 <= j < w */
static inline bool gu_mgrid_in(const MGrid *m, int64_t i, int64_t j)
{
    return i >= 0 && (uint64_t)i < m->h && j >= 0 && (uint64_t)j < m->w;
}

/* &g[i][j] of an in-bounds (i, j); NULL with IndexError for a short row,
 * in the words of a read or, store, of an assignment. */
static inline Value **gu_mgrid_ref(Ctx *cx, MGrid *m, int64_t i, int64_t j, bool store)
{
    if ((size_t)j >= m->rlen[i]) {
        cx_raise(cx, "IndexError", "list %sindex out of range", store ? "assignment " : "");
        return NULL;
    }
    return &m->c[m->off[i] + (size_t)j];
}

/* `g[i][j] = v` for an (i, j) found in range (with bg: only where the cell
 * holds bg). */
static inline bool gu_mgrid_put_ij(Ctx *cx, MGrid *m, int64_t i, int64_t j, Value *v,
                                   const Value *bg)
{
    if (m->out) {
        uint8_t *b = vg_cells(m->out) + (size_t)i * m->w + (size_t)j;
        int64_t x;
        if (bg && !gu_eq(v_small(*b), bg))
            return true;
        if (v_small_of(v, &x) && (uint64_t)x <= 255) {
            *b = (uint8_t)x;
            return true;
        }
        if (!gu_mgrid_unbyte(cx, m))
            return false;
    }
    Value **p = gu_mgrid_ref(cx, m, i, j, !bg);   /* under reads g[i][j] first */
    if (!p)
        return false;
    if (!bg || gu_eq(*p, bg))
        *p = v;
    return true;
}

/* The same, as a list indexed by what may not be an int. */
static inline bool gu_mgrid_put(Ctx *cx, MGrid *m, const Value *i, const Value *j, Value *v,
                                const Value *bg)
{
    if (!v_is_int(i) || !v_is_int(j)) {
        cx_raise(cx, "TypeError", "list indices must be integers or slices, not %s",
                 v_typename(v_is_int(i) ? j : i));
        return false;
    }
    return gu_mgrid_put_ij(cx, m, i->u.i, j->u.i, v, bg);
}

/* tuple(tuple(row) for row in g) */
static inline Value *gu_mgrid_out(Ctx *cx, MGrid *m)
{
    if (m->out) {
        if (!gu_work(cx, m->h * m->w))
            return NULL;
        Value *out = m->out;
        m->out = NULL;
        return out;
    }
    size_t total = m->h ? m->off[m->h - 1] + m->rlen[m->h - 1] : 0;
    if (!gu_work(cx, total))
        return NULL;
    bool even = m->h && m->w;
    for (size_t i = 0; even && i < m->h; i++)
        even = m->rlen[i] == m->w;
    Value *out = even ? gu_bytes_from(m->c, m->h, m->w) : NULL;
    if (out)
        return out;
    out = v_tuple_new(m->h);
    for (size_t i = 0; i < m->h; i++)
        v_titems(out)[i] = v_tuple_from(m->c + m->off[i], m->rlen[i]);
    return out;
}

/* A painter: what (a patch or object, with val its colour where the
 * dialect's fill takes one) written into m, sparing cells other than bg
 * unless bg is NULL; false raised. */
typedef bool (*GPaintFn)(Ctx *cx, MGrid *m, Value *what, Value *val, const Value *bg);

/* fill/paint and their under- forms: the copy of grid first, then (under)
 * its background by most(), then the painting, as the reference orders
 * them. */
static inline Value *gu_paint(Ctx *cx, Value *grid, bool under,
                              Value *(*most)(Ctx *, const Value *), GPaintFn paint,
                              Value *what, Value *val)
{
    MGrid m;
    Value *bg = NULL, *out = NULL;
    if (!gu_mgrid(cx, grid, &m))
        return NULL;
    if ((!under || (bg = most(cx, grid))) && paint(cx, &m, what, val, bg))
        out = gu_mgrid_out(cx, &m);
    gu_mgrid_free(&m);
    return out;
}

#endif
