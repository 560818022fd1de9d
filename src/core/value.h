/* value.h -- DSL values: the Python objects the reference DSLs compute with.
 *
 * Values are immutable and reference counted.  Ownership convention, as in
 * CPython: functions taking a Value * borrow it; functions returning one
 * return a new reference (or NULL with an exception pending in the Ctx).
 * Immortal values (None, bools, small ints, (), frozenset()) ignore
 * incref/decref.
 *
 * Tuples and frozensets both expose their elements as items[0..len) in
 * Python iteration order, so read-only code walks either the same way.
 * A frozenset also keeps the CPython hash-table layout it would have
 * (mask, slot -> item index) so later set operations reproduce CPython's
 * iteration order exactly (see pyset.h).
 */
#ifndef ARC_VALUE_H
#define ARC_VALUE_H

#include <stddef.h>
#include <stdint.h>
#include <stdbool.h>
#include <stdarg.h>
#include <string.h>

typedef enum {
    V_NONE, V_BOOL, V_INT, V_FLOAT, V_STR, V_TUPLE, V_FSET, V_FUNC
} VType;

typedef struct Value Value;
typedef struct Ctx Ctx;

/* Every callable value carries its own invoke hook: primitives and closures
 * alike.  argc has been checked against arity by v_call. */
typedef Value *(*InvokeFn)(Ctx *cx, Value *self, Value *const *argv);
/* A call with the wrong number of arguments: what the callee's dialect
 * makes of it (a result, or an exception raised in cx), or NULL with no
 * exception for Python's TypeError. */
typedef Value *(*MismatchFn)(Ctx *cx, Value *self, int argc, Value *const *argv);

/* VFunc.prim of eval's Python builtins, which CPython names and prints
 * apart from a def's function: len is a builtin_function_or_method,
 * tuple a type. */
enum { V_PRIM_BUILTIN = -2, V_PRIM_CLASS = -3 };

typedef struct {
    InvokeFn invoke;
    MismatchFn mismatch;  /* NULL: always the TypeError; dsl/ sets it on primitives */
    const char *name;     /* repr: "<function NAME>" */
    int16_t prim;         /* primitive id (prim.h) of the primitive, or of the
                             combinator that made the closure; -1 or V_PRIM_* */
    uint8_t arity;        /* Python co_argcount: what rbind/lbind inspect;
                             V_ARITY_ANY: takes any number (*args) */
    uint8_t ncap;         /* captured values */
    uint8_t kind;         /* closure shape, meaning is the creator's */
    uint8_t path;         /* a closure that only takes items of its argument
                             (first, last, identity composed): how, its
                             creator's encoding; 0 for any other */
    uint8_t path_calls;   /* ... and the calls that make up one of its runs */
    uint8_t born;         /* v_call_serial when made (callmemo.h) */
    Value *cap[3];
} VFunc;

/* Top-level calls begun on this thread, modulo 256: the executor counts
 * them (callmemo.h keeps calls of closures made before the current one). */
extern _Thread_local uint8_t v_call_serial;

#define V_ARITY_ANY 255

/* v_calls under way on this thread: closures, defs, eval's lambdas, up
 * to CPython's default recursion limit.  CPython counts every Python
 * frame, the DSL's primitives' included, so a deep chain of closures
 * stops a little sooner there; one that calls itself without end stops in
 * both, where C's stack would overflow. */
extern _Thread_local int v_call_depth;
#define V_CALL_DEPTH_MAX 1000

struct Value {
    int32_t refs;         /* < 0: immortal */
    uint8_t type;         /* VType */
    uint8_t hashed;       /* hash below is valid */
    uint8_t flags;        /* V_FLAG_* */
    uint8_t memo;         /* V_MEMO_*: facts about the value, found once (atomic) */
    int64_t hash;         /* cached Python hash */
    union {
        int64_t i;                                    /* V_BOOL, V_INT */
        double f;                                     /* V_FLOAT */
        struct { size_t len; char *s; } str;          /* V_STR */
        struct { size_t len; Value **items_; } tup;   /* V_TUPLE: read through v_titems */
        struct {
            size_t len; Value **items;                /* iteration order */
            uint32_t mask;                            /* table size - 1 */
            uint32_t ndummy;                          /* dummies left in the table */
            int32_t *slots;                           /* [mask+1]: item index, -1 empty, -2 dummy */
            int32_t box[4];                           /* V_MEMO_BOX: i0, j0, i1, j1 */
        } set;                                        /* V_FSET */
        VFunc fn;                                     /* V_FUNC */
    } u;
};

/* A tuple's block ends after u.tup, its items follow (value.c allocates
 * each type's union member only: never read another type's fields). */
#define V_TUPLE_BASE (offsetof(Value, u) + sizeof(((Value *)0)->u.tup))

/* Small ints and the interned tuples (value.c) live in one static arena,
 * so whether a value is one of them is a range check that reads no value:
 * refcounting a set of interned cells touches none of its cells. */
#define V_SMALL_MIN (-64)
#define V_SMALL_MAX 1024
/* Interned places (i, j): i, j in MIN .. MIN+SPAN-1, which holds a 30 x 30
 * grid doubled, shifted, or shot at from inside.  A place outside costs an
 * allocation per use; a wider span costs resident memory instead, since a
 * tile of the arena once paged in stays for the run (a span of 512 kept
 * tens of megabytes of large grids' cells alive). */
#define V_INTERN_MIN (-64)
#define V_INTERN_SPAN 128
#define V_INTERN_TABLES 21  /* locations, then 10 arc-dsl and 10 tokpidjin cell colours */
/* An interned tuple is a tuple's block (V_TUPLE_BASE bytes: value.c's
 * tuples end after u.tup) and room for three items: 56 bytes, not 88. */
typedef struct {
    _Alignas(Value) unsigned char head[V_TUPLE_BASE];
    Value *items[3];
} VInterned;
typedef struct {
    Value small[V_SMALL_MAX - V_SMALL_MIN + 1];
    VInterned table[V_INTERN_TABLES][V_INTERN_SPAN * V_INTERN_SPAN];
} VArena;
_Static_assert((V_INTERN_SPAN & (V_INTERN_SPAN - 1)) == 0, "v_arena_hash shifts by the span");
/* A table is laid out in 8x8 tiles of consecutive entries: a grid's places,
 * or a line through them, are then a few pages, not a page per row (each
 * first touch is a page fault; 2 us here, a quarter of a tiny solver). */
#define V_INTERN_TILE 8
static inline int v_intern_index(int64_t i, int64_t j)
{
    unsigned a = (unsigned)(i - V_INTERN_MIN), b = (unsigned)(j - V_INTERN_MIN);
    unsigned tile = (a / V_INTERN_TILE) * (V_INTERN_SPAN / V_INTERN_TILE) + b / V_INTERN_TILE;
    return (int)(tile * V_INTERN_TILE * V_INTERN_TILE + (a % V_INTERN_TILE) * V_INTERN_TILE +
                 b % V_INTERN_TILE);
}
static inline void v_intern_place(size_t k, int64_t *i, int64_t *j)
{
    size_t tile = k / (V_INTERN_TILE * V_INTERN_TILE), in = k % (V_INTERN_TILE * V_INTERN_TILE);
    *i = (int64_t)(tile / (V_INTERN_SPAN / V_INTERN_TILE) * V_INTERN_TILE + in / V_INTERN_TILE) +
         V_INTERN_MIN;
    *j = (int64_t)(tile % (V_INTERN_SPAN / V_INTERN_TILE) * V_INTERN_TILE + in % V_INTERN_TILE) +
         V_INTERN_MIN;
}
_Static_assert(V_INTERN_MIN >= V_SMALL_MIN && V_INTERN_MIN + V_INTERN_SPAN - 1 <= V_SMALL_MAX,
               "interned places are made of small ints");
/* Whether x + d lies in the interned span; a sum past int64 does not. */
static inline bool v_moved_interned(int64_t x, int64_t d)
{
    int64_t y;
    return !__builtin_add_overflow(x, d, &y) && y >= V_INTERN_MIN &&
           y <= V_INTERN_MIN + V_INTERN_SPAN - 1;
}
/* Whether places within the box b (i0, j0, i1, j1) moved by (di, dj) all
 * lie in the interned span: its corners do.  Any bounds and offsets, near
 * INT64_MAX or INT64_MIN too. */
static inline bool v_box_moved_interned(const int64_t b[4], int64_t di, int64_t dj)
{
    return v_moved_interned(b[0], di) && v_moved_interned(b[2], di) &&
           v_moved_interned(b[1], dj) && v_moved_interned(b[3], dj);
}
extern VArena v_arena_;
/* v's int when it is one of the arena's small ints, told by its address
 * alone (hashing and interning decide without reading their operands). */
static inline bool v_small_of(const Value *v, int64_t *x)
{
    uintptr_t off = (uintptr_t)v - (uintptr_t)v_arena_.small;
    if (off >= sizeof v_arena_.small)
        return false;
    *x = (int64_t)(off / sizeof(Value)) + V_SMALL_MIN;
    return true;
}
static inline bool v_in_arena(const Value *v)
{
    return (uintptr_t)v - (uintptr_t)&v_arena_ < sizeof v_arena_;
}

/* An interned tuple told by its address alone, without reading it (sets
 * of cells lie scattered over the arena): its table -- 0 a place (i, j),
 * 1..10 an arc-dsl cell (at - 1, (i, j)), 11..20 a tokpidjin cell
 * (i, j, at - 11) -- and its i and j; -1 for any other value. */
static inline int v_interned_at(const Value *v, int64_t *i, int64_t *j)
{
    uintptr_t off = (uintptr_t)v - (uintptr_t)v_arena_.table;
    if (off >= sizeof v_arena_.table)
        return -1;
    size_t g = off / sizeof(VInterned);
    v_intern_place(g % (V_INTERN_SPAN * V_INTERN_SPAN), i, j);
    return (int)(g / (V_INTERN_SPAN * V_INTERN_SPAN));
}
/* Nonzero once a tile of a table is built (value.c; acquire loads). */
extern unsigned char v_interned_built_[V_INTERN_TABLES]
                                      [V_INTERN_SPAN * V_INTERN_SPAN / (V_INTERN_TILE * V_INTERN_TILE)];
/* Entry k of table `at`, its tile built first if need be. */
Value *v_interned_build_(int at, int k);
static inline bool v_interned_tile_made_(size_t at, size_t k)
{
    return __atomic_load_n(&v_interned_built_[at][k / (V_INTERN_TILE * V_INTERN_TILE)], __ATOMIC_ACQUIRE);
}
static inline Value *v_interned_entry_(size_t at, size_t k)
{
    if (v_interned_tile_made_(at, k))
        return (Value *)v_arena_.table[at][k].head;
    return v_interned_build_((int)at, (int)k);
}
/* The entry *k of (i, j) in table `at`; false where (i, j) lies outside
 * the span or `at` is no table. */
static inline bool v_intern_slot(int at, int64_t i, int64_t j, size_t *k)
{
    uint64_t a = (uint64_t)i - (uint64_t)V_INTERN_MIN, b = (uint64_t)j - (uint64_t)V_INTERN_MIN;
    if (a >= V_INTERN_SPAN || b >= V_INTERN_SPAN || (unsigned)at >= V_INTERN_TABLES)
        return false;
    *k = (size_t)v_intern_index(i, j);
    return true;
}
/* The interned tuple of table `at` at (i, j); NULL when (i, j) lies
 * outside the span (the caller then builds the tuple).  Inline: shifts
 * and recolours ask it once per cell. */
static inline Value *v_interned_of(int at, int64_t i, int64_t j)
{
    size_t k;
    return v_intern_slot(at, i, j, &k) ? v_interned_entry_((size_t)at, k) : NULL;
}
/* As v_interned_of, but NULL too where the entry's tile is not made yet:
 * no call, so that a caller's fast path needs no frame. */
static inline Value *v_interned_made(int at, int64_t i, int64_t j)
{
    size_t k;
    return v_intern_slot(at, i, j, &k) && v_interned_tile_made_((size_t)at, k)
         ? (Value *)v_arena_.table[at][k].head : NULL;
}
/* The table of cells of colour c, where a dialect's cell tables start at
 * `first` (arc-dsl's 1, tokpidjin's 11); V_INTERN_TABLES, no table, where
 * c is no colour (an int 0..9, not a bool). */
static inline int v_colour_table(const Value *c, int first)
{
    return c->type == V_INT && (uint64_t)c->u.i <= 9 ? (int)c->u.i + first : V_INTERN_TABLES;
}
/* (c, (i, j)), an arc-dsl cell, where c is a colour and (i, j) lies in the
 * span: the interned one, without building the place first; else NULL. */
static inline Value *v_cell_interned(const Value *c, int64_t i, int64_t j)
{
    return v_interned_of(v_colour_table(c, 1), i, j);
}
/* (i, j, c), a tokpidjin cell, where c is a colour and (i, j) lies in the
 * span: the interned one; else NULL. */
static inline Value *v_cell3_interned(int64_t i, int64_t j, const Value *c)
{
    return v_interned_of(v_colour_table(c, 11), i, j);
}
/* The interned tuple of entry g of the tables (table * V_INTERN_SPAN^2 +
 * v_intern_index): its chunk, and v_arena_hashes_[g], made if not yet. */
static inline Value *v_interned_key(size_t g)
{
    return v_interned_entry_(g / (V_INTERN_SPAN * V_INTERN_SPAN), g % (V_INTERN_SPAN * V_INTERN_SPAN));
}
/* The small int x (V_SMALL_MIN <= x <= V_SMALL_MAX), without a call. */
static inline Value *v_small(int64_t x)
{
    return &v_arena_.small[x - V_SMALL_MIN];
}

/* memo: set with __atomic_fetch_or (release) after the data it vouches
 * for, read with an acquire load; values shared by the call cache are
 * read on several threads. */
#define V_MEMO_BOX 0x01    /* frozenset: u.set.box holds its cells' bounding box */
#define V_MEMO_NOBOX 0x02  /* frozenset: it has no integer bounding box */
#define V_MEMO_RECIPE 0x04 /* frozenset: its block holds how it was made (fsrecipe.h) */
#define V_MEMO_TRECIPE 0x04 /* tuple: the same, after its items (tuprecipe.h) */
#define V_MEMO_UNBUILT 0x08 /* frozenset: its items are not built yet (v_items builds them);
                               tuple: a byte grid's rows, or a recipe tuple's items, are
                               not (v_titems) */
#define V_MEMO_BUILDING 0x10 /* frozenset: a thread is building its items (fsrecipe.c) */
#define V_MEMO_BYTES 0x40  /* tuple: a byte grid (vgrid.h) */
#define V_MEMO_CELLS 0x20  /* frozenset: every item is a pair whose [1] is a tuple (arc-dsl's
                              cells), known without reading one */
#define V_MEMO_PLACES 0x80 /* frozenset: every item is a pair of ints (a place), known
                              without reading one */
#define V_MEMO_JSON_PLAIN 0x01 /* str: no byte a JSON string must escape (set when made) */

/* memo's bits, read where another thread may be setting others: bits
 * fixed when a value is made (RECIPE, BYTES) are read through it too */
static inline uint8_t v_memo(const Value *v)
{
    return __atomic_load_n(&v->memo, __ATOMIC_RELAXED);
}

void v_tuple_build_(Value *v);  /* vgrid.c: a byte grid's rows, or a recipe tuple's items */
/* A tuple's items.  A byte grid (vgrid.h) makes its rows when they are
 * first read, once, as a recipe tuple (tuprecipe.h) its items; every
 * other tuple has them from the start. */
static inline Value **v_titems(const Value *v)
{
    if (__builtin_expect(__atomic_load_n(&v->memo, __ATOMIC_ACQUIRE) & V_MEMO_UNBUILT, 0))
        v_tuple_build_((Value *)v);
    return v->u.tup.items_;
}

#define V_FLAG_GRID 0x01  /* known to be a tuple of equal-length tuples of ints */
#define V_FLAG_SHARED 0x04 /* long-lived data read by many threads: no refcount */
#define V_FLAG_ATOMIC 0x08 /* shared by the call cache: atomic refcount */
#define V_FLAG_FLAT 0x10   /* container whose items are all arena values: freeing
                              or sharing it touches none of them */
/* `arcrun eval`'s Python values beyond the DSLs' (src/front/pyeval.c): a
 * tuple that is a list, or a range (its items start, stop, step); a
 * frozenset that is a set.  Only eval makes them; repr, ==, type names
 * and hashing (they are unhashable) follow them. */
#define V_FLAG_LIST 0x20
#define V_FLAG_RANGE 0x40
#define V_FLAG_SET 0x02
/* 0x80 is pyset.c's on a frozenset (one made there keeps its items'
 * hashes), and on a tuple v_is_grid's answer that it is not a grid */
#define V_FLAG_NOTGRID 0x80
#define V_FLAGS_PY (V_FLAG_LIST | V_FLAG_RANGE | V_FLAG_SET)

/* ---- exceptions --------------------------------------------------------- */

enum { DIALECT_ARCDSL = 0, DIALECT_TOKPIDJIN = 1, DIALECT_COUNT };

struct Ctx {
    int dialect;
    bool rearc;               /* arc-dsl as re-arc's dsl.py has it (messages name its parameters) */
    bool err;                 /* an exception is pending */
    char errmsg[256];         /* "TypeError: ..." as Python would print it */
    uint64_t work;            /* work units spent (budget accounting) */
    uint64_t work_limit;      /* 0: unlimited */
    uint64_t deadline_ns;     /* CLOCK_MONOTONIC; 0: no time budget */
    uint64_t check_at;        /* work at which a charge looks at the budget (cx_arm) */
    bool over_budget;         /* work or time budget spent: not an Exception */
    void *user;               /* executor's per-instance data */
    struct CallMemo *memo;    /* closure calls kept in this top-level call (callmemo.h); NULL: none */
};

void ctx_init(Ctx *cx, int dialect);
/* Raise: set the pending exception, return NULL so callers can `return
 * cx_raise(...)`.  exc is the Python class name ("TypeError"). */
Value *cx_raise(Ctx *cx, const char *exc, const char *fmt, ...)
    __attribute__((format(printf, 3, 4)));
void cx_clear(Ctx *cx);
/* Whether the pending error must stand rather than give way to a slower
 * path that would raise CPython's own: the budget ran out, or memory. */
static inline bool cx_error_stands(const Ctx *cx)
{
    return cx->over_budget || !strncmp(cx->errmsg, "MemoryError", 11);
}
/* The pending error cleared where it may give way to that slower path:
 * false where it stands. */
static inline bool cx_give_way(Ctx *cx)
{
    if (cx_error_stands(cx))
        return false;
    cx_clear(cx);
    return true;
}

uint64_t now_ns(void);   /* CLOCK_MONOTONIC */
/* CLOCK_MONOTONIC_COARSE where there is one: a tick behind now_ns at
 * most, and a fraction of its cost */
uint64_t now_coarse_ns(void);
bool cx_budget_spent_(Ctx *cx);
/* The clock is read every CX_TICK units of work while there is a deadline. */
#define CX_TICK 4096
/* More work than an instance can do, or memory hold, in any run: past it
 * a charge raises MemoryError, budget or none (a size a program computes,
 * canvas(0, (2**62, 1)), stops there instead of wrapping or allocating). */
#define CX_WORK_MAX ((uint64_t)1 << 40)
/* a * b units of work for a size from a program's ints, held at
 * CX_WORK_MAX + 1: past the cap, and a charge of it cannot wrap the work
 * an instance has done (sums of a few of them cannot either). */
static inline uint64_t cx_mul(uint64_t a, uint64_t b)
{
    uint64_t r;
    return __builtin_mul_overflow(a, b, &r) || r > CX_WORK_MAX ? CX_WORK_MAX + 1 : r;
}
/* After work_limit or deadline_ns is set, and where a call begins: the
 * next charge that must look at the budget is one past the limit, or
 * CX_TICK units on where there is a deadline, whichever comes first. */
static inline void cx_arm(Ctx *cx)
{
    uint64_t at = cx->work_limit && cx->work_limit < CX_WORK_MAX ? cx->work_limit + 1
                                                                 : CX_WORK_MAX + 1;
    if (cx->deadline_ns && cx->work + CX_TICK < at)
        at = cx->work + CX_TICK;
    cx->check_at = at;
}
/* Charge n units of work (elements produced, calls made); false with a
 * MemoryError/TimeoutError pending once the instance's budget is spent.
 * One compare a charge: closures charge every call they make. */
static inline bool cx_charge(Ctx *cx, uint64_t n)
{
    cx->work += n;
    if (cx->work >= cx->check_at)
        return !cx_budget_spent_(cx);
    return true;
}

/* ---- lifetime ----------------------------------------------------------- */

/* Values shared between instances by the call cache (V_FLAG_ATOMIC) may be
 * touched by several threads: their counts change atomically. */
static inline Value *v_incref(Value *v)
{
    if (!v || v_in_arena(v))
        return v;
    if (v->flags & V_FLAG_ATOMIC)        /* never set on immortals */
        __atomic_fetch_add(&v->refs, 1, __ATOMIC_RELAXED);
    else if (v->refs >= 0)
        v->refs++;
    return v;
}
void v_free_(Value *v);
static inline void v_decref(Value *v)
{
    if (!v || v_in_arena(v))
        return;
    if (v->flags & V_FLAG_ATOMIC) {
        if (__atomic_sub_fetch(&v->refs, 1, __ATOMIC_ACQ_REL) == 0)
            v_free_(v);
    } else if (v->refs >= 0 && --v->refs == 0) {
        v_free_(v);
    }
}
/* Make v (and everything it holds) safe to share across threads; returns
 * how many values it converted (a measure of the memory it pins). */
size_t v_make_atomic(Value *v);
static inline bool v_shareable(const Value *v)
{
    return (v->flags & V_FLAG_ATOMIC) || v->refs < 0;
}

/* Set V_FLAG_FLAT on a container just built whose items are all small
 * ints or interned tuples (a row of a grid, a set of cells). */
/* V_FLAG_FLAT on container v when the caller knows its items are arena
 * values (they came from flat containers): v_mark_flat without the scan.
 * An empty one has nothing to skip, and may be the shared empty tuple. */
static inline void v_mark_flat_known(Value *v, bool flat)
{
    if (flat && (v->type == V_TUPLE ? v->u.tup.len : v->u.set.len) > 0 && !v_in_arena(v))
        v->flags |= V_FLAG_FLAT;
}

static inline void v_mark_flat(Value *v, Value *const *items, size_t n)
{
    bool flat = n > 0;
    for (size_t i = 0; i < n; i++)
        flat &= v_in_arena(items[i]);
    v_mark_flat_known(v, flat);
}

/* A new value's hash, known from its parts, kept (an arena value hashes by
 * its place already and is never written). */
static inline void v_hash_known(Value *v, int64_t h)
{
    if (!v_in_arena(v)) {
        v->hash = h;
        v->hashed = 1;
    }
}

/* Keep frozenset v's bounding box in its memo (V_MEMO_BOX) when it fits in
 * int32: bbox readers then answer without a scan.  v may already be read
 * by other threads. */
static inline bool v_fits32(int64_t x) { return x >= INT32_MIN && x <= INT32_MAX; }

static inline void v_box_keep(Value *v, int64_t i0, int64_t j0, int64_t i1, int64_t j1)
{
    if (!v_fits32(i0) || !v_fits32(j0) || !v_fits32(i1) || !v_fits32(j1))
        return;
    int32_t *x = v->u.set.box;
    __atomic_store_n(&x[0], (int32_t)i0, __ATOMIC_RELAXED);
    __atomic_store_n(&x[1], (int32_t)j0, __ATOMIC_RELAXED);
    __atomic_store_n(&x[2], (int32_t)i1, __ATOMIC_RELAXED);
    __atomic_store_n(&x[3], (int32_t)j1, __ATOMIC_RELAXED);
    __atomic_fetch_or(&v->memo, V_MEMO_BOX, __ATOMIC_RELEASE);
}

/* Whether v is a tuple of flat tuples (a grid whose rows are flat): rows
 * made of its cells are then flat too, known without a scan. */
static inline bool v_rows_flat(const Value *v)
{
    if (v->type != V_TUPLE)
        return false;
    if (__atomic_load_n(&v->memo, __ATOMIC_RELAXED) & V_MEMO_BYTES)   /* a byte grid: its rows are, made or not */
        return true;
    for (size_t i = 0; i < v->u.tup.len; i++) {
        const Value *r = v_titems(v)[i];
        if (r->type != V_TUPLE || !(r->flags & V_FLAG_FLAT))
            return false;
    }
    return true;
}

/* malloc that aborts with a message when memory runs out */
void *xmalloc_(size_t n);
/* An explicit stack of *cap elements of elem bytes, full, doubled: the
 * new block holds its elements, *cap is doubled, and st is freed unless
 * it is own (a first block on C's stack; NULL for none). */
void *xstack_grow(void *st, const void *own, size_t *cap, size_t elem);

/* Task grids are read by every instance, on several threads: they stop
 * being reference counted (immortal) and are freed once, at the end. */
void v_make_shared(Value *v);
void v_free_shared(Value *v);
/* How many immortal values have been freed (v_free_shared, v_free_pinned):
 * what keeps an immortal's address to recognise it later checks that
 * this has not moved since. */
extern uint64_t v_immortal_frees_;
static inline uint64_t v_immortal_frees(void)
{
    return __atomic_load_n(&v_immortal_frees_, __ATOMIC_ACQUIRE);
}

/* A program's constants are read by every instance of it, on several
 * threads: for a run they stop being reference counted too (an atomic
 * count on one cache line, changed from every thread, stops scaling).
 * v_pin makes v and what it holds immortal and adds each value it changed
 * to *pinned (grown as needed); v_free_pinned frees one such value's own
 * block, once nothing can read it. */
void v_pin(Value *v, Value ***pinned, size_t *n, size_t *cap);
void v_free_pinned(Value *v);

/* ---- constructors (new references) ------------------------------------- */

extern Value v_None_, v_True_, v_False_, v_empty_tuple_, v_empty_fset_;
/* math.nan: one object, as in CPython, where `x is math.nan` and container
 * equality (identity first) depend on it. */
extern Value v_nan_;
#define V_NONE_  (&v_None_)
/* Inline: arithmetic and predicates make these once per call. */
static inline Value *v_none(void) { return &v_None_; }
static inline Value *v_bool(bool b) { return b ? &v_True_ : &v_False_; }
/* An int past the arena's small ones, allocated (value.c). */
Value *v_int_alloc(int64_t i);
static inline Value *v_int(int64_t i)
{
    return i >= V_SMALL_MIN && i <= V_SMALL_MAX ? v_small(i) : v_int_alloc(i);
}
Value *v_float(double f);
Value *v_str(const char *s, size_t len);
/* Tuple: v_tuple_new gives len uninitialised items to fill (each a new
 * reference the tuple then owns); v_tuple_from increfs the given items. */
Value *v_tuple_new(size_t len);
Value *v_tuple_from(Value *const *items, size_t len);
Value *v_tuple_new_empty_own(void);    /* () as an object of its own (eval's []) */
/* Drop a tuple from v_tuple_new whose first `filled` items were set. */
void v_tuple_abandon(Value *t, size_t filled);
Value *v_tuple2(Value *a, Value *b);       /* borrows both */
/* (a, b) as v_tuple2 gives it, refilling spare (a 2-tuple: a reference
 * the caller gives up) when nothing else holds it, as CPython's tuple free
 * list would hand the same block back: a walk's pair per step costs no
 * allocation.  spare may be NULL. */
Value *v_tuple2_into(Value *spare, Value *a, Value *b);
Value *v_pair_int_new_(int64_t a, int64_t b);   /* (a, b) outside the span */
/* The tuple of interned table t at (i, j), anywhere: (i, j) for t 0, an
 * arc-dsl cell (t - 1, (i, j)) for 1..10, a tokpidjin cell (i, j, t - 11)
 * above; the interned one inside the span, a new one outside. */
Value *v_table_tuple(unsigned t, int64_t i, int64_t j);
static inline Value *v_pair_int(int64_t a, int64_t b)   /* (a, b) */
{
    Value *r = v_interned_of(0, a, b);
    return r ? r : v_pair_int_new_(a, b);
}
Value *v_pair_steal(Value *a, Value *b);   /* (a, b), steals both */
Value *v_triple_steal(Value *a, Value *b, Value *c);   /* (a, b, c), steals all */
Value *v_func_new(InvokeFn invoke, const char *name, int prim, int arity,
                  int kind, int ncap, Value *const *cap);   /* increfs cap */

/* ---- predicates and access --------------------------------------------- */

static inline bool v_is_int(const Value *v) { return v->type == V_INT || v->type == V_BOOL; }
/* an int, bool or float: what arithmetic and ordering take as a number */
static inline bool v_is_number(const Value *v) { return v_is_int(v) || v->type == V_FLOAT; }
static inline bool v_is_container(const Value *v) { return v->type == V_TUPLE || v->type == V_FSET; }
static inline size_t v_len(const Value *v) { return v->type == V_TUPLE ? v->u.tup.len : v->u.set.len; }
void fs_build_(Value *v);    /* fsrecipe.c */
/* Items made once, by the first thread to ask (fsrecipe.c, vgrid.c):
 * true when this thread is to make them (V_MEMO_BUILDING set; end with
 * v_build_done), false once they are made (another thread's build
 * waited for). */
bool v_build_claim(Value *v);
void v_build_done(Value *v);
/* A frozenset's items may not be built yet (fsrecipe.h): reading them
 * here builds them, once. */
static inline Value **v_items(const Value *v)
{
    if (v->type == V_TUPLE)
        return v_titems(v);
    if (__builtin_expect(__atomic_load_n(&v->memo, __ATOMIC_ACQUIRE) & V_MEMO_UNBUILT, 0))
        fs_build_((Value *)v);
    return v->u.set.items;
}
/* Loops that call a function on each item fetch item i + V_AHEAD while
 * item i runs: built items sit wherever the allocator put them, and a
 * frozenset's are visited in slot order, so each would miss the cache. */
enum { V_AHEAD = 6 };
static inline void v_fetch_ahead(Value *const *it, size_t i, size_t n)
{
    if (i + V_AHEAD < n)
        __builtin_prefetch(it[i + V_AHEAD]);
}
static inline bool v_truthy(const Value *v) {
    switch (v->type) {
    case V_NONE: return false;
    case V_BOOL: case V_INT: return v->u.i != 0;
    case V_FLOAT: return v->u.f != 0.0;
    case V_STR: return v->u.str.len != 0;
    case V_TUPLE: return v->u.tup.len != 0;
    case V_FSET: return v->u.set.len != 0;
    default: return true;
    }
}
const char *v_typename(const Value *v);   /* Python type name: "int", "tuple" ... */
/* AttributeError for v.attr, in CPython's words (a class's differ) */
Value *v_no_attr(Ctx *cx, const Value *v, const char *attr);
/* Whether v is one of eval's builtin classes (tuple, range ...) */
static inline bool v_is_class(const Value *v) { return v->type == V_FUNC && v->u.fn.prim == V_PRIM_CLASS; }
/* Whether hash(v) works: false, with Python's TypeError raised, for a
 * list or set, or a tuple holding one (value.h V_FLAGS_PY). */
bool v_hashable(Ctx *cx, const Value *v);

/* A pair of ints (i, j): the shape of locations and vectors. */
bool v_is_ivec(const Value *v);
/* Grid: non-empty tuple of equal-length tuples of ints.  Cached in flags. */
bool v_is_grid(Value *v);

/* ---- Python semantics -------------------------------------------------- */

/* CPython 3.11 hash: v_hash below; v_hash_of_ computes one not yet
 * cached (pyhash.c) */
int64_t v_hash_of_(Value *v);
/* v_hash of an arena value from its address, without reading the value:
 * sets of cells are built and probed by hash, and the cells lie scattered
 * over megabytes, while their hashes sit side by side. */
extern int64_t v_arena_hashes_[V_INTERN_TABLES * V_INTERN_SPAN * V_INTERN_SPAN];
int64_t v_arena_hash_of(size_t g);         /* the hash of interned entry g, computed */
/* Nonzero once a tile's hashes are in v_arena_hashes_ (acquire loads):
 * made with its tuples, or alone by v_arena_hashes_make_, for keys whose
 * tuples nothing reads. */
extern unsigned char v_arena_hashed_[V_INTERN_TABLES]
                                    [V_INTERN_SPAN * V_INTERN_SPAN / (V_INTERN_TILE * V_INTERN_TILE)];
void v_arena_hashes_make_(size_t at, size_t tile);
/* hash((i, j)) for 0 <= i, j < V_LOC_HASHED, tabled once
 * v_loc_hashes_make has run: grid walks and lines hash their places by
 * the thousand, and a load is cheaper than the tuple hash's lanes.  The
 * table covers grids to 64 x 64 (ARC's are 30 x 30 at most): the first
 * run to ask pays for each of its pages. */
#define V_LOC_HASHED 64
extern int64_t v_loc_hashes_[V_LOC_HASHED][V_LOC_HASHED];
void v_loc_hashes_make(void);
/* hash((i, j)) of two ints: the table's where it lies in it (made first
 * if not yet), else computed */
int64_t v_loc_hash(int64_t i, int64_t j);
static inline bool v_loc_hashed(int64_t i, int64_t j)
{
    return (uint64_t)i < V_LOC_HASHED && (uint64_t)j < V_LOC_HASHED;
}
static inline int64_t v_arena_hash(const Value *v)
{
    int64_t x;
    if (v_small_of(v, &x))
        return x == -1 ? -2 : x;
    uintptr_t off = (uintptr_t)v - (uintptr_t)v_arena_.table;
    return v_arena_hashes_[off / sizeof(VInterned)];
}

/* A set's probe hashes every member it meets: the cached hash is read
 * here, without a call. */
static inline int64_t v_hash(Value *v)
{
    if (v_in_arena(v))
        return v_arena_hash(v);
    if (__atomic_load_n(&v->hashed, __ATOMIC_ACQUIRE))
        return __atomic_load_n(&v->hash, __ATOMIC_RELAXED);
    return v_hash_of_(v);
}

/* CPython hashes None, nan and functions by their address, so their order
 * in sets differs from run to run even there.  arcrun gives them fixed
 * pseudo-addresses instead (None, nan: constants; a primitive: its place in
 * the table; a closure: its content), so its output is the same for every
 * run, every --jobs and with or without the call cache.
 * v_hash_address is CPython's hash of an address. */
#define V_NONE_ADDRESS 0x55d1c4a0d0e0ull
#define V_NAN_ADDRESS  0x7f4a3c2e1d00ull
int64_t v_hash_address(uint64_t address);
/* A closure's: the address made from its name, shape and captures. */
int64_t v_func_hash_(const Value *v);
bool v_eq(const Value *a, const Value *b); /* Python == */
/* Python == where a program compares: 1/0, or -1 with CPython's
 * RecursionError raised in cx where tuples nest past its recursion limit
 * (v_eq answers those; sets' items compare by v_eq). */
int v_eq_checked(Ctx *cx, const Value *a, const Value *b);
/* Python rich comparison: op is one of CMP_LT.. ; returns 1/0, or -1 with a
 * TypeError raised in cx ("'<' not supported between ..."), or
 * RecursionError where tuples nest past CPython's recursion limit. */
enum { CMP_LT, CMP_LE, CMP_GT, CMP_GE };
int v_richcmp(Ctx *cx, const Value *a, const Value *b, int op);

/* `a, b, ... = v` with n targets: true when v is a container of n items;
 * else false with CPython's TypeError or ValueError raised in cx. */
bool v_unpack_check(Ctx *cx, const Value *v, int n);

/* Call a value as a function; TypeError if not callable or wrong arity. */
Value *v_call(Ctx *cx, Value *f, int argc, Value *const *argv);

/* ---- repr --------------------------------------------------------------- */

/* spill (NULL: none) is called before the buffer grows; it may take the
 * bytes written so far (setting len to 0), so that a repr of any size can
 * pass through a bounded buffer (the trace's hashed reprs). */
typedef struct StrBuf {
    char *buf;
    size_t len, cap;
    void (*spill)(struct StrBuf *sb);
} StrBuf;
void sb_init(StrBuf *sb);
void sb_free(StrBuf *sb);
void sb_printf(StrBuf *sb, const char *fmt, ...) __attribute__((format(printf, 2, 3)));
/* sb_room's growing part */
char *sb_grow(StrBuf *sb, size_t more);
/* Room for `more` bytes and a NUL at sb->buf + sb->len, returned: the
 * caller writes there, then moves sb->len and writes the NUL.  Inline:
 * an output line is made of many short pieces. */
static inline char *sb_room(StrBuf *sb, size_t more)
{
    return sb->len + more + 1 <= sb->cap ? sb->buf + sb->len : sb_grow(sb, more);
}
static inline void sb_putc(StrBuf *sb, char c)
{
    char *p = sb_room(sb, 1);
    p[0] = c, p[1] = '\0';
    sb->len++;
}
static inline void sb_putn(StrBuf *sb, const char *s, size_t n)
{
    char *p = sb_room(sb, n);
    memcpy(p, s, n);
    p[n] = '\0';
    sb->len += n;
}
/* Inline: its strings are mostly literals, whose length is then known */
static inline void sb_puts(StrBuf *sb, const char *s)
{
    sb_putn(sb, s, strlen(s));
}
void v_repr(StrBuf *sb, const Value *v);  /* Python repr() */
char *v_repr_str(const Value *v);         /* malloc'd; caller frees */

#endif
