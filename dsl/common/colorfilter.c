/* colorfilter.c -- colorfilter's frozenset, both dialects (gridops.h). */
#include <stdlib.h>

#include "pyset.h"
#include "fsdistinct.h"
#include "fsrecipe.h"
#include "common/gridops.h"

Value *cm_colorfilter(Ctx *cx, Value *objs, Value *color, size_t at, bool charge)
{
    if (!gu_iterable(cx, objs))
        return NULL;
    size_t n = v_len(objs), m = 0;
    Value *small[64], **kept = n <= 64 ? small : malloc(n * sizeof *kept), *r = NULL;
    if (!kept)
        return cx_raise(cx, "MemoryError", "out of memory");
    Value **it = v_items(objs);
    for (size_t x = 0; x < n; x++) {
        Value *o = it[x], *c;
        if (!gu_iterable(cx, o))
            goto out;
        if (v_len(o) == 0) {                  /* StopIteration inside a generator */
            cx_raise(cx, "RuntimeError", "generator raised StopIteration");
            goto out;
        }
        if (!(c = fs_same_at(o, at)) && !(c = gu_getitem(cx, v_items(o)[0], at)))
            goto out;
        if (gu_eq(c, color))
            kept[m++] = o;
    }
    /* a set's items are distinct, and so the kept: laid out at once; a
     * tuple's are charged once made distinct */
    if (objs->type == V_FSET) {
        if (!charge || cx_charge(cx, m))
            r = fs_from_distinct(kept, m);
    } else if ((r = fs_from_items(kept, m)) && charge && !cx_charge(cx, v_len(r))) {
        v_decref(r);
        r = NULL;
    }
out:
    if (kept != small)
        free(kept);
    return r;
}
