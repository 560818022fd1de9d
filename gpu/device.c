/* device.c -- looking for the device: auto's look on a thread of its own,
 * and --version's lines about the build and the device. */
#include "config.h"
#include "backend_gpu_int.h"

#include <stdatomic.h>
#include <string.h>

/* auto: CUDA's start costs a fraction of a second, so a run none of whose
 * batches reaches a crossover never pays it, and one that does starts it on
 * a thread of its own: batches go on running on the CPU until the device
 * is ready, so auto never waits for it. */
enum { LAZY_NONE, LAZY_LOOKING, LAZY_DONE };

static atomic_int lazy;          /* the look: LAZY_* */
static bool lazy_ok;             /* its answer, read after LAZY_DONE */
static pthread_t prober;
static bool prober_started;

static void *prober_main(void *unused)
{
    (void)unused;
    char why[sizeof gpu_state.why];
    bool ok = gpu_available(why, sizeof why);
    if (ok && !gpu_host_input(1024, why, sizeof why))   /* pinned buffers: the first batch's cost */
        ok = false;
    pthread_mutex_lock(&gpu_lock);
    lazy_ok = ok;
    memcpy(gpu_state.why, why, sizeof why);
    if (gpu_state.o.verbose)
        fprintf(gpu_state.o.log, "arcrun: GPU: %s\n", ok ? why : "none");
    pthread_mutex_unlock(&gpu_lock);
    atomic_store_explicit(&lazy, LAZY_DONE, memory_order_release);
    return NULL;
}

bool gpu_lazy_probe(void)
{
    int state = atomic_load_explicit(&lazy, memory_order_acquire);
    if (state == LAZY_DONE)
        return lazy_ok;
    if (state == LAZY_NONE) {
        int none = LAZY_NONE;
        if (atomic_compare_exchange_strong(&lazy, &none, LAZY_LOOKING)) {
            prober_started = pthread_create(&prober, NULL, prober_main, NULL) == 0;
            if (!prober_started)
                prober_main(NULL);  /* no thread: look now */
        }
    }
    return false;
}

/* The prober, if started, has finished; auto's answer is the backend's. */
void gpu_lazy_join(void)
{
    int state = atomic_load_explicit(&lazy, memory_order_acquire);
    if (state == LAZY_NONE)
        return;
    if (prober_started)
        pthread_join(prober, NULL);
    prober_started = false;
    gpu_state.usable = lazy_ok;
    gpu_state.probed = true;
    atomic_store(&lazy, LAZY_NONE);
}

/* --version's lines about the CUDA build, the device and its self-test. */
void backend_gpu_describe(FILE *f)
{
    char why[160];
    if (gpu_built()) {
#ifdef ARC_NVCC_VERSION
        fprintf(f, "CUDA backend: built in (nvcc %s)\n", ARC_NVCC_VERSION);
#else
        fprintf(f, "CUDA backend: built in\n");
#endif
        bool ok = gpu_available(why, sizeof why);
        fprintf(f, "CUDA device: %s\n", ok ? why : "none");
        if (!ok) {
            fprintf(f, "  (%s; everything runs on the CPU)\n", why);
            return;
        }
        /* the backend's own batch path and rot90 kernel, against the host */
        int st = gpu_selftest(why, sizeof why);
        fprintf(f, "CUDA self-test: %s: %s\n", st == 1 ? "passed" : "FAILED", why);
    } else {
        fprintf(f, "CUDA backend: not built (configure found no nvcc); CPU only\n");
    }
}
