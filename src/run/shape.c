/* shape.c -- see shape.h.  Each rule below is the primitive's dsl.py body
 * on the abstract values it accepts; anything else is unknown. */
#include "shape.h"
#include "prim.h"

#include <stdlib.h>

typedef enum { A_NONE, A_INT, A_PAIR, A_GRID } AKind;
typedef struct {
    uint8_t kind;
    ShapeLin x, y;              /* A_INT: x; A_PAIR: (x, y); A_GRID: rows x, cols y */
} Abs;

typedef enum {
    R_NONE = -1,
    R_IDENTITY, R_KEEP, R_FLIP, R_UPSCALE, R_HUPSCALE, R_VUPSCALE, R_HCONCAT, R_VCONCAT,
    R_HEIGHT, R_WIDTH, R_SHAPE, R_CANVAS, R_ASTUPLE, R_ADD, R_SUBTRACT, R_MULTIPLY,
    R_DOUBLE, R_INCREMENT, R_DECREMENT,
} Rule;

/* Each primitive's rule, from the shape column of its table row: KEEP is
 * sized by len(grid), len(grid[0]), or rows reversed or mapped; FLIP by
 * zip(*grid). */
static const signed char rule_of_prim[PRIM_COUNT] = {
#define AD(name, arity, ret, gpu, shape) [PRIM_AD_##name] = R_##shape,
#include "arcdsl/list.h"
#undef AD
#define TK(name, arity, ret, fn, gpu, shape) [PRIM_TK_##name] = R_##shape,
#include "tokpidjin/list.h"
#undef TK
#define RA(name, arity, ret, gpu, shape) [PRIM_RA_##name] = R_##shape,
#include "rearc/list.h"
#undef RA
};

static const Abs none = {A_NONE, {0, 0, 0}, {0, 0, 0}};

static ShapeLin lin_add(ShapeLin p, ShapeLin q, int sign)
{
    return (ShapeLin){p.a + sign * q.a, p.b + sign * q.b, p.c + sign * q.c};
}

static ShapeLin lin_scale(ShapeLin p, int k)
{
    return (ShapeLin){p.a * k, p.b * k, p.c * k};
}

static bool lin_const(ShapeLin p)
{
    return p.a == 0 && p.b == 0;
}

static bool lin_eq(ShapeLin p, ShapeLin q)
{
    return p.a == q.a && p.b == q.b && p.c == q.c;
}

static int lin_at(ShapeLin p, int h, int w)
{
    return p.a * h + p.b * w + p.c;
}

/* Coefficients stay small: a program multiplying sizes by large constants
 * is left unknown rather than risk overflow. */
static bool lin_small(ShapeLin p)
{
    return abs(p.a) <= 1000 && abs(p.b) <= 1000 && abs(p.c) <= 100000;
}

/* A grid whose sides are >= 1 for every input shape (a linear form is
 * least at a corner of 1..30 x 1..30): every rule is exact on it. */
static Abs grid_of(ShapeLin rows, ShapeLin cols)
{
    static const int corner[4][2] = {{1, 1}, {1, 30}, {30, 1}, {30, 30}};
    if (!lin_small(rows) || !lin_small(cols))
        return none;
    for (int k = 0; k < 4; k++)
        if (lin_at(rows, corner[k][0], corner[k][1]) < 1 ||
            lin_at(cols, corner[k][0], corner[k][1]) < 1)
            return none;
    return (Abs){A_GRID, rows, cols};
}

static Abs int_of(ShapeLin x)
{
    return lin_small(x) ? (Abs){A_INT, x, {0, 0, 0}} : none;
}

static Abs pair_of(ShapeLin x, ShapeLin y)
{
    return lin_small(x) && lin_small(y) ? (Abs){A_PAIR, x, y} : none;
}

static bool small_int(const Value *v, int *out)
{
    if (v->type != V_INT || v->u.i < -100000 || v->u.i > 100000)
        return false;
    *out = (int)v->u.i;
    return true;
}

static Abs constant(const Value *v)
{
    int i, j;
    if (small_int(v, &i))
        return int_of((ShapeLin){0, 0, i});
    if (v->type == V_TUPLE && v->u.tup.len == 2 && small_int(v_titems(v)[0], &i) &&
        small_int(v_titems(v)[1], &j))
        return pair_of((ShapeLin){0, 0, i}, (ShapeLin){0, 0, j});
    return none;
}

/* add, subtract, multiply of ints and pairs: dsl.py's four cases each */
static Abs arith(Rule r, Abs p, Abs q)
{
    if (p.kind == A_NONE || q.kind == A_NONE || p.kind == A_GRID || q.kind == A_GRID)
        return none;
    if (p.kind == A_INT && q.kind == A_PAIR)          /* (a op b[0], a op b[1]) */
        p = (Abs){A_PAIR, p.x, p.x};
    else if (p.kind == A_PAIR && q.kind == A_INT)     /* (a[0] op b, a[1] op b) */
        q = (Abs){A_PAIR, q.x, q.x};
    ShapeLin x, y = {0, 0, 0};
    if (r == R_MULTIPLY) {
        /* linear only when one side is a constant */
        if (lin_const(p.x) && (p.kind == A_INT || lin_const(p.y))) {
            x = lin_scale(q.x, p.x.c);
            y = lin_scale(q.y, p.kind == A_INT ? p.x.c : p.y.c);
        } else if (lin_const(q.x) && (q.kind == A_INT || lin_const(q.y))) {
            x = lin_scale(p.x, q.x.c);
            y = lin_scale(p.y, q.kind == A_INT ? q.x.c : q.y.c);
        } else {
            return none;
        }
    } else {
        int sign = r == R_ADD ? 1 : -1;
        x = lin_add(p.x, q.x, sign);
        y = lin_add(p.y, q.y, sign);
    }
    return p.kind == A_INT ? int_of(x) : pair_of(x, y);
}

static Abs scale_grid(Abs g, Abs k, bool rows, bool cols)
{
    if (g.kind != A_GRID || k.kind != A_INT || !lin_const(k.x) || k.x.c < 1)
        return none;
    return grid_of(rows ? lin_scale(g.x, k.x.c) : g.x, cols ? lin_scale(g.y, k.x.c) : g.y);
}

static Abs apply_rule(Rule r, const Abs *a, int nargs)
{
    Abs g = nargs > 0 ? a[0] : none, h = nargs > 1 ? a[1] : none;
    switch (r) {
    case R_IDENTITY:
        return g;
    case R_KEEP:
        return g.kind == A_GRID ? g : none;
    case R_FLIP:
        return g.kind == A_GRID ? grid_of(g.y, g.x) : none;
    case R_UPSCALE:
        return scale_grid(g, h, true, true);
    case R_HUPSCALE:
        return scale_grid(g, h, false, true);
    case R_VUPSCALE:
        return scale_grid(g, h, true, false);
    case R_HCONCAT:     /* zip(a, b): rows as long as both */
        if (g.kind == A_GRID && h.kind == A_GRID && lin_eq(g.x, h.x))
            return grid_of(g.x, lin_add(g.y, h.y, 1));
        return none;
    case R_VCONCAT:     /* a + b: one width, or ragged */
        if (g.kind == A_GRID && h.kind == A_GRID && lin_eq(g.y, h.y))
            return grid_of(lin_add(g.x, h.x, 1), g.y);
        return none;
    case R_HEIGHT:
        return g.kind == A_GRID ? int_of(g.x) : none;
    case R_WIDTH:
        return g.kind == A_GRID ? int_of(g.y) : none;
    case R_SHAPE:
        return g.kind == A_GRID ? pair_of(g.x, g.y) : none;
    case R_CANVAS:      /* dimensions[0] rows of dimensions[1] */
        return h.kind == A_PAIR ? grid_of(h.x, h.y) : none;
    case R_ASTUPLE:
        return g.kind == A_INT && h.kind == A_INT ? pair_of(g.x, h.x) : none;
    case R_ADD: case R_SUBTRACT: case R_MULTIPLY:
        return arith(r, g, h);
    case R_DOUBLE:
        return arith(R_MULTIPLY, g, int_of((ShapeLin){0, 0, 2}));
    case R_INCREMENT:
        return arith(R_ADD, g, int_of((ShapeLin){0, 0, 1}));
    case R_DECREMENT:
        return arith(R_SUBTRACT, g, int_of((ShapeLin){0, 0, 1}));
    case R_NONE:
        break;
    }
    return none;
}

/* The rule of a call of a primitive with its own arity: a call of
 * another arity raises TypeError, and has no shape. */
static int rule_of(const IrOperand *callee, int nargs)
{
    if (callee->slot >= 0 || !callee->k || callee->k->type != V_FUNC ||
        callee->k->u.fn.arity != nargs)
        return -1;
    int p = callee->k->u.fn.prim;
    if (p < 0 || p >= PRIM_COUNT || callee->k != prim_value(p))
        return -1;
    return rule_of_prim[p];
}

OutShape shape_of_output(const IrProgram *p)
{
    OutShape out = {0};
    if (p->dialect != DIALECT_ARCDSL || p->nparams != 1 || p->nslots < 1)
        return out;
    Abs *slot = calloc((size_t)p->nslots, sizeof *slot);   /* all A_NONE */
    if (!slot)
        return out;
    slot[0] = (Abs){A_GRID, {1, 0, 0}, {0, 1, 0}};          /* I: H x W */
    for (int k = 0; k < p->nstmts; k++) {
        const IrStmt *s = &p->stmts[k];
        if (s->kind == IR_RETURN) {
            if (s->nargs == 1 && s->args[0].slot >= 0 && slot[s->args[0].slot].kind == A_GRID)
                out = (OutShape){true, slot[s->args[0].slot].x, slot[s->args[0].slot].y};
            break;
        }
        int r = s->kind == IR_CALL && !s->guarded ? rule_of(&s->callee, s->nargs) : -1;
        if (r < 0)
            continue;       /* its targets stay unknown */
        Abs a[IR_MAX_ARGS];
        for (int i = 0; i < s->nargs; i++)
            a[i] = s->args[i].slot >= 0 ? slot[s->args[i].slot]
                   : s->args[i].k       ? constant(s->args[i].k)
                                        : none;
        slot[s->dst] = apply_rule((Rule)r, a, s->nargs);
    }
    free(slot);
    return out;
}

void shape_predict(const OutShape *s, int h, int w, int *rows, int *cols)
{
    *rows = lin_at(s->rows, h, w);
    *cols = lin_at(s->cols, h, w);
}

bool shape_rules_out(const OutShape *s, const Task *t)
{
    if (!s->known)
        return false;
    for (int k = 0; k < task_nsamples(t); k++) {
        SampleDims d = task_dims(t, k);
        if (!d.oh)
            continue;
        int ph, pw;
        shape_predict(s, d.ih, d.iw, &ph, &pw);
        if (ph != d.oh || pw != d.ow)
            return true;
    }
    return false;
}
