/* closures.c -- closure bodies both dialects share (closures.h). */
#include "common/closures.h"
#include "prim.h"
#include "pyexc.h"

#include <string.h>

static Value *closure_mismatch(Ctx *cx, Value *self, int argc, Value *const *argv)
{
    (void)argv;
    static const char *const right[] = {"x", "y", "z"}, *const left[] = {"y", "z", "a"};
    int n = self->u.fn.arity;
    if (argc > n || n > 3)
        return NULL;                  /* v_call's "takes n positional arguments" */
    char msg[256];
    pyexc_arity_words(msg, sizeof msg, self->u.fn.name, n,
                      strncmp(self->u.fn.name, "lbind.", 6) == 0 ? left : right, NULL, argc);
    return cx_raise(cx, "TypeError", "%s", msg);
}

Value *cm_closure(InvokeFn invoke, const char *name, int prim, int arity, int kind,
                  int ncap, Value *const *cap)
{
    Value *r = v_func_new(invoke, name, prim, arity, kind, ncap, cap);
    if (r)
        r->u.fn.mismatch = closure_mismatch;
    return r;
}

/* The free arguments are the closure's arity (at most three). */
static Value *bind_inv(Ctx *cx, Value *self, Value *const *argv, bool right)
{
    Value *args[4];
    int n = self->u.fn.arity;
    for (int i = 0; i < n; i++)
        args[right ? i : i + 1] = argv[i];
    args[right ? n : 0] = self->u.fn.cap[1];
    return prim_call(cx, self->u.fn.cap[0], n + 1, args);
}

static Value *rbind_inv(Ctx *cx, Value *self, Value *const *argv) { return bind_inv(cx, self, argv, true); }
static Value *lbind_inv(Ctx *cx, Value *self, Value *const *argv) { return bind_inv(cx, self, argv, false); }

Value *cm_bind(Ctx *cx, Value *const *a, bool right, const char *name, int prim)
{
    Value *f = a[0];
    if (f->type != V_FUNC || f->u.fn.prim < -1)     /* not a def (eval's len): no __code__ */
        return v_no_attr(cx, f, "__code__");
    int n = f->u.fn.arity == V_ARITY_ANY ? 0 : f->u.fn.arity;
    int arity = n == 2 ? 1 : n == 3 ? 2 : 3;
    return cm_closure(right ? rbind_inv : lbind_inv, name, prim, arity, arity, 2, a);
}

bool cm_bind_of(const Value *f, int p, bool either, Value **fixed)
{
    bool side = f->type == V_FUNC &&
                (f->u.fn.invoke == rbind_inv || (either && f->u.fn.invoke == lbind_inv));
    if (!side || f->u.fn.arity != 1 || !prim_direct(f->u.fn.cap[0], 2) ||
        f->u.fn.cap[0]->u.fn.prim != p)
        return false;
    *fixed = f->u.fn.cap[1];
    return true;
}

bool cm_bind_parts(const Value *f, bool *right, Value **callee, Value **fixed)
{
    if (f->type != V_FUNC || (f->u.fn.invoke != rbind_inv && f->u.fn.invoke != lbind_inv))
        return false;
    *right = f->u.fn.invoke == rbind_inv;
    *callee = f->u.fn.cap[0];
    *fixed = f->u.fn.cap[1];
    return true;
}
