/* waves.c -- instances run in waves sized by the memory they keep live,
 * not by their count (exec.h exec_waves). */
#include "exec.h"
#include "callcache.h"
#include "vmem.h"

/* The first wave only measures what an instance holds at its peak; the
 * ones after it take as many instances as fit in WAVE_BYTES.  Lockstep
 * pays through the call cache, which lasts over the waves, so narrow
 * waves lose little; per thread, this is what bounds the run's memory. */
enum { WAVE_FIRST = 4 };
#define WAVE_BYTES ((int64_t)32 << 20)

int exec_waves(Instance **insts, int n, const ExecOptions *opt, ExecStats *st,
               void (*release)(Instance *in, void *arg), void *arg)
{
    ExecOptions o = *opt;
    o.keep_cache = true;
    int rc = 0, width = n < WAVE_FIRST ? n : WAVE_FIRST;
    for (int i = 0; i < n && rc == 0;) {
        int m = n - i < width ? n - i : width;
        int64_t base = vmem_live();
        vmem_peak_reset();
        rc = exec_run(insts + i, m, &o, st);
        int64_t per = (vmem_peak() - base) / m;
        if (release)
            for (int k = 0; k < m; k++)
                release(insts[i + k], arg);
        i += m;
        int64_t fit = per > 0 ? WAVE_BYTES / per : n;
        width = fit < 1 ? 1 : fit > n ? n : (int)fit;
    }
    if (!opt->keep_cache && !opt->no_cache)
        cache_clear(cache_of_thread());
    return rc;
}
