/* closures.h -- closures both dialects' primitives return (closures.c),
 * each named as its dialect's reference names it. */
#ifndef ARC_CLOSURES_H
#define ARC_CLOSURES_H

#include "value.h"

/* What closure self closes over: the Python lambda's free variables, in
 * its reference's order (borrowed). */
#define CAP(self, i) ((self)->u.fn.cap[i])

/* A closure a combinator returns: v_func_new's, and a call of it with too
 * few arguments names the missing ones as CPython does (the reference's
 * lambdas take x, y, z; lbind's y, z, a). */
Value *cm_closure(InvokeFn invoke, const char *name, int prim, int arity, int kind,
                  int ncap, Value *const *cap);

/* rbind/lbind(function, fixed): function(*args, fixed) (right) or
 * function(fixed, *args).  The closure's free arguments follow the
 * callee's argument count (*args counts 0): 2 -> 1, 3 -> 2, else 3. */
Value *cm_bind(Ctx *cx, Value *const *a, bool right, const char *name, int prim);
/* Whether f is rbind(p, fixed) of the two-argument primitive p -- or
 * lbind(p, fixed) too when either, for a caller to which p's two arguments
 * are alike -- with *fixed its bound argument (borrowed). */
bool cm_bind_of(const Value *f, int p, bool either, Value **fixed);

/* Whether f is an rbind or lbind closure: its side, the function it
 * binds and the value it fixes (both borrowed). */
bool cm_bind_parts(const Value *f, bool *right, Value **callee, Value **fixed);

#endif
