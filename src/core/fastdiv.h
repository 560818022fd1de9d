/* fastdiv.h -- k / n and k % n for 32-bit k, n fixed over a walk.
 *
 * A product's pairs are named by one index k = j * n + i, and its walks
 * in table order split k at every step: a 64-bit divide there was most of
 * a filter's time.  Lemire's direct computation (Lemire, Kaser, Kurz,
 * "Faster Remainder by Direct Computation", 2019) is exact for every
 * 32-bit k and n >= 2; n == 1 is taken apart.
 */
#ifndef ARC_FASTDIV_H
#define ARC_FASTDIV_H

#include <stdint.h>

typedef struct {
    uint64_t m;                 /* 2^64 / n rounded up; 0 for n == 1 */
    uint32_t n;
} FastDiv;

static inline FastDiv fastdiv_of(uint32_t n)
{
    return (FastDiv){n > 1 ? UINT64_MAX / n + 1 : 0, n};
}

static inline uint32_t fastdiv(FastDiv d, uint32_t k)
{
#ifdef __SIZEOF_INT128__
    return d.n > 1 ? (uint32_t)(((unsigned __int128)d.m * k) >> 64) : k;
#else
    return k / d.n;
#endif
}

static inline uint32_t fastmod(FastDiv d, uint32_t k)
{
#ifdef __SIZEOF_INT128__
    return d.n > 1 ? (uint32_t)(((unsigned __int128)(d.m * k) * d.n) >> 64) : 0;
#else
    return k % d.n;
#endif
}

#endif
