/* fsderived.h -- frozensets made item by item from a set whose order is
 * not made yet, laid out only when something reads them in order.
 *
 * apply, sfilter and remove build frozenset(f(e) for e in s): an ADD-ALL
 * in s's iteration order.  When s is a product or another such set that
 * nothing has read in order (fs_gen_lazy), the calls run instead in s's
 * generation order, the order its items were made in (a product's
 * insertion order), which needs no table (dsl/common/core_util.h: apply
 * over both, the filters over derived sets).  The result keeps its distinct
 * members (a tuple, in first-generation order) and, for each of s's
 * items, the member it gave (or none).  Its length, hash, box and keys
 * follow from the members, so fill, paint, merge, size and equality read
 * it as it is.  Read in order, it takes s's order (laying s out first),
 * visits the members in that order, and lays out their first occurrences:
 * the table ADD-ALL leaves, since adding a member again changes nothing.
 *
 * The calls ran in another order than CPython's: the callers undo the
 * whole walk (its charges too) and walk s in order wherever a call
 * raises or the budget runs out, so which exception, and when, stays
 * CPython's; and wherever two members are equal but could read
 * differently (1 and True), so the member kept stays the first in order.
 */
#ifndef ARC_FSDERIVED_H
#define ARC_FSDERIVED_H

#include "value.h"

/* Whether v is a frozenset whose order is not made yet and that can be
 * walked in generation order: an unbuilt product or derived set. */
bool fs_gen_lazy(const Value *v);

/* A walk of fs_gen_lazy v in generation order, each item borrowed until
 * the next. */
typedef struct {
    const Value *v;
    size_t g, n;
    Value *spare;               /* a product's pair handed out last */
    Value *const *mem;          /* a derived set's members */
} FsGenWalk;

FsGenWalk fs_gen_walk(const Value *v);
/* The next item, or NULL at the end (the walk is then released). */
Value *fs_gen_next(FsGenWalk *w);
/* A walk left before its end. */
void fs_gen_stop(FsGenWalk *w);

/* Whether a and b, equal, also read the same everywhere (repr, type),
 * as far as a cheap look tells; false when unsure. */
bool fs_gen_same(const Value *a, const Value *b);

/* The frozenset of fs_gen_lazy s's items mapped: item g (generation
 * order) gave member map[g] of mem[0..nmem) (-1: none); mem's references
 * are taken, map is copied. */
Value *fs_derived(Value *s, const int32_t *map, Value **mem, size_t nmem);

/* The same for a filter: mem are the items g with bit g of kept set, in
 * generation order. */
Value *fs_derived_filtered(Value *s, const uint64_t *kept, Value **mem, size_t nmem);

/* Whether v is a derived set. */
bool fs_is_derived(const Value *v);

/* A frozenset's items in some order: a derived set's members while it is
 * not laid out (nothing is built), else its items. */
Value *const *fs_members_any(const Value *v);

#endif
