/* fnv.h -- FNV-1a over bytes, 32 bits: the hash of arcrun's own name
 * tables (parsed symbols, primitive names, task ids).  Never a Python
 * hash: those are pyhash.c's. */
#ifndef ARC_FNV_H
#define ARC_FNV_H

#include <stddef.h>
#include <stdint.h>

#define FNV1A32_BASIS 2166136261u

/* h (FNV1A32_BASIS, or a seed mixed into it) carried over s[0..n). */
static inline uint32_t fnv1a32(uint32_t h, const char *s, size_t n)
{
    for (size_t i = 0; i < n; i++)
        h = (h ^ (unsigned char)s[i]) * 16777619u;
    return h;
}

#endif
