/* vgrid.h -- grids as bytes.
 *
 * A byte grid is a V_TUPLE (V_FLAG_GRID, V_MEMO_BYTES) of h rows of w
 * cells, each cell an int 0..255 kept as one byte.  It reads as the tuple
 * of tuples it stands for: len, hash, ==, repr from the bytes; its rows
 * are made as tuple values only when something reads its items
 * (v_titems), once, and belong to it from then on, as any tuple's items.
 *
 * Block: the tuple's head, room for h row pointers, w, then the h * w
 * cells row by row.
 */
#ifndef ARC_VGRID_H
#define ARC_VGRID_H

#include "value.h"

/* Relaxed: the bit never changes, but other bits of memo are written
 * while the grid is read (its rows being made on another thread). */
static inline bool vg_is(const Value *v)
{
    return v->type == V_TUPLE && (__atomic_load_n(&v->memo, __ATOMIC_RELAXED) & V_MEMO_BYTES);
}
static inline size_t vg_w(const Value *v)
{
    return *(const uint64_t *)((const char *)v + V_TUPLE_BASE + v->u.tup.len * sizeof(Value *));
}
static inline uint8_t *vg_cells(const Value *v)
{
    return (uint8_t *)v + V_TUPLE_BASE + v->u.tup.len * sizeof(Value *) + sizeof(uint64_t);
}
/* The bytes past the rows' pointers (value.c's block size). */
static inline size_t vg_extra(size_t h, size_t w)
{
    return sizeof(uint64_t) + ((h * w + 7) & ~(size_t)7);
}

/* len(g[0]) and g[i][j] of a grid (v_is_grid), either form, without
 * making a byte grid's rows. */
static inline size_t vg_width(const Value *g)
{
    return vg_is(g) ? vg_w(g) : v_titems(g)[0]->u.tup.len;
}
static inline Value *vg_at(const Value *g, size_t i, size_t j)
{
    return vg_is(g) ? v_small(vg_cells(g)[i * vg_w(g) + j]) : v_titems(v_titems(g)[i])[j];
}

/* The w >= 1 cells at c as text, ", " between them, at p (room for
 * 5 * w bytes); the end of what was written.  repr and JSON write rows
 * so.  Each cell is written with the ", " after it, the last one's then
 * taken back: a colour is one digit, and its three bytes go at once. */
static inline char *vg_row_text(char *p, const uint8_t *c, size_t w)
{
    for (size_t j = 0; j < w; j++) {
        unsigned x = c[j];
        if (x < 10) {
#if defined(__BYTE_ORDER__) && __BYTE_ORDER__ == __ORDER_LITTLE_ENDIAN__
            /* one store of four bytes, the fourth overwritten next (room
             * is 5 * w) */
            uint32_t text = 0x00202C30u + x;
            memcpy(p, &text, 4);
#else
            p[0] = (char)('0' + x), p[1] = ',', p[2] = ' ';
#endif
            p += 3;
            continue;
        }
        if (x >= 100)
            *p++ = (char)('0' + x / 100);
        *p++ = (char)('0' + x / 10 % 10);
        *p++ = (char)('0' + x % 10);
        *p++ = ',', *p++ = ' ';
    }
    return p - 2;
}

/* A byte grid of h x w cells (h, w >= 1) to fill through vg_cells. */
Value *vg_new(size_t h, size_t w);
/* A cell read as a byte: *out = v, true when v is an int 0..255 (not a
 * bool: True is no byte). */
static inline bool vg_byte(const Value *v, uint8_t *out)
{
    int64_t x;
    if (!v_small_of(v, &x) || (uint64_t)x > 255)
        return false;
    *out = (uint8_t)x;
    return true;
}
/* Cells read as bytes: out[k] = items[k], true when every item is one. */
static inline bool vg_pack(Value *const *items, size_t n, uint8_t *out)
{
    for (size_t k = 0; k < n; k++)
        if (!vg_byte(items[k], &out[k]))
            return false;
    return true;
}
/* A byte grid equal to tuple t, when t is a grid (h, w >= 1) of ints
 * 0..255; else NULL. */
Value *vg_from_tuple(const Value *t);
/* hash(grid) as CPython gives it, from the bytes. */
int64_t vg_hash(const Value *v);
/* a == b where a is a byte grid and b a tuple. */
bool vg_eq(const Value *a, const Value *b);

#endif
