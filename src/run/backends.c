/* backends.c -- the backend registry and the scheduler's choice: the first
 * backend whose supports_op takes the batch, the CPU last. */
#include "backend.h"

#define BACKENDS_MAX 8

static const Backend *registry[BACKENDS_MAX] = {&backend_cpu};
static int nregistry = 1;

void backend_register(const Backend *be)
{
    if (nregistry == BACKENDS_MAX)
        return;
    for (int i = nregistry; i > 0; i--)
        registry[i] = registry[i - 1];
    registry[0] = be;
    nregistry++;
}

const Backend *backend_pick(const OpKey *key, int n)
{
    for (int q = 0; q < nregistry - 1; q++)
        if (registry[q]->supports_op(registry[q], key, n))
            return registry[q];
    return &backend_cpu;
}

int backend_smallest_batch(void)
{
    int least = 0;
    for (int q = 0; q < nregistry - 1; q++) {
        int b = registry[q]->smallest_batch ? registry[q]->smallest_batch(registry[q]) : 0;
        if (b > 0 && (!least || b < least))
            least = b;
    }
    return least;
}

int backend_workers(int jobs)
{
    int most = 1;
    for (int q = 0; q < nregistry - 1; q++) {
        int f = registry[q]->workers_per_thread ? registry[q]->workers_per_thread(registry[q], jobs) : 1;
        if (f > most)
            most = f;
    }
    return jobs * most;
}

void backend_worker_begin(void)
{
    for (int q = 0; q < nregistry - 1; q++)
        if (registry[q]->worker_begin)
            registry[q]->worker_begin(registry[q]);
}

void backend_worker_end(void)
{
    for (int q = 0; q < nregistry - 1; q++)
        if (registry[q]->worker_end)
            registry[q]->worker_end(registry[q]);
}

double backend_device_seconds(void)
{
    double s = 0;
    for (int q = 0; q < nregistry - 1; q++)
        if (registry[q]->device_seconds)
            s += registry[q]->device_seconds(registry[q]);
    return s;
}

void backend_worker_yield(void)
{
    for (int q = 0; q < nregistry - 1; q++)
        if (registry[q]->worker_yield)
            registry[q]->worker_yield(registry[q]);
}
