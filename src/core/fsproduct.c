/* fsproduct.c -- products of frozensets, pairs built when read (fsproduct.h). */
#include "fsproduct.h"
#include "pyprobe.h"
#include "pyset.h"
#include "fsdistinct.h"
#include "fsrecipe.h"
#include "fastdiv.h"

#include <stdatomic.h>
#include <stdlib.h>
#include <string.h>

/* After the Value: the sources a and b (src[0], src[1]), and the CPython
 * table as insertion indices j * len(a) + i per slot (-1 empty), laid out
 * when first read in order (`laid`: 0 not yet, 1 being laid, 2 ready).
 * The frozenset's own arrays come with the build, in a table of their
 * own: an unbuilt product of a million pairs holds its layout alone. */
typedef struct {
    FsRecipeHead h;
    _Atomic uint8_t laid;
    FastDiv by_n;               /* splits an insertion index into i and j */
    int32_t order[];
} Tail;

static inline Tail *tail_of(const Value *v)
{
    return fs_extra(v);
}

static size_t product_extra(size_t mask)
{
    return sizeof(Tail) + (mask + 1) * sizeof(int32_t);
}

static size_t product_size(const Value *v)
{
    return sizeof(Value) + product_extra(v->u.set.mask);
}

static void product_build(Value *v);

static const FsRecipe product_kind = {product_build, product_size, NULL, fs_table_free, NULL,
                                      NULL, NULL, false, false, NULL};

bool fs_is_product(const Value *v)
{
    return fs_recipe_head(v)->kind == &product_kind;
}

static int64_t *item_hashes(Value *c)
{
    size_t n = v_len(c);
    Value **it = v_items(c);
    int64_t *h = malloc(n * sizeof *h);
    if (!h)
        abort();
    for (size_t i = 0; i < n; i++)
        h[i] = v_hash(it[i]);
    return h;
}

/* v's order laid out from its n pairs' hashes h in insertion order (the
 * slots then hold indices into h), and its own hash from them. */
static void lay_out(Value *v, const int64_t *h, size_t n)
{
    pyset_distinct_slots(tail_of(v)->order, h, n);
    uint64_t x = 0;
    for (size_t q = 0; q < n; q++)
        x ^= py_fset_shuffle((uint64_t)h[q]);
    v->hash = py_fset_end(x, n);
    v->hashed = 1;
}

/* The pairs' hashes in insertion order (malloc'd): the layout reads each
 * again at every resize, and k % n, k / n cost a division each. */
static int64_t *pair_hashes(Value *a, Value *b)
{
    size_t n = v_len(a), m = v_len(b);
    int64_t *ha = item_hashes(a), *hb = item_hashes(b), *h = malloc(n * m * sizeof *h);
    if (!h)
        abort();
    for (size_t i = 0; i < n; i++)     /* (x, y)'s first lane, once per x */
        ha[i] = (int64_t)py_pair_lane(ha[i]);
    for (size_t j = 0, k = 0; j < m; j++)
        for (size_t i = 0; i < n; i++)
            h[k++] = py_hash_pair_from((uint64_t)ha[i], hb[j]);
    free(ha);
    free(hb);
    return h;
}

static void lay_order(const Value *v)
{
    Tail *t = tail_of(v);
    int64_t *h = pair_hashes(t->h.src[0], t->h.src[1]);
    pyset_distinct_slots(t->order, h, v->u.set.len);
    free(h);
}

/* The order of product v, laid out once, by the first thread to need it. */
static void product_laid(const Value *v)
{
    fs_once(&tail_of(v)->laid, lay_order, v);
}

/* The hash needs no layout: a frozenset's is its items' alone. */
Value *fs_product(Value *a, Value *b)
{
    size_t total = v_len(a) * v_len(b), mask = pyset_distinct_mask(total);
    int64_t *h = pair_hashes(a, b);
    Value *v = fs_alloc_bare(total, mask, product_extra(mask));
    fs_recipe_init(v, &product_kind, v_incref(a), v_incref(b), true);
    atomic_init(&tail_of(v)->laid, 0);
    tail_of(v)->by_n = fastdiv_of((uint32_t)v_len(a));
    uint64_t x = 0;
    for (size_t q = 0; q < total; q++)
        x ^= py_fset_shuffle((uint64_t)h[q]);
    v->hash = py_fset_end(x, total);
    v->hashed = 1;
    free(h);
    return v;
}

bool fs_product_unlaid(const Value *v)
{
    return atomic_load_explicit(&tail_of(v)->laid, memory_order_acquire) == 0;
}

Value *fs_product_pair(const Value *v, size_t g, Value *spare)
{
    const Tail *t = tail_of(v);
    Value *a = t->h.src[0], *b = t->h.src[1];
    return v_tuple2_into(spare, v_items(a)[fastmod(t->by_n, (uint32_t)g)],
                         v_items(b)[fastdiv(t->by_n, (uint32_t)g)]);
}

const int32_t *fs_product_slots(const Value *v)
{
    product_laid(v);
    return tail_of(v)->order;
}

Value *fs_product_next_at(const Value *v, size_t *slot, Value *spare, uint32_t *at)
{
    if (*slot == 0)
        product_laid(v);
    const Tail *t = tail_of(v);
    Value *a = t->h.src[0], *b = t->h.src[1];
    while (*slot <= v->u.set.mask) {
        int32_t k = t->order[(*slot)++];
        if (k >= 0) {
            *at = (uint32_t)k;
            return v_tuple2_into(spare, v_items(a)[fastmod(t->by_n, (uint32_t)k)],
                                 v_items(b)[fastdiv(t->by_n, (uint32_t)k)]);
        }
    }
    v_decref(spare);
    return NULL;
}

Value *fs_product_next(const Value *v, size_t *slot, Value *spare)
{
    uint32_t at;
    return fs_product_next_at(v, slot, spare, &at);
}

Value *fs_product_subset(const Value *p, const uint32_t *at, const int64_t *h, size_t n)
{
    const Tail *pt = tail_of(p);
    size_t mask = pyset_distinct_mask(n);
    Value *v = fs_alloc_bare(n, mask, product_extra(mask));
    fs_recipe_init(v, &product_kind, v_incref(pt->h.src[0]), v_incref(pt->h.src[1]), true);
    lay_out(v, h, n);
    atomic_init(&tail_of(v)->laid, 2);
    tail_of(v)->by_n = pt->by_n;
    int32_t *order = tail_of(v)->order;
    for (size_t s = 0; s <= mask; s++)      /* indices into h become p's */
        if (order[s] >= 0)
            order[s] = (int32_t)at[order[s]];
    return v;
}

/* On one thread (fsrecipe.c), its sources built. */
static void product_build(Value *v)
{
    product_laid(v);
    Tail *t = tail_of(v);
    Value *a = t->h.src[0], *b = t->h.src[1];
    Value **ia = v_items(a), **ib = v_items(b);
    int64_t *ha = item_hashes(a), *hb = item_hashes(b);
    size_t out = 0;
    FastDiv by_n = t->by_n;
    FsLayout lay = fs_table_alloc(v);
    for (size_t s = 0; s <= v->u.set.mask; s++) {    /* fs_table_alloc left every slot empty */
        int32_t k = t->order[s];
        if (k < 0)
            continue;
        size_t i = fastmod(by_n, (uint32_t)k), j = fastdiv(by_n, (uint32_t)k);
        int64_t h = py_hash_pair(ha[i], hb[j]);
        Value *p = v_tuple2(ia[i], ib[j]);
        v_hash_known(p, h);
        lay.items[out] = p;
        lay.hashes[out] = h;
        lay.slots[s] = (int32_t)out++;
    }
    free(ha);
    free(hb);
}
