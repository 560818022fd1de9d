/* spool.h -- lines that wait for their turn, held in a temporary file.
 *
 * With threads, a chunk's lines go out in chunk order: a chunk that ends
 * before an earlier one keeps them until then.  A spool is one thread's
 * unlinked temporary file ($TMPDIR, else /tmp): the thread appends each
 * chunk's lines as a region of it, and whoever writes the output copies a
 * region out when its turn comes, so waiting lines take disk, not memory.
 * A region copied out gives its blocks back, and once every region is
 * out the file is written from its start again.  The owner appends;
 * copies and releases are serialised by the caller's lock. */
#ifndef ARC_SPOOL_H
#define ARC_SPOOL_H

#include <stdio.h>

typedef struct Spool Spool;

/* A spool in a new temporary file; NULL if none can be made (the caller
 * then keeps lines in memory). */
Spool *spool_new(void);

/* The file to append a region's lines to, starting a region: *off is
 * where it starts.  Under the caller's lock. */
FILE *spool_begin(Spool *s, size_t *off);

/* The region's length once its lines are all appended.  A failed write
 * ends the run with a message: the lines would be lost. */
size_t spool_end(Spool *s, size_t off);

/* Copy the region [off, off + len) to out and release it.  Under the
 * caller's lock. */
void spool_copy(Spool *s, size_t off, size_t len, FILE *out);

void spool_free(Spool *s);

#endif
