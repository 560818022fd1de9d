/* fsderived.c -- sets made from a set not laid out, laid out when read
 * (fsderived.h). */
#include "fsderived.h"
#include "fsdistinct.h"
#include "fskeys.h"
#include "fsline.h"
#include "fsproduct.h"
#include "fsrecipe.h"
#include "pyprobe.h"

#include <stdatomic.h>
#include <stdlib.h>
#include <string.h>

/* src[0]: the source; src[1]: the members, a tuple.  Which member each of
 * the source's ngen items gave: a map (-1: none), or for a filter, whose
 * members are the kept items in order, a bitmap of them with a count per
 * word (small enough to stay in cache while the source's order is read
 * at random).  seq: the members in the order the source's order visits
 * them first (ADD-ALL's insertion order), written once when first needed
 * (`ready`: 0 not yet, 1 being written, 2 ready); the table follows from
 * it, and the build or a reader of this set's order lays it out without
 * building anything else. */
typedef struct {
    FsRecipeHead h;
    uint32_t ngen;
    uint8_t filtered;
    _Atomic uint8_t ready;
    int32_t *seq;
    int32_t *map;
    uint64_t *bits;
    uint32_t *before;           /* kept items in the words before this one */
    uint64_t data[];
} Tail;

static inline Tail *tail_of(const Value *v)
{
    return fs_extra(v);
}

static size_t words_of(size_t ngen)
{
    return (ngen + 63) / 64;
}

/* seq, then the map or the bitmap and its counts, in 8-byte words */
static size_t data_words(size_t ngen, size_t nmem, bool filtered)
{
    size_t w = words_of(ngen);
    return (nmem + 1) / 2 + (filtered ? w + (w + 1) / 2 : (ngen + 1) / 2);
}

static size_t derived_size(const Value *v)
{
    const Tail *t = tail_of(v);
    return sizeof(Value) + sizeof(Tail) +
           data_words(t->ngen, v->u.set.len, t->filtered) * sizeof(uint64_t);
}

static inline Value *const *members(const Value *v)
{
    return v_titems(tail_of(v)->h.src[1]);
}

/* popcount without the library call a portable build makes of it */
static inline uint32_t ones(uint64_t x)
{
    x -= (x >> 1) & 0x5555555555555555u;
    x = (x & 0x3333333333333333u) + ((x >> 2) & 0x3333333333333333u);
    x = (x + (x >> 4)) & 0x0f0f0f0f0f0f0f0fu;
    return (uint32_t)((x * 0x0101010101010101u) >> 56);
}

/* The member source item g gave, or -1. */
static inline int32_t member_of(const Tail *t, size_t g)
{
    if (!t->filtered)
        return t->map[g];
    uint64_t w = t->bits[g >> 6], below = w & (((uint64_t)1 << (g & 63)) - 1);
    return w >> (g & 63) & 1 ? (int32_t)(t->before[g >> 6] + ones(below)) : -1;
}

static void derived_order(const Value *v, int32_t *out);

/* The members in the order the source's order visits them first (a
 * product's is read off its table, a derived source's laid out). */
static void write_seq(const Value *v)
{
    Tail *t = tail_of(v);
    const Value *src = t->h.src[0];
    size_t ngen = t->ngen, n = v->u.set.len, k = 0;
    bool product = fs_is_product(src);
    size_t steps = product ? src->u.set.mask + 1 : ngen;
    const int32_t *order = product ? fs_product_slots(src) : NULL;
    int32_t *own = product ? NULL : malloc(ngen * sizeof *own);
    uint8_t *seen = t->filtered ? NULL : calloc(n, 1);
    if ((!product && !own) || (!t->filtered && !seen))
        abort();
    if (own) {
        derived_order(src, own);
        order = own;
    }
    for (size_t x = 0; x < steps && k < n; x++) {
        int32_t g = order[x], m = g < 0 ? -1 : member_of(t, (size_t)g);
        if (m >= 0 && (t->filtered || !seen[m])) {     /* a filter's members come once */
            if (seen)
                seen[m] = 1;
            t->seq[k++] = m;
        }
    }
    free(own);
    free(seen);
}

/* The members in seq's order (written once, by the first thread to need
 * it) and their hashes, for ADD-ALL's table: n of each, malloc'd. */
static const int32_t *inserted(const Value *v, Value ***items, int64_t **h)
{
    Tail *t = tail_of(v);
    fs_once(&t->ready, write_seq, v);
    Value *const *mem = members(v);
    size_t n = v->u.set.len;
    *items = malloc(n * sizeof **items);
    *h = malloc(n * sizeof **h);
    if (!*items || !*h)
        abort();
    for (size_t q = 0; q < n; q++) {
        (*items)[q] = mem[t->seq[q]];
        (*h)[q] = v_hash((*items)[q]);
    }
    return t->seq;
}

/* On one thread (fsrecipe.c). */
static void derived_build(Value *v)
{
    Value **items;
    int64_t *h;
    (void)inserted(v, &items, &h);
    FsLayout lay = fs_table_alloc(v);
    fs_fill_distinct(&lay, v->u.set.mask, items, h, v->u.set.len);
    free(items);
    free(h);
}

/* A derived source's iteration order as its members' indices. */
static void derived_order(const Value *v, int32_t *out)
{
    size_t n = v->u.set.len, mask = v->u.set.mask, m = 0;
    Value **items;
    int64_t *h;
    const int32_t *seq = inserted(v, &items, &h);
    int32_t *slots = malloc((mask + 1) * sizeof *slots);
    if (!slots)
        abort();
    pyset_distinct_slots(slots, h, n);
    for (size_t s = 0; s <= mask; s++)
        if (slots[s] >= 0)
            out[m++] = seq[slots[s]];
    free(slots);
    free(items);
    free(h);
}

/* The members' arena keys: a set of places or cells. */
static bool derived_keys(const Value *v, FsKeys *o)
{
    size_t n = v->u.set.len;
    Value *const *mem = members(v);
    if (!fs_keys_reserve(o, n))
        return false;
    for (size_t q = 0; q < n; q++) {
        int64_t k = fs_arena_key(mem[q]);
        if (k < 0)
            return false;
        o->k[o->n++] = (uint32_t)k;
    }
    return true;
}

static const FsRecipe derived_kind = {derived_build, derived_size, NULL, fs_table_free,
                                      derived_keys, NULL, NULL, true, false, NULL};

bool fs_is_derived(const Value *v)
{
    return v->type == V_FSET && (v_memo(v) & V_MEMO_RECIPE) &&
           fs_recipe_head(v)->kind == &derived_kind;
}

Value *const *fs_members_any(const Value *v)
{
    return fs_gen_lazy(v) && fs_is_derived(v) ? members(v) : v_items(v);
}

bool fs_gen_lazy(const Value *v)
{
    return v->type == V_FSET && (__atomic_load_n(&v->memo, __ATOMIC_ACQUIRE) & V_MEMO_UNBUILT) &&
           ((fs_is_product(v) && fs_product_unlaid(v)) || fs_is_derived(v));
}

FsGenWalk fs_gen_walk(const Value *v)
{
    return (FsGenWalk){v, 0, v_len(v), NULL, fs_is_derived(v) ? members(v) : NULL};
}

Value *fs_gen_next(FsGenWalk *w)
{
    if (w->g == w->n) {
        fs_gen_stop(w);
        return NULL;
    }
    if (w->mem)
        return w->mem[w->g++];
    return w->spare = fs_product_pair(w->v, w->g++, w->spare);
}

void fs_gen_stop(FsGenWalk *w)
{
    v_decref(w->spare);
    w->spare = NULL;
}

bool fs_gen_same(const Value *a, const Value *b)
{
    if (a == b)
        return true;
    if (a->type != b->type)
        return false;
    switch (a->type) {
    case V_INT:
    case V_BOOL:
        return a->u.i == b->u.i;
    case V_NONE:
        return true;
    case V_TUPLE:
        if (a->u.tup.len != b->u.tup.len || ((a->flags ^ b->flags) & V_FLAGS_PY))
            return false;
        for (size_t k = 0; k < a->u.tup.len; k++)
            if (!fs_gen_same(v_titems(a)[k], v_titems(b)[k]))
                return false;
        return true;
    case V_FSET: {
        bool eq;
        if (a->u.set.len == 0 && b->u.set.len == 0)
            return true;
        /* lines compare their ends, whose coordinates (and a coloured
         * line's colour) are ints */
        if (fs_recipe_eq(a, b, &eq))
            return eq && fs_line_exact(a);
        /* arena values are one per type and value: a few of them, the
         * same ones */
        size_t n = a->u.set.len;
        if (n != b->u.set.len || n > 8 || !(a->flags & b->flags & V_FLAG_FLAT))
            return false;
        Value *const *x = v_items(a), *const *y = v_items(b);
        for (size_t p = 0; p < n; p++) {
            size_t q = 0;
            while (q < n && x[p] != y[q])
                q++;
            if (q == n)
                return false;
        }
        return true;
    }
    default:
        return false;
    }
}

/* The value, its members and which items gave them: a map, or a filter's
 * bitmap. */
static Value *derived(Value *s, const int32_t *map, const uint64_t *kept, Value **mem,
                      size_t nmem)
{
    size_t ngen = v_len(s), w = words_of(ngen);
    bool filtered = kept != NULL;
    Value *tup = v_tuple_new(nmem);
    memcpy(v_titems(tup), mem, nmem * sizeof *mem);
    v_mark_flat(tup, v_titems(tup), nmem);
    Value *v = fs_alloc_bare(nmem, pyset_distinct_mask(nmem),
                             sizeof(Tail) + data_words(ngen, nmem, filtered) * sizeof(uint64_t));
    fs_recipe_init(v, &derived_kind, v_incref(s), tup, true);
    Tail *t = tail_of(v);
    t->ngen = (uint32_t)ngen;
    t->filtered = filtered;
    atomic_init(&t->ready, 0);
    t->seq = (int32_t *)t->data;
    t->map = NULL;
    t->bits = NULL;
    t->before = NULL;
    if (filtered) {
        t->bits = t->data + (nmem + 1) / 2;
        t->before = (uint32_t *)(t->bits + w);
        memcpy(t->bits, kept, w * sizeof *kept);
        for (size_t x = 0, c = 0; x < w; x++) {
            t->before[x] = (uint32_t)c;
            c += ones(kept[x]);
        }
    } else {
        t->map = (int32_t *)(t->data + (nmem + 1) / 2);
        memcpy(t->map, map, ngen * sizeof *map);
    }
    /* members that are all places or arc-dsl cells say what keys say
     * (fs_keys_note: the box arc-dsl's readers keep, V_MEMO_CELLS) */
    uint64_t x = 0;
    bool flat = true, keyed = true;
    uint32_t *k = malloc((nmem ? nmem : 1) * sizeof *k);
    if (!k)
        abort();
    for (size_t q = 0; q < nmem; q++) {
        x ^= py_fset_shuffle((uint64_t)v_hash(mem[q]));
        int64_t key = fs_arena_key(mem[q]);
        flat &= v_in_arena(mem[q]);
        keyed &= key >= 0 && key < FS_KEY_ARCDSL * FS_KEY_TABLE;
        k[q] = keyed ? (uint32_t)key : 0;
    }
    v->hash = py_fset_end(x, nmem);
    v->hashed = 1;
    if (keyed)
        (void)fs_keys_note(v, k, nmem);
    else
        v_mark_flat_known(v, flat);
    free(k);
    return v;
}

Value *fs_derived(Value *s, const int32_t *map, Value **mem, size_t nmem)
{
    return derived(s, map, NULL, mem, nmem);
}

Value *fs_derived_filtered(Value *s, const uint64_t *kept, Value **mem, size_t nmem)
{
    return derived(s, NULL, kept, mem, nmem);
}
