/* fskeys.h -- frozensets of interned tuples kept as keys in insertion
 * order, laid out only when something reads them in order.
 *
 * A frozenset of distinct elements added in a known order has a table
 * that follows from that order alone (fsdistinct.h).  When every element
 * is an interned tuple (a place or an arc-dsl cell) the set keeps just
 * that: the elements' arena keys (fsrecipe.h), four bytes each, in the
 * order they went in.  Length, hash and box follow from the keys at
 * once, no source is held, and the table is made on the first ordered
 * read.  fill reads the keys in no order, paint too unless two colours
 * meet at a place (dsl/common/anyorder.h), and a set made from these
 * (a merge, a recolor) takes its insertion order from their laid-out
 * keys without making their tables.
 */
#ifndef ARC_FSKEYS_H
#define ARC_FSKEYS_H

#include "value.h"
#include "fsrecipe.h"

/* Smaller merges are built at once. */
#define FS_KEYS_MERGE_MIN 32

/* merge(cs), frozenset(e for c in cs for e in c), for a frozenset cs of
 * total >= FS_KEYS_MERGE_MIN elements (with repeats) or of members not
 * yet laid out, every member a frozenset of interned places and arc-dsl
 * cells; NULL when cs is not that (the caller merges as usual) or memory
 * ran out. */
Value *fs_keys_merge(Value *cs, size_t total);

/* What the n distinct arena keys k (places and arc-dsl cells) of the
 * frozenset v tell of it: V_FLAG_FLAT, the bounding box where they are
 * all places or all cells, V_MEMO_CELLS where all cells; the tables they
 * lie in (bit t), returned. */
uint32_t fs_keys_note(Value *v, const uint32_t *k, size_t n);

/* a & b, frozenset((*a, *b)) and frozenset(e for e in a if e not in b)
 * for frozensets a and b of places and arc-dsl cells, one of them a
 * recipe that lists its keys without being laid out: as CPython lays the
 * result out, kept as keys until read in order.  NULL where that does
 * not apply (a side holds anything else, neither side is such a recipe,
 * memory ran out): the caller's eager path. */
Value *fs_keys_and(const Value *a, const Value *b);
Value *fs_keys_concat(Value *a, Value *b);
Value *fs_keys_minus(const Value *a, const Value *b);
/* len(a & b) for frozensets a and b of interned tuples, one of them a
 * recipe that lists its keys without being laid out: the keys both hold,
 * counted, nothing made.  -1 where that does not apply. */
long fs_keys_and_len(const Value *a, const Value *b);

/* Whether v is a set of these holding places only. */
bool fs_keys_places(const Value *v);

/* recolor(c, p) for a colour c in 0..9 (an int, not a bool) and a
 * non-empty frozenset p that is a set of these holding places, or any
 * frozenset of interned arc-dsl cells only: frozenset((c, q) for q in
 * toindices(p)), its len the places', laid out when read in order; NULL
 * where p is neither (or memory ran out). */
Value *fs_keys_recolor(Value *c, Value *p);

/* toindices(p) for a frozenset p of arc-dsl cells that is a recipe
 * listing its keys unlaid (a lazy object, a coloured line, a union): its
 * places, laid out in p's order only when read in order; NULL where p is
 * not that (the caller's eager path). */
Value *fs_keys_toindices(Value *p);

/* A frozenset's keys in iteration order, to be moved by shift: all
 * places or all arc-dsl cells, with their tables and box. */
typedef struct {
    const uint32_t *k;          /* borrowed */
    size_t n;
    uint32_t tables;
    int64_t box[4];             /* i0, j0, i1, j1 */
} FsMoveSrc;
/* *m from the n distinct keys k; false where there are none or they are
 * not all places or all arc-dsl cells. */
bool fs_keys_move_from(const uint32_t *k, size_t n, FsMoveSrc *m);
/* shift's image of m's frozenset by (di, dj): the moved keys in that
 * order, laid out when read in order; NULL where one would leave the
 * interned span.  A merge of such sets stays a union of them
 * (fs_keys_merge), so that fill, and paint where no two colours meet,
 * never order them. */
Value *fs_keys_moved(const FsMoveSrc *m, int64_t di, int64_t dj);
/* The same for m's keys listed in no order from src, a frozenset not laid
 * out yet, which the image holds: its order, src's moved, is made only
 * when read (neither set gets a table for fill or paint). */
Value *fs_keys_moved_view(const FsMoveSrc *m, int64_t di, int64_t dj, Value *src);

/* The frozenset n >= 1 distinct keys k of places or arc-dsl cells make,
 * added in that order: kept as the keys until read in order. */
Value *fs_keys_of(const uint32_t *k, size_t n);

/* Whether n distinct items may be kept as keys: enough of them, the
 * first a place or an arc-dsl cell (fs_from_interned tells the rest). */
static inline bool fs_keys_may(Value **items, size_t n)
{
    if (n < FS_KEYS_MERGE_MIN)
        return false;
    int64_t k = fs_arena_key(items[0]);
    return k >= 0 && k < (int64_t)FS_KEY_ARCDSL * FS_KEY_TABLE;
}

/* frozenset(items) for n interned tuples (any table) added in that order,
 * repeats allowed: the first of each laid out as distinct, or, for
 * FS_KEYS_MERGE_MIN or more places or arc-dsl cells, kept as their keys
 * until read in order (fill reads them in none).  items[] is rewritten
 * (the firsts moved to the front), even where NULL comes back because one
 * is not interned. */
Value *fs_from_interned(Value **items, size_t n);

#endif
