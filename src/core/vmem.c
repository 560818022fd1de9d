/* vmem.c -- size-class allocator for values (see vmem.h). */
#include "config.h"
#include "vmem.h"

#include <pthread.h>
#include <stdbool.h>
#include <stdint.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#ifdef HAVE_MALLOC_H
#include <malloc.h>
#endif

/* What this thread holds from vmem, and the most it held since the last
 * vmem_peak_reset (vmem.h). */
static _Thread_local int64_t live_bytes, peak_bytes;

static inline void count_alloc(size_t n)
{
    live_bytes += (int64_t)n;
    if (live_bytes > peak_bytes)
        peak_bytes = live_bytes;
}

static inline void count_free(size_t n)
{
    live_bytes -= (int64_t)n;
}

int64_t vmem_live(void) { return live_bytes; }
int64_t vmem_peak(void) { return peak_bytes; }
void vmem_peak_reset(void) { peak_bytes = live_bytes; }

void vmem_setup(void)
{
#ifdef M_MMAP_THRESHOLD
    /* setting it also stops glibc adjusting it and the trim threshold.
     * Blocks up to glibc's most (32 MB) come from the heap and are reused:
     * mapped ones (a product's table, a big grid's walk) were faulted in
     * and zeroed page by page at every call, and unmapped after. */
    mallopt(M_MMAP_THRESHOLD, 32 << 20);
#endif
#ifdef M_TRIM_THRESHOLD
    /* the heap's top is handed back only past this much free: at glibc's
     * 128 KB a loop that frees and remakes mid-sized tables shrank and
     * regrew it each time, every page faulted and zeroed again */
    mallopt(M_TRIM_THRESHOLD, 32 << 20);
#endif
}

static void *sys_alloc(size_t n)
{
    void *p = malloc(n ? n : 1);
    if (!p) {
        fputs("arcrun: out of memory\n", stderr);
        abort();
    }
    return p;
}

#ifdef ARC_NO_POOL

/* Sanitizer builds keep each block's size before it, so a free that names
 * another size stops the run instead of corrupting a pool later. */
#define CHECK_HDR 16

void *vmem_alloc(size_t n)
{
    count_alloc(n);
    char *h = sys_alloc(n + CHECK_HDR);
    *(size_t *)h = n;
    return h + CHECK_HDR;
}

void *vmem_calloc(size_t n) { void *p = vmem_alloc(n); memset(p, 0, n); return p; }

void vmem_free(void *p, size_t n)
{
    if (!p)
        return;
    count_free(n);
    char *h = (char *)p - CHECK_HDR;
    if (*(size_t *)h != n) {
        fprintf(stderr, "arcrun: vmem_free of %zu bytes, block has %zu\n", n, *(size_t *)h);
        abort();
    }
    free(h);
}

#else

#define GRAIN 16               /* blocks and slabs keep 16-byte alignment */
#define VMEM_SMALL 256         /* bytes served from slabs: small tuples and sets */
#define NCLASS (VMEM_SMALL / GRAIN + 1)
#define SLAB (256 * 1024)

/* A free block; the first of a chain on the shared stack also links the
 * next chain and knows its length (blocks are at least 32 bytes). */
typedef struct Free { struct Free *next, *next_chain; size_t count; } Free;
#define MIN_CLASS 2

/* Per thread and class: the list allocations come from, and one spilled
 * list of blocks freed past BATCH.  Lengths are counted as blocks come and
 * go, never by walking a list: a walk touches a cold line per block. */
static _Thread_local Free *free_list[NCLASS], *spill[NCLASS];
static _Thread_local size_t free_count[NCLASS], spill_count[NCLASS];
static _Thread_local char *bump, *bump_end;

/* Blocks freed by one thread are often allocated by another (the executor
 * frees on the main thread what workers built; the GPU backend's pool
 * builds what the main thread frees): surplus moves through a shared stack
 * of whole lists per class, O(1) under its lock. */
#define BATCH 256
static Free *shared_list[NCLASS];
static pthread_mutex_t shared_lock = PTHREAD_MUTEX_INITIALIZER;

static void push_shared(uint32_t cls, Free *head, size_t count)
{
    head->count = count;
    pthread_mutex_lock(&shared_lock);
    head->next_chain = shared_list[cls];
    __atomic_store_n(&shared_list[cls], head, __ATOMIC_RELAXED);
    pthread_mutex_unlock(&shared_lock);
}

static Free *take_shared(uint32_t cls)
{
    /* a run that only grows finds the stack empty at every allocation:
     * look before taking the lock (a stale answer costs a slab block) */
    if (!__atomic_load_n(&shared_list[cls], __ATOMIC_RELAXED))
        return NULL;
    pthread_mutex_lock(&shared_lock);
    Free *head = shared_list[cls];
    if (head)
        __atomic_store_n(&shared_list[cls], head->next_chain, __ATOMIC_RELAXED);
    pthread_mutex_unlock(&shared_lock);
    if (head)
        free_count[cls] = head->count;
    return head;
}

/* Slabs live until exit; the list keeps them reachable for leak checkers. */
typedef struct Slab { struct Slab *next; } Slab;
static Slab *slabs;
static pthread_mutex_t slabs_lock = PTHREAD_MUTEX_INITIALIZER;

/* What exited threads left of their slabs, for the next slab_carve. */
#define NSPARE 64
static struct { char *bump, *end; } spare[NSPARE];
static int nspare;

/* Threads come and go (a run's team, the driver's chunk workers, the task
 * reader's): a thread that ends hands its free lists and the rest of its
 * slab on, or they would be lost (all-pairs grew by megabytes per task
 * when threads lasted a step). */
static pthread_key_t exit_key;
static pthread_once_t exit_once = PTHREAD_ONCE_INIT;
static _Thread_local bool exit_armed;

static void on_thread_exit(void *unused)
{
    (void)unused;
    for (uint32_t cls = MIN_CLASS; cls < NCLASS; cls++) {
        if (free_list[cls])
            push_shared(cls, free_list[cls], free_count[cls]);
        if (spill[cls])
            push_shared(cls, spill[cls], spill_count[cls]);
        free_list[cls] = spill[cls] = NULL;
        free_count[cls] = spill_count[cls] = 0;
    }
    pthread_mutex_lock(&slabs_lock);
    if (bump_end - bump >= 4096 && nspare < NSPARE) {
        spare[nspare].bump = bump;
        spare[nspare++].end = bump_end;
    }
    pthread_mutex_unlock(&slabs_lock);
    bump = bump_end = NULL;
}

static void make_exit_key(void)
{
    if (pthread_key_create(&exit_key, on_thread_exit) != 0)
        abort();
}

static __attribute__((noinline, cold)) void arm_exit_now(void)
{
    pthread_once(&exit_once, make_exit_key);
    pthread_setspecific(exit_key, &exit_armed);
    exit_armed = true;
}

static inline void arm_exit(void)
{
    if (!exit_armed)
        arm_exit_now();
}

static void *slab_carve(size_t bytes)
{
    if ((size_t)(bump_end - bump) < bytes) {
        pthread_mutex_lock(&slabs_lock);
        for (int k = 0; k < nspare; k++)
            if ((size_t)(spare[k].end - spare[k].bump) >= bytes) {
                bump = spare[k].bump;
                bump_end = spare[k].end;
                spare[k] = spare[--nspare];
                break;
            }
        pthread_mutex_unlock(&slabs_lock);
    }
    if ((size_t)(bump_end - bump) < bytes) {
        Slab *s = sys_alloc(SLAB);
        pthread_mutex_lock(&slabs_lock);
        s->next = slabs;
        slabs = s;
        pthread_mutex_unlock(&slabs_lock);
        bump = (char *)s + GRAIN;
        bump_end = (char *)s + SLAB;
    }
    void *p = bump;
    bump += bytes;
    return p;
}

/* The size class serving n bytes (n <= VMEM_SMALL); alloc and free agree
 * on it, since a block carries no header. */
static inline uint32_t size_class(size_t n)
{
    uint32_t cls = (uint32_t)((n + GRAIN - 1) / GRAIN);
    return cls < MIN_CLASS ? MIN_CLASS : cls;
}

/* The next block handed out is fetched now: reading its link then would
 * miss the cache (freed blocks are cold by reuse). */
static inline void *pop_block(uint32_t cls, Free *f)
{
    if ((free_list[cls] = f->next))
        __builtin_prefetch(f->next, 1);
    free_count[cls]--;
    return f;
}

/* An empty free list: the spilled list, a shared one, or a new slab's
 * block.  Out of line, so that the common pop keeps no registers. */
static __attribute__((noinline)) void *alloc_refill(uint32_t cls)
{
    arm_exit();
    Free *f = spill[cls];
    if (f) {
        free_count[cls] = spill_count[cls];
        spill[cls] = NULL;
        spill_count[cls] = 0;
    } else {
        f = take_shared(cls);
    }
    return f ? pop_block(cls, f) : slab_carve((size_t)cls * GRAIN);
}

void *vmem_alloc(size_t n)
{
    count_alloc(n);
    if (n > VMEM_SMALL)
        return sys_alloc(n);
    uint32_t cls = size_class(n);
    Free *f = free_list[cls];
    return f ? pop_block(cls, f) : alloc_refill(cls);
}

void *vmem_calloc(size_t n)
{
    void *p = vmem_alloc(n);
    memset(p, 0, n);
    return p;
}

/* A full list is spilled; an older spill is shared. */
static __attribute__((noinline)) void free_spill(uint32_t cls)
{
    if (spill[cls])
        push_shared(cls, spill[cls], spill_count[cls]);
    spill[cls] = free_list[cls];
    spill_count[cls] = free_count[cls];
    free_list[cls] = NULL;
    free_count[cls] = 0;
}

void vmem_free(void *p, size_t n)
{
    if (!p)
        return;
    count_free(n);
    if (n > VMEM_SMALL) {
        free(p);
        return;
    }
    uint32_t cls = size_class(n);
    Free *f = p;
    if (!free_list[cls])
        arm_exit();
    f->next = free_list[cls];
    free_list[cls] = f;
    if (++free_count[cls] >= BATCH)
        free_spill(cls);
}

#endif
