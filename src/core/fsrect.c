/* fsrect.c -- rectangles of places built when read (fsrect.h). */
#include "fsrect.h"
#include "fsdistinct.h"
#include "fsrecipe.h"
#include "pyprobe.h"

#include <stdlib.h>

typedef struct {
    FsRecipeHead h;
    int64_t i0, j0, i1, j1;
} Tail;

static inline Tail *tail_of(const Value *v)
{
    return fs_extra(v);
}

static size_t rect_size(const Value *v)
{
    (void)v;
    return sizeof(Value) + sizeof(Tail);
}

static void rect_build(Value *v)
{
    const Tail *t = tail_of(v);
    size_t n = v->u.set.len, k = 0;
    FsScratch s;
    fs_scratch_open(&s, n);
    for (int64_t i = t->i0; i <= t->i1; i++)
        for (int64_t j = t->j0; j <= t->j1; j++, k++) {
            s.v[k] = v_pair_int(i, j);
            s.h[k] = v_hash(s.v[k]);
        }
    FsLayout lay = fs_table_alloc(v);
    fs_fill_distinct(&lay, v->u.set.mask, s.v, s.h, n);
    for (k = 0; k < n; k++)
        v_decref(s.v[k]);
    fs_scratch_close(&s);
}

/* Same length (v_eq checked it): same corners, same places. */
static bool rect_eq(const Value *a, const Value *b)
{
    const Tail *x = tail_of(a), *y = tail_of(b);
    return x->i0 == y->i0 && x->j0 == y->j0 && x->i1 == y->i1 && x->j1 == y->j1;
}

/* A flat rectangle's keys row by row: the order its places go in. */
static bool rect_keys(const Value *v, FsKeys *o)
{
    const Tail *t = tail_of(v);
    if (!(v->flags & V_FLAG_FLAT) || !fs_keys_reserve(o, v->u.set.len))
        return false;
    for (int64_t i = t->i0; i <= t->i1; i++)
        for (int64_t j = t->j0; j <= t->j1; j++)
            o->k[o->n++] = (uint32_t)v_intern_index(i, j);
    return true;
}

static bool rect_ordered(const Value *v, FsKeys *o)
{
    FsKeys rows = {0};
    bool ok = rect_keys(v, &rows) && fs_keys_laid(rows.k, rows.n, o);
    fs_keys_free(&rows);
    return ok;
}

/* From the places' hashes: the loc table's where they lie in it (most
 * runs have made it already; the lines' prefix tables would cost more to
 * make than the rectangles they would serve) */
static int64_t rect_hash(const Value *v)
{
    const Tail *t = tail_of(v);
    uint64_t x = 0;
    for (int64_t i = t->i0; i <= t->i1; i++)
        for (int64_t j = t->j0; j <= t->j1; j++)
            x ^= py_fset_shuffle((uint64_t)v_loc_hash(i, j));
    return py_fset_end(x, v->u.set.len);
}

static const FsRecipe rect_kind = {rect_build, rect_size, rect_eq, fs_table_free, rect_keys,
                                   rect_ordered, NULL, false, false, rect_hash};

Value *fs_rect(int64_t i0, int64_t j0, int64_t i1, int64_t j1)
{
    size_t n = (size_t)(i1 - i0 + 1) * (size_t)(j1 - j0 + 1);
    Value *v = fs_alloc_bare(n, pyset_distinct_mask(n), sizeof(Tail));
    fs_recipe_init(v, &rect_kind, NULL, NULL, true);
    Tail *t = tail_of(v);
    t->i0 = i0, t->j0 = j0, t->i1 = i1, t->j1 = j1;
    /* the corners in the interned span, every place is */
    v_mark_flat_known(v, v_interned_of(0, i0, j0) && v_interned_of(0, i1, j1));
    v_box_keep(v, i0, j0, i1, j1);
    v->memo |= V_MEMO_PLACES;
    return v;
}
