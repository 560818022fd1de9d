/* fsrect.h -- frozenset((i, j) for i in range(i0, i1 + 1) for j in
 * range(j0, j1 + 1)), as backdrop and asindices make it, built only
 * when something reads it in order.
 *
 * Its places are distinct and go in row by row, so its layout follows
 * from their hashes alone; its length and box are set at once, its hash
 * when asked, its keys listed row by row in the interned span.  fill,
 * paint, recolor's cells, merges and set algebra on keys read it as it
 * is.
 */
#ifndef ARC_FSRECT_H
#define ARC_FSRECT_H

#include "value.h"

/* Smaller rectangles are laid out at once: most are read in order. */
#define FS_RECT_LAZY_MIN 16

/* The rectangle i0..i1 x j0..j1 of at least FS_RECT_LAZY_MIN places,
 * within +-2^31 (the caller bounds its size). */
Value *fs_rect(int64_t i0, int64_t j0, int64_t i1, int64_t j1);

#endif
