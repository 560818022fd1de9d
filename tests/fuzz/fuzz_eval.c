/* fuzz_eval.c -- libFuzzer target: evaluate any text as one DSL expression.
 * The first byte picks the dialect.  Primitives on arbitrary arguments must
 * give a value or a Python exception, never a crash; a small work budget
 * keeps each input quick. */
#include "ir.h"
#include "fuzz_text.h"

#include <stdint.h>
#include <stdlib.h>
#include <string.h>

int LLVMFuzzerTestOneInput(const uint8_t *data, size_t size)
{
    if (size < 1)
        return 0;
    Ctx cx;
    ctx_init(&cx, data[0] & 1 ? DIALECT_TOKPIDJIN : DIALECT_ARCDSL);
    cx.work_limit = 200000;
    cx_arm(&cx);
    char *src = fuzz_text(data + 1, size - 1);
    char *err = NULL;
    Value *v = ir_eval_expr(&cx, src, &err);
    if (v) {
        char *r = v_repr_str(v);
        free(r);
        v_decref(v);
    } else if (!err && !cx.err && !cx.over_budget) {
        abort();              /* a failure must say why */
    }
    free(err);
    free(src);
    return 0;
}
