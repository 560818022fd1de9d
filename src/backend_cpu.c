/* backend_cpu.c -- the universal backend: every op, one call at a time. */
#include "exec.h"

static bool cpu_supports(const Backend *be, const OpKey *key, int batch_size)
{
    (void)be; (void)key; (void)batch_size;
    return true;
}

static void cpu_run_batch(const Backend *be, Batch *b)
{
    (void)be;
    for (int i = 0; i < b->n; i++) {
        Instance *in = b->inst[i];
        const IrStmt *s = &in->prog->stmts[in->pc];
        Value *argv[IR_MAX_ARGS];
        for (int k = 0; k < s->nargs; k++)
            argv[k] = operand_value(in, &s->args[k]);
        Value *r = v_call(&in->cx, operand_value(in, &s->callee), s->nargs, argv);
        instance_complete(in, r);
    }
}

const Backend backend_cpu = {
    .name = "cpu",
    .supports_op = cpu_supports,
    .run_batch = cpu_run_batch,
};
