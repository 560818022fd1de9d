/* ops_host.c -- the op table, and the kernels' work done on the CPU over
 * the same packed records: --backend=emulate runs the whole GPU path
 * (validation, packing, unpacking, compare) without a device. */
#include <stdlib.h>
#include <string.h>
#include "objscan.h"
#include "ops_cell.h"

const GpuOpInfo gpu_ops[GOP_COUNT] = {
#define X(e, name, arity, out, pa, pb) {#name, arity, out, {pa, pb}},
    GPU_OP_LIST(X)
#undef X
};

static void emulate_compress(const GpuGrid *g, GpuGrid *o)
{
    int rows[GPU_SIDE], cols[GPU_SIDE], nr = 0, nc = 0;
    for (int i = 0; i < g->h; i++)
        if (!gop_row_uniform(g, i))
            rows[nr++] = i;
    for (int j = 0; j < g->w; j++)
        if (!gop_col_uniform(g, j))
            cols[nc++] = j;
    o->h = (uint8_t)nr;
    o->w = (uint8_t)(nr ? nc : 0);
    for (int i = 0; i < nr; i++)
        for (int j = 0; j < nc; j++)
            o->cell[i * GPU_SIDE + j] = g->cell[rows[i] * GPU_SIDE + cols[j]];
}

static void emulate_stats(const GpuGrid *g, GpuStats *s)
{
    for (int c = 0; c < 10; c++) {
        s->count[c] = 0;
        s->first[c] = GPU_NOFIRST;
    }
    for (int i = 0; i < g->h; i++)
        for (int j = 0; j < g->w; j++) {
            int v = g->cell[i * GPU_SIDE + j];
            if (!s->count[v]++)
                s->first[v] = (uint16_t)(i * g->w + j);
        }
}

void gpu_emulate(int op, const GpuGrid *in, void *out, int n)
{
    for (int k = 0; k < n; k++) {
        const GpuGrid *g = &in[k];
        if (gpu_ops[op].out == GOUT_STATS) {
            emulate_stats(g, (GpuStats *)out + k);
            continue;
        }
        GpuGrid *o = (GpuGrid *)out + k;
        if (op == GOP_COMPRESS) {
            emulate_compress(g, o);
            continue;
        }
        int oh, ow;
        gop_shape(op, g, &oh, &ow);
        o->h = (uint8_t)oh;
        o->w = (uint8_t)ow;
        for (int i = 0; i < oh; i++)
            for (int j = 0; j < ow; j++)
                o->cell[i * GPU_SIDE + j] = (uint8_t)gop_cell(op, g, i, j);
    }
}

void gpu_emulate_objects(int n, int shape, const ObjTables *T, const GpuGrid *in,
                         const uint32_t *off, uint16_t *out)
{
    ObjGrid *G = malloc(sizeof *G);
    ObjWalk *s = malloc(sizeof *s);
    if (!G || !s)
        abort();
    for (int k = 0; k < n; k++) {
        objscan_label(&in[k], T, G);
        for (uint32_t r = 0; r < G->nobj; r++)
            objscan_walk(&in[k], shape, T, G, (int)r, s, out + off[k]);
        objscan_objs(&in[k], shape, T, G, s, out + off[k]);
    }
    free(G);
    free(s);
}
