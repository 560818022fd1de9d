/* tuprecipe.c -- recipe tuples (tuprecipe.h): making and building. */
#include "tuprecipe.h"

Value *v_tuple_new_extra_(size_t len, size_t extra);   /* value.c */

Value *tr_new(size_t len, const TupRecipe *kind, size_t data_size, bool flat)
{
    size_t size = sizeof(TupRecipeHead) + ((data_size + 7) & ~(size_t)7);
    Value *t = v_tuple_new_extra_(len, size);
    *tr_head(t) = (TupRecipeHead){.kind = kind, .size = size};
    if (flat)
        t->flags |= V_FLAG_FLAT;
    t->memo = V_MEMO_TRECIPE | V_MEMO_UNBUILT;
    return t;
}

void tr_build_(Value *t)
{
    if (!v_build_claim(t))
        return;
    Value **items = t->u.tup.items_;
    tr_head(t)->kind->build(t, items);
    if (!(t->flags & V_FLAG_FLAT))
        for (size_t i = 0; i < t->u.tup.len; i++) {
            if (t->flags & V_FLAG_SHARED)
                v_make_shared(items[i]);
            else if (t->flags & V_FLAG_ATOMIC)
                v_make_atomic(items[i]);
        }
    v_build_done(t);
}
