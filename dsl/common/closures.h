/* closures.h -- closure bodies both dialects' primitives return
 * (closures.c); each dialect names its closure and sets its arity. */
#ifndef ARC_CLOSURES_H
#define ARC_CLOSURES_H

#include "value.h"

/* rbind: cap[0](*args, cap[1]); lbind: cap[0](cap[1], *args) */
Value *cm_rbind_inv(Ctx *cx, Value *self, Value *const *argv);
Value *cm_lbind_inv(Ctx *cx, Value *self, Value *const *argv);

#endif
