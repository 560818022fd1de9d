/* fsproduct.h -- frozenset((i, j) for j in b for i in a), its pairs built
 * only when something reads them.
 *
 * A product of two frozensets has distinct pairs, so its CPython layout
 * follows from the pairs' hashes alone, and those from the sources'
 * hashes: the table (which pair, by its insertion index j * len(a) + i,
 * sits in which slot) is laid out when something first reads the product
 * in order, and no pair is made for it.  Readers to whom the order cannot
 * matter walk the pairs in insertion order instead (fsderived.h).
 * Readers that only walk it (apply, sfilter) take the pairs one at a time
 * from fs_product_next; anything else reads v_items, which builds them
 * all, in place, once (fs_build_).  The pair layout it builds is the one
 * ADD-ALL gives, slot for slot.
 *
 * A product is a recipe frozenset (fsrecipe.h): the layout it walks is
 * written once, before the value is handed out, and fsrecipe.c builds,
 * frees and shares it.
 */
#ifndef ARC_FSPRODUCT_H
#define ARC_FSPRODUCT_H

#include "value.h"

/* Below this many pairs a product is built at once: too small to gain. */
#define FS_PRODUCT_LAZY_MIN 64

/* The product of frozensets a and b (both non-empty, len(a) * len(b) >=
 * FS_PRODUCT_LAZY_MIN), pairs unbuilt, hash set; borrows a and b. */
Value *fs_product(Value *a, Value *b);

/* The next pair of unbuilt-or-built product v in iteration order, a new
 * reference; NULL past the last.  *slot starts at 0.  spare: the last
 * pair handed out (or NULL), given back: refilled if nothing kept it. */
Value *fs_product_next(const Value *v, size_t *slot, Value *spare);

/* The same, with *at the pair's insertion index (j * len(a) + i). */
Value *fs_product_next_at(const Value *v, size_t *slot, Value *spare, uint32_t *at);

/* frozenset of the n pairs of unbuilt product p at insertion indices
 * at[], added in that order (distinct pairs: p's, in p's order, as
 * sfilter keeps them), their hashes h[]: a product on p's sources with
 * its own layout, pairs unbuilt, hash set. */
Value *fs_product_subset(const Value *p, const uint32_t *at, const int64_t *h, size_t n);

/* Whether product v (not a subset: fs_product_subset lays those out at
 * once) has no table yet: then its pairs can be walked by insertion
 * index, fs_product_pair. */
bool fs_product_unlaid(const Value *v);

/* Pair g (insertion index j * len(a) + i) of product v, a new reference;
 * spare as for fs_product_next. */
Value *fs_product_pair(const Value *v, size_t g, Value *spare);

/* v's table: the insertion index of the pair in each slot (-1 empty),
 * mask + 1 of them, laid out if nothing had. */
const int32_t *fs_product_slots(const Value *v);

/* Whether recipe frozenset v is a product (fsrecipe.h). */
bool fs_is_product(const Value *v);

#endif
