/* tuprecipe.h -- tuples that keep how they were made, and make their items
 * only when something reads them.
 *
 * A recipe tuple is an ordinary V_TUPLE whose block holds, after its
 * len item pointers, a TupRecipeHead and then whatever its kind needs.
 * V_MEMO_TRECIPE says the head is there; V_MEMO_UNBUILT that the items
 * are not written yet.  len, and V_FLAG_FLAT where the kind knows every
 * item will be an arena value, are right from the start.  v_titems builds
 * on first read (v_tuple_build_), once, on one thread; after that the
 * value reads as any tuple, and the recipe stays for its kind's readers
 * that need no order (paint reads a tuple of shifted images that way).
 * A recipe holds plain data only, no references.
 */
#ifndef ARC_TUPRECIPE_H
#define ARC_TUPRECIPE_H

#include "value.h"

typedef struct TupRecipe {
    /* Write the len items of unbuilt t (each a new reference, or an arena
     * value); runs once, on one thread.  Items made for a t already
     * shared or atomic are made so by tr_build_. */
    void (*build)(Value *t, Value **items);
} TupRecipe;

typedef struct {
    const TupRecipe *kind;
    uint64_t size;             /* bytes after the items: this head and the kind's data */
} TupRecipeHead;

/* A recipe tuple of len >= 1 items, unbuilt, with data_size bytes of the
 * kind's data (tr_data); flat when every item it builds is an arena value. */
Value *tr_new(size_t len, const TupRecipe *kind, size_t data_size, bool flat);

static inline TupRecipeHead *tr_head(const Value *t)
{
    return (TupRecipeHead *)((char *)t + V_TUPLE_BASE + t->u.tup.len * sizeof(Value *));
}
static inline void *tr_data(const Value *t)
{
    return tr_head(t) + 1;
}
/* t's recipe when it is a recipe tuple of kind (built or not), else NULL. */
static inline void *tr_of(const Value *t, const TupRecipe *kind)
{
    if (t->type != V_TUPLE || !(__atomic_load_n(&t->memo, __ATOMIC_ACQUIRE) & V_MEMO_TRECIPE) ||
        tr_head(t)->kind != kind)
        return NULL;
    return tr_data(t);
}
/* Bytes a recipe tuple's block holds after its items (v_block_size). */
static inline size_t tr_extra(const Value *t)
{
    return tr_head(t)->size;
}
/* v_titems' build of an unbuilt recipe tuple (vgrid.c sends it here). */
void tr_build_(Value *t);

#endif
