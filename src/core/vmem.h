/* vmem.h -- memory for values: size classes with per-thread free lists.
 *
 * The DSLs build and drop millions of small tuples and sets; glibc malloc
 * spends most of that time consolidating its bins.  Blocks of up to
 * VMEM_SMALL bytes come from slabs and go back to the freeing thread's
 * list; larger ones go to malloc.  Sanitizer builds (ARC_NO_POOL) use
 * malloc for everything, so ASan still sees every block. */
#ifndef ARC_VMEM_H
#define ARC_VMEM_H

#include <stddef.h>
#include <stdint.h>

/* Once, before the first allocation: blocks past VMEM_SMALL that reach
 * mmap's size go back to the system when freed.  glibc otherwise raises
 * its mmap threshold after each such free, and later large tables then
 * come from the heap, which a run's one large moment leaves fragmented
 * for the rest of it. */
void vmem_setup(void);

void *vmem_alloc(size_t n);
void *vmem_calloc(size_t n);
/* n: the size p was allocated with (blocks carry no header; sanitizer
 * builds check it). */
void vmem_free(void *p, size_t n);

/* Bytes this thread has taken from vmem and not freed (frees of another
 * thread's blocks count where they happen), and the most it held since
 * vmem_peak_reset: how much memory a stretch of work keeps live. */
int64_t vmem_live(void);
int64_t vmem_peak(void);
void vmem_peak_reset(void);

#endif
