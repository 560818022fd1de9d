/* frontiers.c -- frontiers(grid) for both dialects' cells: the rows and
 * the columns (dmirror's zip(*grid)) that hold one value, each a
 * frozenset of its cells. */
#include "pyset.h"
#include "common/cells.h"

/* frozenset({frozenset({cells of line k}) for k in lines}) */
static Value *lines_fs(Ctx *cx, Value *grid, const size_t *lines, size_t nl,
                       size_t len, bool rows, ObjCell cell)
{
    PySet outer, inner;
    pyset_init(&outer);
    for (size_t x = 0; x < nl; x++) {
        pyset_init(&inner);
        for (size_t y = 0; y < len; y++) {
            size_t i = rows ? lines[x] : y, j = rows ? y : lines[x];
            Value *v = gu_at(cx, grid, i, j);
            if (!v) {
                pyset_clear(&inner);
                pyset_clear(&outer);
                return NULL;
            }
            Value *c = cell((int64_t)i, (int64_t)j, v);
            pyset_add(&inner, c);
            v_decref(c);
        }
        Value *f = pyset_to_frozenset(&inner);
        pyset_clear(&inner);
        pyset_add(&outer, f);
        v_decref(f);
    }
    Value *r = pyset_to_frozenset(&outer);
    pyset_clear(&outer);
    return r;
}

Value *cm_frontiers(Ctx *cx, Value *grid, ObjCell cell)
{
    GView g;
    if (!gu_view(cx, grid, &g, true))
        return NULL;
    size_t m = g.h ? g.rlen[0] : 0;     /* dmirror: zip(*grid) */
    for (size_t i = 1; i < g.h; i++)
        if (g.rlen[i] < m)
            m = g.rlen[i];
    size_t *ri = gu_alloc(cx, g.h, sizeof *ri), *ci = gu_alloc(cx, m, sizeof *ci);
    Value **col = gu_alloc(cx, g.h, sizeof *col);
    Value *hf = NULL, *vf = NULL, *out = NULL;
    size_t nr = 0, nc = 0;
    if (!ri || !ci || !col || !gu_work(cx, g.h * g.w))
        goto done;
    for (size_t i = 0; i < g.h; i++)
        if (gu_one_value(g.row[i], g.rlen[i]))
            ri[nr++] = i;
    for (size_t j = 0; j < m; j++) {
        for (size_t i = 0; i < g.h; i++)
            col[i] = g.row[i][j];
        if (gu_one_value(col, g.h))
            ci[nc++] = j;
    }
    if ((hf = lines_fs(cx, grid, ri, nr, g.w, true, cell)) &&
        (vf = lines_fs(cx, grid, ci, nc, g.h, false, cell)))
        out = fs_or(hf, vf);
done:
    v_decref(hf);
    v_decref(vf);
    free(ri);
    free(ci);
    free(col);
    gu_view_free(&g);
    return out;
}
