/* ops.h -- the grid ops the GPU backend runs, and their packed form.
 *
 * A batch travels as an array of GpuGrid records (one per call: dims, two
 * small parameters, cells padded to 30x30), copied to the device in one
 * transfer; results come back in one transfer as GpuGrid records (grid
 * ops) or GpuStats records (colour ops, from which the host rebuilds the
 * exact CPython value).  The host validates every record before a launch,
 * so kernels never index out of range.  C and CUDA both include this.
 */
#ifndef ARC_GPU_OPS_H
#define ARC_GPU_OPS_H

#include <stdbool.h>
#include <stddef.h>
#include <stdint.h>

#ifdef __cplusplus
extern "C" {
#endif

#define GPU_SIDE 30
#define GPU_CELLS (GPU_SIDE * GPU_SIDE)
#define GPU_NOCOLOR 255      /* a parameter no cell can equal */

typedef struct {
    uint8_t h, w;            /* 1..30 on input; output may have h = 0 (), or w = 0 ((),...) */
    uint8_t p0, p1;          /* op parameters (factor, colours; crop's first row and column) */
    uint8_t p2, p3;          /* crop's rows and columns */
    uint8_t pad[2];          /* records stay a whole number of words */
    uint8_t cell[GPU_CELLS]; /* row-major, row stride GPU_SIDE; the colour in the low
                                nibble, GPU_PLANE's in the high one */
} GpuGrid;

typedef struct {
    uint16_t count[10];      /* cells of each colour */
    uint16_t first[10];      /* row-major index of its first cell; GPU_NOFIRST if none */
} GpuStats;
#define GPU_NOFIRST 0xFFFF

/* The ops that take a patch or a second grid carry it in the high nibble
 * of each cell, so a call is still one record: fill/underfill 1 where the
 * patch covers the cell, paint its colour + 1 (the last write in the
 * object's iteration order), cellwise the second grid's colour. */
#define GPU_PLANE(c) ((c) >> 4)
#define GPU_COLOR(c) ((c) & 15)

/* What a parameter must be (validated on the host). */
enum {
    PA_NONE,
    PA_FACTOR,               /* int 1..30 */
    PA_COLOR,                /* int (not bool) 0..9: it lands in the output */
    PA_MATCH,                /* any int: compared with cells; 0..9 or GPU_NOCOLOR */
    PA_FLAG,                 /* any value: its truth (objects' flags) */
    PA_SELECT,               /* int 0..7: o_g's selector */
    PA_PATCH,                /* frozenset of (i, j) or of (v, (i, j)): the plane */
    PA_OBJECT,               /* frozenset of (colour, (i, j)): the plane */
    PA_GRID2,                /* a grid at least as large: the plane */
    PA_START, PA_DIMS,       /* crop's (i, j) and (h, w): ints >= 0, clipped to the grid */
};

/* GOUT_OBJECTS: objects() and its tokpidjin forms; results in the
 * variable-size layout of objscan.h, rebuilt on the host. */
enum { GOUT_GRID, GOUT_STATS, GOUT_OBJECTS };

/* X(ENUM, dsl name, arity, output kind, param 1, param 2) */
#define GPU_OP_LIST(X) \
    X(ROT90,      rot90,      1, GOUT_GRID,  PA_NONE,   PA_NONE)  \
    X(ROT180,     rot180,     1, GOUT_GRID,  PA_NONE,   PA_NONE)  \
    X(ROT270,     rot270,     1, GOUT_GRID,  PA_NONE,   PA_NONE)  \
    X(HMIRROR,    hmirror,    1, GOUT_GRID,  PA_NONE,   PA_NONE)  \
    X(VMIRROR,    vmirror,    1, GOUT_GRID,  PA_NONE,   PA_NONE)  \
    X(DMIRROR,    dmirror,    1, GOUT_GRID,  PA_NONE,   PA_NONE)  \
    X(CMIRROR,    cmirror,    1, GOUT_GRID,  PA_NONE,   PA_NONE)  \
    X(UPSCALE,    upscale,    2, GOUT_GRID,  PA_FACTOR, PA_NONE)  \
    X(HUPSCALE,   hupscale,   2, GOUT_GRID,  PA_FACTOR, PA_NONE)  \
    X(VUPSCALE,   vupscale,   2, GOUT_GRID,  PA_FACTOR, PA_NONE)  \
    X(DOWNSCALE,  downscale,  2, GOUT_GRID,  PA_FACTOR, PA_NONE)  \
    X(REPLACE,    replace,    3, GOUT_GRID,  PA_MATCH,  PA_COLOR) \
    X(SWITCH,     switch,     3, GOUT_GRID,  PA_COLOR,  PA_COLOR) \
    X(TOPHALF,    tophalf,    1, GOUT_GRID,  PA_NONE,   PA_NONE)  \
    X(BOTTOMHALF, bottomhalf, 1, GOUT_GRID,  PA_NONE,   PA_NONE)  \
    X(LEFTHALF,   lefthalf,   1, GOUT_GRID,  PA_NONE,   PA_NONE)  \
    X(RIGHTHALF,  righthalf,  1, GOUT_GRID,  PA_NONE,   PA_NONE)  \
    X(TRIM,       trim,       1, GOUT_GRID,  PA_NONE,   PA_NONE)  \
    X(COMPRESS,   compress,   1, GOUT_GRID,  PA_NONE,   PA_NONE)  \
    X(CROP,       crop,       3, GOUT_GRID,  PA_START,  PA_DIMS)  \
    X(FILL,       fill,       3, GOUT_GRID,  PA_COLOR,  PA_PATCH) \
    X(UNDERFILL,  underfill,  3, GOUT_GRID,  PA_COLOR,  PA_PATCH) \
    X(PAINT,      paint,      2, GOUT_GRID,  PA_OBJECT, PA_NONE)  \
    X(CELLWISE,   cellwise,   3, GOUT_GRID,  PA_GRID2,  PA_COLOR) \
    X(COLORCOUNT, colorcount, 2, GOUT_STATS, PA_MATCH,  PA_NONE)  \
    X(MOSTCOLOR,  mostcolor,  1, GOUT_STATS, PA_NONE,   PA_NONE)  \
    X(LEASTCOLOR, leastcolor, 1, GOUT_STATS, PA_NONE,   PA_NONE)  \
    X(PALETTE,    palette,    1, GOUT_STATS, PA_NONE,   PA_NONE)  \
    X(NUMCOLORS,  numcolors,  1, GOUT_STATS, PA_NONE,   PA_NONE)  \
    X(OBJECTS,    objects,    4, GOUT_OBJECTS, PA_FLAG, PA_FLAG)  \
    X(TK_OBJECTS, tk_objects, 4, GOUT_OBJECTS, PA_FLAG, PA_FLAG)  \
    X(TK_OBJECTS_T, tk_objects_t, 4, GOUT_OBJECTS, PA_FLAG, PA_FLAG) \
    X(TK_O_G,     tk_o_g,     2, GOUT_OBJECTS, PA_SELECT, PA_NONE) \
    X(TK_O_G_T,   tk_o_g_t,   2, GOUT_OBJECTS, PA_SELECT, PA_NONE)

enum {
#define X(e, name, arity, out, pa, pb) GOP_##e,
    GPU_OP_LIST(X)
#undef X
    GOP_COUNT
};

typedef struct {
    const char *name;
    uint8_t arity, out;
    uint8_t param[2];        /* for DSL args 1 and 2 */
} GpuOpInfo;

extern const GpuOpInfo gpu_ops[GOP_COUNT];

/* Whether the op's results are GpuStats (inline: kernels.cu links
 * without the table). */
static inline bool gop_is_stats(int op)
{
    static const unsigned char stats[GOP_COUNT] = {
#define X(e, name, arity, out, pa, pb) out == GOUT_STATS,
        GPU_OP_LIST(X)
#undef X
    };
    return stats[op];
}

static inline bool gop_is_objects(int op)
{
    return op >= GOP_OBJECTS;
}

/* Bytes of one result record (not the objects ops: see objscan.h). */
static inline size_t gpu_out_size(int op)
{
    return gop_is_stats(op) ? sizeof(GpuStats) : sizeof(GpuGrid);
}

/* Host emulation: what the kernels compute, on the CPU, over the same
 * packed records (the --backend=emulate testing aid). */
void gpu_emulate(int op, const GpuGrid *in, void *out, int n);

#ifdef __cplusplus
}
#endif
#endif
