/* fsrecipe.c -- frozensets built when read (fsrecipe.h). */
#include "fsrecipe.h"

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
    for (int k = 0; k < 2; k++)         /* sources first: they may be recipes */
        if (h->src[k] && h->src[k]->type == V_FSET)
            (void)v_items(h->src[k]);
    uint8_t m = __atomic_load_n(&v->memo, __ATOMIC_ACQUIRE);
    for (;;) {
        if (!(m & V_MEMO_UNBUILT))
            return;
        if (m & V_MEMO_BUILDING) {
            sched_yield();
            m = __atomic_load_n(&v->memo, __ATOMIC_ACQUIRE);
        } else if (__atomic_compare_exchange_n(&v->memo, &m, (uint8_t)(m | V_MEMO_BUILDING), false,
                                               __ATOMIC_ACQ_REL, __ATOMIC_ACQUIRE))
            break;
    }
    h->kind->build(v);
    if (v->flags & V_FLAG_ATOMIC)
        items_make_atomic(v);
    __atomic_fetch_and(&v->memo, (uint8_t)~(V_MEMO_UNBUILT | V_MEMO_BUILDING), __ATOMIC_RELEASE);
}

void fs_recipe_release(Value *v)
{
    FsRecipeHead *h = fs_recipe_head(v);
    if (!(v->memo & V_MEMO_UNBUILT) && !(v->flags & V_FLAG_FLAT))
        for (size_t i = 0; i < v->u.set.len; i++)
            v_decref(v->u.set.items[i]);
    fs_recipe_free_own(v);
    v_decref(h->src[0]);
    v_decref(h->src[1]);
}

void fs_recipe_free_own(Value *v)
{
    if (!(v->memo & V_MEMO_UNBUILT) && fs_recipe_head(v)->kind->release)
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
    if (!(v->memo & V_MEMO_UNBUILT))
        n += items_make_atomic(v);
    return n;
}
