/* gpu_objects.h -- the host half of the GPU's objects ops (GOP_OBJECTS and
 * after): which primitive each stands for, packing, rebuilding values. */
#ifndef ARC_GPU_OBJECTS_H
#define ARC_GPU_OBJECTS_H

#include "objscan.h"
#include "value.h"

/* rec's dims and cells from a grid value (p0 = p1 = 0); NULL, or why it
 * cannot be packed: not a non-empty tuple of equal tuples of ints 0..9 of
 * at most 30x30. */
const char *gpu_pack_grid(const Value *g, GpuGrid *rec);
/* mostcolor of a packed grid as both dialects compute it on int grids
 * (objects' background, underfill's) */
int gpu_packed_mostcolor(const GpuGrid *rec);
int gobj_prim(int op);                    /* PRIM_* the op runs */
int gobj_shape(int op);                   /* OBJ_FSET or OBJ_TUPLE */
const ObjTables *gobj_tables(int op);     /* its dialect's tables */
/* NULL, or why argument k (1-based) keeps the call on the CPU */
const char *gobj_param_ok(int op, int k, const Value *v);
/* p0/p1 of a record whose grid is packed; NULL, or why not */
const char *gobj_pack(int op, Value *const *params, GpuGrid *rec);
/* The value the CPU would return, from the scan's output for rec */
Value *gobj_value(int op, const GpuGrid *rec, const uint16_t *out);

#endif
