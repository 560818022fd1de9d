/* gridops.h -- primitives the two dialects compute alike, each written
 * once: replace/switch's cell map (recolor.c), corners' set (corners.c),
 * compress's grid (compress.c), colorfilter's set (colorfilter.c), the
 * grid mirrors and turns (mirror.c), grid upscaling (upscale.c) and
 * connect's line on places of any kind (connect.c). */
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

/* Every row of tuple or frozenset g a tuple, as row[::-1] needs;
 * TypeError at the first that is not, the rows read last to first where
 * the reference reverses them first (grid[::-1]). */
bool cm_rows_sliceable(Ctx *cx, const Value *g, bool reversed);

/* g[::-1] of tuple g, a byte grid's as bytes; charge: its len, after
 * (arc-dsl's hmirror; tokpidjin's charges nothing). */
Value *cm_rows_reversed(Ctx *cx, const Value *g, bool charge);

/* tuple(row[::-1] for row in g), the rows in reverse order too when rev,
 * over a tuple or frozenset g whose rows are tuples (else TypeError);
 * charge: the cells, after (arc-dsl's vmirror, rot180; tokpidjin's
 * vmirror charges nothing). */
Value *cm_flip_rows(Ctx *cx, const Value *g, bool rev, bool charge);

/* Byte grid g turned by t (GU_ROT90 ...), its cells charged first. */
Value *cm_turn_bytes(Ctx *cx, const Value *g, int t);

/* zip(*g)'s view of a tuple or frozenset g of iterables, as tokpidjin
 * reads it: each row checked in order, w the shortest, h * w charged, and
 * only then the rows' items read (a lazy row made), none when w is 0. */
bool cm_zip_rows(Ctx *cx, const Value *g, GView *v);

/* The rows of view v zipped and turned by t: w rows of h, uncharged (the
 * caller charges h * w first).  flat: the grid's rows are (v_rows_flat),
 * so the result's are. */
Value *cm_turn_view(const GView *v, int t, bool flat);

/* How cm_upscale scales: each item of a row f times (H), each row f
 * times (V); ROWS: h * f charged more (tokpidjin's upscale_t); FLAT: a
 * row made from a flat row is marked flat (arc-dsl's). */
enum { CM_UP_H = 1, CM_UP_V = 2, CM_UP_ROWS = 4, CM_UP_FLAT = 8 };

/* hupscale/vupscale/upscale of a tuple or frozenset of rows g: factor
 * read (an int, else TypeError) only where the reference's range(factor)
 * runs, and f <= 0 repeats nothing.  A byte grid stays one. */
Value *cm_upscale(Ctx *cx, Value *g, Value *factor, int how);

/* n cells about to be made: charged to the budget, or false raised
 * (the dialect's own bound and words). */
typedef bool (*CmChargeFn)(Ctx *cx, uint64_t n);

/* frozenset of (fi or i, fj or j) for i, j in zip(range(i0, i1, si),
 * range(j0, j1, sj)), si and sj 1 or -1; a NULL fixed value takes its
 * range's numbers */
Value *cm_zip_line(Ctx *cx, Value *fi, int64_t i0, int64_t i1, int64_t si,
                   Value *fj, int64_t j0, int64_t j1, int64_t sj, CmChargeFn charge);

/* connect(a, b) as the reference's body runs it on a's items ai, aj and
 * b's bi, bj of any kind: min, max, + 1 and - as Python computes them,
 * in its order, then ranges of ints, a fixed coordinate kept as it is. */
Value *cm_connect_any(Ctx *cx, Value *ai, Value *aj, Value *bi, Value *bj, CmChargeFn charge);

#endif
