/* boxset.c -- the outline box, inbox and outbox make, as a recipe
 * frozenset (fsrecipe.h): its length, hash, bounding box and keys are
 * set at once from the rectangle; its table, which the reference makes
 * through six sets and their unions, only when something reads it in
 * order.  fill, paint and merges of boxes read the keys alone. */
#include <stdlib.h>
#include "prim.h"
#include "pyset.h"
#include "pyprobe.h"
#include "fsrecipe.h"
#include "arcdsl/patch_util.h"

typedef struct {
    FsRecipeHead h;
    int64_t si, sj, ei, ej;     /* the rectangle's corners, si <= ei, sj <= ej */
} Tail;

static inline Tail *tail_of(const Value *v)
{
    return fs_extra(v);
}

static void add_range(PySet *s, int64_t i, int64_t j, int64_t di, int64_t dj, int64_t n)
{
    for (int64_t k = 0; k < n; k++, i += di, j += dj) {
        Value *c = v_pair_int(i, j);
        pyset_add(s, c);
        v_decref(c);
    }
}

/* frozenset(vlines | hlines), each side the union of two set
 * comprehensions, as the reference's box, inbox and outbox build it */
static Value *outline_built(int64_t si, int64_t sj, int64_t ei, int64_t ej)
{
    int64_t h = ei - si + 1, w = ej - sj + 1;
    PySet l[4], v, hz, u;
    for (int k = 0; k < 4; k++)
        pyset_init(&l[k]);
    add_range(&l[0], si, sj, 1, 0, h);
    add_range(&l[1], si, ej, 1, 0, h);
    add_range(&l[2], si, sj, 0, 1, w);
    add_range(&l[3], ei, sj, 0, 1, w);
    pyset_copy_from_set(&v, &l[0]);
    pyset_merge_set(&v, &l[1]);
    pyset_copy_from_set(&hz, &l[2]);
    pyset_merge_set(&hz, &l[3]);
    pyset_copy_from_set(&u, &v);
    pyset_merge_set(&u, &hz);
    Value *r = pyset_to_frozenset(&u);
    for (int k = 0; k < 4; k++)
        pyset_clear(&l[k]);
    pyset_clear(&v);
    pyset_clear(&hz);
    pyset_clear(&u);
    return r;
}

/* The outline's points, each once: the two columns, then the two rows
 * between them. */
typedef void (*PointFn)(int64_t i, int64_t j, void *ud);

static void each_point(const Tail *t, PointFn fn, void *ud)
{
    for (int64_t i = t->si; i <= t->ei; i++) {
        fn(i, t->sj, ud);
        if (t->ej != t->sj)
            fn(i, t->ej, ud);
    }
    for (int64_t j = t->sj + 1; j < t->ej; j++) {
        fn(t->si, j, ud);
        if (t->ei != t->si)
            fn(t->ei, j, ud);
    }
}

static size_t outline_len(int64_t si, int64_t sj, int64_t ei, int64_t ej)
{
    int64_t h = ei - si + 1, w = ej - sj + 1;
    return h == 1 || w == 1 ? (size_t)(h * w) : (size_t)(2 * (h + w) - 4);
}

/* The table as the reference lays it out, moved into v's (their masks
 * are the one COPY gives that many items). */
static void box_build(Value *v)
{
    const Tail *t = tail_of(v);
    Value *r = outline_built(t->si, t->sj, t->ei, t->ej);
    if (r->u.set.mask != v->u.set.mask || r->u.set.len != v->u.set.len)
        abort();
    FsLayout lay = fs_table_alloc(v), from = fs_layout_of(r);
    for (size_t s = 0; s <= r->u.set.mask; s++) {
        int32_t k = from.slots[s];
        if (k < 0)
            continue;
        lay.items[k] = v_incref(from.items[k]);
        lay.hashes[k] = from.hashes[k];
        lay.slots[s] = k;
    }
    v_decref(r);
}

static size_t box_size(const Value *v)
{
    (void)v;
    return sizeof(Value) + sizeof(Tail);
}

/* One rectangle, one outline: the corners are its extremes. */
static bool box_eq(const Value *a, const Value *b)
{
    const Tail *x = tail_of(a), *y = tail_of(b);
    return x->si == y->si && x->sj == y->sj && x->ei == y->ei && x->ej == y->ej;
}

static void key_of(int64_t i, int64_t j, void *ud)
{
    FsKeys *o = ud;
    o->k[o->n++] = (uint32_t)v_intern_index(i, j);
}

/* a flat box's places (all interned) */
static bool box_keys(const Value *v, FsKeys *o)
{
    if (!(v->flags & V_FLAG_FLAT) || !fs_keys_reserve(o, v->u.set.len))
        return false;
    each_point(tail_of(v), key_of, o);
    return true;
}

static const FsRecipe box_kind = {box_build, box_size, box_eq, fs_table_free, box_keys,
                                  NULL, NULL, false, true};

static void hash_of(int64_t i, int64_t j, void *ud)
{
    uint64_t *x = ud;
    *x ^= py_fset_shuffle((uint64_t)(v_loc_hashed(i, j) ? v_loc_hashes_[i][j] : py_hash_int_pair(i, j)));
}

Value *ad_box_lines(int64_t si, int64_t sj, int64_t ei, int64_t ej)
{
    size_t n = outline_len(si, sj, ei, ej);
    if (n < AD_BOX_LAZY_MIN)
        return outline_built(si, sj, ei, ej);
    Value *v = fs_alloc_bare(n, pyset_copy_mask(n), sizeof(Tail));
    fs_recipe_init(v, &box_kind, NULL, NULL, true);
    Tail *t = tail_of(v);
    t->si = si, t->sj = sj, t->ei = ei, t->ej = ej;
    v_loc_hashes_make();
    uint64_t x = 0;
    each_point(t, hash_of, &x);
    v->hash = py_fset_end(x, n);
    v->hashed = 1;
    /* the corners in the interned span, every point is */
    if (v_interned_of(0, si, sj) && v_interned_of(0, ei, ej))
        v->flags |= V_FLAG_FLAT;
    v->memo |= V_MEMO_PLACES;
    v_box_keep(v, si, sj, ei, ej);
    return v;
}
