/* backend_gpu_int.h -- what the host files of gpu/ share: the backend's
 * state, and each file's calls into the others.  Nothing outside gpu/
 * includes it; the rest of arcrun sees gpu/backend_gpu.h alone. */
#ifndef ARC_BACKEND_GPU_INT_H
#define ARC_BACKEND_GPU_INT_H

#include "backend_gpu.h"
#include "exec.h"
#include "gpu.h"
#include "workpool.h"

#include <pthread.h>

typedef struct {
    long batches, dev_calls;     /* ran on the device (or its emulation) */
    long cpu_calls;              /* instances the device could not take */
    long fallback_calls;         /* instances moved to the CPU by a device error */
    double dev_s;                /* validation + packing + transfers + kernel + unpacking */
    long cmp_batches, cmp_calls, equal, differ;
    double cmp_cpu_s, cmp_dev_s;
} OpCounters;

/* The backend's state: set up once (backend_gpu_setup), read by every
 * batch, printed by backend_gpu_finish. */
typedef struct {
    GpuOptions o;
    bool usable;                 /* a device (or emulation) is there, or may be (!probed) */
    bool probed;                 /* auto looks for the device at its first GPU-sized batch */
    char why[200];
    int crossover[GOP_COUNT];    /* auto: smallest batch for the GPU; 0 = never */
    OpCounters ctr[GOP_COUNT];
} GpuState;

extern GpuState gpu_state;
/* Held by a batch from packing to its counters, and by the device look
 * when it reports. */
extern pthread_mutex_t gpu_lock;

/* Where the last batch's time went (-v, calibrate): host packing, the
 * device (copies and kernel), host rebuilding of values. */
typedef struct {
    double pack, device, rebuild;
} GpuPhases;
extern GpuPhases gpu_phase;

static inline double now_s(void)
{
    return (double)now_ns() * 1e-9;
}

/* backend_gpu.c: "cuda" or "emulate", as messages name the backend. */
const char *gpu_mode_name(void);
/* The op a primitive runs as on the device; GOP_NONE (-1) if none. */
int gpu_op_of_prim(int prim);
/* After setup: the smallest batch the GPU may take in this run (1: any,
 * under --backend=cuda or --compare; auto: its least crossover); 0 when
 * it takes none. */
int backend_gpu_smallest_batch(void);

/* One batch through the device now (or its calls the device cannot
 * take through the CPU), counted. */
void gpu_run_now(int op, Batch *b);

/* gather.c: batches of an op from every chunk worker, gathered into one
 * device batch. */
void gpu_gather_setup(void);              /* reads ARCRUN_GPU_GATHER */
int gpu_gather_factor(void);              /* chunk workers per thread */
void gpu_gather_turns(int jobs);          /* how many compute at once; 0: no gathering */
bool gpu_gather_on(void);                 /* whether this thread's batches gather */
/* Returns once b's calls have their results. */
void gpu_gather_submit(int op, Batch *b);
long gpu_gather_submitted(int op);        /* executor batches gathered */
void gpu_gather_worker_begin(void);
void gpu_gather_worker_end(void);
void gpu_gather_worker_yield(void);       /* between two chunks */

/* device.c: auto's look for the device, started at its first GPU-sized
 * batch on a thread of its own.  gpu_lazy_probe: whether the device is
 * ready (false while looking); gpu_lazy_join: wait for the look, and make
 * its answer gpu_state.usable. */
bool gpu_lazy_probe(void);
void gpu_lazy_join(void);

/* pack.c: values into records and back. */
/* fn over [0, n) on the --jobs threads; small batches stay on this one. */
void gpu_par_range(int n, PoolFn fn, void *ctx);
/* A parameter as the record carries it, or why it cannot be carried. */
const char *gpu_param_byte(int kind, const Value *v, uint8_t *out);
/* Whether arguments of this kind are validated call by call, not once per batch. */
bool gpu_param_per_call(int kind);
/* Validate one call and pack it into rec; NULL, or why it stays on the CPU. */
const char *gpu_pack_call(int op, const Value *g, Value *const *params, GpuGrid *rec);
/* Each instance's call into recs[i], or bad[i] = why not. */
void gpu_pack_batch(int op, Instance **inst, int n, GpuGrid *recs, const char **bad);
/* res[k] for the n records from out (objects ops: grid k's output at
 * out + off[k], in uint16 words; off unused otherwise). */
void gpu_unpack_batch(int op, const GpuGrid *recs, const void *out, const uint32_t *off, int n,
                      Value **res);

/* run_packed.c: the device, or its host emulation (--backend=emulate). */
/* Reads ARCRUN_GPU_INJECT under emulate. */
void gpu_emulation_setup(void);
/* The buffer to pack n records into; NULL with why. */
GpuGrid *gpu_input_buffer(int n, char *why, size_t whylen);
/* The n records of gpu_input_buffer through op; *out its result records.
 * 0, or -1 with why (the batch then runs on the CPU). */
int gpu_run_packed(int op, int n, const void **out, char *why, size_t whylen);
/* The objects ops: recs through op, res[k] rebuilt as chunks finish; on
 * -1 (why) res holds nothing. */
int gpu_run_objects_batch(int op, const GpuGrid *recs, int n, Value **res, char *why,
                          size_t whylen);

/* compare.c: --compare over the n device results of a batch: the CPU's
 * value of each, compared and made the result; counts into oc.  Returns
 * the CPU's time. */
double gpu_compare_batch(int op, Instance **dev, Value **res, int n, double t_dev,
                         OpCounters *oc);

/* calfile.c: the calibration file. */
/* The calibration file used when --calibration is not given. */
const char *backend_gpu_default_calibration(char *buf, size_t len);
/* crossover[] from the file: 0 loaded, 1 no such file, -1 malformed (why says). */
int gpu_calfile_load(const char *path, int crossover[GOP_COUNT], char *why, size_t whylen);
/* A new document: the header fields, and "ops" to add to. */
struct cJSON *gpu_calfile_new(const char *backend, const char *device, int jobs,
                              const char *grids);
/* One op's measurements: sizes[k] grids took cpu_s[k] and gpu_s[k] seconds;
 * crossover 0: none (null). */
void gpu_calfile_add_op(struct cJSON *doc, const char *op, int crossover, const int *sizes,
                        const double *cpu_s, const double *gpu_s, int n);
/* doc to path, creating its directories.  0, or -1 with errno. */
int gpu_calfile_write(const char *path, const struct cJSON *doc);

#endif
