/* ops_cell.h -- the arithmetic of each grid op, written once for the
 * kernels (kernels.cu) and the host emulation (ops_host.c): output shape
 * and, per output cell, the source cell it reads.  The shapes follow the
 * reference's slicing exactly, empty results included (tophalf of one row
 * is (), trim of a 3x2 grid is ((),)). */
#ifndef ARC_GPU_OPS_CELL_H
#define ARC_GPU_OPS_CELL_H

#include "ops.h"

#ifdef __CUDACC__
#define GPU_HD __host__ __device__
#else
#define GPU_HD
#endif

/* Output dims of a grid op; compress gives its bound (the real shape
 * depends on the cells).  oh == 0 means the empty tuple. */
GPU_HD static inline void gop_shape(int op, const GpuGrid *g, int *oh, int *ow)
{
    int h = g->h, w = g->w, f = g->p0, a = h, b = w;
    switch (op) {
    case GOP_ROT90: case GOP_ROT270: case GOP_DMIRROR: case GOP_CMIRROR:
        a = w; b = h; break;
    case GOP_UPSCALE: a = h * f; b = w * f; break;
    case GOP_HUPSCALE: b = w * f; break;
    case GOP_VUPSCALE: a = h * f; break;
    case GOP_DOWNSCALE: a = (h + f - 1) / f; b = (w + f - 1) / f; break;
    case GOP_TOPHALF: case GOP_BOTTOMHALF: a = h / 2; break;
    /* rot270(tophalf(rot90(g))): () when the half has no columns */
    case GOP_LEFTHALF: case GOP_RIGHTHALF: b = w / 2; a = b ? h : 0; break;
    case GOP_TRIM: a = h > 2 ? h - 2 : 0; b = w > 2 ? w - 2 : 0; break;
    case GOP_CROP: a = g->p2; b = g->p3; break;   /* clipped on the host */
    default: break;
    }
    if (a == 0)
        b = 0;
    *oh = a;
    *ow = b;
}

/* Value of output cell (i, j) for every grid op but compress. */
GPU_HD static inline int gop_cell(int op, const GpuGrid *g, int i, int j)
{
    int h = g->h, w = g->w, f = g->p0, si = i, sj = j;
    switch (op) {
    case GOP_ROT90: si = h - 1 - j; sj = i; break;
    case GOP_ROT180: si = h - 1 - i; sj = w - 1 - j; break;
    case GOP_ROT270: si = j; sj = w - 1 - i; break;
    case GOP_HMIRROR: si = h - 1 - i; break;
    case GOP_VMIRROR: sj = w - 1 - j; break;
    case GOP_DMIRROR: si = j; sj = i; break;
    case GOP_CMIRROR: si = h - 1 - j; sj = w - 1 - i; break;
    case GOP_UPSCALE: si = i / f; sj = j / f; break;
    case GOP_HUPSCALE: sj = j / f; break;
    case GOP_VUPSCALE: si = i / f; break;
    case GOP_DOWNSCALE: si = i * f; sj = j * f; break;
    case GOP_BOTTOMHALF: si = i + h / 2 + h % 2; break;
    case GOP_RIGHTHALF: sj = j + w - w / 2; break;
    case GOP_TRIM: si = i + 1; sj = j + 1; break;
    case GOP_CROP: si = i + g->p0; sj = j + g->p1; break;
    default: break;   /* tophalf, lefthalf, replace, switch: same place */
    }
    int c = g->cell[si * GPU_SIDE + sj], v = GPU_COLOR(c), plane = GPU_PLANE(c);
    switch (op) {
    case GOP_FILL: return plane ? g->p0 : v;
    case GOP_UNDERFILL: return plane && v == g->p1 ? g->p0 : v;   /* p1: mostcolor */
    case GOP_PAINT: return plane ? plane - 1 : v;
    case GOP_CELLWISE: return v == plane ? v : g->p1;
    default: break;
    }
    if (op == GOP_REPLACE)
        return v == g->p0 ? g->p1 : v;
    if (op == GOP_SWITCH)
        return v == g->p0 ? g->p1 : v == g->p1 ? g->p0 : v;
    return v;
}

/* compress drops the rows and columns of one colour (len(set(r)) == 1). */
GPU_HD static inline bool gop_row_uniform(const GpuGrid *g, int i)
{
    const uint8_t *r = g->cell + i * GPU_SIDE;
    for (int j = 1; j < g->w; j++)
        if (r[j] != r[0])
            return false;
    return true;
}

GPU_HD static inline bool gop_col_uniform(const GpuGrid *g, int j)
{
    for (int i = 1; i < g->h; i++)
        if (g->cell[i * GPU_SIDE + j] != g->cell[j])
            return false;
    return true;
}

#endif
