/* fsrecipe.c -- frozensets built when read (fsrecipe.h). */
#include "fsrecipe.h"
#include "fsdistinct.h"

#include <sched.h>
#include <stdint.h>

void fs_recipe_init(Value *v, const FsRecipe *kind, Value *a, Value *b, bool unbuilt)
{
    FsRecipeHead *h = fs_recipe_head(v);
    h->kind = kind;
    h->src[0] = a;
    h->src[1] = b;
    v->memo |= V_MEMO_RECIPE | (unbuilt ? V_MEMO_UNBUILT : 0);
}

/* Built items of v made atomic (flat ones are arena values). */
static size_t items_make_atomic(Value *v)
{
    size_t n = 0;
    if (!(v->flags & V_FLAG_FLAT))
        for (size_t i = 0; i < v->u.set.len; i++)
            n += v_make_atomic(v->u.set.items[i]);
    return n;
}

/* The thread that sets V_MEMO_BUILDING builds; any other waits for the
 * build to be published.  Builds are short and a value is rarely read by
 * two threads at once, so waiting spins. */
void fs_build_(Value *v)
{
    FsRecipeHead *h = fs_recipe_head(v);
    for (int k = 0; k < 2 && !h->kind->orders_only; k++)   /* sources first: they may be recipes */
        if (h->src[k] && h->src[k]->type == V_FSET)
            (void)v_items(h->src[k]);
    if (!v_build_claim(v))
        return;
    h->kind->build(v);
    if (v->flags & V_FLAG_ATOMIC)
        items_make_atomic(v);
    v_build_done(v);
}

void fs_once(_Atomic uint8_t *state, void (*fn)(const Value *v), const Value *v)
{
    uint8_t s = atomic_load_explicit(state, memory_order_acquire);
    while (s != 2) {
        if (s == 0 && atomic_compare_exchange_weak(state, &s, 1)) {
            fn(v);
            atomic_store_explicit(state, 2, memory_order_release);
            return;
        }
        if (s == 1)
            sched_yield();
        s = atomic_load_explicit(state, memory_order_acquire);
    }
}

void fs_recipe_release(Value *v)
{
    FsRecipeHead *h = fs_recipe_head(v);
    if (!(v_memo(v) & V_MEMO_UNBUILT) && !(v->flags & V_FLAG_FLAT))
        for (size_t i = 0; i < v->u.set.len; i++)
            v_decref(v->u.set.items[i]);
    fs_recipe_free_own(v);
    v_decref(h->src[0]);
    v_decref(h->src[1]);
}

void fs_recipe_free_own(Value *v)
{
    if (!(v_memo(v) & V_MEMO_UNBUILT) && fs_recipe_head(v)->kind->release)
        fs_recipe_head(v)->kind->release(v);
}

/* Only the thread that owns v makes it atomic (it is not shared yet), so
 * no build runs meanwhile. */
size_t fs_recipe_make_atomic(Value *v)
{
    FsRecipeHead *h = fs_recipe_head(v);
    size_t n = 0;
    for (int k = 0; k < 2; k++)
        if (h->src[k])
            n += v_make_atomic(h->src[k]);
    if (!(v_memo(v) & V_MEMO_UNBUILT))
        n += items_make_atomic(v);
    return n;
}

bool fs_keys_reserve(FsKeys *o, size_t extra)
{
    if (o->cap - o->n >= extra)
        return true;
    size_t cap = o->cap ? o->cap : 64;
    while (cap - o->n < extra)
        cap *= 2;
    uint32_t *k = realloc(o->k, cap * sizeof *k);
    if (!k)
        return false;
    o->k = k;
    o->cap = cap;
    return true;
}

/* v's items as keys: from its kind's hook (ordered or not) while unbuilt,
 * else from the items in order. */
static bool keys_via(const Value *v, FsKeys *o, bool ordered)
{
    size_t n0 = o->n;
    if (v->type == V_FSET && (__atomic_load_n(&v->memo, __ATOMIC_ACQUIRE) & V_MEMO_UNBUILT)) {
        const FsRecipe *k = fs_recipe_head(v)->kind;
        bool (*hook)(const Value *, FsKeys *) = ordered ? k->ordered : k->keys;
        if (hook) {
            if (hook(v, o))
                return true;
            o->n = n0;
            return false;
        }
    }
    size_t n = v_len(v);
    if (!fs_keys_reserve(o, n))
        return false;
    Value *const *it = v_items(v);
    for (size_t i = 0; i < n; i++) {
        int64_t k = fs_arena_key(it[i]);
        if (k < 0) {
            o->n = n0;
            return false;
        }
        o->k[o->n++] = (uint32_t)k;
    }
    return true;
}

bool fs_arena_keys(const Value *v, FsKeys *o) { return keys_via(v, o, false); }
bool fs_ordered_keys(const Value *v, FsKeys *o) { return keys_via(v, o, true); }

bool fs_keys_laid(const uint32_t *ins, size_t n, FsKeys *o)
{
    if (n == 0)
        return true;
    size_t mask = pyset_distinct_mask(n);
    int64_t hs[64], *h = n <= 64 ? hs : malloc(n * sizeof *h);
    int32_t ss[256], *slots = mask < 256 ? ss : malloc((mask + 1) * sizeof *slots);
    bool ok = h && slots && fs_keys_reserve(o, n + 1);   /* the walk writes one past */
    if (ok) {
        for (size_t x = 0; x < n; x++)
            h[x] = fs_key_hash(ins[x]);
        pyset_distinct_slots(slots, h, n);
        uint32_t *to = o->k + o->n;
        for (size_t s = 0; s <= mask; s++) {
            int32_t x = slots[s];
            *to = ins[x < 0 ? 0 : x];
            to += x >= 0;
        }
        o->n += n;
    }
    if (h != hs)
        free(h);
    if (slots != ss)
        free(slots);
    return ok;
}
