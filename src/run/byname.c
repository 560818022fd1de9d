/* byname.c -- growable arrays of entries found by name (byname.h): --stats'
 * ops, batt's solver scores. */
#include "byname.h"

#include <stdlib.h>
#include <string.h>

void *byname_entry(void *arrp, int *n, int *cap, size_t size, int first_cap, const char *name)
{
    char *a;
    memcpy(&a, arrp, sizeof a);
    /* names mostly come back as the same pointer: those first, compared
     * as pointers, before any string is */
    for (int i = 0; i < *n; i++) {
        const char *s;
        memcpy(&s, a + (size_t)i * size, sizeof s);
        if (s == name)
            return a + (size_t)i * size;
    }
    for (int i = 0; i < *n; i++) {
        const char *s;
        memcpy(&s, a + (size_t)i * size, sizeof s);
        if (strcmp(s, name) == 0)
            return a + (size_t)i * size;
    }
    if (*n == *cap) {
        *cap = *cap ? 2 * *cap : first_cap;
        a = realloc(a, size * (size_t)*cap);
        if (!a)
            abort();
        memcpy(arrp, &a, sizeof a);
    }
    char *e = a + (size_t)(*n)++ * size;
    memset(e, 0, size);
    memcpy(e, &name, sizeof name);
    return e;
}
