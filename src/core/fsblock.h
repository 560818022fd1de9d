/* fsblock.h -- a frozenset's block as core lays it out: the Value, then
 * its items, its slot map and, for those made here, its items' hashes
 * (pyset.c, fsblock.c).  Not for the DSLs: they go through pyset.h. */
#ifndef ARC_FSBLOCK_H
#define ARC_FSBLOCK_H

#include "pyset.h"
#include "vmem.h"

#define SLOT_EMPTY (-1)
#define SLOT_DUMMY (-2)

/* Frozensets made here also keep their items' hashes, hashes[len] after
 * slots[], so probes compare hashes without touching the items (CPython's
 * entries hold the hash for the same reason).  The flag tells them apart
 * from a frozenset made elsewhere (the static empty one). */
#define FS_FLAG_HASHES 0x80

static inline const int64_t *fs_hashes(const Value *v)
{
    return (v->flags & FS_FLAG_HASHES)
               ? (const int64_t *)(v->u.set.slots + v->u.set.mask + 1) : NULL;
}

/* A frozenset's Value in a block of `bytes`, its arrays not placed. */
static inline Value *fs_head(size_t bytes, size_t n, size_t mask, size_t ndummy)
{
    Value *v = vmem_alloc(bytes);
    v->refs = 1;
    v->type = V_FSET;
    v->hashed = 0;
    v->flags = FS_FLAG_HASHES;
    v->memo = 0;
    v->hash = 0;
    v->u.set.len = n;
    v->u.set.items = NULL;
    v->u.set.mask = (uint32_t)mask;
    v->u.set.ndummy = (uint32_t)ndummy;
    v->u.set.slots = NULL;
    return v;
}

/* `extra` bytes sit between the Value and its items (fs_extra). */
static inline Value *fs_alloc_extra(size_t n, size_t mask, size_t ndummy, size_t extra)
{
    Value *v = fs_head(fs_size(n, mask) + extra, n, mask, ndummy);
    v->u.set.items = (Value **)((char *)(v + 1) + extra);
    v->u.set.slots = (int32_t *)(v->u.set.items + n);
    return v;
}

static inline Value *fs_alloc(size_t n, size_t mask, size_t ndummy)
{
    return fs_alloc_extra(n, mask, ndummy, 0);
}

#endif
