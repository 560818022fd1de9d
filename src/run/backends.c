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
