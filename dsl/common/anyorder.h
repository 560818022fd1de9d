/* anyorder.h -- a patch's places, or an object's cells, read in no
 * particular order, for readers whose result no order can change: fill
 * and underfill always, paint and underpaint while no two cells put
 * different colours at one place.  An unbuilt set (fsrecipe.h) is then
 * read from its arena keys and never laid out. */
#ifndef ARC_ANYORDER_H
#define ARC_ANYORDER_H

#include "common/grid_util.h"

/* 1: *out (malloc'd) and *n hold the places of toindices(patch), repeats
 * allowed; 0: patch is not an unbuilt set of places or of arc-dsl cells
 * (read it in order); -1: raised. */
int ao_locs(Ctx *cx, const Value *patch, GLoc **out, size_t *n);

/* The same for the cells of `for c, (i, j) in obj`: 0 unless every
 * element is an arc-dsl cell.  ordered: in obj's iteration order, found
 * from its keys (its table still not made). */
int ao_cells(Ctx *cx, const Value *obj, GCell **out, size_t *n, bool ordered);

/* ao_locs and ao_cells (in no order) for readers that drop what lies
 * outside an h x w grid (fill, paint): an unbuilt far set (fsfar.h) gives
 * only its elements inside, the rest never made. */
int ao_locs_in(Ctx *cx, const Value *patch, size_t h, size_t w, GLoc **out, size_t *n);
int ao_cells_in(Ctx *cx, const Value *obj, size_t h, size_t w, GCell **out, size_t *n);

/* Whether two of the n cells lie at one place of an h x w grid with
 * different colours: then the order decides which one shows. */
bool ao_clash(const GCell *c, size_t n, size_t h, size_t w);

#endif
