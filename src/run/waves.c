/* waves.c -- instances run in waves sized by the memory they keep live,
 * not by their count (exec.h exec_waves). */
#include "exec.h"
#include "callcache.h"
#include "vmem.h"

/* The first wave only measures what an instance holds at its peak; each
 * one after it takes as many instances as fit in WAVE_BYTES by the last
 * wave's measure, but at most twice as many as it.  Lockstep
 * pays through the call cache, whose entries for task-wide values (S,
 * constants) last over the waves, so narrow waves lose little; entries
 * keyed by one sample's values are dropped when its wave ends.  Widths
 * are even: a batt sample's two calls (C=None, C=O) share a wave and its
 * entries.  Per thread, this is what bounds the run's memory. */
enum { WAVE_FIRST = 4 };
#define WAVE_BYTES ((int64_t)4 << 20)

int exec_waves(Instance **insts, int n, const ExecOptions *opt, ExecStats *st,
               void (*after)(Instance **wave, int m, void *arg), void *arg)
{
    ExecPlans own = {0};
    ExecOptions o = *opt;
    o.keep_cache = true;
    o.plans = opt->plans ? opt->plans : &own;
    int rc = 0, width = n < WAVE_FIRST ? n : WAVE_FIRST;
    int64_t most = 0;        /* the largest per-instance measure so far */
    for (int i = 0; i < n && rc == 0;) {
        int m = n - i < width ? n - i : width;
        int64_t base = vmem_live();
        vmem_peak_reset();
        rc = exec_run(insts + i, m, &o, st);
        int64_t per = (vmem_peak() - base) / m;
        if (per < most)
            per = most;
        most = per;
        if (!opt->no_cache)
            cache_drop_varying(cache_of_thread());
        if (after)
            after(insts + i, m, arg);
        i += m;
        int64_t fit = per > 0 ? WAVE_BYTES / per : n;
        if (fit > 2 * (int64_t)m)   /* later samples may be larger: grow step by step */
            fit = 2 * (int64_t)m;
        width = fit < 2 ? 2 : fit > n ? n : (int)(fit & ~(int64_t)1);
    }
    if (!opt->keep_cache && !opt->no_cache)
        cache_clear(cache_of_thread());
    exec_plans_free(&own);
    return rc;
}
