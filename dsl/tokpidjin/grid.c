/* tokpidjin primitives: grid group (cells are (i, j, color)). */
#include "prim.h"

const PrimImpl tk_impls_grid[] = {
    {NULL, NULL},
};
