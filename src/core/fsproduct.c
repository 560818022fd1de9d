/* fsproduct.c -- products of frozensets, pairs built when read (fsproduct.h). */
#include "fsproduct.h"
#include "pyprobe.h"
#include "pyset.h"
#include "fsdistinct.h"

#include <pthread.h>
#include <stdlib.h>
#include <string.h>

/* After the frozenset's own block: the sources, and the CPython table as
 * insertion indices j * len(a) + i per slot (-1 empty). */
typedef struct {
    Value *a, *b;
    int32_t order[];
} Tail;

static inline Tail *tail_of(const Value *v)
{
    return fs_extra(v);
}

size_t fs_product_extra(const Value *v)
{
    return sizeof(Tail) + ((size_t)v->u.set.mask + 1) * sizeof(int32_t);
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

typedef struct {
    const int64_t *ha, *hb;
    uint32_t n;
} PairHashes;

static int64_t pair_hash_at(size_t k, void *ud)
{
    const PairHashes *p = ud;
    return py_hash_pair(p->ha[(uint32_t)k % p->n], p->hb[(uint32_t)k / p->n]);
}

Value *fs_product(Value *a, Value *b)
{
    size_t n = v_len(a), m = v_len(b), total = n * m, mask = pyset_distinct_mask(total);
    PairHashes ph = {item_hashes(a), item_hashes(b), (uint32_t)n};
    FsLayout lay;
    Value *v = fs_layout_extra(total, mask, sizeof(Tail) + (mask + 1) * sizeof(int32_t), &lay);
    Tail *t = tail_of(v);
    t->a = v_incref(a);
    t->b = v_incref(b);
    pyset_distinct_layout(t->order, total, pair_hash_at, &ph);
    free((void *)ph.ha);
    free((void *)ph.hb);
    v->memo = V_MEMO_PRODUCT | V_MEMO_UNBUILT;
    return v;
}

Value *fs_product_next(const Value *v, size_t *slot)
{
    const Tail *t = tail_of(v);
    size_t n = v_len(t->a);
    while (*slot <= v->u.set.mask) {
        int32_t k = t->order[(*slot)++];
        if (k >= 0)
            return v_tuple2(v_items(t->a)[(uint32_t)k % n], v_items(t->b)[(uint32_t)k / n]);
    }
    return NULL;
}

/* Builds are rare (a product read by anything but a walk) and short next
 * to what made the product: one lock serves them all. */
static pthread_mutex_t build_lock = PTHREAD_MUTEX_INITIALIZER;

void fs_build_(Value *v)
{
    Tail *t = tail_of(v);
    Value **ia = v_items(t->a), **ib = v_items(t->b);   /* sources first: they may be products */
    pthread_mutex_lock(&build_lock);
    if (!(__atomic_load_n(&v->memo, __ATOMIC_ACQUIRE) & V_MEMO_UNBUILT)) {
        pthread_mutex_unlock(&build_lock);
        return;
    }
    int64_t *ha = item_hashes(t->a), *hb = item_hashes(t->b);
    size_t n = v_len(t->a), out = 0;
    bool atomic = v->flags & V_FLAG_ATOMIC;
    FsLayout lay = fs_layout_of(v);
    for (size_t s = 0; s <= v->u.set.mask; s++) {    /* fs_layout left every slot empty */
        int32_t k = t->order[s];
        if (k < 0)
            continue;
        size_t i = (uint32_t)k % n, j = (uint32_t)k / n;
        int64_t h = py_hash_pair(ha[i], hb[j]);
        Value *p = v_tuple2(ia[i], ib[j]);
        if (!v_in_arena(p)) {
            p->hash = h;
            p->hashed = 1;
            if (atomic)
                v_make_atomic(p);
        }
        lay.items[out] = p;
        lay.hashes[out] = h;
        lay.slots[s] = (int32_t)out++;
    }
    free(ha);
    free(hb);
    __atomic_fetch_and(&v->memo, (uint8_t)~V_MEMO_UNBUILT, __ATOMIC_RELEASE);
    pthread_mutex_unlock(&build_lock);
}

void fs_product_release(Value *v)
{
    Tail *t = tail_of(v);
    if (!(v->memo & V_MEMO_UNBUILT))
        for (size_t i = 0; i < v->u.set.len; i++)
            v_decref(v->u.set.items[i]);
    v_decref(t->a);
    v_decref(t->b);
}

void fs_product_sources(const Value *v, Value **a, Value **b)
{
    *a = tail_of(v)->a;
    *b = tail_of(v)->b;
}

size_t fs_product_make_atomic(Value *v)
{
    Tail *t = tail_of(v);
    size_t n = v_make_atomic(t->a) + v_make_atomic(t->b);
    pthread_mutex_lock(&build_lock);
    if (!(v->memo & V_MEMO_UNBUILT))
        for (size_t i = 0; i < v->u.set.len; i++)
            n += v_make_atomic(v->u.set.items[i]);
    pthread_mutex_unlock(&build_lock);
    return n;
}
