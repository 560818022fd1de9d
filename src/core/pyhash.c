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
#include "vgrid.h"
#include "pyprobe.h"
#include "fsrecipe.h"

#include <math.h>
#include <pthread.h>
#include <stdlib.h>
#include <string.h>

#define MOD_BITS 61

/* Py_hash_t never is -1 (CPython's error value). */
static inline int64_t not_minus1(uint64_t x)
{
    return x == UINT64_MAX ? -2 : (int64_t)x;
}

static int64_t hash_pointer(const void *p)
{
    uint64_t a = (uint64_t)(uintptr_t)p;
    return not_minus1((a >> 4) | (a << 60));
}

/* x * 2**e mod P for 0 <= e < 61: a rotation inside 61 bits. */
static inline uint64_t rot61(uint64_t x, int e)
{
    return ((x << e) & PY_HASH_MODULUS) | (x >> (MOD_BITS - e));
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
        if (acc >= PY_HASH_MODULUS)
            acc -= PY_HASH_MODULUS;
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

static int64_t hash_tuple(const Value *v)
{
    if (vg_is(v))
        return vg_hash(v);
    uint64_t acc = PY_XXP5;
    size_t n = v->u.tup.len;
    for (size_t i = 0; i < n; i++)
        acc = py_tuple_lane(acc, v_hash(v_titems(v)[i]));
    return py_tuple_end(acc, n);
}

/* hash(t) for entry g of the interned tables (value.h), from g alone; the
 * tables' builder keeps it in v_arena_hashes_. */
int64_t v_arena_hash_of(size_t g)
{
    int64_t i, j;
    v_intern_place(g % (V_INTERN_SPAN * V_INTERN_SPAN), &i, &j);
    return py_hash_table_tuple((unsigned)(g / (V_INTERN_SPAN * V_INTERN_SPAN)), i, j);
}

int64_t v_loc_hashes_[V_LOC_HASHED][V_LOC_HASHED];
static pthread_once_t loc_hashes_once_ = PTHREAD_ONCE_INIT;

/* Row i's first lane is the same for every j; i and j are small ints,
 * their own hashes. */
static void loc_hashes_fill(void)
{
    for (int i = 0; i < V_LOC_HASHED; i++) {
        uint64_t lane = py_tuple_lane(PY_XXP5, i);
        for (int j = 0; j < V_LOC_HASHED; j++)
            v_loc_hashes_[i][j] = py_tuple_end(py_tuple_lane(lane, j), 2);
    }
}

void v_loc_hashes_make(void)
{
    pthread_once(&loc_hashes_once_, loc_hashes_fill);
}

int64_t v_loc_hash(int64_t i, int64_t j)
{
    v_loc_hashes_make();
    return v_loc_hashed(i, j) ? v_loc_hashes_[i][j] : py_hash_int_pair(i, j);
}

static int64_t hash_fset(const Value *v)
{
    if (__atomic_load_n(&v->memo, __ATOMIC_ACQUIRE) & V_MEMO_RECIPE) {
        const FsRecipe *k = fs_recipe_head(v)->kind;
        if (k->hash)
            return k->hash(v);
    }
    uint64_t x = 0;
    size_t n = v->u.set.len;
    for (size_t i = 0; i < n; i++)
        x ^= py_fset_shuffle((uint64_t)v_hash(v_items(v)[i]));
    return py_fset_end(x, n);
}

/* ---- values nested deep ------------------------------------------------- */

/* Hashing recurses through a container's items; past this depth the
 * descendants not yet hashed are hashed first, deepest first, from a
 * stack of its own: a program can nest a value one level per line, far
 * past what C's stack holds. */
enum { HASH_DEEP = 256, WALK_ON_STACK = 32 };
static _Thread_local int hash_depth;

/* Whether v's hash is still to make from its items. */
static bool hashes_items(const Value *v)
{
    if (v_in_arena(v) || __atomic_load_n(&v->hashed, __ATOMIC_ACQUIRE))
        return false;
    if (v->type == V_TUPLE)
        return !vg_is(v) && !(v->flags & V_FLAG_FLAT);
    if (v->type == V_FSET)
        return !(v_memo(v) & V_MEMO_RECIPE && fs_recipe_head(v)->kind->hash);
    return false;
}

typedef struct {
    const Value *v;
    size_t i;
} WalkFrame;

/* A list or set, refused with Python's TypeError (true); arena values
 * (small ints and interned tuples of them) are read for nothing. */
static bool unhashable(Ctx *cx, const Value *v)
{
    if (v_in_arena(v) || !(v->flags & (V_FLAG_LIST | V_FLAG_SET)))
        return false;
    cx_raise(cx, "TypeError", "unhashable type: '%s'", v_typename(v));
    return true;
}

/* root's descendants whose hash is still to make, hashed after their
 * items, each once (a DAG is walked once per value); with cx, an item
 * that is a list or set raises TypeError and stops it (false). */
static bool hash_below(Ctx *cx, const Value *root)
{
    WalkFrame own[WALK_ON_STACK], *st = own;
    size_t n = 0, cap = WALK_ON_STACK;
    bool ok = true;
    st[n++] = (WalkFrame){root, 0};
    while (n) {
        WalkFrame *f = &st[n - 1];
        const Value *v = f->v;
        bool tuple = v->type == V_TUPLE;
        if (f->i < (tuple ? v->u.tup.len : v->u.set.len)) {
            Value *c = (tuple ? v_titems(v) : v_items(v))[f->i++];
            if (cx && unhashable(cx, c)) {
                ok = false;
                break;
            }
            if (!hashes_items(c))
                continue;
            if (n == cap)
                st = xstack_grow(st, own, &cap, sizeof *st);
            st[n++] = (WalkFrame){c, 0};
            continue;
        }
        n--;
        if (v != root)
            v_hash((Value *)v);
    }
    if (st != own)
        free(st);
    return ok;
}

bool v_hashable(Ctx *cx, const Value *v)
{
    if (v_in_arena(v))          /* small ints and interned tuples of them: reads nothing */
        return true;
    if (unhashable(cx, v))
        return false;
    /* a hash made, or bytes: nothing unhashable inside; once hashed, a
     * tuple met again (a DAG) is not walked again */
    if (v->type == V_TUPLE && hashes_items(v)) {
        if (!hash_below(cx, v))
            return false;
        v_hash((Value *)v);
    }
    return true;
}

int64_t v_hash_address(uint64_t address)
{
    return hash_pointer((const void *)(uintptr_t)address);
}

int64_t v_hash_of_(Value *v)
{
    if (v_in_arena(v))
        return v_arena_hash(v);
    switch (v->type) {
    case V_BOOL:
    case V_INT:
        return py_hash_int(v->u.i);         /* cheaper than the cache */
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
    case V_TUPLE:
    case V_FSET:
        if (hash_depth >= HASH_DEEP) {
            int depth = hash_depth;
            hash_depth = 0;
            hash_below(NULL, v);
            hash_depth = depth;
        }
        hash_depth++;
        h = v->type == V_TUPLE ? hash_tuple(v) : hash_fset(v);
        hash_depth--;
        break;
    default:      h = v->type == V_FUNC ? v_func_hash_(v) : hash_pointer(v); break;
    }
    __atomic_store_n(&v->hash, h, __ATOMIC_RELAXED);
    __atomic_store_n(&v->hashed, 1, __ATOMIC_RELEASE);
    return h;
}
