/* closures.c -- closure bodies both dialects share (closures.h). */
#include "common/closures.h"

/* The free arguments are the closure's arity (at most three). */
static Value *bind_inv(Ctx *cx, Value *self, Value *const *argv, bool right)
{
    Value *args[4];
    int n = self->u.fn.arity;
    for (int i = 0; i < n; i++)
        args[right ? i : i + 1] = argv[i];
    args[right ? n : 0] = self->u.fn.cap[1];
    return v_call(cx, self->u.fn.cap[0], n + 1, args);
}

Value *cm_rbind_inv(Ctx *cx, Value *self, Value *const *argv) { return bind_inv(cx, self, argv, true); }
Value *cm_lbind_inv(Ctx *cx, Value *self, Value *const *argv) { return bind_inv(cx, self, argv, false); }
