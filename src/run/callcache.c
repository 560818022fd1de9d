/* callcache.c -- the call cache (see callcache.h). */
#include "callcache.h"
#include "vmem.h"
#include "pyset.h"

#include <stdlib.h>
#include <string.h>

void *xmalloc_(size_t n);

/* The table starts small and doubles while under half full: a full-size
 * one zeroed at the start (hundreds of KB, every page touched) cost a
 * short run more than its calls. */
#define CACHE_FIRST_SLOTS 1024

void cache_init(CallCache *c, size_t max_entries)
{
    memset(c, 0, sizeof *c);
    size_t size = CACHE_FIRST_SLOTS;
    while (size < 2 * max_entries)
        size *= 2;
    c->max_mask = size - 1;
    size = size < CACHE_FIRST_SLOTS ? size : CACHE_FIRST_SLOTS;
    c->slots = calloc(size, sizeof *c->slots);
    c->used = malloc(max_entries * sizeof *c->used);    /* written before read */
    if (!c->slots || !c->used)
        abort();
    c->mask = size - 1;
    c->limit = max_entries;
    c->pinned_limit = 2000000;   /* about 100 MB of small values */
}

/* Tombstones are dropped, the live entries placed again in the order
 * they were added (so used keeps that order), the table twice as big.
 * A slot a tombstone gave back to a later entry is listed twice in used:
 * each old slot is emptied as it is read, so its entry moves once. */
static void grow(CallCache *c)
{
    size_t size = 2 * (c->mask + 1), n = 0;
    CacheEntry **slots = calloc(size, sizeof *slots);
    if (!slots)
        abort();
    for (size_t k = 0; k < c->nused; k++) {
        CacheEntry *e = c->slots[c->used[k]];
        c->slots[c->used[k]] = NULL;
        if (!e || e == (CacheEntry *)c)
            continue;
        size_t i = e->hash & (size - 1);
        while (slots[i])
            i = (i + 1) & (size - 1);
        slots[i] = e;
        c->used[n++] = (uint32_t)i;
    }
    free(c->slots);
    c->slots = slots;
    c->mask = size - 1;
    c->nused = n;
}

static void entry_free(CacheEntry *e)
{
    v_decref(e->callee);
    for (int i = 0; i < e->nargs; i++)
        v_decref(e->args[i]);
    v_decref(e->result);
    vmem_free(e, sizeof *e);
}

void cache_clear(CallCache *c)
{
    for (size_t k = 0; k < c->nused; k++) {
        CacheEntry **s = &c->slots[c->used[k]];
        if (*s && *s != (CacheEntry *)c)
            entry_free(*s);
        *s = NULL;
    }
    c->nused = 0;
    c->count = 0;
    c->pinned = 0;
}

/* Entries are visited in the order they were added, each cold by now:
 * its slot, the entry and its result are fetched a few visits ahead. */
#define DROP_AHEAD 4

static inline CacheEntry *slot_entry(const CallCache *c, size_t k)
{
    CacheEntry *e = c->slots[c->used[k]];
    return e == (CacheEntry *)c ? NULL : e;
}

void cache_drop_varying(CallCache *c)
{
    size_t keep = 0;
    CacheEntry **kept = xmalloc_(sizeof *kept * (c->nused ? c->nused : 1));
    for (size_t k = 0; k < c->nused; k++) {
        if (k + 4 * DROP_AHEAD < c->nused)
            __builtin_prefetch(&c->slots[c->used[k + 4 * DROP_AHEAD]]);
        CacheEntry *ahead;
        if (k + 2 * DROP_AHEAD < c->nused && (ahead = slot_entry(c, k + 2 * DROP_AHEAD)))
            __builtin_prefetch(ahead);
        if (k + DROP_AHEAD < c->nused && (ahead = slot_entry(c, k + DROP_AHEAD)) && ahead->result)
            __builtin_prefetch(ahead->result, 1);
        CacheEntry **s = &c->slots[c->used[k]];
        CacheEntry *e = *s;
        *s = NULL;
        if (!e || e == (CacheEntry *)c)
            continue;
        if (e->varies && e->result) {
            c->pinned -= e->weight;
            entry_free(e);
        } else {
            kept[keep++] = e;
        }
    }
    /* reinsert the rest in their order: no tombstones, and count is what
     * the table holds */
    c->nused = 0;
    c->count = 0;
    for (size_t k = 0; k < keep; k++) {
        size_t i = kept[k]->hash & c->mask;
        while (c->slots[i])
            i = (i + 1) & c->mask;
        c->slots[i] = kept[k];
        c->used[c->nused++] = (uint32_t)i;
        c->count++;
    }
    free(kept);
}

static _Thread_local CallCache thread_cache;
static _Thread_local bool thread_cache_made;

CallCache *cache_of_thread(void)
{
    if (!thread_cache_made) {
        cache_init(&thread_cache, 1 << 14);
        thread_cache_made = true;
    }
    return &thread_cache;
}

void cache_thread_done(void)
{
    if (thread_cache_made)
        cache_free(&thread_cache);
    thread_cache_made = false;
}

void cache_free(CallCache *c)
{
    cache_clear(c);
    free(c->slots);
    free(c->used);
    c->slots = NULL;
    c->used = NULL;
}

/* Tuples nothing can tell from an equal copy: items all arena values
 * (small ints, interned places and cells), or all such tuples (a grid's
 * rows).  No primitive reads a tuple's identity, and nothing in them has
 * an order of its own.  A recipe tuple is keyed by identity: its hash
 * would make the items its readers may never need. */
static bool plain_tuple(const Value *v)
{
    return v->type == V_TUPLE && v->u.tup.len > 0 && !(v_memo(v) & V_MEMO_TRECIPE) &&
           ((v->flags & V_FLAG_FLAT) || v_rows_flat(v));
}

bool cache_key(Value *callee, Value *const *args, int nargs, bool by_value, uint64_t *hash)
{
    if (!v_shareable(callee))
        return false;
    uint64_t h = (uintptr_t)callee * 0x9e3779b97f4a7c15ULL;
    for (int i = 0; i < nargs; i++) {
        uint64_t k;
        if (by_value && plain_tuple(args[i]))
            k = (uint64_t)v_hash(args[i]);
        else if (v_shareable(args[i]))
            k = (uintptr_t)args[i];
        else
            return false;
        h = (h ^ k) * 0x100000001b3ULL;
        h ^= h >> 29;
    }
    *hash = h ^ (uint64_t)nargs;
    return true;
}

/* Arguments the same object, or plain tuples equal by value (a key by
 * value: cache_key) */
static bool same_key(const CacheEntry *e, uint64_t hash, Value *callee,
                     Value *const *args, int nargs)
{
    if (e->hash != hash || e->callee != callee || e->nargs != nargs)
        return false;
    for (int i = 0; i < nargs; i++)
        if (e->args[i] != args[i] &&
            !(plain_tuple(args[i]) && plain_tuple(e->args[i]) && v_eq(e->args[i], args[i])))
            return false;
    return true;
}

/* A member twin_set can copy: a frozenset of arena values, or an empty
 * one (its table is built first). */
static bool twin_member(Value *m)
{
    if (m->type != V_FSET)
        return false;
    (void)v_items(m);
    return m->u.set.len == 0 || (m->flags & V_FLAG_FLAT);
}

/* A new frozenset equal to fs and laid out as it: fs's own clone when its
 * items are arena values, or, for a set of such sets (objects), a clone
 * whose members are clones too, since `a & b` reads `a is b` at every
 * level.  NULL for any other set.  fs and its members are built first. */
static Value *twin_set(const Value *fs)
{
    Value *const *it = v_items(fs);
    if (fs->u.set.len == 0 || (fs->flags & V_FLAG_FLAT))
        return fs->u.set.len ? fs_clone_flat(fs) : v_incref((Value *)fs);
    size_t n = fs->u.set.len;
    for (size_t k = 0; k < n; k++)
        if (!twin_member(it[k]))
            return NULL;
    Value *v = fs_clone_flat(fs);       /* the layout, then members of its own */
    for (size_t k = 0; k < n; k++)
        v->u.set.items[k] = it[k]->u.set.len ? fs_clone_flat(it[k]) : v_incref(it[k]);
    return v;
}

Value *cache_twin(Value *r)
{
    if (r->refs < 0 || r->type == V_INT || plain_tuple(r))
        return v_incref(r);
    return r->type == V_FSET ? twin_set(r) : NULL;
}

/* Deleted slots hold the cache itself as a tombstone. */
#define TOMB(c) ((CacheEntry *)(c))

CacheEntry *cache_find(CallCache *c, uint64_t hash, Value *callee, Value *const *args, int nargs,
                       const uint64_t *taken, CacheEntry **mine)
{
    if (mine)
        *mine = NULL;
    for (size_t i = hash & c->mask;; i = (i + 1) & c->mask) {
        CacheEntry *e = c->slots[i];
        if (!e)
            return NULL;
        if (e == TOMB(c) || e->hash != hash || !same_key(e, hash, callee, args, nargs))
            continue;
        /* a call an instance repeats meets the entries it took first */
        if (!(taken && filter_has(taken, e->id)))
            return e;
        if (mine && !*mine && e->result)
            *mine = e;
    }
}

CacheEntry *cache_add(CallCache *c, uint64_t hash, Value *callee, Value *const *args,
                      int nargs, void *rep)
{
    if (c->count >= c->limit)
        return NULL;
    CacheEntry *e = vmem_alloc(sizeof *e);    /* a size class: batt steps add thousands */
    memset(e, 0, sizeof *e);
    e->hash = hash;
    e->callee = v_incref(callee);
    e->nargs = (uint8_t)nargs;
    for (int i = 0; i < nargs; i++)
        e->args[i] = v_incref(args[i]);
    e->id = c->next_id++;
    e->rep = rep;
    if (2 * (c->nused + 1) > c->mask + 1 && c->mask < c->max_mask)
        grow(c);
    size_t i = hash & c->mask;
    while (c->slots[i] && c->slots[i] != TOMB(c))
        i = (i + 1) & c->mask;
    c->slots[i] = e;
    c->used[c->nused++] = (uint32_t)i;    /* adds between clears < limit */
    c->count++;
    return e;
}

void cache_drop(CallCache *c, CacheEntry *e)
{
    for (size_t i = e->hash & c->mask;; i = (i + 1) & c->mask)
        if (c->slots[i] == e) {
            c->slots[i] = TOMB(c);
            break;
        }
    entry_free(e);   /* the tombstone still counts towards the limit */
}
