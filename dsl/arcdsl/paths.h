/* paths.h -- closures that only take items of their argument (compose,
 * power and chain of first, last and identity: functional.c), as the ops
 * that run a fork of two of them over every pair of a product see them. */
#ifndef ARC_ARCDSL_PATHS_H
#define ARC_ARCDSL_PATHS_H

#include "value.h"

/* A closure that takes one side of a pair and walks into it -- a path
 * whose first step is first or last, or color, which reads the first
 * item's [0] -- as the value it gives for each item of that side (val
 * indexes src[side]'s items; malloc'd, borrowed values).  charge: its
 * call and the calls inside one run. */
typedef struct {
    Value **val;
    int side;                   /* the pair's item it takes first: 0 a, 1 b */
    uint64_t charge;
} PairLeaf;

/* *lf for g over the pairs of a product of src[0] and src[1]; false,
 * nothing held, where g is not such a closure or a step cannot be taken
 * on some item (the call's own error decides then). */
bool ad_pair_leaf(const Value *g, Value *const src[2], PairLeaf *lf);

/* Whether g is a closure that fork made (outer, f, g in cap[0..2]). */
bool ad_is_fork(const Value *g);

/* fork(outer, p, q) over the pairs (a, b) of a product of A and B, p and q
 * such leaves, so that a pair's two arguments are looked up, not
 * walked. */
typedef struct {
    Value *outer;               /* borrowed */
    PairLeaf leaf[2];
    size_t n;                   /* len(A) */
    uint64_t charge;            /* one pair's run short of outer's call: the fork's
                                   call and each leaf's run */
} ForkPairs;

/* fp for f over product c (its sources built if need be); false, nothing
 * held, where f is not such a fork or a leaf cannot be taken on some item
 * (the call's own error decides then). */
bool ad_fork_pairs(const Value *f, const Value *c, ForkPairs *fp);
void ad_fork_pairs_free(ForkPairs *fp);

/* Argument k of outer for the pair of A's item i and B's item j - n
 * (insertion index g of the product: i = g % n, j = n + g / n). */
static inline Value *ad_fork_pair_arg(const ForkPairs *fp, int k, size_t i, size_t j)
{
    const PairLeaf *l = &fp->leaf[k];
    return l->val[l->side ? j - fp->n : i];
}

/* apply(f, c) for c a product already laid out (or a subset sfilter
 * kept) and f = fork(outer, x, y), x and y leaves or forks of two
 * leaves: in c's order, its pairs never built (pairfork.c).  false,
 * nothing charged or raised, where that does not apply or a call fails:
 * the calls then run as written. */
bool ad_apply_pairs(Ctx *cx, Value *f, Value *c, Value **r);

#endif
