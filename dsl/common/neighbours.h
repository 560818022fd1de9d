/* neighbours.h -- the neighbour directions, their iteration order and
 * hash((i, j)) (neighbours.c), for objects() of both dialects
 * (common/objwalk.c) and the GPU's objects path (gpu/gpu_objects.c);
 * and dneighbors/ineighbors/neighbors' sets, made and kept alike by both
 * dialects. */
#ifndef ARC_NEIGHBOURS_H
#define ARC_NEIGHBOURS_H

#include "value.h"

/* The neighbour directions, by index: (-1,0) (1,0) (0,-1) (0,1) (-1,-1)
 * (-1,1) (1,-1) (1,1); the first four are dneighbors'. */
extern const int8_t ad_nb_di[8], ad_nb_dj[8];
/* Iteration order of dneighbors((i, j)) (4) or neighbors((i, j)) (8) as
 * direction indices. */
int ad_nb_order(int64_t i, int64_t j, bool diag, int8_t out[8]);
/* hash((a, b)) of two ints, as CPython 3.11 computes it */
uint64_t ad_pair_hash(int64_t a, int64_t b);

/* frozenset({p[0], p[1], p[2], p[3]}): a set display, then a COPY, so
 * the iteration order is CPython's; the four pairs are taken. */
Value *ad_nb_set4(Value *p[4]);

/* The slot (pyset.h fs_kept/fs_keep) of dneighbors (AD_NB_D),
 * ineighbors (AD_NB_I) or neighbors (AD_NB_ALL) of loc, a place of small
 * ints: they depend on nothing else, so they are made once and cloned
 * after.  NULL for any other loc, and past a window that keeps every
 * neighbour an interned place (so a clone is item for item a fresh set). */
enum { AD_NB_D, AD_NB_I, AD_NB_ALL };
Value **ad_nb_kept(const Value *loc, int kind);

/* loc[x] + d (d != 0) as the dialect adds: a new reference, or NULL with
 * an error raised. */
typedef Value *(*NbPlus)(Ctx *cx, Value *c, int d);
/* frozenset({four offsets of loc}), directions first..first+3, loc a
 * tuple of two or more items (the caller's checks and charges done): an
 * unshifted coordinate is loc's own; kept where ad_nb_kept has a slot. */
Value *cm_nbrs4(Ctx *cx, Value *loc, int first, NbPlus plus);
/* The dialect's dneighbors (first 0) or ineighbors (4) of loc. */
typedef Value *(*NbHalf)(Ctx *cx, Value *loc, int first);
/* neighbors(loc) = dneighbors(loc) | ineighbors(loc), kept where
 * ad_nb_kept has a slot; a kept one charged 4 and 4 (charge) as its
 * halves would be. */
Value *cm_neighbors(Ctx *cx, Value *loc, NbHalf half, bool charge);

#endif
