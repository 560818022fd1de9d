/* occurrences.c -- occurrences(grid, obj)'s search, once the dialect has
 * normalised obj to cells and charged the work its reference does. */
#include "common/cells.h"
#include "common/core_util.h"
#include "fsdistinct.h"

/* occurrences on a grid whose rows are not all full tuples: whether the
 * normalised cells (a frozenset, arc-dsl's (v, (i, j)) or, with triple,
 * tokpidjin's (i, j, v)) occur at (i, j), tested as CPython's loop does:
 * the cells of shift(normed, (i, j)) in that frozenset's order, each
 * `0 <= a < h and 0 <= b < w and grid[a][b] == v`, stopping at the first
 * miss, so a bad row raises only where it is reached.  -1 raised. */
static int occurs_ragged(Ctx *cx, const Value *grid, Value *normed, int64_t i, int64_t j,
                         int64_t h, int64_t w, bool triple)
{
    size_t n = v_len(normed);
    Value **moved = malloc(n * sizeof *moved);
    for (size_t k = 0; k < n; k++) {
        Value *const *c = v_items(v_items(normed)[k]);
        Value *const *ij = triple ? c : v_items(c[1]);
        int64_t mi, mj;
        if (!core_coord_add(cx, ij[0]->u.i, i, &mi) || !core_coord_add(cx, ij[1]->u.i, j, &mj)) {
            while (k--)
                v_decref(moved[k]);
            free(moved);
            return -1;
        }
        Value *ni = v_int(mi), *nj = v_int(mj);
        moved[k] = triple ? v_triple_steal(ni, nj, v_incref(c[2]))
                          : v_pair_steal(v_incref(c[0]), v_pair_steal(ni, nj));
    }
    Value *shifted = fs_from_items(moved, n);
    for (size_t k = 0; k < n; k++)
        v_decref(moved[k]);
    free(moved);
    int ok = 1;
    for (size_t k = 0; ok == 1 && k < n; k++) {
        Value *const *c = v_items(v_items(shifted)[k]);
        Value *const *ij = triple ? c : v_items(c[1]);
        int64_t y = ij[0]->u.i, x = ij[1]->u.i;
        if (y < 0 || y >= h || x < 0 || x >= w) {
            ok = 0;
        } else {
            Value *v = gu_at(cx, grid, (size_t)y, (size_t)x);
            ok = !v ? -1 : gu_eq(v, triple ? c[2] : c[0]);
        }
    }
    v_decref(shifted);
    return ok;
}

/* occurrences' result on such a grid: cells (n > 0 new references,
 * taken, in obj's order) make normed; each (i, j) of h2 x w2 is tested in turn
 * into occs.  The frozenset, or NULL raised. */
static Value *occurrences_ragged(Ctx *cx, const Value *grid, Value **cells, size_t n,
                                 int64_t h2, int64_t w2, int64_t h, int64_t w, PySet *occs)
{
    bool triple = v_len(cells[0]) == 3;
    Value *normed = fs_from_items(cells, n);
    for (size_t k = 0; k < n; k++)
        v_decref(cells[k]);
    int r = 0;
    for (int64_t i = 0; r >= 0 && i < h2; i++)
        for (int64_t j = 0; r >= 0 && j < w2; j++)
            if ((r = occurs_ragged(cx, grid, normed, i, j, h, w, triple)) == 1) {
                Value *pair = v_pair_int(i, j);
                pyset_add(occs, pair);
                v_decref(pair);
            }
    v_decref(normed);
    return r < 0 ? NULL : pyset_to_frozenset(occs);
}

/* Whether the normalised cells c (all inside oh x ow) fill that box with
 * one colour, into *v: 1 yes, 0 no, -1 MemoryError raised. */
static int solid_colour(Ctx *cx, const GCell *c, size_t n, int64_t oh, int64_t ow, int64_t *v)
{
    if (n == 0 || n != (size_t)(oh * ow) || n < 4)
        return 0;
    *v = c[0].c->u.i;
    uint8_t *seen = gu_alloc(cx, n, 1);
    if (!seen)
        return -1;
    size_t covered = 0;
    for (size_t k = 0; k < n && c[k].c->u.i == *v; k++) {
        uint8_t *s = &seen[c[k].i * ow + c[k].j];
        covered += !*s;
        *s = 1;
    }
    free(seen);
    return covered == n;    /* else another colour, or a tuple repeating a cell */
}

/* Prefix sums S[i][j] (rows of w + 1) of the grid's cells equal to v, read
 * from its rows, so a window's count is four loads.  NULL with *flat false
 * (nothing raised) where a cell is not an int; NULL raised when out of
 * memory. */
static uint32_t *solid_sums(Ctx *cx, const Value *grid, const GView *g, int64_t v, bool *flat)
{
    size_t h = g->h, w = g->w;
    const uint8_t *b = vg_is(grid) ? vg_cells(grid) : NULL;
    uint32_t *S = gu_alloc_raw(cx, (h + 1) * (w + 1), sizeof *S);
    if (!S)
        return NULL;
    memset(S, 0, (w + 1) * sizeof *S);
    for (size_t i = 0; i < h; i++) {
        const uint32_t *up = S + i * (w + 1);
        uint32_t *cur = S + (i + 1) * (w + 1), run = 0;
        cur[0] = 0;
        for (size_t j = 0; j < w; j++) {
            const Value *x = b ? v_small(b[i * w + j]) : g->row[i][j];
            int64_t xv;
            if (!v_small_of(x, &xv)) {      /* an arena int is told by its address */
                if (!v_is_int(x)) {
                    free(S);
                    *flat = false;
                    return NULL;
                }
                xv = x->u.i;
            }
            run += xv == v;
            cur[j + 1] = up[j + 1] + run;
        }
    }
    return S;
}

/* The last prefix sums made on this thread, kept for the next call
 * (a64e4611 searches one grid for solid blocks of 81 sizes, an
 * occurrences call each) with what makes the grid's address name that
 * grid while they are kept: a reference, or for an immortal grid (a
 * task's), the count of immortals freed then.  A step's work releases
 * them as it ends (exec.c), before any task closes; the count guards
 * any other caller. */
static _Thread_local struct {
    Value *grid;
    bool owned;
    uint64_t frees;
    int64_t v;
    uint32_t *sums;
} last_sums;

void cm_occurrences_thread_done(void)
{
    if (last_sums.owned)
        v_decref(last_sums.grid);
    free(last_sums.sums);
    last_sums.grid = NULL;
    last_sums.owned = false;
    last_sums.sums = NULL;
}

/* solid_sums of a full grid, kept; not the caller's to free. */
static const uint32_t *solid_sums_kept(Ctx *cx, const Value *grid, const GView *g, int64_t v,
                                       bool *flat)
{
    if (last_sums.grid == grid && last_sums.v == v &&
        (last_sums.owned || last_sums.frees == v_immortal_frees()))
        return last_sums.sums;
    uint32_t *S = solid_sums(cx, grid, g, v, flat);
    if (!S)
        return NULL;
    cm_occurrences_thread_done();
    last_sums.owned = grid->refs >= 0 && !v_in_arena(grid);
    last_sums.grid = last_sums.owned ? v_incref((Value *)grid) : (Value *)grid;
    last_sums.frees = v_immortal_frees();
    last_sums.v = v;
    last_sums.sums = S;
    return S;
}

Value *cm_occurrences(Ctx *cx, const Value *grid, GView *g, bool rows, GCell *c, size_t n,
                      int64_t oh, int64_t ow, int64_t h2, int64_t w2, ObjCell cell)
{
    Value *out = NULL;
    bool full = rows && gu_view_full(grid, g);
    const uint8_t *b = vg_is(grid) ? vg_cells(grid) : NULL;   /* its rows may not be made */
    int64_t *gi = NULL, *off = NULL, *col = NULL;
    int64_t h = (int64_t)g->h, w = (int64_t)g->w;
    PySet occs;
    pyset_init(&occs);
    VBuf found = {0};           /* distinct places in row-major order */
    /* ints everywhere: compare on a flat copy of the grid, or, for a
     * solid oh x ow block of one colour (canvas(...) as an object, as
     * a64e4611 searches for 81 sizes), count that colour by prefix sums:
     * a window matches when it holds oh * ow cells of it */
    bool flat = full, inbox = true;
    for (size_t k = 0; flat && k < n; k++) {
        flat = v_is_int(c[k].c);
        inbox = inbox && c[k].i >= 0 && c[k].i < oh && c[k].j >= 0 && c[k].j < ow;
    }
    int64_t sv;
    int solid = flat && inbox ? solid_colour(cx, c, n, oh, ow, &sv) : 0;
    const uint32_t *sums = solid > 0 ? solid_sums_kept(cx, grid, g, sv, &flat) : NULL;
    if (solid < 0 || cx->err)
        goto done;
    if (flat && !sums && (gi = gu_alloc_raw(cx, g->h * g->w, sizeof *gi)))
        for (size_t i = 0; flat && i < g->h; i++)
            for (size_t j = 0; flat && j < g->w; j++) {
                flat = b || v_is_int(g->row[i][j]);
                gi[i * g->w + j] = b ? b[i * g->w + j] : flat ? g->row[i][j]->u.i : 0;
            }
    if (!flat) {
        free(gi);
        gi = NULL;
    } else if (!gi && !sums) {
        goto done;
    }
    /* ints everywhere: a normalised cell at (ci, cj) lies inside the grid
     * for every (i, j) tried, so each test is one load at a fixed offset.
     * Not when shape() measured obj as a grid (a tuple of cells): its
     * cells may then reach past (oh, ow), and the bounds tests stay. */
    if (gi && !inbox) {
        free(gi);
        gi = NULL;
    }
    if (gi) {
        if (!(off = gu_alloc_raw(cx, 2 * n, sizeof *off)))
            goto done;
        col = off + n;
        for (size_t k = 0; k < n; k++) {
            off[k] = c[k].i * w + c[k].j;
            col[k] = c[k].c->u.i;
        }
    }
    /* a ragged grid: which cell CPython tests first decides whether a
     * short row raises, so the cells go in shift(normed)'s order */
    if (!full && n > 0) {
        Value **cells = malloc(n * sizeof *cells);
        for (size_t k = 0; k < n; k++)
            cells[k] = cell(c[k].i, c[k].j, c[k].c);
        out = occurrences_ragged(cx, grid, cells, n, h2, w2, h, w, &occs);
        free(cells);
        goto done;
    }
    for (int64_t i = 0; i < h2; i++)
        for (int64_t j = 0; j < w2; j++) {
            bool ok = true;
            if (sums) {
                const uint32_t *top = sums + i * (w + 1) + j, *bot = top + oh * (w + 1);
                ok = bot[ow] - top[ow] - bot[0] + top[0] == (uint32_t)n;
            } else if (gi) {
                const int64_t *at = gi + i * w + j;
                for (size_t k = 0; ok && k < n; k++)
                    ok = at[off[k]] == col[k];
            } else {
                for (size_t k = 0; ok && k < n; k++) {
                    int64_t y = c[k].i + i, x = c[k].j + j;
                    if (y < 0 || y >= h || x < 0 || x >= w) {
                        ok = false;
                    } else {
                        Value *v = gu_at(cx, grid, (size_t)y, (size_t)x);
                        if (!v)
                            goto done;
                        ok = gu_eq(v, c[k].c);
                    }
                }
            }
            if (ok && !vb_push(cx, &found, v_pair_int(i, j)))
                goto done;
        }
    out = fs_copy_distinct(found.v, found.n);
done:
    vb_drop(&found);
    pyset_clear(&occs);
    free(gi);
    free(off);
    cm_occurrences_drop(c, g);
    return out;
}
