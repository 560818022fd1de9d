/* value.c -- construction, lifetime, equality, ordering and calls of values. */
#include "value.h"
#include "vgrid.h"
#include "tuprecipe.h"
#include "callmemo.h"
#include "fsproduct.h"
#include "fsrecipe.h"
#include "pyprobe.h"
#include "pyset.h"
#include "vmem.h"

#include <math.h>
#include <pthread.h>
#include <sched.h>
#include <stdatomic.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#define IMMORTAL (-1)

static int32_t empty_slots_[8] = {-1, -1, -1, -1, -1, -1, -1, -1};

Value v_None_ = {.refs = IMMORTAL, .type = V_NONE};
Value v_True_ = {.refs = IMMORTAL, .type = V_BOOL, .u.i = 1};
Value v_False_ = {.refs = IMMORTAL, .type = V_BOOL, .u.i = 0};
Value v_empty_tuple_ = {.refs = IMMORTAL, .type = V_TUPLE};
Value v_nan_ = {.refs = IMMORTAL, .type = V_FLOAT, .u.f = NAN};
Value v_empty_fset_ = {.refs = IMMORTAL, .type = V_FSET,
                       .u.set = {.len = 0, .items = NULL, .mask = 7,
                                 .ndummy = 0, .slots = empty_slots_}};

/* Small ints are shared like CPython's: grid cells never allocate.  They
 * and the interned tuples below fill v_arena_ (value.h); its pages are
 * untouched zeros until a table is first used. */
#define SMALL_MIN V_SMALL_MIN
#define SMALL_MAX V_SMALL_MAX
VArena v_arena_;

__attribute__((constructor)) static void small_init(void)
{
    for (int i = SMALL_MIN; i <= SMALL_MAX; i++) {
        Value *v = &v_arena_.small[i - SMALL_MIN];
        v->refs = IMMORTAL;
        v->type = V_INT;
        v->u.i = i;
    }
}

void *xmalloc_(size_t n)
{
    void *p = malloc(n ? n : 1);
    if (!p) {
        fputs("arcrun: out of memory\n", stderr);
        abort();
    }
    return p;
}

void *xstack_grow(void *st, const void *own, size_t *cap, size_t elem)
{
    void *more = xmalloc_(2 * *cap * elem);
    memcpy(more, st, *cap * elem);
    if (st != own)
        free(st);
    *cap *= 2;
    return more;
}

/* ---- lifetime ----------------------------------------------------------- */

/* Items of a big container are cold: their counts are fetched a few
 * items ahead of the decrefs that read them. */
#define FREE_AHEAD 8
static void decref_items(Value *const *it, size_t n)
{
    for (size_t i = 0; i < n; i++) {
        if (i + FREE_AHEAD < n)
            __builtin_prefetch(it[i + FREE_AHEAD], 1);
        v_decref(it[i]);
    }
}

/* A value's block holds its header and the union member of its type only:
 * a pair of cells is half the size a whole Value would make it, and sets of
 * a hundred thousand pairs are bound by memory traffic. */
static size_t v_base_size(uint8_t type)
{
    switch (type) {
    case V_TUPLE: return V_TUPLE_BASE;
    case V_INT: case V_BOOL: case V_FLOAT: return offsetof(Value, u) + sizeof(int64_t);
    case V_STR: return offsetof(Value, u) + sizeof(((Value *)0)->u.str);
    default: return sizeof(Value);
    }
}

/* The size a value was allocated with: blocks carry no header. */
static size_t v_block_size(const Value *v)
{
    switch (v->type) {
    case V_TUPLE:
        return V_TUPLE_BASE + v->u.tup.len * sizeof(Value *) +
               (vg_is(v) ? vg_extra(v->u.tup.len, vg_w(v))
                : v_memo(v) & V_MEMO_TRECIPE ? tr_extra(v) : 0);
    case V_STR: return v_base_size(V_STR) + v->u.str.len + 1;
    case V_FSET: return fs_block_size(v);
    default: return v_base_size(v->type);
    }
}

/* A tuple whose items were never made (a byte grid's rows, a recipe
 * tuple's items): nothing inside to walk. */
static inline bool items_unmade(const Value *v)
{
    return __atomic_load_n(&v->memo, __ATOMIC_ACQUIRE) & V_MEMO_UNBUILT;
}

bool v_build_claim(Value *v)
{
    uint8_t m = __atomic_load_n(&v->memo, __ATOMIC_ACQUIRE);
    for (;;) {
        if (!(m & V_MEMO_UNBUILT))
            return false;
        if (m & V_MEMO_BUILDING) {
            sched_yield();
            m = __atomic_load_n(&v->memo, __ATOMIC_ACQUIRE);
        } else if (__atomic_compare_exchange_n(&v->memo, &m, (uint8_t)(m | V_MEMO_BUILDING), false,
                                               __ATOMIC_ACQ_REL, __ATOMIC_ACQUIRE))
            return true;
    }
}

void v_build_done(Value *v)
{
    __atomic_fetch_and(&v->memo, (uint8_t)~(V_MEMO_UNBUILT | V_MEMO_BUILDING), __ATOMIC_RELEASE);
}

void v_tuple_abandon(Value *t, size_t filled)
{
    decref_items(v_titems(t), filled);
    vmem_free(t, v_block_size(t));
}

/* Values whose count fell to zero while another was being freed: the
 * outermost v_free_ frees them one at a time, so freeing a value nested a
 * million deep takes no more C stack than freeing a pair (CPython's
 * trashcan).  They are linked through their hash field, dead already. */
static _Thread_local Value *free_later;
static _Thread_local bool freeing;

static void free_one(Value *v)
{
    switch (v->type) {
    case V_TUPLE:
        if (!(v->flags & V_FLAG_FLAT) && !items_unmade(v))
            decref_items(v_titems(v), v->u.tup.len);
        break;
    case V_FSET:
        if (v_memo(v) & V_MEMO_RECIPE)
            fs_recipe_release(v);
        else if (!(v->flags & V_FLAG_FLAT))
            decref_items(v->u.set.items, v->u.set.len);
        break;
    case V_FUNC:
        for (int i = 0; i < v->u.fn.ncap; i++)
            v_decref(v->u.fn.cap[i]);
        break;
    default:
        break;
    }
    vmem_free(v, v_block_size(v));    /* strings, items and slots live in the same block */
}

void v_free_(Value *v)
{
    if (freeing) {
        v->hash = (int64_t)(intptr_t)free_later;
        free_later = v;
        return;
    }
    freeing = true;
    for (;;) {
        free_one(v);
        if (!(v = free_later))
            break;
        free_later = (Value *)(intptr_t)v->hash;
    }
    freeing = false;
}

void v_make_shared(Value *v)
{
    if (!v || v->refs < 0)
        return;
    if (v->type == V_TUPLE && !(v->flags & V_FLAG_FLAT) && !items_unmade(v))
        for (size_t i = 0; i < v->u.tup.len; i++)
            v_make_shared(v_titems(v)[i]);
    v->refs = IMMORTAL;
    v->flags |= V_FLAG_SHARED;
}

size_t v_make_atomic(Value *v)
{
    if (!v || v_in_arena(v) || v_shareable(v))   /* the arena check reads nothing */
        return 0;
    size_t n = 1;
    v->flags |= V_FLAG_ATOMIC;
    if (v->flags & V_FLAG_FLAT)
        return n;
    switch (v->type) {
    case V_TUPLE:
        for (size_t i = 0; !items_unmade(v) && i < v->u.tup.len; i++)
            n += v_make_atomic(v_titems(v)[i]);
        break;
    case V_FSET:
        if (v_memo(v) & V_MEMO_RECIPE)
            return n + fs_recipe_make_atomic(v);
        for (size_t i = 0; i < v->u.set.len; i++)
            n += v_make_atomic(v->u.set.items[i]);
        break;
    case V_FUNC:
        for (int i = 0; i < v->u.fn.ncap; i++)
            n += v_make_atomic(v->u.fn.cap[i]);
        break;
    default:
        break;
    }
    return n;
}

uint64_t v_immortal_frees_;

void v_free_shared(Value *v)
{
    if (!v)
        return;
    if (!(v->flags & V_FLAG_SHARED)) {
        v_decref(v);
        return;
    }
    __atomic_fetch_add(&v_immortal_frees_, 1, __ATOMIC_RELEASE);
    if (v->type == V_TUPLE && !(v->flags & V_FLAG_FLAT) && !items_unmade(v))
        for (size_t i = 0; i < v->u.tup.len; i++)
            v_free_shared(v_titems(v)[i]);
    vmem_free(v, v_block_size(v));
}

void v_pin(Value *v, Value ***pinned, size_t *n, size_t *cap)
{
    if (!v || v_in_arena(v) || v->refs < 0)
        return;
    v->refs = IMMORTAL;
    if (*n == *cap) {
        *cap = *cap ? 2 * *cap : 64;
        *pinned = realloc(*pinned, *cap * sizeof **pinned);
        if (!*pinned)
            abort();
    }
    (*pinned)[(*n)++] = v;
    switch (v->type) {
    case V_TUPLE:
        for (size_t i = 0; i < v->u.tup.len; i++)
            v_pin(v_titems(v)[i], pinned, n, cap);
        break;
    case V_FSET:
        if (v_memo(v) & V_MEMO_RECIPE)
            for (int k = 0; k < 2; k++)
                if (fs_recipe_head(v)->src[k])
                    v_pin(fs_recipe_head(v)->src[k], pinned, n, cap);
        for (size_t i = 0; i < v->u.set.len; i++)
            v_pin(v_items(v)[i], pinned, n, cap);
        break;
    case V_FUNC:
        for (int i = 0; i < v->u.fn.ncap; i++)
            v_pin(v->u.fn.cap[i], pinned, n, cap);
        break;
    default:
        break;
    }
}

void v_free_pinned(Value *v)
{
    __atomic_fetch_add(&v_immortal_frees_, 1, __ATOMIC_RELEASE);
    if (v->type == V_FSET && (v_memo(v) & V_MEMO_RECIPE))
        fs_recipe_free_own(v);
    vmem_free(v, v_block_size(v));
}

/* ---- constructors ------------------------------------------------------- */

static Value *v_alloc(uint8_t type, size_t extra)
{
    Value *v = vmem_alloc(v_base_size(type) + extra);
    v->refs = 1;
    v->type = type;
    v->hashed = 0;
    v->flags = 0;
    v->memo = 0;
    v->hash = 0;
    return v;
}

Value *v_int_alloc(int64_t i)
{
    Value *v = v_alloc(V_INT, 0);
    v->u.i = i;
    return v;
}

Value *v_float(double f)
{
    Value *v = v_alloc(V_FLOAT, 0);
    v->u.f = f;
    return v;
}

Value *v_str(const char *s, size_t len)
{
    Value *v = v_alloc(V_STR, len + 1);
    v->u.str.len = len;
    v->u.str.s = (char *)v + v_base_size(V_STR);
    memcpy(v->u.str.s, s, len);
    v->u.str.s[len] = '\0';
    /* batt lines write the same constant strings thousands of times */
    bool plain = true;
    for (size_t i = 0; plain && i < len; i++)
        plain = (unsigned char)s[i] >= 0x20 && s[i] != '"' && s[i] != '\\';
    if (plain)
        v->memo = V_MEMO_JSON_PLAIN;
    return v;
}

Value *v_tuple_new(size_t len)
{
    if (len == 0)
        return &v_empty_tuple_;
    Value *v = v_alloc(V_TUPLE, len * sizeof(Value *));
    v->u.tup.len = len;
    v->u.tup.items_ = (Value **)((char *)v + V_TUPLE_BASE);
    return v;
}

/* A tuple of len items and extra bytes after them (vgrid.c; len 0: an
 * empty tuple that is not the shared ()). */
Value *v_tuple_new_extra_(size_t len, size_t extra)
{
    Value *v = v_alloc(V_TUPLE, len * sizeof(Value *) + extra);
    v->u.tup.len = len;
    v->u.tup.items_ = (Value **)((char *)v + V_TUPLE_BASE);
    return v;
}

Value *v_tuple_new_empty_own(void)
{
    return v_tuple_new_extra_(0, 0);
}

Value *v_tuple_from(Value *const *items, size_t len)
{
    Value *t = v_tuple_new(len);
    for (size_t i = 0; i < len; i++)
        v_titems(t)[i] = v_incref(items[i]);
    v_mark_flat(t, v_titems(t), len);
    return t;
}

/* Locations (i, j) near a grid and the cells of both dialects, arc-dsl's
 * (c, (i, j)) and tokpidjin's (i, j, c), are interned: grid ops build them
 * by the thousand, and a shared immortal tuple costs no allocation, no free
 * and no rehash.  Tables are built a chunk of CHUNK entries at a time, on
 * first use; a chunk is a tile of v_intern_index's layout. */
#define LOC_MIN V_INTERN_MIN
#define LOC_SPAN V_INTERN_SPAN
#define CHUNK 64
_Static_assert(CHUNK == V_INTERN_TILE * V_INTERN_TILE, "a chunk is a tile");
typedef VInterned Interned;
enum { T_LOC, T_CELL, T_CELL3 };
unsigned char v_interned_built_[V_INTERN_TABLES][LOC_SPAN * LOC_SPAN / CHUNK];
unsigned char v_arena_hashed_[V_INTERN_TABLES][LOC_SPAN * LOC_SPAN / CHUNK];
int64_t v_arena_hashes_[V_INTERN_TABLES * LOC_SPAN * LOC_SPAN];
static pthread_mutex_t build_lock = PTHREAD_MUTEX_INITIALIZER;

/* Entry k of a table, its chunk built on first use: a run touches a few
 * hundred chunks of a few tables, and building whole tables (or rows of a
 * wide span) cost more than most short runs. */
static Value *interned_build(int kind, int c, int k);

static inline Value *interned(int kind, int c, int k)
{
    int at = kind == T_LOC ? 0 : kind == T_CELL ? 1 + c : 11 + c;
    if (__atomic_load_n(&v_interned_built_[at][k / CHUNK], __ATOMIC_ACQUIRE))
        return (Value *)v_arena_.table[at][k].head;
    return interned_build(kind, c, k);
}

/* interned()'s first use of a chunk: build it */
__attribute__((noinline)) static Value *interned_build(int kind, int c, int k)
{
    int at = kind == T_LOC ? 0 : kind == T_CELL ? 1 + c : 11 + c, chunk = k / CHUNK;
    Interned *t = v_arena_.table[at];
    if (kind == T_CELL)
        interned(T_LOC, 0, k);      /* the cells point into this chunk of locations */
    Interned *l = v_arena_.table[0];
    pthread_mutex_lock(&build_lock);
    if (!__atomic_load_n(&v_interned_built_[at][chunk], __ATOMIC_RELAXED)) {
        /* hashes as v_arena_hash_of gives them, its steps taken here: a
         * cell's place is built already, and its colour's lane is one
         * for the chunk; written unless v_arena_hashes_make_ has (a
         * reader may be reading them) */
        bool hashed = __atomic_load_n(&v_arena_hashed_[at][chunk], __ATOMIC_RELAXED);
        size_t g0 = (size_t)(t - &v_arena_.table[0][0]), l0 = (size_t)(l - &v_arena_.table[0][0]);
        uint64_t lane_c = py_pair_lane(py_hash_int(c));
        for (int x = chunk * CHUNK; x < (chunk + 1) * CHUNK; x++) {
            Interned *p = &t[x];
            int64_t pi, pj;
            v_intern_place((size_t)x, &pi, &pj);
            Value *i = v_int(pi), *j = v_int(pj);
            Value *v = (Value *)p->head;     /* a tuple's block: never assign a whole Value */
            v->refs = IMMORTAL;
            v->type = V_TUPLE;
            v->flags = v->memo = 0;
            v->u.tup.len = kind == T_CELL3 ? 3 : 2;
            v->u.tup.items_ = p->items;
            int64_t h;
            if (kind == T_LOC) {
                p->items[0] = i;
                p->items[1] = j;
                h = py_hash_int_pair(pi, pj);
            } else if (kind == T_CELL) {
                p->items[0] = v_int(c);
                p->items[1] = (Value *)l[x].head;
                h = py_hash_pair_from(lane_c, v_arena_hashes_[l0 + (size_t)x]);
            } else {
                p->items[0] = i;
                p->items[1] = j;
                p->items[2] = v_int(c);
                h = py_hash_int_triple(pi, pj, c);
            }
            if (!hashed)
                v_arena_hashes_[g0 + (size_t)x] = h;
            v->hash = h;
            v->hashed = 1;
        }
        __atomic_store_n(&v_arena_hashed_[at][chunk], 1, __ATOMIC_RELEASE);
        __atomic_store_n(&v_interned_built_[at][chunk], 1, __ATOMIC_RELEASE);
    }
    pthread_mutex_unlock(&build_lock);
    return (Value *)t[k].head;
}

static inline bool in_span(int64_t x)
{
    return x >= LOC_MIN && x < LOC_MIN + LOC_SPAN;
}

static inline int place(int64_t i, int64_t j)
{
    return v_intern_index(i, j);
}

Value *v_pair_int_new_(int64_t a, int64_t b)
{
    Value *t = v_tuple_new(2);
    v_titems(t)[0] = v_int(a);
    v_titems(t)[1] = v_int(b);
    return t;
}

Value *v_table_tuple(unsigned t, int64_t i, int64_t j)
{
    Value *in = v_interned_of((int)t, i, j);
    if (in)
        return in;
    if (t > 10)
        return v_triple_steal(v_int(i), v_int(j), v_small((int64_t)t - 11));
    Value *p = v_pair_int(i, j);
    if (!p || !t)
        return p;
    Value *cell = v_tuple2(v_small((int64_t)t - 1), p);
    v_decref(p);
    return cell;
}

/* Entry k of table `at` (0 places, 1..10 and 11..20 the cells). */
static inline Value *interned_at(int at, int k)
{
    return at == 0 ? interned(T_LOC, 0, k)
         : at <= 10 ? interned(T_CELL, at - 1, k)
                    : interned(T_CELL3, at - 11, k);
}

Value *v_interned_build_(int at, int k)
{
    return interned_at(at, k);
}

void v_arena_hashes_make_(size_t at, size_t chunk)
{
    pthread_mutex_lock(&build_lock);
    if (!__atomic_load_n(&v_arena_hashed_[at][chunk], __ATOMIC_RELAXED)) {
        size_t g0 = at * LOC_SPAN * LOC_SPAN;
        for (size_t x = chunk * CHUNK; x < (chunk + 1) * CHUNK; x++)
            v_arena_hashes_[g0 + x] = v_arena_hash_of(g0 + x);
        __atomic_store_n(&v_arena_hashed_[at][chunk], 1, __ATOMIC_RELEASE);
    }
    pthread_mutex_unlock(&build_lock);
}

/* (a, b) when it is an interned location or cell, else NULL; a and b are
 * then arena values: nothing to release. */
static inline Value *pair_interned(const Value *a, const Value *b)
{
    int64_t x, y;
    if (v_small_of(a, &x)) {
        if (v_small_of(b, &y)) {
            if (in_span(x) && in_span(y))
                return interned(T_LOC, 0, place(x, y));
        } else if (x >= 0 && x <= 9) {
            uintptr_t at = (uintptr_t)b, lo = (uintptr_t)v_arena_.table[0];
            if (at - lo < sizeof v_arena_.table[0])
                return interned(T_CELL, (int)x, (int)((at - lo) / sizeof(Interned)));
        }
    }
    return NULL;
}

Value *v_pair_steal(Value *a, Value *b)
{
    Value *r = pair_interned(a, b);
    if (r)
        return r;
    Value *t = v_tuple_new(2);
    v_titems(t)[0] = a;
    v_titems(t)[1] = b;
    return t;
}

Value *v_tuple2(Value *a, Value *b)
{
    return v_pair_steal(v_incref(a), v_incref(b));
}

Value *v_tuple2_into(Value *spare, Value *a, Value *b)
{
    Value *r = pair_interned(a, b);
    if (r || !spare || spare->refs != 1 || spare->type != V_TUPLE || spare->u.tup.len != 2 ||
        (spare->flags & (V_FLAG_ATOMIC | V_FLAG_SHARED | V_FLAGS_PY))) {
        v_decref(spare);
        return r ? r : v_tuple2(a, b);
    }
    Value *oa = v_titems(spare)[0], *ob = v_titems(spare)[1];
    v_titems(spare)[0] = v_incref(a);
    v_titems(spare)[1] = v_incref(b);
    v_decref(oa);
    v_decref(ob);
    spare->hashed = 0;
    spare->flags = 0;
    spare->memo = 0;
    return spare;
}

Value *v_triple_steal(Value *a, Value *b, Value *c)
{
    int64_t x, y, z;
    if (v_small_of(a, &x) && v_small_of(b, &y) && v_small_of(c, &z) && in_span(x) && in_span(y) &&
        z >= 0 && z <= 9)
        return interned(T_CELL3, (int)z, place(x, y));
    Value *t = v_tuple_new(3);
    v_titems(t)[0] = a;
    v_titems(t)[1] = b;
    v_titems(t)[2] = c;
    return t;
}

/* A closure's pseudo-address: from what it is (its maker, shape and
 * captured values), never from where it was made. */
static uint64_t closure_address(const char *name, int kind, int arity, int ncap,
                                Value *const *cap)
{
    uint64_t h = 1469598103934665603ull;
    for (const char *p = name; *p; p++)
        h = (h ^ (unsigned char)*p) * 1099511628211ull;
    h = (h ^ (uint64_t)(kind << 8 | arity)) * 1099511628211ull;
    for (int i = 0; i < ncap; i++) {
        /* shallow: deterministic is all that matters, and captured grids
         * are big; functions carry their own pseudo-address hash */
        Value *c = cap[i];
        uint64_t x = c->type == V_FUNC ? (uint64_t)v_hash(c)
                   : v_is_int(c) ? (uint64_t)c->u.i
                   : v_is_container(c) ? (uint64_t)v_len(c) << 8 | c->type : c->type;
        h = (h ^ x) * 1099511628211ull;
    }
    return 0x7f3000000000ull + (h & 0xffffffffull) * 16;
}

_Thread_local uint8_t v_call_serial;

Value *v_func_new(InvokeFn invoke, const char *name, int prim, int arity,
                  int kind, int ncap, Value *const *cap)
{
    Value *v = v_alloc(V_FUNC, 0);    /* unhashed: v_func_hash_ when asked, most never are */
    memset(&v->u.fn, 0, sizeof v->u.fn);
    v->u.fn.invoke = invoke;
    v->u.fn.name = name;
    v->u.fn.prim = (int16_t)prim;
    v->u.fn.arity = (uint8_t)arity;
    v->u.fn.kind = (uint8_t)kind;
    v->u.fn.ncap = (uint8_t)ncap;
    v->u.fn.born = v_call_serial;
    for (int i = 0; i < ncap; i++)
        v->u.fn.cap[i] = v_incref(cap[i]);
    return v;
}

/* A closure captured not yet hashed, or NULL */
static Value *unhashed_cap(const Value *v)
{
    for (int i = 0; i < v->u.fn.ncap; i++)
        if (v->u.fn.cap[i]->type == V_FUNC && !__atomic_load_n(&v->u.fn.cap[i]->hashed, __ATOMIC_ACQUIRE))
            return v->u.fn.cap[i];
    return NULL;
}

int64_t v_func_hash_(const Value *v)
{
    Value *c = unhashed_cap(v);
    if (c) {    /* closures of closures, hashed deepest first: no recursion however deep */
        size_t n = 0, cap = 16;
        Value **stack = xmalloc_(cap * sizeof *stack);
        stack[n++] = c;
        while (n) {
            Value *t = stack[n - 1], *d = unhashed_cap(t);
            if (!d) {
                v_hash(t);
                n--;
                continue;
            }
            if (n == cap)
                stack = xstack_grow(stack, NULL, &cap, sizeof *stack);
            stack[n++] = d;
        }
        free(stack);
    }
    const VFunc *f = &v->u.fn;
    return v_hash_address(closure_address(f->name, f->kind, f->arity, f->ncap, f->cap));
}

/* ---- predicates --------------------------------------------------------- */

const char *v_typename(const Value *v)
{
    static const char *names[] = {
        [V_NONE] = "NoneType", [V_BOOL] = "bool", [V_INT] = "int",
        [V_FLOAT] = "float", [V_STR] = "str", [V_TUPLE] = "tuple",
        [V_FSET] = "frozenset", [V_FUNC] = "function",
    };
    if (v->flags & V_FLAGS_PY)
        return v->flags & V_FLAG_LIST ? "list" : v->flags & V_FLAG_SET ? "set" : "range";
    if (v->type == V_FUNC && v->u.fn.prim < -1)
        return v->u.fn.prim == V_PRIM_CLASS ? "type" : "builtin_function_or_method";
    return names[v->type];
}

Value *v_no_attr(Ctx *cx, const Value *v, const char *attr)
{
    if (v_is_class(v))
        return cx_raise(cx, "AttributeError", "type object '%s' has no attribute '%s'", v->u.fn.name, attr);
    return cx_raise(cx, "AttributeError", "'%s' object has no attribute '%s'", v_typename(v), attr);
}

bool v_is_ivec(const Value *v)
{
    return v->type == V_TUPLE && v->u.tup.len == 2 &&
           v_is_int(v_titems(v)[0]) && v_is_int(v_titems(v)[1]);
}

bool v_is_grid(Value *v)
{
    if (v->flags & V_FLAG_GRID)
        return true;
    if (v->flags & V_FLAG_NOTGRID || v->type != V_TUPLE || v->u.tup.len == 0)
        return false;
    size_t w = 0;
    bool ok = true;
    for (size_t i = 0; ok && i < v->u.tup.len; i++) {
        Value *row = v_titems(v)[i];
        if (row->type != V_TUPLE || (i && row->u.tup.len != w)) {
            ok = false;
            break;
        }
        w = row->u.tup.len;
        for (size_t j = 0; j < w; j++)
            if (!v_is_int(v_titems(row)[j])) {
                ok = false;
                break;
            }
    }
    if (v->refs >= 0 && !(v->flags & V_FLAG_ATOMIC))   /* others are read by many threads */
        v->flags |= ok ? V_FLAG_GRID : V_FLAG_NOTGRID;
    return ok;
}

/* ---- calls -------------------------------------------------------------- */

bool v_unpack_check(Ctx *cx, const Value *v, int n)
{
    if (!v_is_container(v)) {
        cx_raise(cx, "TypeError", "cannot unpack non-iterable %s object", v_typename(v));
        return false;
    }
    size_t len = v_len(v);
    if (len > (size_t)n)
        cx_raise(cx, "ValueError", "too many values to unpack (expected %d)", n);
    else if (len < (size_t)n)
        cx_raise(cx, "ValueError", "not enough values to unpack (expected %d, got %zu)", n, len);
    return len == (size_t)n;
}

/* v_call's ways out that are not a call, out of line: the hot path keeps
 * no registers across them. */
static __attribute__((noinline, cold)) Value *call_refused(Ctx *cx, Value *f, int argc, Value *const *argv)
{
    if (f->type != V_FUNC)
        return cx_raise(cx, "TypeError", "'%s' object is not callable", v_typename(f));
    /* tokpidjin's wrapper decides what a mis-called primitive gives */
    Value *r = f->u.fn.mismatch ? f->u.fn.mismatch(cx, f, argc, argv) : NULL;
    if (r || cx->err)
        return r;
    return cx_raise(cx, "TypeError", "%s() takes %d positional argument%s but %d %s given",
                    f->u.fn.name, f->u.fn.arity, f->u.fn.arity == 1 ? "" : "s", argc,
                    argc == 1 ? "was" : "were");
}

_Thread_local int v_call_depth;

static __attribute__((noinline, cold)) Value *call_too_deep(Ctx *cx)
{
    return cx_raise(cx, "RecursionError", "maximum recursion depth exceeded");
}

/* Out of line, so that the common path keeps no registers across its call. */
static __attribute__((noinline)) Value *call_memo(Ctx *cx, Value *f, int argc, Value *const *argv)
{
    v_call_depth++;
    Value *r = callmemo_call(cx, f, argc, argv);
    v_call_depth--;
    return r;
}

Value *v_call(Ctx *cx, Value *f, int argc, Value *const *argv)
{
    if (f->type != V_FUNC || (argc != f->u.fn.arity && f->u.fn.arity != V_ARITY_ANY))
        return call_refused(cx, f, argc, argv);
    if (!cx_charge(cx, 1))
        return NULL;
    if (__builtin_expect(v_call_depth >= V_CALL_DEPTH_MAX, 0))
        return call_too_deep(cx);
    if (callmemo_wants(cx, f, argc, argv))
        return call_memo(cx, f, argc, argv);
    v_call_depth++;
    Value *r = f->u.fn.invoke(cx, f, argv);
    v_call_depth--;
    return r;
}
