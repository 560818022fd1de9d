/* gridops.h -- primitives the two dialects compute alike, each written
 * once: replace/switch's cell map (recolor.c), corners' set (corners.c),
 * compress's grid (compress.c) and colorfilter's set (colorfilter.c). */
#ifndef ARC_GRIDOPS_H
#define ARC_GRIDOPS_H

#include "value.h"
#include "common/grid_util.h"

/* tuple(tuple(f(v) for v in r) for r in g), f replacing x by y or (sw)
 * switching x and y; `same` tests as `in`/dict lookup do (identity or
 * ==), otherwise as `==`. */
Value *cm_map_cells(Ctx *cx, Value *g, Value *x, Value *y, bool sw, bool same);

/* The dialect's corner k of patch (0 ul, 1 ur, 2 ll, 3 lr): new reference. */
typedef Value *(*CornerFn)(Ctx *cx, Value *patch, int k);

/* frozenset({ulcorner, urcorner, llcorner, lrcorner}) */
Value *cm_corners(Ctx *cx, Value *patch, CornerFn corner);

/* compress over the rows of v: rows, then columns of zip(*rows), holding
 * one value dropped.  *cells: the items kept, for the caller's charge. */
Value *cm_compress(Ctx *cx, const GView *v, size_t *cells);
/* Its two halves, for columns found otherwise (arc-dsl's compress of a
 * frozenset): dropr[i], row i of v holds one value; then the rows not
 * dropped, each without the columns j < nc that dropc marks. */
void cm_compress_rows(const GView *v, bool *dropr);
Value *cm_compress_build(const GView *v, const bool *dropr, const bool *dropc, size_t nc,
                         size_t *cells);

/* frozenset(obj for obj in objs if next(iter(obj))[at] == color): at is
 * the colour's index in a cell (arc-dsl 0, tokpidjin 2); charge: the
 * kept objects count against the budget (arc-dsl's, not tokpidjin's). */
Value *cm_colorfilter(Ctx *cx, Value *objs, Value *color, size_t at, bool charge);

#endif
