/* objwalk.h -- objects(grid, univalued, diagonal, without_bg) of either
 * dialect, for grids of any size (objwalk.c). */
#ifndef ARC_OBJWALK_H
#define ARC_OBJWALK_H

#include "common/cells.h"

/* The objects of grid, background bg (V_NONE_ for none): a frozenset of
 * frozensets of cells, or with as_tuple a tuple of tuples in the order the
 * walk finds them; NULL with the exception in cx.  bg is borrowed. */
Value *objwalk(Ctx *cx, Value *grid, bool univalued, bool diagonal, Value *bg, bool as_tuple,
               ObjCell cell);

#endif
