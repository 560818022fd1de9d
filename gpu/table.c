/* table.c -- after a run: the per-op counters as a table (GPU calls,
 * batches, CPU instances, fallbacks and, with --compare, times, speedup
 * and equality). */
#include "backend_gpu_int.h"

long backend_gpu_finish(FILE *f, bool show)
{
    gpu_lazy_join();
    long differ = 0, any = 0;
    for (int op = 0; op < GOP_COUNT; op++) {
        const OpCounters *c = &gpu_state.ctr[op];
        differ += c->differ;
        any += c->dev_calls + c->cpu_calls + c->fallback_calls;
    }
    if (!(show || gpu_state.o.compare) || gpu_state.o.mode == BACKEND_CPU)
        return differ;
    if (!gpu_state.usable)
        return differ;      /* setup said why, once */
    if (!any) {
        fprintf(f, "%s: no call of a GPU-able op in this run\n", gpu_mode_name());
        return differ;
    }
    fprintf(f, "%s (%s): calls per op\n", gpu_mode_name(), gpu_state.why);
    /* gathered: the executor's batches behind the device's (gather.c) */
    fprintf(f, "%-11s %8s %7s %10s %8s %7s %8s", "op", "gpu", "batches", "mean batch", "gathered",
            "cpu", "fellback");
    if (gpu_state.o.compare)
        fprintf(f, " %10s %10s %8s %8s %7s", "cpu ms", "gpu ms", "speedup", "equal", "differ");
    fputc('\n', f);
    for (int op = 0; op < GOP_COUNT; op++) {
        const OpCounters *c = &gpu_state.ctr[op];
        if (!c->dev_calls && !c->cpu_calls && !c->fallback_calls)
            continue;
        fprintf(f, "%-11s %8ld %7ld %10.1f %8ld %7ld %8ld", gpu_ops[op].name, c->dev_calls,
                c->batches, c->batches ? (double)c->dev_calls / (double)c->batches : 0.0,
                gpu_gather_submitted(op), c->cpu_calls, c->fallback_calls);
        if (gpu_state.o.compare && c->cmp_batches)
            fprintf(f, " %10.3f %10.3f %7.2fx %8ld %7ld", c->cmp_cpu_s * 1e3,
                    c->cmp_dev_s * 1e3, c->cmp_dev_s > 0 ? c->cmp_cpu_s / c->cmp_dev_s : 0.0,
                    c->equal, c->differ);
        fputc('\n', f);
    }
    if (gpu_state.o.compare)
        fprintf(f, "compare: %s; gpu ms = validation, packing, transfers, kernel, unpacking%s\n",
                differ ? "VALUES DIFFER" : "all values equal (v_eq and repr)",
                gpu_state.o.mode == BACKEND_EMULATE ? " (host emulation: not a GPU time)" : "");
    return differ;
}
