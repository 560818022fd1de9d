/* test_fastdiv.c -- TAP tests of fastdiv.h: k / n and k % n as the
 * divide gives them, for divisors from 1 to 2^32 - 1 and dividends across
 * the 32-bit range (the ends, the multiples and their neighbours). */
#include "tap_c.h"
#include "fastdiv.h"

#include <stdlib.h>

static uint32_t next(uint64_t *s)       /* splitmix64's high half */
{
    uint64_t z = (*s += 0x9E3779B97F4A7C15u);
    z = (z ^ z >> 30) * 0xBF58476D1CE4E5B9u;
    z = (z ^ z >> 27) * 0x94D049BB133111EBu;
    return (uint32_t)((z ^ z >> 31) >> 32);
}

/* every k given against the divide; the count of misses */
static long misses(uint32_t n, const uint32_t *k, size_t nk)
{
    FastDiv d = fastdiv_of(n);
    long bad = 0;
    for (size_t x = 0; x < nk; x++)
        bad += fastdiv(d, k[x]) != k[x] / n || fastmod(d, k[x]) != k[x] % n;
    return bad;
}

static long around(uint32_t n, uint64_t *seed)
{
    uint32_t k[64];
    size_t nk = 0;
    const uint32_t ends[] = {0, 1, 2, n - 1, n, n + 1, 2 * n - 1, 2 * n, UINT32_MAX, UINT32_MAX - 1,
                             UINT32_MAX / n * n, UINT32_MAX / n * n - 1};
    for (size_t x = 0; x < sizeof ends / sizeof *ends; x++)
        k[nk++] = ends[x];
    while (nk < 64)
        k[nk++] = next(seed);
    return misses(n, k, nk);
}

int main(void)
{
    uint64_t seed = 1;
    long bad = 0;
    for (uint32_t n = 1; n <= 4096; n++)
        bad += around(n, &seed);
    ok(bad == 0, "n = 1..4096: quotient and remainder as the divide's (%ld differ)", bad);
    bad = 0;
    for (int e = 12; e < 32; e++)
        for (int o = -2; o <= 2; o++)
            bad += around((uint32_t)((1ull << e) + (uint64_t)(int64_t)o), &seed);
    bad += around(UINT32_MAX, &seed);
    ok(bad == 0, "n near the powers of two up to 2^32 - 1: as the divide's (%ld differ)", bad);
    bad = 0;
    for (int r = 0; r < 20000; r++) {
        uint32_t n = next(&seed) >> (next(&seed) % 32);
        bad += around(n ? n : 3, &seed);
    }
    ok(bad == 0, "20000 random n of every size: as the divide's (%ld differ)", bad);
    uint32_t all[4096];
    for (uint32_t k = 0; k < 4096; k++)
        all[k] = k;
    bad = 0;
    for (uint32_t n = 1; n <= 300; n++)
        bad += misses(n, all, 4096);
    ok(bad == 0, "every k < 4096 by every n <= 300 (a product's indices): as the divide's (%ld differ)", bad);
    printf("1..%d\n", ntest);
    return nfail != 0;
}
