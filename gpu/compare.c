/* compare.c -- --compare: each value the device (or its emulation) built
 * against the CPU's for the same call, equal only if v_eq and repr agree;
 * the CPU's value is the result either way, the first differences go to
 * the log. */
#include "backend_gpu_int.h"

#include <stdlib.h>
#include <string.h>

static bool same_value(const Value *a, const Value *b)
{
    if (!a || !b)
        return a == b;
    if (!v_eq(a, b))
        return false;
    char *ra = v_repr_str(a), *rb = v_repr_str(b);
    bool same = strcmp(ra, rb) == 0;
    free(ra);
    free(rb);
    return same;
}

static void log_difference(int op, Instance *in, const Value *cpu, const Value *dev)
{
    char *rc = cpu ? v_repr_str(cpu) : strdup(in->cx.errmsg);
    char *rd = dev ? v_repr_str(dev) : strdup("(nothing)");
    fprintf(gpu_state.o.log, "arcrun: compare: %s DIFFERS on task %s sample %d:\n  cpu:  %.300s\n  %s: %.300s\n",
            gpu_ops[op].name, in->task ? in->task->id : "?", in->sample, rc, gpu_mode_name(), rd);
    free(rc);
    free(rd);
}

double gpu_compare_batch(int op, Instance **dev, Value **res, int n, double t_dev,
                         OpCounters *oc)
{
    double t_cpu = 0;
    oc->cmp_batches++;
    oc->cmp_calls += n;
    oc->cmp_dev_s += t_dev;
    for (int k = 0; k < n; k++) {
        double c0 = now_s();
        Value *r = cpu_call(dev[k]);
        t_cpu += now_s() - c0;
        if (same_value(r, res[k])) {
            oc->equal++;
        } else {
            if (oc->differ++ < 3)
                log_difference(op, dev[k], r, res[k]);
        }
        v_decref(res[k]);
        instance_complete(dev[k], r);   /* the CPU's value is the result */
    }
    oc->cmp_cpu_s += t_cpu;
    return t_cpu;
}
