/* pyset.h -- CPython 3.11 set/frozenset tables, reproduced slot for slot.
 *
 * The observable order of a Python set is the slot order of its hash table,
 * which follows from the hashes, insertion order, probing and resize history
 * (../shared/notes/cpython-set-order.md is the spec; section numbers below
 * refer to it).  PySet is the mutable table ("set"); pyset_freeze turns it
 * into a V_FSET value that remembers its layout, so operations on frozensets
 * (fs_*) start from exactly the table CPython would have.
 *
 * All functions borrow their Value arguments; stored keys are incref'd.
 */
#ifndef ARC_PYSET_H
#define ARC_PYSET_H

#include "value.h"

/* v_hash with the int case in place: ints are many sets' keys, and an
 * int's hash costs less to compute than its cached one to read. */
static inline int64_t pyset_key_hash(Value *v)
{
    if (v_in_arena(v))           /* cells: reading one is a cache miss */
        return v_arena_hash(v);
    if (v->type == V_INT || v->type == V_BOOL) {    /* py_hash_int, fewer steps */
        int64_t i = v->u.i;
        uint64_t m = (i < 0 ? 0 - (uint64_t)i : (uint64_t)i) % 0x1FFFFFFFFFFFFFFFull;
        if (i < 0)
            return m == 1 ? -2 : -(int64_t)m;
        return (int64_t)m;
    }
    if (__atomic_load_n(&v->hashed, __ATOMIC_ACQUIRE))   /* see pyhash.c */
        return __atomic_load_n(&v->hash, __ATOMIC_RELAXED);
    return v_hash_of_(v);
}

typedef struct {
    Value *key;          /* NULL: empty; PYSET_DUMMY: deleted */
    int64_t hash;
} PySetEntry;

typedef struct {
    uint32_t mask;       /* size - 1, size a power of two >= 8 */
    uint32_t fill;       /* active + dummy */
    uint32_t used;       /* active */
    uint32_t finger;     /* pop() position */
    PySetEntry *table;
    PySetEntry small[8]; /* the in-object smalltable */
} PySet;

extern Value pyset_dummy_;
#define PYSET_DUMMY (&pyset_dummy_)

/* Mutable table ("set()") */
void pyset_init(PySet *s);                 /* empty 8-slot table */
void pyset_clear(PySet *s);                /* release keys and memory; re-init */
bool pyset_contains(const PySet *s, Value *key);
/* The slot holding key (identity or ==), or -1 */
int64_t pyset_slot(const PySet *s, Value *key);
void pyset_add(PySet *s, Value *key);      /* §2.4 */
bool pyset_discard(PySet *s, Value *key);  /* §2.5; true if it was present */
void pyset_add_all(PySet *s, Value *const *items, size_t n);  /* ADD-ALL, §3 */
void pyset_merge(PySet *dst, const Value *fset);              /* MERGE (|=, update with a set), §3 */
void pyset_merge_set(PySet *dst, const PySet *src);           /* MERGE from a mutable set */
void pyset_copy_from_set(PySet *dst, const PySet *src);       /* dst = COPY(src) (set(s), s.copy()) */
/* s - t as a new set (§4 "a - b"); t a mutable set */
void pyset_sub_set(PySet *dst, const PySet *a, const PySet *b);

/* Freeze: frozenset(s) for a mutable s, i.e. a COPY (§3, the copy may
 * reorder).  The table s is left intact. */
Value *pyset_to_frozenset(const PySet *s);
/* Adopt: build the frozenset value holding exactly s's table (no COPY), and
 * reset s.  This is what frozenset(iterable) gives after ADD-ALL. */
Value *pyset_take(PySet *s);
/* The bytes a frozenset made here was allocated with. */
size_t fs_block_size(const Value *v);

/* Frozenset constructors and operators (results are new frozensets). */
Value *fs_from_items(Value *const *items, size_t n);   /* frozenset(iterable): ADD-ALL */
Value *fs_from_container(const Value *c);  /* frozenset(c): fset -> itself, tuple -> ADD-ALL */
/* COPY (cpython-set-order.md §3): set(fs) and frozenset(a set) take fs's
 * table at once, not its items one by one. */
Value *fs_copy(const Value *fs);
/* A frozenset with a layout computed elsewhere (the GPU's objects), filled
 * in place: n >= 1 items in slot order and a mask+1 table without dummies.
 * The caller sets items[k] (a reference it gives), hashes[k] and
 * slots[s] = k for the slot s of item k; every other slot is empty. */
typedef struct {
    Value **items;
    int64_t *hashes;
    int32_t *slots;
} FsLayout;
Value *fs_layout(size_t n, size_t mask, FsLayout *out);
/* The same with `extra` bytes between the Value and its arrays, for its
 * maker (fsrecipe.h), at fs_extra(v); fs_block_size counts them. */
Value *fs_layout_extra(size_t n, size_t mask, size_t extra, FsLayout *out);
/* A frozenset of n items and table mask `mask` with `extra` bytes after
 * the Value and no arrays yet: its maker (fsrecipe.h) allocates them when
 * it builds (fs_table_alloc: every slot empty) and frees them
 * (fs_table_free). */
Value *fs_alloc_bare(size_t n, size_t mask, size_t extra);
FsLayout fs_table_alloc(Value *v);
void fs_table_free(Value *v);
/* Value, items[n], slots[mask+1] and hashes[n] in one block: v_free_ frees
 * just v.  (mask+1)*4 is a multiple of 8, so hashes stay aligned. */
static inline size_t fs_size(size_t n, size_t mask)
{
    return sizeof(Value) + n * sizeof(Value *) + (mask + 1) * sizeof(int32_t) +
           n * sizeof(int64_t);
}

static inline void *fs_extra(const Value *v)
{
    return (void *)(v + 1);
}
/* The arrays of a frozenset made by one of these, to fill later. */
FsLayout fs_layout_of(Value *v);
/* A new frozenset laid out as fs, whose items are arena values
 * (V_FLAG_FLAT, none to incref): what a pure computation gives again, as
 * the distinct object CPython makes each time (identity shows in
 * `a | b` when b is a). */
Value *fs_clone_flat(const Value *fs);
/* Frozensets that a pure computation gives for a small argument, kept
 * once per argument in a slot any thread may read and fill.  fs_kept: a
 * clone of the slot's set (fs_clone_flat), NULL while the slot is empty;
 * fs_keep: fill the slot with a clone of fs, whose items are arena
 * values, unless a thread did first.  The kept set itself is never handed
 * out: the call cache keys by identity, and CPython's `a & b` copies a
 * when b is a. */
static inline Value *fs_kept(Value *const *slot)
{
    const Value *fs = __atomic_load_n(slot, __ATOMIC_ACQUIRE);
    return fs ? fs_clone_flat(fs) : NULL;
}
void fs_keep(Value **slot, const Value *fs);
/* The table mask COPY gives a set of n keys (MERGE's pre-size step). */
size_t pyset_copy_mask(size_t n);
bool fs_contains(const Value *fs, Value *key);
Value *fs_or(const Value *a, const Value *b);     /* a | b ; a.union(b) */
Value *fs_and(const Value *a, const Value *b);    /* a & b */
Value *fs_sub(const Value *a, const Value *b);    /* a - b */
Value *fs_xor(const Value *a, const Value *b);    /* a ^ b */
/* Load a frozenset's table into a mutable set (set(fs): a COPY). */
void pyset_from_frozenset(PySet *dst, const Value *fs);

#endif
