/* fsproduct.h -- frozenset((i, j) for j in b for i in a), its pairs built
 * only when something reads them.
 *
 * A product of two frozensets has distinct pairs, so its CPython layout
 * follows from the pairs' hashes alone, and those from the sources'
 * hashes: fs_product lays the table out at once (which pair, by its
 * insertion index j * len(a) + i, sits in which slot) and makes no pair.
 * Readers that only walk it (apply, sfilter) take the pairs one at a time
 * from fs_product_next; anything else reads v_items, which builds them
 * all, in place, once (fs_build_).  The pair layout it builds is the one
 * ADD-ALL gives, slot for slot.
 *
 * A built or unbuilt product may be shared between threads: the layout it
 * walks is written once, before the value is handed out, and the build
 * runs under a lock, publishing its items with the V_MEMO_UNBUILT bit.
 */
#ifndef ARC_FSPRODUCT_H
#define ARC_FSPRODUCT_H

#include "value.h"

/* Below this many pairs a product is built at once: too small to gain. */
#define FS_PRODUCT_LAZY_MIN 64

/* The product of frozensets a and b (both non-empty, len(a) * len(b) >=
 * FS_PRODUCT_LAZY_MIN), pairs unbuilt; borrows a and b. */
Value *fs_product(Value *a, Value *b);

/* The next pair of unbuilt-or-built product v in iteration order, a new
 * reference; NULL past the last.  *slot starts at 0. */
Value *fs_product_next(const Value *v, size_t *slot);

/* Extra bytes a product's block holds past a frozenset's own. */
size_t fs_product_extra(const Value *v);

/* Release what a product holds (v_free_): its sources, and its pairs once
 * built. */
void fs_product_release(Value *v);

/* The product's sources a and b (borrowed). */
void fs_product_sources(const Value *v, Value **a, Value **b);

/* v_make_atomic's walk into a product: its sources, and its pairs once
 * built (a build after this makes its pairs atomic itself). */
size_t fs_product_make_atomic(Value *v);

#endif
