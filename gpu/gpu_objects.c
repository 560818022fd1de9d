/* gpu_objects.c -- the host half of the GPU's objects ops: the tables the
 * scan hashes with, each call's flags and background, and the values
 * rebuilt from the scan's layouts (gpu/objscan.h).
 *
 * Cells are shared immortal values, one per dialect, colour and location,
 * made once: a result holds references to them instead of new tuples,
 * which is what makes rebuilding cheaper than the CPU's own scan.  Their
 * hashes come from pyhash.c, the same numbers the CPU path uses. */
#include "gpu_objects.h"
#include "common/neighbours.h"
#include "prim.h"
#include "pyset.h"
#include "vgrid.h"

#include <pthread.h>
#include <stdlib.h>
#include <string.h>

static ObjTables tables[DIALECT_COUNT];
static Value *cells[DIALECT_COUNT][10][OS_KEYS];
static pthread_once_t once = PTHREAD_ONCE_INIT;

/* asindices(grid)'s order for every shape: the pairs added row-major */
static void orders(ObjTables *T)
{
    static int16_t store[OS_CAP], spare[OS_CAP];
    OHash HL = {OH_TABLE, T->loc, T, NULL};
    uint32_t at = 0;
    for (int h = 1; h <= GPU_SIDE; h++)
        for (int w = 1; w <= GPU_SIDE; w++) {
            OSet all;
            os_init(&all, store);
            for (int i = 0; i < h; i++)
                for (int j = 0; j < w; j++)
                    os_add(&all, &HL, (int16_t)(i * 32 + j), spare);
            T->order_at[h][w] = at;
            for (uint32_t x = 0; x <= all.mask; x++)
                if (all.t[x] >= 0)
                    T->order[at++] = all.t[x];
        }
}

static void build(void)
{
    for (int d = 0; d < DIALECT_COUNT; d++) {
        ObjTables *T = &tables[d];
        memset(T, 0, sizeof *T);
        memcpy(T->di, ad_nb_di, 8);
        memcpy(T->dj, ad_nb_dj, 8);
        for (int i = 0; i < 32; i++)
            for (int j = 0; j < 32; j++) {
                int k = i * 32 + j;
                Value *loc = NULL;        /* arc-dsl's cells hold it */
                if (d == DIALECT_ARCDSL) {
                    loc = v_pair_int(i, j);
                    v_make_shared(loc);
                }
                T->loc[k] = ad_pair_hash(i, j);
                ad_nb_order(i, j, false, T->nb[0][k]);
                ad_nb_order(i, j, true, T->nb[1][k]);
                for (int c = 0; c < 10; c++) {
                    Value *cell;
                    if (d == DIALECT_ARCDSL) {
                        cell = v_tuple2(v_int(c), loc);
                    } else {
                        cell = v_tuple_new(3);
                        v_titems(cell)[0] = v_int(i);
                        v_titems(cell)[1] = v_int(j);
                        v_titems(cell)[2] = v_int(c);
                    }
                    v_make_shared(cell);
                    T->cell[c][k] = (uint64_t)v_hash(cell);
                    cells[d][c][k] = cell;
                }
            }
        if (d == 0) {
            orders(T);
        } else {
            memcpy(T->order_at, tables[0].order_at, sizeof T->order_at);
            memcpy(T->order, tables[0].order, sizeof T->order);
        }
    }
}

static const struct { int prim, dialect, shape; bool select; } spec[] = {
    [GOP_OBJECTS - GOP_OBJECTS] = {PRIM_AD_objects, DIALECT_ARCDSL, OBJ_FSET, false},
    [GOP_TK_OBJECTS - GOP_OBJECTS] = {PRIM_TK_objects, DIALECT_TOKPIDJIN, OBJ_FSET, false},
    [GOP_TK_OBJECTS_T - GOP_OBJECTS] = {PRIM_TK_objects_t, DIALECT_TOKPIDJIN, OBJ_TUPLE, false},
    [GOP_TK_O_G - GOP_OBJECTS] = {PRIM_TK_o_g, DIALECT_TOKPIDJIN, OBJ_FSET, true},
    [GOP_TK_O_G_T - GOP_OBJECTS] = {PRIM_TK_o_g_t, DIALECT_TOKPIDJIN, OBJ_TUPLE, true},
};

const char *gpu_pack_grid(const Value *g, GpuGrid *rec)
{
    if (g->type != V_TUPLE)
        return "argument is not a tuple (patches run on the CPU)";
    size_t h = g->u.tup.len;
    if (h == 0)
        return "empty grid";
    if (h > GPU_SIDE)
        return "grid larger than 30x30";
    if (vg_is(g)) {     /* bytes already: row by row into the record */
        size_t bw = vg_w(g);
        const uint8_t *b = vg_cells(g);
        if (bw > GPU_SIDE)
            return "grid larger than 30x30";
        for (size_t k = 0; k < h * bw; k++)
            if (b[k] > 9)
                return "a cell is not an int from 0 to 9";
        for (size_t i = 0; i < h; i++)
            memcpy(rec->cell + i * GPU_SIDE, b + i * bw, bw);
        rec->h = (uint8_t)h;
        rec->w = (uint8_t)bw;
        rec->p0 = rec->p1 = rec->p2 = rec->p3 = 0;
        return NULL;
    }
    size_t w = 0;
    for (size_t i = 0; i < h; i++) {
        const Value *r = v_titems(g)[i];
        if (r->type != V_TUPLE)
            return "not a tuple of tuples";
        if (i == 0) {
            w = r->u.tup.len;
            if (w == 0)
                return "grid with empty rows";
            if (w > GPU_SIDE)
                return "grid larger than 30x30";
        } else if (r->u.tup.len != w) {
            return "rows of different lengths";
        }
        uint8_t *dst = rec->cell + i * GPU_SIDE;
        for (size_t j = 0; j < w; j++) {
            const Value *c = v_titems(r)[j];
            if (c->type != V_INT || c->u.i < 0 || c->u.i > 9)
                return "a cell is not an int from 0 to 9";
            dst[j] = (uint8_t)c->u.i;
        }
    }
    rec->h = (uint8_t)h;
    rec->w = (uint8_t)w;
    rec->p0 = rec->p1 = rec->p2 = rec->p3 = 0;
    return NULL;
}

int gobj_prim(int op)
{
    return spec[op - GOP_OBJECTS].prim;
}

int gobj_shape(int op)
{
    return spec[op - GOP_OBJECTS].shape;
}

const ObjTables *gobj_tables(int op)
{
    pthread_once(&once, build);
    return &tables[spec[op - GOP_OBJECTS].dialect];
}

const char *gobj_param_ok(int op, int k, const Value *v)
{
    if (spec[op - GOP_OBJECTS].select && k == 1 &&
        (!v_is_int(v) || v->type == V_BOOL || v->u.i < 0 || v->u.i > 7))
        return "o_g selector is not an int from 0 to 7";
    return NULL;
}

/* mostcolor of a packed grid, as both dialects compute it on an int grid
 * (gu_extreme_color, tk_mostcolor_inner): max(set(values),
 * key=values.count), the first greatest count in the slot order of the set
 * of colours inserted in first-appearance order; read from the packed
 * bytes, not the values. */
int gpu_packed_mostcolor(const GpuGrid *rec)
{
    static const uint64_t colour_hash[10] = {0, 1, 2, 3, 4, 5, 6, 7, 8, 9};   /* hash(int) */
    uint32_t count[10] = {0};
    int16_t order[10], n = 0;
    for (int i = 0; i < rec->h; i++) {
        const uint8_t *row = rec->cell + i * GPU_SIDE;
        for (int j = 0; j < rec->w; j++)
            if (!count[row[j]]++)
                order[n++] = row[j];
    }
    if (n == 1)
        return order[0];
    int16_t store[OS_SMALL], spare[OS_SMALL];   /* 10 ints never outgrow 32 slots */
    OHash H = {OH_TABLE, colour_hash, NULL, NULL};
    OSet set;
    os_init(&set, store);
    for (int k = 0; k < n; k++)
        os_add(&set, &H, order[k], spare);
    int best = -1;
    for (uint32_t slot = 0; slot <= set.mask; slot++) {
        int c = set.t[slot];
        if (c >= 0 && (best < 0 || count[c] > count[best]))
            best = c;
    }
    return best;
}

const char *gobj_pack(int op, Value *const *params, GpuGrid *rec)
{
    int flags = 0;
    if (spec[op - GOP_OBJECTS].select) {
        const char *bad = gobj_param_ok(op, 1, params[0]);
        if (bad)
            return bad;
        flags = (int)params[0]->u.i;
    } else {
        flags = (v_truthy(params[0]) ? OF_UNIVALUED : 0) | (v_truthy(params[1]) ? OF_DIAGONAL : 0) |
                (v_truthy(params[2]) ? OF_WITHOUT_BG : 0);
    }
    rec->p0 = (uint8_t)flags;
    rec->p1 = flags & OF_WITHOUT_BG ? (uint8_t)gpu_packed_mostcolor(rec) : GPU_NOCOLOR;
    return NULL;
}

static int colour_at(const GpuGrid *rec, unsigned loc)
{
    return rec->cell[(loc >> 5) * GPU_SIDE + (loc & 31)];
}

Value *gobj_value(int op, const GpuGrid *rec, const uint16_t *out)
{
    int d = spec[op - GOP_OBJECTS].dialect, shape = spec[op - GOP_OBJECTS].shape;
    size_t nobj = out[0];
    const uint16_t *hdr = out + 2, *cl = out + 2 + 3 * nobj;
    if (nobj == 0)
        return v_incref(shape == OBJ_TUPLE ? &v_empty_tuple_ : &v_empty_fset_);
    if (shape == OBJ_TUPLE) {
        Value *t = v_tuple_new(nobj);
        for (size_t k = 0; k < nobj; k++) {
            size_t nc = hdr[3 * k + 2];
            Value *o = v_tuple_new(nc);
            for (size_t m = 0; m < nc; m++)
                v_titems(o)[m] = cells[d][colour_at(rec, cl[2 * m + 1])][cl[2 * m + 1]];
            cl += 2 * nc;
            v_titems(t)[k] = o;
        }
        return t;
    }
    const ObjTables *T = &tables[d];
    size_t ncells = 0;
    for (size_t k = 0; k < nobj; k++)
        ncells += hdr[3 * k + 2];
    const uint16_t *hw = cl + 2 * ncells;
    Value *found[GPU_CELLS];
    int32_t at[OS_CAP];
    FsLayout L;
    for (size_t k = 0; k < nobj; k++) {
        size_t nc = hdr[3 * k + 2];
        Value *fo = fs_layout(nc, hdr[3 * k + 1], &L);
        for (size_t m = 0; m < nc; m++) {
            unsigned loc = cl[2 * m + 1];
            int c = colour_at(rec, loc);
            L.items[m] = cells[d][c][loc];
            L.hashes[m] = (int64_t)T->cell[c][loc];
            L.slots[cl[2 * m]] = (int32_t)m;
        }
        cl += 2 * nc;
        fo->hash = (int64_t)((uint64_t)hw[4 * k] | (uint64_t)hw[4 * k + 1] << 16 |
                             (uint64_t)hw[4 * k + 2] << 32 | (uint64_t)hw[4 * k + 3] << 48);
        fo->hashed = 1;        /* the scan's hash(frozenset(obj)), pyhash.c's formula */
        found[k] = fo;
    }
    /* frozenset(objs): the objects by their slot */
    size_t omask = out[1];
    for (size_t s = 0; s <= omask; s++)
        at[s] = -1;
    for (size_t k = 0; k < nobj; k++)
        at[hdr[3 * k]] = (int32_t)k;
    Value *objs = fs_layout(nobj, omask, &L);
    int32_t m = 0;
    for (size_t s = 0; s <= omask; s++)
        if (at[s] >= 0) {
            L.items[m] = found[at[s]];
            L.hashes[m] = found[at[s]]->hash;
            L.slots[s] = m++;
        }
    return objs;
}
