/* callcache.h -- never compute the same call twice.
 *
 * A call whose callee and arguments are all shareable values (constants,
 * task grids, earlier cached results) is keyed by their identities: the
 * same key means the same computation.  Where the caller asks, tuples of
 * arena values and tuples of such tuples (grids, rows, places, cells) are
 * keyed by value instead, shareable or not: nothing in them has an order
 * or an identity a primitive reads, so equal ones make the same
 * computation too.  The first instance to make a call computes it;
 * instances asking in the same step wait for that result, later ones take
 * it from the cache.  Results become thread-safe shared values
 * (v_make_atomic).  In CPython two separately computed equal values are
 * distinct objects, and `a & b` treats `a is b` specially, so an instance
 * never receives the same entry twice (a per-instance filter).  Its second
 * identical call takes a twin of the result it had (cache_twin): a new
 * object laid out the same, as CPython's second computation is; where no
 * twin can be made, the key's second entry, shared in turn.  Twins and
 * hits charge no work: a budget counts what an instance computed. */
#ifndef ARC_CALLCACHE_H
#define ARC_CALLCACHE_H

#include "ir.h"

typedef struct CacheEntry {
    uint64_t hash;
    Value *callee;
    Value *args[IR_MAX_ARGS];   /* held, so their addresses stay theirs */
    uint8_t nargs;
    uint32_t id;
    Value *result;              /* held; NULL while being computed */
    void *rep;                  /* the instance computing it this step */
    uint32_t weight;            /* what it adds to pinned */
    bool varies;                /* its key holds values of one sample (I, C) */
} CacheEntry;

typedef struct {
    CacheEntry **slots;         /* open addressing */
    uint32_t *used;             /* slots taken since the last clear, which */
    size_t nused;               /* clears visit instead of the whole table */
    size_t mask, max_mask, count, limit;
    size_t pinned, pinned_limit;  /* values kept alive by entries (approx.) */
    uint32_t next_id;
    long hits, misses, waits;
} CallCache;

#define CACHE_FILTER_WORDS 64   /* per-instance filter: 4096 bits */

void cache_init(CallCache *c, size_t max_entries);
/* The cache a run of chunks shares, one per thread (exec_run clears it at
 * its end): a chunk of one group would otherwise set up a table of
 * 32,768 slots for a few hundred calls. */
CallCache *cache_of_thread(void);
void cache_thread_done(void);       /* frees this thread's, if any */
void cache_clear(CallCache *c);     /* drop every entry */
/* Drop the finished entries whose key holds values of one sample (once
 * every instance of those samples is done, nothing can ask for them). */
void cache_drop_varying(CallCache *c);
void cache_free(CallCache *c);
/* The key of a call, plain tuples by value where by_value; false if some
 * other operand is instance-private. */
bool cache_key(Value *callee, Value *const *args, int nargs, bool by_value, uint64_t *hash);
/* An entry for the key that is not in the instance's filter `taken`
 * (NULL: any): equal keys may have several entries, one per occurrence of
 * the call within an instance.  *mine (unless NULL): the first entry for
 * the key with a result that `taken` holds, or NULL -- what the instance
 * computed or received for an equal call earlier. */
CacheEntry *cache_find(CallCache *c, uint64_t hash, Value *callee, Value *const *args, int nargs,
                       const uint64_t *taken, CacheEntry **mine);
/* A new reference equal to r that an instance holding r may also hold:
 * r itself where nothing can tell two references from two objects (ints,
 * None, bools, tuples of arena values and of such tuples); for a
 * frozenset of arena values, or of such sets, a new one laid out as r,
 * its members new too; NULL for anything else. */
Value *cache_twin(Value *r);
/* Fetch the slot a lookup of hash starts at, ahead of cache_find. */
static inline __attribute__((always_inline)) void cache_prefetch(const CallCache *c, uint64_t hash)
{
    __builtin_prefetch(&c->slots[hash & c->mask]);
}
/* A new pending entry (result NULL) for rep; NULL when the cache is full. */
CacheEntry *cache_add(CallCache *c, uint64_t hash, Value *callee, Value *const *args,
                      int nargs, void *rep);
void cache_drop(CallCache *c, CacheEntry *e);   /* a pending entry whose call failed */

static inline bool filter_has(const uint64_t *f, uint32_t id)
{
    uint32_t b = (id * 2654435761u) >> 20;   /* 12 bits */
    return f[b >> 6] >> (b & 63) & 1;
}
static inline void filter_set(uint64_t *f, uint32_t id)
{
    uint32_t b = (id * 2654435761u) >> 20;
    f[b >> 6] |= 1ull << (b & 63);
}

#endif
