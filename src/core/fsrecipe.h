/* fsrecipe.h -- frozensets that keep how they were made, and build their
 * items only when something reads them.
 *
 * A recipe frozenset is an ordinary V_FSET whose block holds, right after
 * the Value (fs_extra), an FsRecipeHead and then whatever its kind needs.
 * V_MEMO_RECIPE says the head is there; V_MEMO_UNBUILT that the items,
 * slots and hashes are not written yet (a kind may not even have
 * allocated them: fs_alloc_bare).  len, mask and a hash set at making are
 * always right.  v_items builds on first read (fs_build_), in place, one
 * thread at a time, and publishes by clearing V_MEMO_UNBUILT with a
 * release store; after that the value reads as any frozenset, and the
 * recipe stays for the kind's own fast paths (equality, walks).
 *
 * A kind holds up to two source values (held references); the head's
 * generic code frees, pins and makes them atomic with the value.
 */
#ifndef ARC_FSRECIPE_H
#define ARC_FSRECIPE_H

#include "value.h"
#include "pyset.h"

#include <stdatomic.h>
#include <stdlib.h>

/* Interned tuples named by their index in the arena's tables (table *
 * V_INTERN_SPAN^2 + place): what order-blind readers (fill, paint, a
 * union's making) need of a set, without its table. */
typedef struct FsKeys {
    uint32_t *k;
    size_t n, cap;
} FsKeys;

/* Keys per table, one per place of the span: table 0 holds places, 1..10
 * arc-dsl's cells of colours 0..9, 11..20 tokpidjin's (value.h); keys
 * below FS_KEY_ARCDSL * FS_KEY_TABLE are places and arc-dsl cells. */
#define FS_KEY_TABLE (V_INTERN_SPAN * V_INTERN_SPAN)
#define FS_KEY_ARCDSL 11

/* Room for extra more keys; false when out of memory. */
bool fs_keys_reserve(FsKeys *o, size_t extra);
static inline void fs_keys_free(FsKeys *o)
{
    free(o->k);
    o->k = NULL;
    o->n = o->cap = 0;
}
/* The arena key of v, or -1 when v is not an interned tuple. */
static inline int64_t fs_arena_key(const Value *v)
{
    uintptr_t off = (uintptr_t)v - (uintptr_t)v_arena_.table;
    return off < sizeof v_arena_.table ? (int64_t)(off / sizeof(VInterned)) : -1;
}
/* The interned tuple of key k: made if it was not (a key found by
 * arithmetic may name one nothing has used yet), which also makes
 * v_arena_hashes_[k]. */
static inline Value *fs_key_value(uint32_t k)
{
    return v_interned_key(k);
}
/* The hash of key k's tuple, its tile's hashes made first where they
 * are not, its tuples not: a key whose tuple nothing reads (a shift's
 * image that fill or paint takes) builds no tuples, and touches an
 * eighth of a page where the tuples would have been a page. */
static inline int64_t fs_key_hash(uint32_t k)
{
    size_t at = k / (V_INTERN_SPAN * V_INTERN_SPAN);
    size_t tile = k % (V_INTERN_SPAN * V_INTERN_SPAN) / (V_INTERN_TILE * V_INTERN_TILE);
    if (!__atomic_load_n(&v_arena_hashed_[at][tile], __ATOMIC_ACQUIRE))
        v_arena_hashes_make_(at, tile);
    return v_arena_hashes_[k];
}
/* Append the keys of container v's items, in any order (repeats allowed),
 * building nothing a kind can list without building; false (o's length
 * as it was) when an item is not an interned tuple or memory ran out. */
bool fs_arena_keys(const Value *v, FsKeys *o);
/* The same, once each, in v's iteration order. */
bool fs_ordered_keys(const Value *v, FsKeys *o);
/* Append the n distinct keys ins[] in the order of a frozenset made by
 * adding them in that order (ADD-ALL's table, read in slot order). */
bool fs_keys_laid(const uint32_t *ins, size_t n, FsKeys *o);

typedef struct FsRecipe {
    /* Write items, hashes and slots of unbuilt v (fs_layout_of gives the
     * arrays, every slot empty); runs once, on one thread. */
    void (*build)(Value *v);
    /* The bytes of v's block (v_free_ gives them back). */
    size_t (*size)(const Value *v);
    /* a == b for two values of this kind, built or not; NULL: compare
     * items as for any frozenset. */
    bool (*eq)(const Value *a, const Value *b);
    /* After the items are released: what else a built v owns (NULL:
     * nothing). */
    void (*release)(Value *v);
    /* Append the arena keys of unbuilt v's items, in any order and
     * repeats allowed (fs_arena_keys); false when an item is not an
     * interned tuple.  NULL: the items are built to be read. */
    bool (*keys)(const Value *v, struct FsKeys *out);
    /* The same in v's iteration order, without building v (its sources
     * may be): fs_ordered_keys.  NULL: built to be read. */
    bool (*ordered)(const Value *v, struct FsKeys *out);
    /* The value (borrowed) every item of unbuilt v has at index at, when
     * the kind knows one without building; NULL: none or not known. */
    Value *(*same)(const Value *v, size_t at);
    /* Its build reads its sources' order, not their items: they are not
     * built first (fsderived.h). */
    bool orders_only;
    /* A merge of members of this kind, still unbuilt, stays a union of
     * them instead of reading each in order at once (fs_keys_merge). */
    bool merge_later;
    /* v's hash from what the recipe holds, built or not (it is asked
     * once; the value keeps it); NULL: from the items, built to be read. */
    int64_t (*hash)(const Value *v);
} FsRecipe;

typedef struct {
    const FsRecipe *kind;
    Value *src[2];              /* held; NULL where unused */
} FsRecipeHead;

static inline FsRecipeHead *fs_recipe_head(const Value *v)
{
    return (FsRecipeHead *)fs_extra(v);
}

/* fn(v) run once, by the first thread to ask; any other waits for it.
 * *state: 0 not yet, 1 running, 2 done (zero it when making v).  For
 * what a recipe writes into itself short of a build (fsproduct.c,
 * fsderived.c). */
void fs_once(_Atomic uint8_t *state, void (*fn)(const Value *v), const Value *v);

/* Mark v (from fs_layout_extra or fs_alloc_bare, with at least
 * sizeof(FsRecipeHead) extra) as a recipe of `kind` holding sources a and
 * b (taken, may be NULL); unbuilt: its items are left for kind->build. */
void fs_recipe_init(Value *v, const FsRecipe *kind, Value *a, Value *b, bool unbuilt);

/* v_free_'s part: the items once built, then the sources. */
void fs_recipe_release(Value *v);
/* What the block owns besides references (a table of its own): for a
 * value freed without releasing its references (v_free_pinned). */
void fs_recipe_free_own(Value *v);
/* v_make_atomic's walk: the sources, and the items once built (a build
 * after this makes its items atomic itself). */
size_t fs_recipe_make_atomic(Value *v);

/* next(iter(v))[at] where no order can change it: the value every item
 * of v has at index at, when v is an unbuilt recipe whose kind knows it
 * (borrowed); else NULL, and v must be read. */
static inline Value *fs_same_at(const Value *v, size_t at)
{
    if (v->type != V_FSET || !(__atomic_load_n(&v->memo, __ATOMIC_ACQUIRE) & V_MEMO_UNBUILT))
        return NULL;
    const FsRecipe *k = fs_recipe_head(v)->kind;
    return k->same ? k->same(v, at) : NULL;
}

/* Whether a and b are recipes of one kind with its own equality; *eq the
 * answer. */
static inline bool fs_recipe_eq(const Value *a, const Value *b, bool *eq)
{
    if (!(__atomic_load_n(&a->memo, __ATOMIC_RELAXED) & __atomic_load_n(&b->memo, __ATOMIC_RELAXED) &
          V_MEMO_RECIPE))
        return false;
    const FsRecipe *k = fs_recipe_head(a)->kind;
    if (k != fs_recipe_head(b)->kind || !k->eq)
        return false;
    *eq = k->eq(a, b);
    return true;
}

#endif
