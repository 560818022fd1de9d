/* fsfar.h -- frozensets of places and arc-dsl cells that reach past the
 * interned span, kept as packed codes until read in order.
 *
 * A shift's image far from the grid (an object moved by multiples of its
 * period or size) leaves the arena's span (value.h), so fs_keys_moved
 * cannot keep it as keys: each of its cells would be a tuple allocated,
 * hashed and laid out, then laid out again in a merge's table, only for
 * paint or fill to drop every cell outside the grid.  A far set keeps
 * each element as a code (table, i, j) instead: len, hash and box at
 * once.  A shift's image keeps its codes in insertion order; a merge's
 * keeps them in none, and its members, whose layouts (slots from hashes,
 * no tuples) give its insertion order when it is read in order.  fill,
 * and paint where no two colours meet, read only the codes inside the
 * grid (fs_far_in).  A filter of a far set calls its condition on the
 * items made from the codes, in no order, and keeps the kept codes and
 * the set (dsl/common/core_util.h's core_filter_far).  Anything else
 * builds it and reads it as any frozenset.
 */
#ifndef ARC_FSFAR_H
#define ARC_FSFAR_H

#include "fskeys.h"

/* shift's image of m's frozenset by (di, dj) as a far set; NULL where a
 * coordinate would pass +-2^27 or memory ran out. */
Value *fs_far_moved(const FsMoveSrc *m, int64_t di, int64_t dj);

/* Whether v is a far set not laid out yet. */
bool fs_far_unbuilt(const Value *v);
/* merge(cs) for a frozenset cs of frozensets, one at least an unbuilt far
 * set, every member's elements places or arc-dsl cells (one kind for all)
 * with coordinates within +-2^27: a far set of the members' elements,
 * which holds cs and finds the order merge adds them in only when read
 * in order.  NULL where cs is not that (the caller merges as usual) or
 * memory ran out. */
Value *fs_far_merge(Value *cs);

/* merge(apply(lbind(shift, p), offs)) for a non-empty frozenset p of
 * places or arc-dsl cells, its n keys pk (in any order, repeats allowed),
 * and a frozenset offs, not walked in generation order, of pairs of ints
 * (not bools): a far set of the images' union, holding p and offs, which
 * finds the order merge adds them in only when read in order.  NULL where
 * p is not that, an image would pass +-2^27, the images' region is too
 * large for its bitmap, or memory ran out. */
Value *fs_far_shifts(Value *p, const uint32_t *pk, size_t n, Value *offs);

/* An element's code: its table (0 a place, 1..10 an arc-dsl cell of
 * colour t - 1, as the arena's), i and j, 28 bits each. */
#define FS_FAR_BIAS ((int64_t)1 << 27)
static inline unsigned fs_far_table(uint64_t c) { return (unsigned)(c >> 56); }
static inline int64_t fs_far_i(uint64_t c) { return (int64_t)(c >> 28 & 0xfffffff) - FS_FAR_BIAS; }
static inline int64_t fs_far_j(uint64_t c) { return (int64_t)(c & 0xfffffff) - FS_FAR_BIAS; }

/* The codes of unbuilt far set v's elements inside [0, h) x [0, w), in
 * no order, into out (room for len(v)); their number. */
size_t fs_far_in(const Value *v, int64_t h, int64_t w, uint64_t *out);

/* Whether far set v's elements are arc-dsl cells (else places). */
bool fs_far_cells(const Value *v);

/* Unbuilt far set v's codes, len(v) of them, in no particular order
 * (the same each time), and the element of code c (a new reference, the
 * interned one in the span, NULL where memory ran out). */
const uint64_t *fs_far_codes(const Value *v);
Value *fs_far_value(uint64_t c);
/* The elements of unbuilt far set v whose codes' places in
 * fs_far_codes(v) have their bit set in kept, m >= 1 of them: a far set
 * that finds the order a filter of v adds them in (v's iteration order,
 * those kept) only when read in order.  NULL where memory ran out. */
Value *fs_far_filtered(Value *v, const uint64_t *kept, size_t m);

#endif
