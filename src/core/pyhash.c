/* pyhash.c -- CPython 3.11 (64-bit) hash() of DSL values.
 *
 * Set iteration order follows from these numbers, so they must be CPython's
 * bit for bit (notes/cpython-set-order.md §1).  Only str differs: CPython
 * seeds its string hash per process, so any fixed hash is as good.
 *
 * Containers and floats cache their hash in the value.  Values may be shared
 * between worker threads, so the cache is published with release/acquire:
 * a reader that sees `hashed` also sees `hash`.
 */
#include "value.h"

#include <math.h>

#define MODULUS ((uint64_t)0x1FFFFFFFFFFFFFFF)   /* 2**61 - 1 */
#define MOD_BITS 61

/* Py_hash_t never is -1 (CPython's error value). */
static inline int64_t not_minus1(uint64_t x)
{
    return x == UINT64_MAX ? -2 : (int64_t)x;
}

static int64_t hash_int(int64_t v)
{
    uint64_t m = v < 0 ? 0 - (uint64_t)v : (uint64_t)v;
    if (m >= MODULUS)      /* grid coordinates and colours never are */
        m %= MODULUS;
    return not_minus1(v < 0 ? 0 - m : m);
}

static int64_t hash_pointer(const void *p)
{
    uint64_t a = (uint64_t)(uintptr_t)p;
    return not_minus1((a >> 4) | (a << 60));
}

/* x * 2**e mod P for 0 <= e < 61: a rotation inside 61 bits. */
static inline uint64_t rot61(uint64_t x, int e)
{
    return ((x << e) & MODULUS) | (x >> (MOD_BITS - e));
}

/* A finite double is n / 2**k exactly; its hash is that rational mod P.
 * The mantissa is consumed 28 bits at a time, so every step stays exact. */
static int64_t hash_float(const Value *v)
{
    double x = v->u.f;
    if (isinf(x))
        return x > 0 ? 314159 : -314159;
    if (isnan(x))
        return hash_pointer((const void *)V_NAN_ADDRESS);
    int e;
    double m = frexp(x, &e);
    bool neg = m < 0;
    if (neg)
        m = -m;
    uint64_t acc = 0;
    while (m != 0) {
        acc = rot61(acc, 28);
        m *= 268435456.0;          /* 2**28 */
        e -= 28;
        uint64_t digit = (uint64_t)m;
        m -= (double)digit;
        acc += digit;
        if (acc >= MODULUS)
            acc -= MODULUS;
    }
    /* 2**e mod P only depends on e mod 61 (2**61 == 1 mod P) */
    e = e >= 0 ? e % MOD_BITS : MOD_BITS - 1 - ((-1 - e) % MOD_BITS);
    acc = rot61(acc, e);
    return not_minus1(neg ? 0 - acc : acc);
}

/* FNV-1a: CPython's str hash is randomised anyway. */
static int64_t hash_str(const Value *v)
{
    uint64_t h = 14695981039346656037ull;
    for (size_t i = 0; i < v->u.str.len; i++) {
        h ^= (unsigned char)v->u.str.s[i];
        h *= 1099511628211ull;
    }
    return not_minus1(h);
}

/* xxHash-style lanes (3.8+ tuplehash). */
#define XXP1 11400714785074694791ull
#define XXP2 14029467366897019727ull
#define XXP5 2870177450012600261ull

static inline uint64_t xx_lane(uint64_t acc, int64_t h)
{
    acc += (uint64_t)h * XXP2;
    acc = (acc << 31) | (acc >> 33);
    return acc * XXP1;
}

static inline int64_t xx_end(uint64_t acc, size_t n)
{
    acc += n ^ (XXP5 ^ 3527539ull);
    return acc == UINT64_MAX ? 1546275796 : (int64_t)acc;
}

static int64_t hash_tuple(const Value *v)
{
    uint64_t acc = XXP5;
    size_t n = v->u.tup.len;
    for (size_t i = 0; i < n; i++)
        acc = xx_lane(acc, v_hash(v->u.tup.items[i]));
    return xx_end(acc, n);
}

/* hash(t) for entry g of the interned tables (value.h), from g alone; the
 * tables' builder keeps it in v_arena_hashes_. */
int64_t v_arena_hash_of(size_t g)
{
    size_t t = g / (V_INTERN_SPAN * V_INTERN_SPAN), k = g % (V_INTERN_SPAN * V_INTERN_SPAN);
    int64_t i, j;
    v_intern_place(k, &i, &j);
    if (t > 10)             /* tokpidjin (i, j, c) */
        return xx_end(xx_lane(xx_lane(xx_lane(XXP5, hash_int(i)), hash_int(j)),
                              (int64_t)(t - 11)), 3);
    int64_t loc = xx_end(xx_lane(xx_lane(XXP5, hash_int(i)), hash_int(j)), 2);
    if (t == 0)             /* (i, j) */
        return loc;
    return xx_end(xx_lane(xx_lane(XXP5, (int64_t)(t - 1)), loc), 2);   /* (c, (i, j)) */
}

static inline uint64_t shuffle_bits(uint64_t h)
{
    return ((h ^ 89869747ull) ^ (h << 16)) * 3644798167ull;
}

/* Depends on the active entries only: CPython's extra xors for empty and
 * dummy slots cancel out. */
static int64_t hash_fset(const Value *v)
{
    uint64_t x = 0;
    size_t n = v->u.set.len;
    for (size_t i = 0; i < n; i++)
        x ^= shuffle_bits((uint64_t)v_hash(v->u.set.items[i]));
    x ^= ((uint64_t)n + 1) * 1927868237ull;
    x ^= (x >> 11) ^ (x >> 25);
    x = x * 69069u + 907133923u;
    return x == UINT64_MAX ? 590923713 : (int64_t)x;
}

int64_t v_hash_address(uint64_t address)
{
    return hash_pointer((const void *)(uintptr_t)address);
}

int64_t v_hash(Value *v)
{
    if (v_in_arena(v))
        return v_arena_hash(v);
    switch (v->type) {
    case V_BOOL:
    case V_INT:
        return hash_int(v->u.i);         /* cheaper than the cache */
    case V_NONE:
        return hash_pointer((const void *)V_NONE_ADDRESS);   /* 3.11: by address */
    default:
        break;
    }
    if (__atomic_load_n(&v->hashed, __ATOMIC_ACQUIRE))
        return __atomic_load_n(&v->hash, __ATOMIC_RELAXED);
    int64_t h;
    switch (v->type) {
    case V_FLOAT: h = hash_float(v); break;
    case V_STR:   h = hash_str(v); break;
    case V_TUPLE: h = hash_tuple(v); break;
    case V_FSET:  h = hash_fset(v); break;
    default:      h = hash_pointer(v); break;   /* functions */
    }
    __atomic_store_n(&v->hash, h, __ATOMIC_RELAXED);
    __atomic_store_n(&v->hashed, 1, __ATOMIC_RELEASE);
    return h;
}
