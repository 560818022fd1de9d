/* vgrid.c -- grids as bytes (vgrid.h): making, rows on demand, hash, ==. */
#include "vgrid.h"
#include "pyprobe.h"
#include "tuprecipe.h"

#include <string.h>

Value *v_tuple_new_extra_(size_t len, size_t extra);   /* value.c */

Value *vg_new(size_t h, size_t w)
{
    Value *v = v_tuple_new_extra_(h, vg_extra(h, w));
    *(uint64_t *)((char *)v + V_TUPLE_BASE + h * sizeof(Value *)) = w;
    v->flags = V_FLAG_GRID;
    v->memo = V_MEMO_BYTES | V_MEMO_UNBUILT;
    return v;
}

/* The rows, made once by the first thread to read them; a grid already
 * shared or atomic gets rows of its kind (value.c's walks skip unmade
 * rows).  A recipe tuple's items are its kind's to make. */
void v_tuple_build_(Value *v)
{
    if (!(v_memo(v) & V_MEMO_BYTES)) {
        tr_build_(v);
        return;
    }
    if (!v_build_claim(v))
        return;
    size_t h = v->u.tup.len, w = vg_w(v);
    const uint8_t *c = vg_cells(v);
    Value **rows = v->u.tup.items_;
    for (size_t i = 0; i < h; i++) {
        Value *r = v_tuple_new(w);
        Value **it = v_titems(r);
        for (size_t j = 0; j < w; j++)
            it[j] = v_small(c[i * w + j]);
        v_mark_flat_known(r, true);
        if (v->flags & V_FLAG_SHARED)
            v_make_shared(r);
        else if (v->flags & V_FLAG_ATOMIC)
            v_make_atomic(r);
        rows[i] = r;
    }
    v_build_done(v);
}

Value *vg_from_tuple(const Value *t)
{
    if (t->type != V_TUPLE || t->flags & V_FLAGS_PY || vg_is(t) || t->u.tup.len == 0)
        return NULL;
    size_t h = t->u.tup.len, w = 0;
    for (size_t i = 0; i < h; i++) {
        const Value *r = v_titems(t)[i];
        if (r->type != V_TUPLE || r->flags & V_FLAGS_PY || vg_is(r) || (i && r->u.tup.len != w))
            return NULL;
        w = r->u.tup.len;
    }
    if (w == 0)
        return NULL;
    Value *g = vg_new(h, w);
    for (size_t i = 0; i < h; i++)
        if (!vg_pack(v_titems(v_titems(t)[i]), w, vg_cells(g) + i * w)) {
            v_decref(g);
            return NULL;
        }
    return g;
}

/* A row's hash is a chain of multiplies, each waiting on the last: four
 * rows' chains at once keep the multiplier busy.  hash(x) == x for the
 * cells, 0..255. */
int64_t vg_hash(const Value *v)
{
    size_t h = v->u.tup.len, w = vg_w(v), i = 0;
    const uint8_t *c = vg_cells(v);
    uint64_t acc = PY_XXP5;
    for (; i + 4 <= h; i += 4) {
        const uint8_t *c0 = c + i * w, *c1 = c0 + w, *c2 = c1 + w, *c3 = c2 + w;
        uint64_t r0 = PY_XXP5, r1 = PY_XXP5, r2 = PY_XXP5, r3 = PY_XXP5;
        for (size_t j = 0; j < w; j++) {
            r0 = py_tuple_lane(r0, c0[j]);
            r1 = py_tuple_lane(r1, c1[j]);
            r2 = py_tuple_lane(r2, c2[j]);
            r3 = py_tuple_lane(r3, c3[j]);
        }
        acc = py_tuple_lane(acc, py_tuple_end(r0, w));
        acc = py_tuple_lane(acc, py_tuple_end(r1, w));
        acc = py_tuple_lane(acc, py_tuple_end(r2, w));
        acc = py_tuple_lane(acc, py_tuple_end(r3, w));
    }
    for (; i < h; i++) {
        uint64_t r = PY_XXP5;
        for (size_t j = 0; j < w; j++)
            r = py_tuple_lane(r, c[i * w + j]);
        acc = py_tuple_lane(acc, py_tuple_end(r, w));
    }
    return py_tuple_end(acc, h);
}

/* A row b (any value) == the w bytes c, as Python's tuple == would say. */
static bool row_eq(const uint8_t *c, size_t w, const Value *b)
{
    if (b->type != V_TUPLE || (b->flags & (V_FLAG_LIST | V_FLAG_RANGE)) || b->u.tup.len != w)
        return false;
    if (vg_is(b))
        return false;   /* a grid is no row of ints */
    Value *const *it = v_titems(b);
    for (size_t j = 0; j < w; j++) {
        const Value *x = it[j];
        if (v_is_int(x) ? x->u.i != c[j] : x->type != V_FLOAT || x->u.f != (double)c[j])
            return false;
    }
    return true;
}

bool vg_eq(const Value *a, const Value *b)
{
    size_t h = a->u.tup.len, w = vg_w(a);
    if (b->u.tup.len != h)
        return false;
    if (vg_is(b))
        return vg_w(b) == w && memcmp(vg_cells(a), vg_cells(b), h * w) == 0;
    Value *const *rows = v_titems(b);
    for (size_t i = 0; i < h; i++)
        if (!row_eq(vg_cells(a) + i * w, w, rows[i]))
            return false;
    return true;
}
