/* flatcall.c -- closures laid out as rows of primitive calls (flatcall.h). */
#include "common/flatcall.h"
#include "common/closures.h"
#include "prim.h"

#define FLAT_ITEM (-1)
#define FLAT_HELD (-64)         /* FLAT_HELD + k: held value k */

/* Fewer items than this are called through the tree: the layout costs
 * about what two calls save. */
#define FLAT_MIN_ITEMS 4

/* Primitives of constant cost, or of a cost that a call of the tree pays
 * again anyway: what a laid-out closure may call. */
static bool cheap(int prim)
{
    switch (prim) {
    case PRIM_AD_identity: case PRIM_AD_add: case PRIM_AD_subtract: case PRIM_AD_multiply:
    case PRIM_AD_divide: case PRIM_AD_invert: case PRIM_AD_even: case PRIM_AD_double:
    case PRIM_AD_halve: case PRIM_AD_flip: case PRIM_AD_equality: case PRIM_AD_greater:
    case PRIM_AD_both: case PRIM_AD_either: case PRIM_AD_increment: case PRIM_AD_decrement:
    case PRIM_AD_crement: case PRIM_AD_sign: case PRIM_AD_positive: case PRIM_AD_toivec:
    case PRIM_AD_tojvec: case PRIM_AD_astuple: case PRIM_AD_first: case PRIM_AD_last:
    case PRIM_AD_size: case PRIM_AD_maximum: case PRIM_AD_minimum: case PRIM_AD_contained:
    case PRIM_AD_initset: case PRIM_AD_color: case PRIM_AD_center:
    case PRIM_AD_uppermost: case PRIM_AD_lowermost: case PRIM_AD_leftmost:
    case PRIM_AD_rightmost: case PRIM_AD_ulcorner: case PRIM_AD_urcorner:
    case PRIM_AD_llcorner: case PRIM_AD_lrcorner: case PRIM_AD_height: case PRIM_AD_width:
    case PRIM_AD_shape: case PRIM_AD_dneighbors: case PRIM_AD_ineighbors:
    case PRIM_AD_neighbors:
        return true;
    default:
        return false;
    }
}

static bool is_prim(const Value *g) { return g->type == V_FUNC && g->u.fn.invoke == prim_invoke; }

/* A closure of combinator `prim` holding ncap values.  A compose or chain
 * with a kind may run as one of functional.c's counted runs (a size of an
 * intersection counted, not made): it is called as it is. */
static bool closure_of(const Value *g, int prim, int ncap)
{
    return g->type == V_FUNC && g->u.fn.invoke != prim_invoke && g->u.fn.prim == prim &&
           g->u.fn.ncap == ncap &&
           !(g->u.fn.kind && (prim == PRIM_AD_compose || prim == PRIM_AD_chain));
}

static int hold(FlatCall *fc, Value *v)
{
    for (int k = 0; k < fc->nheld; k++)
        if (fc->held[k] == v)
            return FLAT_HELD + k;
    if (fc->nheld == FLAT_STEPS)
        return 0;
    fc->held[fc->nheld] = v;
    return FLAT_HELD + fc->nheld++;
}

/* A step; its index, or -1 when there is no room. */
static int step(FlatCall *fc, FlatStep s)
{
    if (fc->n == FLAT_STEPS)
        return -1;
    fc->s[fc->n] = s;
    return fc->n++;
}

/* g called on the argc values at src as the tree calls it (prim_call),
 * `owed` charges of closures entered before it charged first. */
static int call_step(FlatCall *fc, Value *g, int argc, const int8_t *src, int owed)
{
    FlatStep s = {.callee = g, .argc = (uint8_t)argc, .charge = (uint8_t)owed};
    for (int a = 0; a < argc; a++)
        s.src[a] = src[a];
    return step(fc, s);
}

static int lay(FlatCall *fc, Value *g, int argc, const int8_t *src, int owed, bool top);

/* The steps of closure g of a shape laid out, its own charge owed first;
 * the step giving its result, or -1. */
static int lay_closure(FlatCall *fc, Value *g, int argc, const int8_t *src, int owed, bool top)
{
    int own = owed + 1;         /* v_call's charge for the closure */
    Value **cap = g->u.fn.cap;
    int8_t t[3];
    if (g->u.fn.arity != argc)
        return -1;
    if (argc == 1 && closure_of(g, PRIM_AD_compose, 2)) {
        if ((t[0] = (int8_t)lay(fc, cap[1], 1, src, own, top)) < 0)
            return -1;
        return lay(fc, cap[0], 1, t, 0, top);
    }
    if (argc == 1 && closure_of(g, PRIM_AD_chain, 3)) {
        if ((t[0] = (int8_t)lay(fc, cap[2], 1, src, own, top)) < 0 ||
            (t[0] = (int8_t)lay(fc, cap[1], 1, t, 0, top)) < 0)
            return -1;
        return lay(fc, cap[0], 1, t, 0, top);
    }
    if (argc == 1 && closure_of(g, PRIM_AD_fork, 3)) {
        if ((t[0] = (int8_t)lay(fc, cap[1], 1, src, own, top)) < 0 ||
            (t[1] = (int8_t)lay(fc, cap[2], 1, src, 0, top)) < 0)
            return -1;
        return lay(fc, cap[0], 2, t, 0, top);
    }
    if (argc == 1 && closure_of(g, PRIM_AD_matcher, 2)) {
        int held = hold(fc, cap[1]);
        if (!held || (t[0] = (int8_t)lay(fc, cap[0], 1, src, own, top)) < 0)
            return -1;
        return step(fc, (FlatStep){.eq = true, .src = {t[0], (int8_t)held}});
    }
    bool right;
    Value *callee, *fixed;
    if (argc <= 2 && cm_bind_parts(g, &right, &callee, &fixed) && is_prim(callee) &&
        cheap(callee->u.fn.prim)) {
        int held = hold(fc, fixed);
        if (!held)
            return -1;
        int8_t a[3];
        for (int k = 0; k < argc; k++)
            a[right ? k : k + 1] = src[k];
        a[right ? argc : 0] = (int8_t)held;
        return lay(fc, callee, argc + 1, a, own, top);
    }
    return -1;
}

/* g called on the argc values at src, `owed` charges of closures entered
 * before it: g's steps appended; the step giving g's result, or -1 when
 * there is no room.  A primitive of constant cost is a step that runs its
 * function; a closure of a shape above is laid out, unless, under the top
 * one, it calls what is not of constant cost (its call memo then stays);
 * anything else is a step that calls it as the tree would. */
static int lay(FlatCall *fc, Value *g, int argc, const int8_t *src, int owed, bool top)
{
    if (g->type == V_FUNC && is_prim(g)) {
        if (g->u.fn.arity != argc || !cheap(g->u.fn.prim) || !prim_table[g->u.fn.prim].fn)
            return call_step(fc, g, argc, src, owed);
        FlatStep s = {.fn = (void *)prim_table[g->u.fn.prim].fn, .prim = g->u.fn.prim,
                      .argc = (uint8_t)argc, .charge = (uint8_t)(owed + 1)};
        for (int a = 0; a < argc; a++)
            s.src[a] = src[a];
        return step(fc, s);
    }
    if (g->type == V_FUNC && owed < 8) {
        int n = fc->n, nheld = fc->nheld;
        int r = lay_closure(fc, g, argc, src, owed, false);
        bool calls = false;
        for (int k = n; k < fc->n; k++)
            calls |= fc->s[k].callee != NULL;
        if (r >= 0 && !calls)
            return r;
        fc->n = n;
        fc->nheld = nheld;
        if (top && (r = lay_closure(fc, g, argc, src, owed, true)) >= 0)
            return r;
        fc->n = n;
        fc->nheld = nheld;
    }
    return call_step(fc, g, argc, src, owed);
}

void flat_open(FlatCall *fc, Value *f, const Value *c)
{
    fc->n = fc->nheld = 0;
    fc->f = f;
    if (!c || c->type != V_FSET || c->u.set.len < FLAT_MIN_ITEMS || f->type != V_FUNC ||
        is_prim(f) || f->u.fn.arity != 1)
        return;
    const int8_t x = FLAT_ITEM;
    int top = lay(fc, f, 1, &x, 0, true);
    if (top < 0 || top != fc->n - 1 || (fc->n == 1 && fc->s[0].callee))
        fc->n = 0;
}

static inline Value *at(Value *const *r, const FlatCall *fc, Value *x, int src)
{
    return src == FLAT_ITEM ? x : src < 0 ? fc->held[src - FLAT_HELD] : r[src];
}

Value *flat_call(Ctx *cx, const FlatCall *fc, Value *x)
{
    if (!fc->n)
        return prim_call(cx, fc->f, 1, &x);
    Value *r[FLAT_STEPS];
    int k = 0;
    for (; k < fc->n; k++) {
        const FlatStep *s = &fc->s[k];
        if (s->eq) {
            int eq = v_eq_checked(cx, at(r, fc, x, s->src[0]), at(r, fc, x, s->src[1]));
            if (eq < 0)
                break;
            r[k] = v_bool(eq);
            continue;
        }
        if (s->charge && !cx_charge(cx, s->charge))
            break;
        Value *args[3];
        for (int a = 0; a < s->argc; a++)
            args[a] = at(r, fc, x, s->src[a]);
        Value *v = s->fn ? ((PrimFn)s->fn)(cx, args) : prim_call(cx, s->callee, s->argc, args);
        if (!v && (s->callee || !(v = prim_failed(cx, s->prim))))
            break;
        r[k] = v;
    }
    Value *res = k == fc->n ? r[k - 1] : NULL;
    for (int j = 0; j < k - (res != NULL); j++)
        v_decref(r[j]);
    return res;
}
