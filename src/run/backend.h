/* backend.h -- where a batch of identical DSL calls runs.
 *
 * Modelled on ggml's backend layer: a backend is a table of function
 * pointers with a supports_op query; the scheduler (backend_pick) gives
 * each batch to the first registered backend that supports its op, with
 * the CPU backend last as the universal fallback.  The run layer knows no
 * backend but the CPU: the driver registers the others.
 */
#ifndef ARC_BACKEND_H
#define ARC_BACKEND_H

#include "ir.h"

typedef struct Instance Instance;

/* The identity of an op: what must be equal for two calls to batch
 * together.  Function-valued and constant operands are part of the key;
 * other operands are per-instance data. */
typedef struct {
    uint64_t hash;
    const Value *callee;         /* constant callee, or the runtime function value */
    const Value *fixed[IR_MAX_ARGS]; /* constant or function-valued args; NULL = data */
    uint8_t nargs;
} OpKey;

typedef struct {
    OpKey key;
    int n;
    Instance **inst;             /* the instances whose current statement this is */
    double waited;               /* seconds run_batch spent waiting for other batches'
                                    calls to join these (not computing): --stats
                                    leaves them out of the op's time */
} Batch;

typedef struct Backend {
    const char *name;
    bool (*supports_op)(const struct Backend *be, const OpKey *key, int batch_size);
    /* Run every call of the batch: store results in the instances. */
    void (*run_batch)(const struct Backend *be, Batch *b);
    /* The smallest batch it may take in this run (1: any); 0: none. */
    int (*smallest_batch)(const struct Backend *be);
    /* Chunk workers it wants per thread of a run on `jobs` threads (NULL
     * or 1: one), so that it can gather batches across chunks; each such
     * worker calls worker_begin when it starts and worker_end when it
     * stops (NULL: nothing to do). */
    int (*workers_per_thread)(const struct Backend *be, int jobs);
    void (*worker_begin)(const struct Backend *be);
    void (*worker_end)(const struct Backend *be);
    void (*worker_yield)(const struct Backend *be);   /* between two of its chunks */
    /* Seconds its batches took so far (NULL: it keeps no count). */
    double (*device_seconds)(const struct Backend *be);
} Backend;

extern const Backend backend_cpu;

/* Put be before the backends registered so far and the CPU; at start-up,
 * before any run (not thread-safe). */
void backend_register(const Backend *be);
/* The backend a batch of n calls of key runs on. */
const Backend *backend_pick(const OpKey *key, int n);
/* The least smallest_batch over the registered backends but the CPU; 0
 * when none takes any batch. */
int backend_smallest_batch(void);
/* How many chunk workers a run on `jobs` threads starts: jobs times the
 * most any backend wants per thread.  Called once per run, before the
 * workers start. */
int backend_workers(int jobs);
/* Each chunk worker, at its start and at its end. */
void backend_worker_begin(void);
void backend_worker_end(void);
void backend_worker_yield(void);
/* Seconds the backends other than the CPU took for their batches. */
double backend_device_seconds(void);

/* The CPU's call of an instance's current statement, inside its time
 * budget: a new reference, or NULL with the exception in in->cx. */
Value *cpu_call(Instance *in);
Value *cpu_call_at(Instance *in, uint64_t *clock);   /* *clock: now, or 0; left at the call's end */

/* Human label of an op: "mapply(rot90, ·)". */
void opkey_label(const OpKey *k, StrBuf *sb);

#endif
