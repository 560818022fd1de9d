/* pyset.c -- CPython 3.11 set tables, slot for slot (notes/cpython-set-order.md).
 *
 * Two representations: the mutable PySet (entries of key + hash, like
 * setobject.c) and the frozen V_FSET value (items in slot order plus a slot
 * -> item index map, plus the items' hashes).  Algorithms read either
 * through a View, so a frozenset operand is never converted before use.
 *
 * Functions that fill a PySet `dst` initialise it themselves (it may be
 * uninitialised memory); they do not release what it held.  Identity
 * matters as in CPython: `a | a`, `a & a` and `a ^ a` take the shortcuts
 * setobject.c takes when both operands are the same object.  A frozen
 * value's block, its allocation and layout, is fsblock.h's and fsblock.c's.
 */
#include "pyset.h"
#include "fsblock.h"
#include "fsdistinct.h"
#include "fsrecipe.h"
#include "pyprobe.h"
#include "vmem.h"

#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#define MINSIZE 8

Value pyset_dummy_ = {.refs = -1, .type = V_NONE};

/* From this many items fs_from_items finds the first of each and lays
 * them out as distinct (fsdistinct.c): the tables of indices it replays
 * are a quarter of the mutable table's size. */
#define FS_FIRSTS_MIN 8

static inline bool keq(Value *stored, Value *key)
{
    return stored == key || v_eq(stored, key);
}

/* ---- the mutable table -------------------------------------------------- */

void pyset_init(PySet *s)
{
    /* a copy, not memset: GCC makes that a `rep stos`, whose start costs
     * more than the 128 bytes, and a set is made per call */
    static const PySetEntry empty[MINSIZE];
    memcpy(s->small, empty, sizeof s->small);
    s->table = s->small;
    s->mask = MINSIZE - 1;
    s->fill = s->used = s->finger = 0;
}

void pyset_clear(PySet *s)
{
    if (!s->fill && s->table == s->small) {     /* nothing went in: as pyset_init left it */
        s->finger = 0;
        return;
    }
    for (size_t i = 0; i <= s->mask; i++) {
        Value *k = s->table[i].key;
        if (k && k != PYSET_DUMMY)
            v_decref(k);
    }
    if (s->table != s->small)
        vmem_free(s->table, (s->mask + 1) * sizeof *s->table);
    pyset_init(s);
}

static PySetEntry *lookup(const PySet *s, Value *key, int64_t h)
{
    PySetEntry *t = s->table;
    PY_PROBE(size_t, s->mask, h, {
        PySetEntry *e = &t[j];
        if (!e->key)
            return NULL;
        if (e->hash == h && keq(e->key, key))
            return e;
    });
}

/* First empty slot on h's path: no comparisons (setobject's insert_clean). */
static void insert_clean(PySetEntry *t, size_t mask, Value *key, int64_t h)
{
    PySetEntry *home = &t[(size_t)h & mask];
    if (!home->key) {
        home->key = key;
        home->hash = h;
        return;
    }
    PY_PROBE(size_t, mask, h, {
        if (!t[j].key) {
            t[j].key = key;
            t[j].hash = h;
            return;
        }
    });
}

/* §2.6: the smallest power of two > minused; survivors re-inserted in old
 * slot order; dummies dropped. */
static void resize(PySet *s, size_t minused)
{
    size_t newsize = py_set_size(minused);
    PySetEntry *old = s->table, saved[MINSIZE];
    size_t oldmask = s->mask;
    bool old_malloced = old != s->small;
    PySetEntry *nt;
    if (newsize == MINSIZE) {
        nt = s->small;
        if (!old_malloced) {
            if (s->fill == s->used)
                return;
            memcpy(saved, old, sizeof saved);
            old = saved;
        }
        memset(nt, 0, sizeof s->small);
    } else {
        nt = vmem_calloc(newsize * sizeof *nt);
    }
    s->table = nt;
    s->mask = (uint32_t)(newsize - 1);
    for (size_t i = 0; i <= oldmask; i++) {
        Value *k = old[i].key;
        if (k && k != PYSET_DUMMY)
            insert_clean(nt, newsize - 1, k, old[i].hash);
    }
    s->fill = s->used;
    if (old_malloced)
        vmem_free(old, (oldmask + 1) * sizeof *old);
}

/* §2.4: equal key present -> no change; else the last dummy on the path, or
 * the first empty slot (which may trigger growth).  key is borrowed. */
static void add_entry(PySet *s, Value *key, int64_t h)
{
    PySetEntry *t = s->table, *freeslot = NULL, *e;
    size_t mask = s->mask;
    e = &t[(size_t)h & mask];           /* a free home: nothing to compare */
    if (!e->key)
        goto found_empty;
    PY_PROBE(size_t, mask, h, {
        e = &t[j];
        if (!e->key)
            goto found_empty;
        if (e->hash == h) {
            if (keq(e->key, key))
                return;
        } else if (e->hash == -1) {
            freeslot = e;
        }
    });
found_empty:
    s->used++;
    if (freeslot) {
        freeslot->key = v_incref(key);
        freeslot->hash = h;
        return;
    }
    e->key = v_incref(key);
    e->hash = h;
    s->fill++;
    if (PY_SET_FULL(s->fill, mask))
        resize(s, PY_SET_GROW((size_t)s->used));
}

static bool discard_entry(PySet *s, Value *key, int64_t h)
{
    PySetEntry *e = lookup(s, key, h);
    if (!e)
        return false;
    Value *old = e->key;
    e->key = PYSET_DUMMY;
    e->hash = -1;
    s->used--;
    v_decref(old);
    return true;
}

bool pyset_contains(const PySet *s, Value *key)
{
    return lookup(s, key, pyset_key_hash(key)) != NULL;
}

int64_t pyset_slot(const PySet *s, Value *key)
{
    PySetEntry *e = lookup(s, key, pyset_key_hash(key));
    return e ? e - s->table : -1;
}

void pyset_add(PySet *s, Value *key)
{
    add_entry(s, key, pyset_key_hash(key));
}

bool pyset_discard(PySet *s, Value *key)
{
    return discard_entry(s, key, pyset_key_hash(key));
}

/* Inserting into a large table misses the cache at the home slot, so the
 * slot of the key SLOT_AHEAD places on is fetched first: its hash is taken
 * that early (a resize in between only wastes the fetch). */
enum { SLOT_AHEAD = 4 };

void pyset_add_all(PySet *s, Value *const *items, size_t n)
{
    int64_t ring[SLOT_AHEAD];
    for (size_t i = 0; i < n && i < SLOT_AHEAD; i++)
        ring[i] = pyset_key_hash(items[i]);
    for (size_t i = 0; i < n; i++) {
        int64_t h = ring[i % SLOT_AHEAD];
        if (i + SLOT_AHEAD < n) {
            v_fetch_ahead(items, i + SLOT_AHEAD, n);
            int64_t ha = pyset_key_hash(items[i + SLOT_AHEAD]);
            ring[i % SLOT_AHEAD] = ha;
            __builtin_prefetch(&s->table[(size_t)ha & s->mask]);
        }
        add_entry(s, items[i], h);
    }
}

/* ---- a read-only view of either representation ------------------------- */

typedef struct {
    const PySetEntry *tab;      /* mutable source, or NULL when frozen */
    Value *const *items;        /* frozen: items in slot order */
    const int32_t *slots;       /* frozen: slot -> item index */
    const int64_t *hashes;      /* frozen: item hashes, or NULL */
    size_t mask, used, ndummy;
} View;

static inline View view_set(const PySet *s)
{
    return (View){.tab = s->table, .mask = s->mask, .used = s->used,
                  .ndummy = s->fill - s->used};
}

static inline View view_fs(const Value *fs)
{
    (void)v_items(fs);          /* a product's pairs, built if they are not */
    return (View){.items = fs->u.set.items, .slots = fs->u.set.slots,
                  .hashes = fs_hashes(fs),
                  .mask = fs->u.set.mask, .used = fs->u.set.len,
                  .ndummy = fs->u.set.ndummy};
}

/* Walk the active entries in slot order, binding KEY and H. */
#define VIEW_EACH(v, KEY, H, ...)                                           \
    do {                                                                    \
        if ((v)->tab) {                                                     \
            for (size_t n_ = 0; n_ <= (v)->mask; n_++) {                    \
                Value *KEY = (v)->tab[n_].key;                              \
                if (!KEY || KEY == PYSET_DUMMY)                             \
                    continue;                                               \
                int64_t H = (v)->tab[n_].hash;                              \
                __VA_ARGS__                                                 \
            }                                                               \
        } else {                                                            \
            for (size_t n_ = 0; n_ < (v)->used; n_++) {                     \
                Value *KEY = (v)->items[n_];                                \
                int64_t H = (v)->hashes ? (v)->hashes[n_] : pyset_key_hash(KEY);     \
                __VA_ARGS__                                                 \
            }                                                               \
        }                                                                   \
    } while (0)

static __attribute__((noinline)) bool fs_probe(const View *v, Value *key, int64_t h)
{
    const int32_t *slots = v->slots;
    if (v->hashes) {
        PY_PROBE(size_t, v->mask, h, {
            int32_t ix = slots[j];
            if (ix == SLOT_EMPTY)
                return false;
            if (ix >= 0 && v->hashes[ix] == h &&
                (v->items[ix] == key || v_eq(v->items[ix], key)))
                return true;
        });
    }
    PY_PROBE(size_t, v->mask, h, {
        int32_t ix = slots[j];
        if (ix == SLOT_EMPTY)
            return false;
        if (ix >= 0) {
            Value *k = v->items[ix];
            if (k == key || (pyset_key_hash(k) == h && v_eq(k, key)))
                return true;
        }
    });
}

static inline bool fs_lookup(const View *v, Value *key, int64_t h)    /* a free home: no frame */
{
    return v->slots[(size_t)h & v->mask] != SLOT_EMPTY && fs_probe(v, key, h);
}

static inline bool view_has(const View *v, Value *key, int64_t h)
{
    if (v->tab) {
        PySet tmp = {.mask = (uint32_t)v->mask, .table = (PySetEntry *)v->tab};
        return lookup(&tmp, key, h) != NULL;
    }
    return fs_lookup(v, key, h);
}

/* A frozen view's entries, hashes known, into d (sized for them: no
 * resize on the way), each home slot fetched SLOT_AHEAD entries early. */
static void add_frozen(PySet *d, const View *src, bool clean)
{
    PySetEntry *t = d->table;
    size_t mask = d->mask, n = src->used;
    for (size_t i = 0; i < n; i++) {
        if (i + SLOT_AHEAD < n)
            __builtin_prefetch(&t[(size_t)src->hashes[i + SLOT_AHEAD] & mask]);
        if (clean)
            insert_clean(t, mask, v_incref(src->items[i]), src->hashes[i]);
        else
            add_entry(d, src->items[i], src->hashes[i]);
    }
}

/* MERGE (§3): pre-size, then a verbatim copy, clean inserts or normal adds. */
static void merge_view(PySet *d, const View *src)
{
    size_t n = src->used;
    if (n == 0)
        return;
    if (PY_SET_FULL(d->fill + n, d->mask))
        resize(d, (d->used + n) * 2);
    PySetEntry *t = d->table;
    size_t mask = d->mask;
    if (d->fill == 0 && mask == src->mask && src->ndummy == 0) {
        if (src->tab) {
            for (size_t i = 0; i <= mask; i++)
                if ((t[i] = src->tab[i]).key)
                    v_incref(t[i].key);
        } else {
            for (size_t i = 0; i <= mask; i++) {
                int32_t ix = src->slots[i];
                if (ix >= 0) {
                    t[i].key = v_incref(src->items[ix]);
                    t[i].hash = src->hashes ? src->hashes[ix] : pyset_key_hash(t[i].key);
                }
            }
        }
        d->fill = d->used = (uint32_t)n;
    } else if (d->fill == 0) {
        if (!src->tab && src->hashes)
            add_frozen(d, src, true);
        else
            VIEW_EACH(src, k, h, insert_clean(t, mask, v_incref(k), h););
        d->fill = d->used = (uint32_t)n;
    } else if (!src->tab && src->hashes) {
        add_frozen(d, src, false);
    } else {
        VIEW_EACH(src, k, h, add_entry(d, k, h););
    }
}

void pyset_merge(PySet *dst, const Value *fset)
{
    View v = view_fs(fset);
    merge_view(dst, &v);
}

void pyset_merge_set(PySet *dst, const PySet *src)
{
    if (dst == src)
        return;
    View v = view_set(src);
    merge_view(dst, &v);
}

/* Move a table into a fresh struct (the smalltable lives inside it). */
static void set_move(PySet *dst, PySet *src)
{
    *dst = *src;
    if (src->table == src->small)
        dst->table = dst->small;
    pyset_init(src);
}

/* dst is (re)initialised, not cleared: it may be uninitialised memory. */
void pyset_copy_from_set(PySet *dst, const PySet *src)
{
    View v = view_set(src);
    if (dst == src) {
        PySet tmp;
        pyset_init(&tmp);
        merge_view(&tmp, &v);
        pyset_clear(dst);
        set_move(dst, &tmp);
        return;
    }
    pyset_init(dst);
    merge_view(dst, &v);
}

void pyset_from_frozenset(PySet *dst, const Value *fs)
{
    View v = view_fs(fs);
    pyset_init(dst);
    merge_view(dst, &v);
}

/* a - b (§4): copy-and-discard + purge when a is much bigger, else walk a. */
static void sub_view(PySet *r, const View *a, const View *b)
{
    if (a->used == 0)
        return;
    if ((a->used >> 2) > b->used) {
        merge_view(r, a);
        VIEW_EACH(b, k, h, discard_entry(r, k, h););
        if (r->fill - r->used > r->mask / 4)
            resize(r, PY_SET_GROW((size_t)r->used));
    } else {
        VIEW_EACH(a, k, h, if (!view_has(b, k, h)) add_entry(r, k, h););
    }
}

void pyset_sub_set(PySet *dst, const PySet *a, const PySet *b)
{
    View va = view_set(a), vb = view_set(b);
    PySet r;
    pyset_init(&r);
    sub_view(&r, &va, &vb);
    if (dst == a || dst == b)
        pyset_clear(dst);
    set_move(dst, &r);
}

/* ---- frozen values ------------------------------------------------------ */

static Value *empty_fs(void)
{
    return v_incref(&v_empty_fset_);
}

Value *pyset_take(PySet *s)
{
    if (s->used == 0) {
        pyset_clear(s);
        return empty_fs();
    }
    Value *v = fs_alloc(s->used, s->mask, s->fill - s->used);
    Value **items = v->u.set.items;
    int32_t *slots = v->u.set.slots;
    int64_t *hashes = (int64_t *)fs_hashes(v);
    /* Slots start empty; then, 64 at a time, the taken ones are found as
     * a bit mask and visited by its set bits.  A loop over every slot
     * that carried the item count ran at that count's dependency chain. */
    const PySetEntry *tab = s->table;
    int32_t n = 0, used = (int32_t)s->used;
    size_t size = (size_t)s->mask + 1;
    bool dummies = s->fill != s->used;
    memset(slots, 0xff, size * sizeof *slots);      /* SLOT_EMPTY is -1 */
    for (size_t base = 0; base < size; base += 64) {
        size_t end = base + 64 < size ? base + 64 : size;
        uint64_t bits = 0;
        for (size_t i = base; i < end; i++) {
            const Value *k = tab[i].key;
            bits |= (uint64_t)((k != NULL) & (k != PYSET_DUMMY)) << (i - base);
        }
        if (dummies)
            for (size_t i = base; i < end; i++)
                if (tab[i].key == PYSET_DUMMY)
                    slots[i] = SLOT_DUMMY;
        while (bits) {
            size_t i = base + (size_t)__builtin_ctzll(bits);
            bits &= bits - 1;
            items[n] = tab[i].key;      /* the reference moves */
            hashes[n] = tab[i].hash;
            slots[i] = n++;
        }
    }
    if (s->table != s->small)
        vmem_free(s->table, (s->mask + 1) * sizeof *s->table);
    pyset_init(s);
    v_mark_flat(v, items, (size_t)used);
    return v;
}

/* COPY(src) straight into a frozen value.  A copy never compares keys, so
 * its clean inserts go into the slot map directly: first each slot gets the
 * source position of its entry, then positions become item indices.
 * src is never shared even when the layout would be identical: CPython
 * makes a new object, and identity decides `a | b` (b is a) and friends. */
size_t pyset_copy_mask(size_t n)
{
    return PY_SET_FULL(n, MINSIZE - 1) ? py_set_size(2 * n) - 1 : MINSIZE - 1;
}

static Value *copy_layout(const View *src)
{
    size_t n = src->used;
    if (n == 0)
        return empty_fs();
    size_t mask = pyset_copy_mask(n), size = mask + 1;
    bool verbatim = mask == src->mask && src->ndummy == 0;
    Value *v = fs_alloc(n, mask, 0);
    Value **items = v->u.set.items;
    int32_t *slots = v->u.set.slots;
    int64_t *hashes = (int64_t *)fs_hashes(v);
    if (!src->tab && verbatim) {
        for (size_t i = 0; i < n; i++) {
            items[i] = v_incref(src->items[i]);
            hashes[i] = src->hashes ? src->hashes[i] : pyset_key_hash(src->items[i]);
        }
        memcpy(slots, src->slots, size * sizeof *slots);
        return v;
    }
    if (verbatim) {                                   /* a mutable source */
        int32_t m = 0;
        for (size_t i = 0; i <= mask; i++) {
            Value *k = src->tab[i].key;
            if (!k) {
                slots[i] = SLOT_EMPTY;
                continue;
            }
            items[m] = v_incref(k);
            hashes[m] = src->tab[i].hash;
            slots[i] = m++;
        }
        return v;
    }
    for (size_t i = 0; i <= mask; i++)
        slots[i] = SLOT_EMPTY;
    size_t npos = src->tab ? src->mask + 1 : n;
    for (size_t i = 0; i < npos; i++) {
        int64_t h;
        if (src->tab) {
            Value *k = src->tab[i].key;
            if (!k || k == PYSET_DUMMY)
                continue;
            h = src->tab[i].hash;
        } else {
            h = src->hashes ? src->hashes[i] : pyset_key_hash(src->items[i]);
        }
        PY_PROBE(size_t, mask, h, {
            if (slots[j] == SLOT_EMPTY) {
                slots[j] = (int32_t)i;
                goto placed;
            }
        });
    placed:;
    }
    if (!src->tab) {
        int32_t m = 0;
        for (size_t i = 0; i <= mask; i++) {
            int32_t pos = slots[i];
            if (pos == SLOT_EMPTY)
                continue;
            items[m] = v_incref(src->items[pos]);
            hashes[m] = src->hashes ? src->hashes[pos] : pyset_key_hash(items[m]);
            slots[i] = m++;
        }
        return v;
    }
    int32_t m = 0;
    for (size_t i = 0; i <= mask; i++) {
        int32_t pos = slots[i];
        if (pos == SLOT_EMPTY)
            continue;
        items[m] = v_incref(src->tab[pos].key);
        hashes[m] = src->tab[pos].hash;
        slots[i] = m++;
    }
    return v;
}

static Value *copy_to_fs(const View *src)
{
    Value *v = copy_layout(src);
    if (v->u.set.len)           /* frozenset() is a shared static */
        v_mark_flat(v, v->u.set.items, v->u.set.len);
    return v;
}

Value *pyset_to_frozenset(const PySet *s)
{
    View v = view_set(s);
    return copy_to_fs(&v);
}

Value *fs_from_items(Value *const *items, size_t n)
{
    if (n >= FS_FIRSTS_MIN)
        return fs_from_firsts(items, n);
    PySet s;
    pyset_init(&s);
    pyset_add_all(&s, items, n);
    return pyset_take(&s);
}

Value *fs_copy(const Value *fs)
{
    View v = view_fs(fs);
    return copy_to_fs(&v);
}

Value *fs_from_container(const Value *c)
{
    if (c->type == V_FSET)
        return v_incref((Value *)c);
    if (c->type == V_TUPLE)
        return fs_from_items(v_titems(c), c->u.tup.len);
    return NULL;
}

bool fs_contains(const Value *fs, Value *key)
{
    View v = view_fs(fs);
    return fs_lookup(&v, key, pyset_key_hash(key));
}

/* a | b: COPY(a), then MERGE(b) unless b is a. */
Value *fs_or(const Value *a, const Value *b)
{
    View va = view_fs(a), vb = view_fs(b);
    if (b->u.set.len == 0 || a == b)
        return copy_to_fs(&va);
    if (a->u.set.len == 0)
        return copy_to_fs(&vb);
    PySet r;
    pyset_init(&r);
    merge_view(&r, &va);
    merge_view(&r, &vb);
    return pyset_take(&r);
}

/* a & b: walk the smaller operand (b on ties); its objects are kept. */
Value *fs_and(const Value *a, const Value *b)
{
    if (a == b) {
        View va = view_fs(a);
        return copy_to_fs(&va);
    }
    const Value *walk = b, *other = a;
    if (b->u.set.len > a->u.set.len) {
        walk = a;
        other = b;
    }
    View vw = view_fs(walk), vo = view_fs(other);
    PySet r;
    pyset_init(&r);
    VIEW_EACH(&vw, k, h, if (fs_lookup(&vo, k, h)) add_entry(&r, k, h););
    return pyset_take(&r);
}

Value *fs_sub(const Value *a, const Value *b)
{
    View va = view_fs(a), vb = view_fs(b);
    if (a->u.set.len == 0)
        return empty_fs();
    if (b->u.set.len == 0 && a->u.set.len >= 4)
        return copy_to_fs(&va);   /* copy-and-discard with nothing to discard */
    PySet r;
    pyset_init(&r);
    sub_view(&r, &va, &vb);
    return pyset_take(&r);
}

/* a ^ b: start from COPY(b), walk a deleting or inserting; no purge. */
Value *fs_xor(const Value *a, const Value *b)
{
    View va = view_fs(a), vb = view_fs(b);
    if (a->u.set.len == 0)
        return copy_to_fs(&vb);
    if (a == b)
        return empty_fs();
    PySet r;
    pyset_init(&r);
    merge_view(&r, &vb);
    VIEW_EACH(&va, k, h, if (!discard_entry(&r, k, h)) add_entry(&r, k, h););
    return pyset_take(&r);
}
