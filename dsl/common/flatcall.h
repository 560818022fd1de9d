/* flatcall.h -- a closure called once per item of a container, laid out
 * once as a row of primitive calls.
 *
 * sfilter, apply, argmax and their kin call one closure on every item: a
 * tree of compose, chain, fork, matcher, rbind and lbind over primitives
 * such as first, subtract or even.  Each call of it walks the tree through
 * v_call, each closure's hook and prim_call.  flat_open lays the tree out
 * once as steps, each a primitive's C function on values the steps before
 * made (or the item, or a value a closure holds); flat_call runs them.
 *
 * The steps make the calls the tree makes, in its order, with its charges
 * (a closure's call is charged as v_call charges it, just before its first
 * step), and a primitive that fails fails the same way, so results,
 * exceptions and budgets are the tree's.  Only primitives of constant cost
 * run as steps of their own: any other callee, and under the top closure
 * a closure that calls one, is a step that calls it as the tree would
 * (through the call memo, callmemo.h, which a laid-out closure passes by:
 * the top one meets each item once, and what lies under it costs too
 * little for the memo to keep, MEMO_MIN_WORK).
 */
#ifndef ARC_FLATCALL_H
#define ARC_FLATCALL_H

#include "value.h"

#define FLAT_STEPS 16

typedef struct {
    void *fn;                   /* PrimFn of a primitive step; NULL: see callee */
    Value *callee;              /* a step called as the tree would (borrowed) */
    int16_t prim;
    uint8_t argc;
    uint8_t charge;             /* charged just before it runs */
    bool eq;                    /* matcher: src[0] == the value held at src[1] */
    int8_t src[3];              /* FLAT_ITEM, FLAT_HELD + k, or an earlier step */
} FlatStep;

typedef struct {
    int n;                      /* steps; 0: f is called as it is */
    Value *f;
    FlatStep s[FLAT_STEPS];
    Value *held[FLAT_STEPS];    /* values the closures hold (borrowed) */
    int nheld;
} FlatCall;

/* Lays f out for calls on each item of container c, where that pays: a
 * closure of the shapes above, over a frozenset of a few items or more.
 * A tuple may hold an item twice, whose second call the memo of the top
 * closure answers: its items are called through the tree. */
void flat_open(FlatCall *fc, Value *f, const Value *c);

/* f(x), as prim_call(cx, f, 1, &x) makes it: a new reference, or NULL
 * with the exception raised. */
Value *flat_call(Ctx *cx, const FlatCall *fc, Value *x);

#endif
