/* fsblock.c -- frozen values' blocks: sizes, tables laid out empty or
 * apart from their head, flat clones and kept copies (pyset.h). */
#include "fsblock.h"
#include "fsrecipe.h"

#include <string.h>

size_t fs_block_size(const Value *v)
{
    if (v_memo(v) & V_MEMO_RECIPE)
        return fs_recipe_head(v)->kind->size(v);
    return fs_size(v->u.set.len, v->u.set.mask);
}

Value *fs_alloc_bare(size_t n, size_t mask, size_t extra)
{
    return fs_head(sizeof(Value) + extra, n, mask, 0);
}

/* v's arrays, every slot empty, to fill. */
static FsLayout empty_layout(Value *v)
{
    int32_t *slots = v->u.set.slots;    /* locals: stores to slots cannot change them */
    for (size_t i = 0, mask = v->u.set.mask; i <= mask; i++)
        slots[i] = SLOT_EMPTY;
    return fs_layout_of(v);
}

FsLayout fs_table_alloc(Value *v)
{
    size_t n = v->u.set.len, mask = v->u.set.mask;
    Value **items = vmem_alloc(fs_size(n, mask) - sizeof(Value));   /* counted as any value's */
    v->u.set.items = items;
    v->u.set.slots = (int32_t *)(items + n);
    return empty_layout(v);
}

void fs_table_free(Value *v)
{
    vmem_free(v->u.set.items, fs_size(v->u.set.len, v->u.set.mask) - sizeof(Value));
}

/* The arrays are copied from wherever fs keeps them: a recipe's may sit
 * past its head or in a table of their own (fsrecipe.h). */
Value *fs_clone_flat(const Value *fs)
{
    (void)v_items(fs);
    size_t n = fs->u.set.len, mask = fs->u.set.mask;
    Value *v = vmem_alloc(fs_size(n, mask));
    memcpy(v, fs, sizeof *v);
    v->u.set.items = (Value **)(v + 1);
    v->u.set.slots = (int32_t *)(v->u.set.items + n);
    memcpy(v->u.set.items, fs->u.set.items, n * sizeof(Value *));
    memcpy(v->u.set.slots, fs->u.set.slots, (mask + 1) * sizeof(int32_t));
    if (fs->flags & FS_FLAG_HASHES)
        memcpy((int64_t *)fs_hashes(v), fs_hashes(fs), n * sizeof(int64_t));
    v->refs = 1;
    v->flags &= (uint8_t)~(V_FLAG_SHARED | V_FLAG_ATOMIC);
    /* a plain frozenset: no sources to hold */
    v->memo &= (uint8_t)~(V_MEMO_RECIPE | V_MEMO_UNBUILT | V_MEMO_BUILDING);
    return v;
}

void fs_keep(Value **slot, const Value *fs)
{
    Value *kept = fs_clone_flat(fs), *none = NULL;
    kept->refs = -1;       /* immortal: no thread counts it */
    if (!__atomic_compare_exchange_n(slot, &none, kept, false, __ATOMIC_ACQ_REL, __ATOMIC_ACQUIRE))
        vmem_free(kept, fs_size(kept->u.set.len, kept->u.set.mask));
}

Value *fs_layout(size_t n, size_t mask, FsLayout *out)
{
    return fs_layout_extra(n, mask, 0, out);
}

FsLayout fs_layout_of(Value *v)
{
    return (FsLayout){v->u.set.items, (int64_t *)fs_hashes(v), v->u.set.slots};
}

Value *fs_layout_extra(size_t n, size_t mask, size_t extra, FsLayout *out)
{
    Value *v = fs_alloc_extra(n, mask, 0, extra);
    *out = empty_layout(v);
    return v;
}
