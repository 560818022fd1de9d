/* fsdistinct.h -- frozensets of keys known to be distinct, laid out with
 * no comparison and no mutable table.
 *
 * ADD-ALL of keys no two of which are equal never stops its walk at an
 * equal key and never leaves a dummy, so the slots each key takes follow
 * from the keys' hashes and their order alone; the table's size follows
 * from their number.  Primitives whose results are distinct by
 * construction (a line's points, a product's pairs) use this instead of
 * fs_from_items; the layout is the same, slot for slot.
 */
#ifndef ARC_FSDISTINCT_H
#define ARC_FSDISTINCT_H

#include "value.h"
#include "pyset.h"

/* frozenset(items), no two of them equal (the caller knows), with its own
 * hash already computed. */
Value *fs_from_distinct(Value *const *items, size_t n);

/* frozenset(items) with repeats allowed: the first of each, found by a
 * table of indices, laid out as distinct; ADD-ALL's layout, since adding
 * a key again changes nothing, not even the fill that decides a resize. */
Value *fs_from_firsts(Value *const *items, size_t n);

/* frozenset(s) of a set s that n distinct items were added to in order:
 * COPY of their ADD-ALL layout (occurrences', objects' `frozenset(set)`). */
Value *fs_copy_distinct(Value *const *items, size_t n);

/* Lay out n distinct items, whose hashes are h, into the empty table of
 * lay (from fs_layout, with mask pyset_distinct_mask(n)): ADD-ALL's slots,
 * each item a new reference. */
void fs_fill_distinct(const FsLayout *lay, size_t mask, Value *const *items, const int64_t *h, size_t n);

/* Items and their hashes gathered for fs_fill_distinct: on the stack
 * while n is small. */
typedef struct {
    Value *small_v[64], **v;
    int64_t small_h[64], *h;
} FsScratch;
void fs_scratch_open(FsScratch *s, size_t n);
void fs_scratch_close(FsScratch *s);      /* the arrays; the items stay */

/* The mask ADD-ALL of n distinct keys ends with. */
size_t pyset_distinct_mask(size_t n);

/* ADD-ALL of n distinct keys replayed on their indices: out[mask + 1]
 * gets the index of the key in each slot, -1 where none; hash(k, ud) is
 * key k's hash. */
void pyset_distinct_layout(int32_t *out, size_t n, int64_t (*hash)(size_t k, void *ud), void *ud);
/* The same for keys whose hashes are h[0..n). */
void pyset_distinct_slots(int32_t *out, const int64_t *h, size_t n);

#endif
