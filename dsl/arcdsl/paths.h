/* paths.h -- closures that only take items of their argument (compose,
 * power and chain of first, last and identity: functional.c), as the ops
 * that run a fork of two of them over every pair of a product see them. */
#ifndef ARC_ARCDSL_PATHS_H
#define ARC_ARCDSL_PATHS_H

#include "value.h"

/* fork(outer, p, q) over the pairs (a, b) of a product of A and B, p and q
 * such closures whose first step takes a or b: what each gives for every
 * item of A and of B, so that a pair's two arguments are looked up, not
 * walked. */
typedef struct {
    Value *outer;               /* borrowed */
    Value **val[2];             /* path k's value from item i of A (i < n), of B (n + i) */
    int side[2];                /* the pair's item path k takes first: 0 a, 1 b */
    size_t n;                   /* len(A) */
    uint64_t charge;            /* one pair's run short of outer's call: the fork's
                                   call, each path's run and its own call */
} ForkPairs;

/* fp for f over product c (its sources built if need be); false, nothing
 * held, where f is not such a fork or a path cannot be taken on some item
 * (the call's own error decides then). */
bool ad_fork_pairs(const Value *f, const Value *c, ForkPairs *fp);
void ad_fork_pairs_free(ForkPairs *fp);

/* Argument k of outer for the pair of A's item i and B's item j - n
 * (insertion index g of the product: i = g % n, j = n + g / n). */
static inline Value *ad_fork_pair_arg(const ForkPairs *fp, int k, size_t i, size_t j)
{
    return fp->val[k][fp->side[k] ? j : i];
}

#endif
