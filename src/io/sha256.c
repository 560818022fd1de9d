/* sha256.c -- SHA-256 (FIPS 180-4): x86's SHA extensions where the CPU
 * has them, else portable C.  A traced run can hash gigabytes of reprs. */
#include "sha256.h"

#include <stdatomic.h>
#include <string.h>

#if defined(__x86_64__) && (defined(__GNUC__) || defined(__clang__))
#define SHA256_X86 1
#include <cpuid.h>
#include <immintrin.h>
#endif

static const uint32_t K[64] = {
    0x428a2f98, 0x71374491, 0xb5c0fbcf, 0xe9b5dba5, 0x3956c25b, 0x59f111f1, 0x923f82a4, 0xab1c5ed5,
    0xd807aa98, 0x12835b01, 0x243185be, 0x550c7dc3, 0x72be5d74, 0x80deb1fe, 0x9bdc06a7, 0xc19bf174,
    0xe49b69c1, 0xefbe4786, 0x0fc19dc6, 0x240ca1cc, 0x2de92c6f, 0x4a7484aa, 0x5cb0a9dc, 0x76f988da,
    0x983e5152, 0xa831c66d, 0xb00327c8, 0xbf597fc7, 0xc6e00bf3, 0xd5a79147, 0x06ca6351, 0x14292967,
    0x27b70a85, 0x2e1b2138, 0x4d2c6dfc, 0x53380d13, 0x650a7354, 0x766a0abb, 0x81c2c92e, 0x92722c85,
    0xa2bfe8a1, 0xa81a664b, 0xc24b8b70, 0xc76c51a3, 0xd192e819, 0xd6990624, 0xf40e3585, 0x106aa070,
    0x19a4c116, 0x1e376c08, 0x2748774c, 0x34b0bcb5, 0x391c0cb3, 0x4ed8aa4a, 0x5b9cca4f, 0x682e6ff3,
    0x748f82ee, 0x78a5636f, 0x84c87814, 0x8cc70208, 0x90befffa, 0xa4506ceb, 0xbef9a3f7, 0xc67178f2,
};

static inline uint32_t ror(uint32_t x, int n) { return x >> n | x << (32 - n); }

static void compress_c(uint32_t h[8], const uint8_t *p)
{
    uint32_t w[64];
    for (int i = 0; i < 16; i++)
        w[i] = (uint32_t)p[4 * i] << 24 | (uint32_t)p[4 * i + 1] << 16 |
               (uint32_t)p[4 * i + 2] << 8 | p[4 * i + 3];
    for (int i = 16; i < 64; i++) {
        uint32_t s0 = ror(w[i - 15], 7) ^ ror(w[i - 15], 18) ^ w[i - 15] >> 3;
        uint32_t s1 = ror(w[i - 2], 17) ^ ror(w[i - 2], 19) ^ w[i - 2] >> 10;
        w[i] = w[i - 16] + s0 + w[i - 7] + s1;
    }
    uint32_t a = h[0], b = h[1], c = h[2], d = h[3], e = h[4], f = h[5], g = h[6], k = h[7];
    for (int i = 0; i < 64; i++) {
        uint32_t t1 = k + (ror(e, 6) ^ ror(e, 11) ^ ror(e, 25)) + ((e & f) ^ (~e & g)) + K[i] + w[i];
        uint32_t t2 = (ror(a, 2) ^ ror(a, 13) ^ ror(a, 22)) + ((a & b) ^ (a & c) ^ (b & c));
        k = g, g = f, f = e, e = d + t1, d = c, c = b, b = a, a = t1 + t2;
    }
    h[0] += a, h[1] += b, h[2] += c, h[3] += d, h[4] += e, h[5] += f, h[6] += g, h[7] += k;
}

#ifdef SHA256_X86
/* Four rounds per step, two per sha256rnds2; the state is kept as the
 * instructions want it, ABEF and CDGH.  The schedule's next four words
 * are msg2(msg1(w[t-16..], w[t-12..]) + w[t-7..t-4], w[t-4..]). */
__attribute__((target("sha,sse4.1,ssse3")))
static void compress_x86(uint32_t h[8], const uint8_t *p, size_t nblocks)
{
    const __m128i bswap = _mm_set_epi64x(0x0c0d0e0f08090a0bULL, 0x0405060700010203ULL);
    __m128i dcba = _mm_shuffle_epi32(_mm_loadu_si128((const __m128i *)&h[0]), 0xB1);
    __m128i efgh = _mm_shuffle_epi32(_mm_loadu_si128((const __m128i *)&h[4]), 0x1B);
    __m128i abef = _mm_alignr_epi8(dcba, efgh, 8);
    __m128i cdgh = _mm_blend_epi16(efgh, dcba, 0xF0);
    for (; nblocks; nblocks--, p += 64) {
        __m128i abef0 = abef, cdgh0 = cdgh, w[4];
        for (int i = 0; i < 16; i++) {
            __m128i x;
            if (i < 4) {
                x = _mm_shuffle_epi8(_mm_loadu_si128((const __m128i *)(p + 16 * i)), bswap);
            } else {
                x = _mm_sha256msg1_epu32(w[i % 4], w[(i + 1) % 4]);
                x = _mm_add_epi32(x, _mm_alignr_epi8(w[(i + 3) % 4], w[(i + 2) % 4], 4));
                x = _mm_sha256msg2_epu32(x, w[(i + 3) % 4]);
            }
            w[i % 4] = x;
            __m128i m = _mm_add_epi32(x, _mm_loadu_si128((const __m128i *)&K[4 * i]));
            cdgh = _mm_sha256rnds2_epu32(cdgh, abef, m);
            abef = _mm_sha256rnds2_epu32(abef, cdgh, _mm_shuffle_epi32(m, 0x0E));
        }
        abef = _mm_add_epi32(abef, abef0);
        cdgh = _mm_add_epi32(cdgh, cdgh0);
    }
    __m128i feba = _mm_shuffle_epi32(abef, 0x1B);
    __m128i dchg = _mm_shuffle_epi32(cdgh, 0xB1);
    _mm_storeu_si128((__m128i *)&h[0], _mm_blend_epi16(feba, dchg, 0xF0));
    _mm_storeu_si128((__m128i *)&h[4], _mm_alignr_epi8(dchg, feba, 8));
}

static bool cpu_has_sha(void)
{
    unsigned a, b, c, d;
    if (!__get_cpuid(1, &a, &b, &c, &d) || !(c & bit_SSSE3) || !(c & bit_SSE4_1))
        return false;
    return __get_cpuid_count(7, 0, &a, &b, &c, &d) && (b & (1u << 29));
}
#endif

/* 0 not asked yet, 1 the SHA extensions, 2 portable C */
static atomic_int use_hw;

bool sha256_hw(void)
{
    int u = atomic_load_explicit(&use_hw, memory_order_relaxed);
    if (!u) {
#ifdef SHA256_X86
        u = cpu_has_sha() ? 1 : 2;
#else
        u = 2;
#endif
        atomic_store_explicit(&use_hw, u, memory_order_relaxed);
    }
    return u == 1;
}

void sha256_portable(void)
{
    atomic_store_explicit(&use_hw, 2, memory_order_relaxed);
}

static void compress(uint32_t h[8], const uint8_t *p, size_t nblocks)
{
#ifdef SHA256_X86
    if (sha256_hw()) {
        compress_x86(h, p, nblocks);
        return;
    }
#endif
    for (; nblocks; nblocks--, p += 64)
        compress_c(h, p);
}

void sha256_init(Sha256 *s)
{
    static const uint32_t h0[8] = {0x6a09e667, 0xbb67ae85, 0x3c6ef372, 0xa54ff53a,
                                   0x510e527f, 0x9b05688c, 0x1f83d9ab, 0x5be0cd19};
    memcpy(s->h, h0, sizeof h0);
    s->bytes = 0;
}

void sha256_update(Sha256 *s, const void *data, size_t n)
{
    const uint8_t *p = data;
    size_t have = s->bytes % 64;
    s->bytes += n;
    if (have) {
        size_t take = 64 - have < n ? 64 - have : n;
        memcpy(s->block + have, p, take);
        p += take, n -= take;
        if (have + take < 64)
            return;
        compress(s->h, s->block, 1);
    }
    compress(s->h, p, n / 64);
    p += n / 64 * 64;
    memcpy(s->block, p, n % 64);
}

void sha256_hex(Sha256 *s, char hex[65])
{
    uint64_t bits = s->bytes * 8;
    uint8_t pad[72] = {0x80};
    size_t have = s->bytes % 64, n = (have < 56 ? 56 : 120) - have;
    for (int i = 0; i < 8; i++)
        pad[n + i] = (uint8_t)(bits >> (56 - 8 * i));
    sha256_update(s, pad, n + 8);
    for (int i = 0; i < 32; i++) {
        uint32_t x = s->h[i / 4] >> (24 - 8 * (i % 4));
        hex[2 * i] = "0123456789abcdef"[x >> 4 & 15];
        hex[2 * i + 1] = "0123456789abcdef"[x & 15];
    }
    hex[64] = '\0';
}
