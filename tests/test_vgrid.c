/* test_vgrid.c -- TAP tests of byte grids (src/core/vgrid.h): each reads as
 * the tuple of tuples it stands for (hash, ==, repr), its rows are made
 * once and only when read, and the forms it cannot take stay tuples. */
#include "tap_c.h"
#include "ir.h"
#include "value.h"
#include "vgrid.h"

#include <stdlib.h>
#include <string.h>

/* The tuple of tuples of a byte grid's cells, made as ordinary tuples. */
static Value *as_tuples(const uint8_t *c, size_t h, size_t w)
{
    Value *t = v_tuple_new(h);
    for (size_t i = 0; i < h; i++) {
        Value *r = v_tuple_new(w);
        for (size_t j = 0; j < w; j++)
            v_titems(r)[j] = v_int(c[i * w + j]);
        v_titems(t)[i] = r;
    }
    return t;
}

static bool rows_made(const Value *g) { return !(g->memo & V_MEMO_UNBUILT); }

/* A random grid both ways: the same hash, ==, repr; rows not made by any of it. */
static void same_as_tuples(unsigned seed, size_t h, size_t w, int top)
{
    srand(seed);
    uint8_t *c = malloc(h * w);
    for (size_t k = 0; k < h * w; k++)
        c[k] = (uint8_t)(rand() % top);
    Value *g = vg_new(h, w), *t = as_tuples(c, h, w);
    memcpy(vg_cells(g), c, h * w);
    char *rg = v_repr_str(g), *rt = v_repr_str(t);
    bool same = v_hash(g) == v_hash(t) && v_eq(g, t) && v_eq(t, g) && strcmp(rg, rt) == 0;
    ok(same && !rows_made(g), "%zux%zu grid of 0..%d: hash, == and repr as its tuples, rows unmade",
       h, w, top - 1);
    ok(vg_is(g) && v_is_grid(g) && v_len(g) == h && vg_width(g) == w &&
           vg_at(g, h - 1, w - 1) == v_int(c[h * w - 1]) && !rows_made(g),
       "%zux%zu: a grid, its shape and cells read from bytes", h, w);
    Value **rows = v_titems(g);
    ok(rows_made(g) && v_titems(g) == rows && v_eq(rows[h - 1], v_titems(t)[h - 1]) &&
           (rows[0]->flags & V_FLAG_FLAT),
       "%zux%zu: rows made on first read, once, flat", h, w);
    c[h * w - 1] ^= 1;
    Value *t2 = as_tuples(c, h, w);
    ok(!v_eq(g, t2) && !v_eq(t2, g), "%zux%zu: one cell changed, unequal", h, w);
    free(rg);
    free(rt);
    free(c);
    v_decref(g);
    v_decref(t);
    v_decref(t2);
}

int main(void)
{
    same_as_tuples(1, 1, 1, 10);
    same_as_tuples(2, 1, 7, 10);
    same_as_tuples(3, 5, 1, 10);
    same_as_tuples(4, 30, 30, 10);
    same_as_tuples(5, 3, 4, 256);

    /* tuples that are no byte grid stay as they are */
    Value *t = v_tuple_new(2), *u = v_tuple_new(1);
    v_titems(t)[0] = v_pair_int(1, 2);
    v_titems(t)[1] = v_pair_int(3, 256);
    ok(!vg_from_tuple(t), "a cell past 255: no byte grid");
    v_titems(u)[0] = v_tuple2(v_int(1), v_bool(true));
    ok(!vg_from_tuple(u), "a bool cell: no byte grid");
    Value *r = v_tuple_new(2);
    v_titems(r)[0] = v_pair_int(1, 2);
    v_titems(r)[1] = v_tuple2(v_int(3), v_int(4));
    Value *g = vg_from_tuple(r);
    ok(g && vg_is(g) && v_eq(g, r) && v_hash(g) == v_hash(r), "a grid of small ints: a byte grid");
    Value *ragged = v_tuple_new(2);
    v_titems(ragged)[0] = v_pair_int(1, 2);
    v_titems(ragged)[1] = v_tuple_from((Value *[]){v_int(3)}, 1);
    ok(!vg_from_tuple(ragged) && !v_eq(g, ragged), "ragged rows: no byte grid, unequal");
    /* a row equal to a float one, as Python's 1 == 1.0 */
    Value *fr = v_tuple_new(2);
    v_titems(fr)[0] = v_pair_int(1, 2);
    Value *three = v_float(3.0);
    v_titems(fr)[1] = v_tuple2(three, v_int(4));
    v_decref(three);
    ok(v_eq(g, fr) && v_eq(fr, g), "== reads 3 and 3.0 as equal, both ways");
    v_decref(t);
    v_decref(u);
    v_decref(r);
    v_decref(g);
    v_decref(ragged);
    v_decref(fr);

    /* a shared grid (a task's) made rows shared too */
    Value *s = vg_new(2, 2);
    memset(vg_cells(s), 7, 4);
    v_make_shared(s);
    ok(s->refs < 0 && !rows_made(s), "shared unbuilt: rows still unmade");
    Value *row = v_titems(s)[1];
    ok(row->refs < 0 && (row->flags & V_FLAG_SHARED), "rows made after sharing are shared");
    v_free_shared(s);

    /* Turns, flips and compress of a tuple grid of small ints are byte
     * grids, and so is a merge of byte grids of one width (literal grids
     * made bytes where `from_bytes`, as a task's are); with a cell that is
     * no byte, tuples as before. */
    static const struct { int dialect; const char *expr; bool bytes, from_bytes; } turns[] = {
        {DIALECT_ARCDSL, "dmirror(((1, 2), (3, 4), (5, 6)))", true, false},
        {DIALECT_ARCDSL, "rot90(((1, 2), (3, 4)))", true, false},
        {DIALECT_ARCDSL, "rot180(((1, 2, 3), (4, 5, 6)))", true, false},
        {DIALECT_ARCDSL, "rot180(((1, 2, 3), (4, 5)))", false, false},
        {DIALECT_ARCDSL, "rot270(((1, 2), (3, 255)))", true, false},
        {DIALECT_ARCDSL, "cmirror(((1, 2), (3, 4)))", true, false},
        {DIALECT_ARCDSL, "vmirror(((1, 2), (3, 4)))", true, false},
        {DIALECT_ARCDSL, "dmirror(((1, 2), (3, True)))", false, false},
        {DIALECT_ARCDSL, "rot90(((1, 2), (3, 256)))", false, false},
        {DIALECT_ARCDSL, "vmirror(((1, 2), (3,)))", false, false},
        {DIALECT_ARCDSL, "compress(((0, 1, 0), (0, 2, 3), (0, 0, 0)))", true, false},
        {DIALECT_ARCDSL, "compress(((0, 1, 0), (0, True, 3), (0, 0, 0)))", false, false},
        {DIALECT_ARCDSL, "compress(((0, 1, 0), (0, 2, 3, 4), (0, 0, 0)))", false, false},
        {DIALECT_TOKPIDJIN, "dmirror_t(frozenset({(1, 2), (3, 4)}))", true, false},
        {DIALECT_TOKPIDJIN, "compress(frozenset({(0, 1, 0), (0, 2, 3)}))", true, false},
        {DIALECT_TOKPIDJIN, "vmirror_t(((1, 2), (3, -4)))", false, false},
        {DIALECT_ARCDSL, "merge((((1, 2), (3, 4)), ((5, 6),)))", true, true},
        {DIALECT_ARCDSL, "merge((((1, 2), (3, 4)), ((5, 6, 7),)))", false, true},
        {DIALECT_ARCDSL, "merge((((1, 2), (3, 4)), ((5, 6),)))", false, false},
        {DIALECT_TOKPIDJIN, "merge((((1, 2), (3, 4)), ((5, 6),)))", true, true},
    };
    for (size_t k = 0; k < sizeof turns / sizeof *turns; k++) {
        Ctx cx;
        ctx_init(&cx, turns[k].dialect);
        char *err = NULL;
        ir_grids_as_bytes(turns[k].from_bytes);
        Value *v = ir_eval_expr(&cx, turns[k].expr, &err);
        ir_grids_as_bytes(false);
        ok(v && vg_is(v) == turns[k].bytes, "%s%s: %s", turns[k].expr,
           turns[k].from_bytes ? " (grids as bytes)" : "", turns[k].bytes ? "a byte grid" : "tuples");
        if (v)
            v_decref(v);
        free(err);
    }

    printf("1..%d\n", ntest);
    return nfail != 0;
}
