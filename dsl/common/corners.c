/* corners.c -- corners(patch) for both dialects, whose corner functions
 * differ (arc-dsl's bounding box, tokpidjin's wrapped corner). */
#include "pyset.h"
#include "common/gridops.h"

Value *cm_corners(Ctx *cx, Value *patch, CornerFn corner)
{
    Value *c[4];
    for (int k = 0; k < 4; k++)
        if (!(c[k] = corner(cx, patch, k))) {
            while (k--)
                v_decref(c[k]);
            return NULL;
        }
    PySet s;                                  /* frozenset({ul, ur, ll, lr}) */
    pyset_init(&s);
    for (int k = 0; k < 4; k++)
        pyset_add(&s, c[k]);
    Value *r = pyset_to_frozenset(&s);
    pyset_clear(&s);
    for (int k = 0; k < 4; k++)
        v_decref(c[k]);
    return r;
}
