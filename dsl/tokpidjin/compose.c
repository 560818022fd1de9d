/* tokpidjin primitives whose body is arc-dsl's but calls DSL functions that
 * tokpidjin changed (crop, first, cover, ...), or whose inner calls can fail
 * where the outer then goes on (mapply's merge): they are composed here from
 * the tokpidjin primitives, each inner call safe-wrapped as in the
 * reference (an inner failure gives the inner default, the outer goes on). */
#include "prim.h"
#include "common/core_util.h"
#include "common/grid_util.h"

static Value *call(Ctx *cx, int prim, int argc, Value *const *argv)
{
    return v_call(cx, prim_value(prim), argc, argv);
}

static Value *call1(Ctx *cx, int prim, Value *a) { return call(cx, prim, 1, &a); }

static Value *call2(Ctx *cx, int prim, Value *a, Value *b)
{
    Value *argv[2] = {a, b};
    return call(cx, prim, 2, argv);
}

/* paint(cover(grid, obj), shift(obj, offset)) */
Value *tk_move(Ctx *cx, Value *const *a)
{
    Value *covered = call2(cx, PRIM_TK_cover, a[0], a[1]);
    if (!covered)
        return NULL;
    Value *moved = call2(cx, PRIM_TK_shift, a[1], a[2]);
    if (!moved) {
        v_decref(covered);
        return NULL;
    }
    Value *r = call2(cx, PRIM_TK_paint, covered, moved);
    v_decref(covered);
    v_decref(moved);
    return r;
}

/* first(remove(value, container)) */
Value *tk_other(Ctx *cx, Value *const *a)
{
    Value *rest = call2(cx, PRIM_TK_remove, a[1], a[0]);
    if (!rest)
        return NULL;
    Value *r = call1(cx, PRIM_TK_first, rest);
    v_decref(rest);
    return r;
}

/* merge(apply(function, container)): merge((1, 3)) fails to (), so
 * mapply(first, ((1, 2), (3,))) is (), not mapply's own frozenset() */
Value *tk_mapply(Ctx *cx, Value *const *a)
{
    Value *applied = call(cx, PRIM_TK_apply, 2, a);
    if (!applied)
        return NULL;
    Value *r = call1(cx, PRIM_TK_merge, applied);
    v_decref(applied);
    return r;
}

static bool is_int(const Value *v) { return v->type == V_INT || v->type == V_BOOL; }

/* tuple(crop(grid, start_i, (h, w)) for i in range(n)); vertical picks
 * which axis is split.  len(grid[0]) and the divisions raise as Python's. */
static Value *split(Ctx *cx, Value *const *a, bool vertical)
{
    Value *grid = a[0], *nv = a[1];
    if (grid->type != V_TUPLE && grid->type != V_FSET)
        return cx_raise(cx, "TypeError", "object of type '%s' has no len()", v_typename(grid));
    if (grid->type != V_TUPLE || v_len(grid) == 0)
        return cx_raise(cx, "IndexError", "tuple index out of range");
    Value *row = v_items(grid)[0];
    if (row->type != V_TUPLE && row->type != V_FSET)
        return cx_raise(cx, "TypeError", "object of type '%s' has no len()", v_typename(row));
    if (!is_int(nv))
        return cx_raise(cx, "TypeError", "unsupported operand type(s) for //");
    int64_t n = nv->u.i, rows = (int64_t)v_len(grid), cols = (int64_t)v_len(row);
    if (n == 0)
        return cx_raise(cx, "ZeroDivisionError", "integer division or modulo by zero");
    int64_t along = vertical ? rows : cols;
    int64_t part = core_floordiv(along, n);
    int64_t m = along % n;
    if (m != 0 && (m < 0) != (n < 0))
        m += n;
    int64_t offset = m != 0;
    int64_t h = vertical ? part : rows, w = vertical ? cols : part;
    if (n < 0)
        return v_tuple_new(0);
    if (!core_fits(cx, (uint64_t)n) || !gu_work_ahead(cx, (uint64_t)n))
        return NULL;
    cx->work += (uint64_t)n;
    Value *out = v_tuple_new((size_t)n);
    for (int64_t i = 0; i < n; i++) {
        int64_t at = part * i + i * offset;
        Value *start = vertical ? v_pair_int(at, 0) : v_pair_int(0, at);
        Value *dims = v_pair_int(h, w);
        Value *argv[3] = {grid, start, dims};
        Value *piece = call(cx, PRIM_TK_crop, 3, argv);
        v_decref(start);
        v_decref(dims);
        if (!piece) {
            for (int64_t k = 0; k < i; k++)
                v_decref(v_titems(out)[k]);
            for (int64_t k = i; k < n; k++)
                v_titems(out)[k] = v_none();
            v_decref(out);
            return NULL;
        }
        v_titems(out)[i] = piece;
    }
    return out;
}

Value *tk_hsplit(Ctx *cx, Value *const *a) { return split(cx, a, false); }
Value *tk_vsplit(Ctx *cx, Value *const *a) { return split(cx, a, true); }

/* rot270(half(rot90(grid))) */
static Value *half(Ctx *cx, Value *grid, int which)
{
    Value *r = call1(cx, PRIM_TK_rot90, grid);
    if (!r)
        return NULL;
    Value *h = call1(cx, which, r);
    v_decref(r);
    if (!h)
        return NULL;
    Value *out = call1(cx, PRIM_TK_rot270, h);
    v_decref(h);
    return out;
}

Value *tk_lefthalf(Ctx *cx, Value *const *a) { return half(cx, a[0], PRIM_TK_tophalf); }
Value *tk_righthalf(Ctx *cx, Value *const *a) { return half(cx, a[0], PRIM_TK_bottomhalf); }

