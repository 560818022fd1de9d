/* backend_cpu.c -- the universal backend: every op, one call at a time. */
#include "exec.h"
#include "callmemo.h"

static bool cpu_supports(const Backend *be, const OpKey *key, int batch_size)
{
    (void)be; (void)key; (void)batch_size;
    return true;
}

/* One call of the instance's current statement on the CPU, inside its
 * time budget; the result is returned, not stored (the GPU backend's
 * --compare uses it too).  *clock: the time now if known, else 0; it is
 * left at the time the call ended, which a next call can start from (one
 * clock read per call, not two). */
Value *cpu_call_at(Instance *in, uint64_t *clock)
{
    const IrStmt *s = &in->prog->stmts[in->pc];
    Value *argv[IR_MAX_ARGS];
    for (int k = 0; k < s->nargs; k++)
        argv[k] = operand_value(in, &s->args[k]);
    uint64_t t0 = 0;
    uint64_t (*now)(void) = in->coarse_clock ? now_coarse_ns : now_ns;
    if (in->time_limit_ns) {
        t0 = *clock ? *clock : now();
        in->cx.deadline_ns = t0 + (in->spent_ns < in->time_limit_ns
                                   ? in->time_limit_ns - in->spent_ns : 1);
        cx_arm(&in->cx);
    }
    CallMemo memo = {0};
    in->cx.memo = in->call_memo ? &memo : NULL;
    v_call_serial++;
    Value *r = v_call(&in->cx, operand_value(in, &s->callee), s->nargs, argv);
    in->cx.memo = NULL;
    if (memo.slot)
        callmemo_clear(&memo);
    *clock = 0;
    if (t0) {
        *clock = now();
        in->spent_ns += *clock - t0;
        /* a call that ran past the budget without reading the clock */
        if (r && in->spent_ns > in->time_limit_ns) {
            v_decref(r);
            r = NULL;
            in->cx.over_budget = true;
            cx_raise(&in->cx, "TimeoutError", "time budget exceeded");
        }
    }
    return r;
}

Value *cpu_call(Instance *in)
{
    uint64_t clock = 0;
    return cpu_call_at(in, &clock);
}

static void cpu_run_batch(const Backend *be, Batch *b)
{
    (void)be;
    uint64_t clock = 0;
    for (int i = 0; i < b->n; i++) {
        if (instance_doomed(b->inst[i])) {  /* a sibling failed earlier in this batch */
            instance_cancel(b->inst[i]);
            clock = 0;
        } else {
            instance_complete(b->inst[i], cpu_call_at(b->inst[i], &clock));
        }
    }
}

const Backend backend_cpu = {
    .name = "cpu",
    .supports_op = cpu_supports,
    .run_batch = cpu_run_batch,
};
