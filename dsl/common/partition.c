/* partition.c -- partition/fgpartition's walk, for both dialects' cells,
 * and asobject's of a byte grid.  Each cell is built once, however many
 * colours' sets it lands in. */
#include "common/cells.h"
#include "fsdistinct.h"
#include "fskeys.h"
#include "fsrecipe.h"

/* Whether the dialect's cells are arc-dsl's (c, (i, j)), which a key set
 * can hold (fskeys.h); tokpidjin's (i, j, c) are not. */
static bool arcdsl_cells(ObjCell cell)
{
    Value *probe = cell(0, 0, v_small(0));
    bool ours = fs_arena_key(probe) == (int64_t)FS_KEY_TABLE + v_intern_index(0, 0);
    v_decref(probe);
    return ours;
}

Value *cm_asobject_bytes(Ctx *cx, const Value *g, ObjCell cell)
{
    size_t h = 0, w = 0;
    const uint8_t *b = gu_bytes(g, &h, &w);
    const size_t n = h * w, wd = w;
    if (n == 0)
        return v_incref(&v_empty_fset_);
    Value **buf = gu_alloc_raw(cx, n, sizeof *buf);
    if (!buf)
        return NULL;
    for (size_t k = 0; k < n; k++)
        buf[k] = cell((int64_t)(k / wd), (int64_t)(k % wd), v_small(b[k]));
    /* distinct cells: kept as keys where they are interned */
    Value *r = n >= FS_KEYS_MERGE_MIN && arcdsl_cells(cell) ? fs_from_interned(buf, n) : NULL;
    if (!r)
        r = fs_from_distinct(buf, n);
    for (size_t k = 0; k < n; k++)
        v_decref(buf[k]);
    free(buf);
    return r;
}

/* A byte grid's cells of colour c (0..9) as arc-dsl's, in row-major
 * order: their keys, k[] of room h * w; their number. */
static size_t colour_keys(const uint8_t *b, size_t h, size_t w, int64_t c, uint32_t *k)
{
    size_t n = 0;
    uint32_t base = (uint32_t)(c + 1) * FS_KEY_TABLE;
    for (size_t i = 0; i < h; i++)
        for (size_t j = 0; j < w; j++)
            if (b[i * w + j] == c)
                k[n++] = base + (uint32_t)v_intern_index((int64_t)i, (int64_t)j);
    return n;
}

Value *cm_partition(Ctx *cx, Value *grid, Value *colors, bool per_color, ObjCell cell)
{
    /* no colour: CPython's generator never reads the grid (which may then
     * be anything empty, frozenset() included) */
    if (v_len(colors) == 0)
        return fs_from_items(NULL, 0);
    GView g;
    size_t bh = 0, bw = 0, total = 0;
    const uint8_t *b = gu_bytes(grid, &bh, &bw);   /* a byte grid is read as it is */
    if (b)
        gu_view_clear(&g), total = bh * bw;
    else if (!gu_rows(cx, grid, &g))   /* enumerate(grid): any iterable of rows */
        return NULL;
    for (size_t i = 0; i < g.h; i++)
        total += g.rlen[i];
    size_t nc = v_len(colors);
    Value **parts = gu_alloc(cx, nc, sizeof *parts);
    Value **cells = gu_alloc(cx, total, sizeof *cells);
    Value **buf = gu_alloc(cx, total, sizeof *buf);
    /* a byte grid in the span, of arc-dsl's cells: a colour's set of
     * FS_KEYS_MERGE_MIN cells or more made as its keys from the bytes,
     * no cell made */
    uint32_t *bkeys = b && bh <= V_INTERN_SPAN + V_INTERN_MIN && bw <= V_INTERN_SPAN + V_INTERN_MIN &&
                      arcdsl_cells(cell) ? gu_alloc(cx, total ? total : 1, sizeof *bkeys) : NULL;
    Value *out = NULL;
    if (!parts || !cells || !buf || cx->err || !gu_work(cx, total * (per_color ? nc : 1) + nc))
        goto done;
    for (size_t c = 0; c < nc; c++) {
        Value *col = v_items(colors)[c];
        size_t n = 0, k = 0;
        int64_t cv;
        if (bkeys && v_small_of(col, &cv) && cv >= 0 && cv <= 9 &&
            (n = colour_keys(b, bh, bw, cv, bkeys)) >= FS_KEYS_MERGE_MIN) {
            parts[c] = fs_keys_of(bkeys, n);
            continue;
        }
        n = 0;
        for (int t = b ? gu_byte_equal_to(col) : -1; t >= 0 && k < total; k++) {
            if (b[k] != t)
                continue;
            if (!cells[k])
                cells[k] = cell((int64_t)(k / bw), (int64_t)(k % bw), v_small(b[k]));
            buf[n++] = cells[k];
        }
        for (size_t i = 0; i < g.h; i++)
            for (size_t j = 0; j < g.rlen[i]; j++, k++) {
                if (!gu_eq(g.row[i][j], col))
                    continue;
                if (!cells[k])
                    cells[k] = cell((int64_t)i, (int64_t)j, g.row[i][j]);
                buf[n++] = cells[k];
            }
        /* distinct cells: kept as keys where they are interned, laid out
         * only when read in order (size, colour and box read none) */
        Value *keys = fs_keys_may(buf, n) ? fs_from_interned(buf, n) : NULL;
        parts[c] = keys ? keys : fs_from_items(buf, n);
    }
    out = fs_from_items(parts, nc);
    for (size_t c = 0; c < nc; c++)
        v_decref(parts[c]);
done:
    if (cells)
        for (size_t k = 0; k < total; k++)
            v_decref(cells[k]);
    free(parts);
    free(cells);
    free(buf);
    free(bkeys);
    gu_view_free(&g);
    return out;
}

/* cells.h's cells past the made interned tiles: the tile made now, or a
 * cell built outside the span or of another colour. */
Value *cm_cell_ad_made(int64_t i, int64_t j, Value *c)
{
    Value *r = v_cell_interned(c, i, j);
    return r ? r : v_pair_steal(v_incref(c), v_pair_int(i, j));
}

Value *cm_cell_tk_made(int64_t i, int64_t j, Value *c)
{
    Value *r = v_cell3_interned(i, j, c);
    return r ? r : v_triple_steal(v_int(i), v_int(j), v_incref(c));
}
