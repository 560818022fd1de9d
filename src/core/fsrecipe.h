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
} FsRecipe;

typedef struct {
    const FsRecipe *kind;
    Value *src[2];              /* held; NULL where unused */
} FsRecipeHead;

static inline FsRecipeHead *fs_recipe_head(const Value *v)
{
    return (FsRecipeHead *)fs_extra(v);
}

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
