/* byname.h -- growable arrays of entries found by name: structs whose
 * first member is their name (a const char *), searched in order, a new
 * one appended at the end. */
#ifndef ARC_BYNAME_H
#define ARC_BYNAME_H

#include <stddef.h>

/* The entry named name in the array whose pointer is at arrp (*n entries
 * of size bytes, room for *cap): the first whose name is name (the same
 * pointer or equal text), or a new one, zeroed but for its name, which
 * is borrowed.  The array grows to first_cap, then by doubling; out of
 * memory aborts. */
void *byname_entry(void *arrp, int *n, int *cap, size_t size, int first_cap, const char *name);

#endif
