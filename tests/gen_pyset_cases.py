#!/usr/bin/env python3
"""gen_pyset_cases.py -- write tests/pyset.cases from real CPython 3.11.

The expected values are what this interpreter (it must be CPython 3.11, 64-bit)
computes: hash() of ints, bools, floats, tuples and frozensets, and the
iteration order of sets after builds and operators.  tests/test_pyset.c
replays the same programs on the C tables (src/core/pyset.c, src/core/pyhash.c).

Format: one token-separated line per step.  Values are prefix-encoded:
  i<int>  T  F  f<float repr>  t<n> <n values>  s<n> <n values>
(s<n>: frozenset of the values inserted in that order.)  Lines:
  hash V H                 top-level test: hash(V) == H
  case DESCRIPTION ...     starts a program (one test), ended by `end`
  fs R n V...              R = frozenset([V...])
  set R n V...             R = set([V...])             (mutable)
  add R V / discard R V    R.add(V) / R.discard(V)     (mutable)
  frz R S                  R = frozenset(S)
  mut R S                  R = set(S)
  or|and|sub|xor R A B     R = A op B                  (frozensets)
  msub R A B               R = A - B                   (sets)
  merge R S                R |= S                      (R a set)
  expect R n V...          tuple(R) is exactly V... (types, kept objects)
  ordhash R H              hash(tuple(R)) == H         (big sets)
  fhash R H                hash(R) == H                (frozenset)
  has R V 0|1              (V in R)
Usage: python3 tests/gen_pyset_cases.py > tests/pyset.cases
"""
import math
import random
import sys

assert sys.version_info[:2] == (3, 11), "expected values must come from CPython 3.11"
P = (1 << 61) - 1
I64 = (-(1 << 63), (1 << 63) - 1)


def enc(x):
    if isinstance(x, bool):
        return 'T' if x else 'F'
    if isinstance(x, int):
        assert I64[0] <= x <= I64[1]
        return 'i%d' % x
    if isinstance(x, float):
        assert x == x
        return 'f' + repr(x)
    if isinstance(x, tuple):
        return ' '.join(['t%d' % len(x)] + [enc(e) for e in x])
    if isinstance(x, frozenset):
        assert tuple(frozenset(tuple(x))) == tuple(x), "nested frozenset not stable"
        return ' '.join(['s%d' % len(x)] + [enc(e) for e in x])
    raise TypeError(type(x))


def stable(fs):
    """A frozenset equal to fs whose order survives frozenset(tuple(.)):
    the C side rebuilds nested frozensets from their listed order."""
    for _ in range(20):
        f2 = frozenset(tuple(fs))
        if tuple(f2) == tuple(fs):
            return f2
        fs = f2
    return None


out = []
emit = out.append


def encs(xs):
    return ' '.join(['%d' % len(xs)] + [enc(e) for e in xs])


# ---- hashes ----------------------------------------------------------------
def hash_cases(rng):
    ints = [0, 1, -1, -2, 2, 7, 8, 9, 16, 1000, -1000, P - 1, P, P + 1, 2 * P, -P, -P - 1,
            1 << 61, -(1 << 61), (1 << 62), I64[0], I64[1], I64[0] + 1, I64[1] - 1,
            (1 << 32), -(1 << 32), 12345678901234567]
    ints += [rng.randint(*I64) for _ in range(40)] + [rng.randint(-10**6, 10**6) for _ in range(20)]
    floats = [0.0, -0.0, 1.0, -1.0, 0.5, -0.5, 1.5, 2.5, 1e-300, 5e-324, -5e-324, 1e300, 1.7976931348623157e308,
              math.inf, -math.inf, 3.141592653589793, 0.1, 1e16, 2.0 ** 61, 2.0 ** 62, -2.0 ** 63, 2.0 ** 64,
              float(P), 1234.5678, 2.0 ** -1074, 2.0 ** -60, 2.0 ** -61, 2.0 ** -62]
    floats += [rng.uniform(-1e6, 1e6) for _ in range(20)] + [rng.random() * 10 ** rng.randint(-300, 300) for _ in range(20)]
    vals = [True, False] + ints + floats
    vals += [(), (0, 0), (1, 0), (0, 1), (1, 1), (1, (0, 0)), (0, 0, 1), (True, 0), (1.0, 0), ((),),
             (-1,), (-2,), (math.inf, -0.0)]
    for _ in range(60):
        vals.append((rng.randint(0, 29), rng.randint(0, 29)))
        vals.append((rng.randint(0, 9), (rng.randint(0, 29), rng.randint(0, 29))))
        vals.append((rng.randint(0, 29), rng.randint(0, 29), rng.randint(0, 9)))
        vals.append(tuple(rng.randint(-5, 5) for _ in range(rng.randint(0, 6))))
    vals += [frozenset(), frozenset([0]), frozenset([1, 2]), frozenset([(0, 0), (1, 1)]),
             frozenset([frozenset(), frozenset([1])]), (frozenset([3]), 4)]
    for _ in range(30):
        f = stable(frozenset((rng.randint(0, 9), (rng.randint(0, 5), rng.randint(0, 5)))
                             for _ in range(rng.randint(0, 12))))
        if f is not None:
            vals.append(f)
            vals.append(stable(frozenset([f, frozenset([1])])) or f)
    for v in vals:
        emit('hash %s %d' % (enc(v), hash(v)))


# ---- programs ---------------------------------------------------------------
class Prog:
    def __init__(self, desc):
        self.lines = ['case ' + desc]
        self.r = {}

    def fs(self, name, xs):
        self.r[name] = frozenset(xs)
        self.lines.append('fs %s %s' % (name, encs(list(xs))))

    def set(self, name, xs):
        self.r[name] = set(xs)
        self.lines.append('set %s %s' % (name, encs(list(xs))))

    def add(self, name, x):
        self.r[name].add(x)
        self.lines.append('add %s %s' % (name, enc(x)))

    def discard(self, name, x):
        self.r[name].discard(x)
        self.lines.append('discard %s %s' % (name, enc(x)))

    def frz(self, name, src):
        self.r[name] = frozenset(self.r[src])
        self.lines.append('frz %s %s' % (name, src))

    def mut(self, name, src):
        self.r[name] = set(self.r[src])
        self.lines.append('mut %s %s' % (name, src))

    def op(self, op, name, a, b):
        x, y = self.r[a], self.r[b]
        self.r[name] = {'or': x.__or__, 'and': x.__and__, 'sub': x.__sub__, 'xor': x.__xor__,
                        'msub': x.__sub__}[op](y)
        self.lines.append('%s %s %s %s' % (op, name, a, b))

    def merge(self, name, src):
        self.r[name] |= self.r[src]
        self.lines.append('merge %s %s' % (name, src))

    def expect(self, name):
        t = tuple(self.r[name])
        if len(t) > 40:
            self.lines.append('ordhash %s %d' % (name, hash(t)))
        else:
            self.lines.append('expect %s %s' % (name, encs(t)))
        if isinstance(self.r[name], frozenset) and len(t) <= 300:
            self.lines.append('fhash %s %d' % (name, hash(self.r[name])))

    def has(self, name, x):
        self.lines.append('has %s %s %d' % (name, enc(x), int(x in self.r[name])))

    def done(self):
        out.extend(self.lines)
        out.append('end')


def worked_examples():
    p = Prog('sec6.1 {2, 9}'); p.fs('a', [2, 9]); p.expect('a'); p.done()
    p = Prog('sec6.2 frozenset([9,1,0])'); p.fs('a', [9, 1, 0]); p.expect('a'); p.done()
    p = Prog('sec6.3 {1,8} {9,8,7,6}'); p.fs('a', [1, 8]); p.fs('b', [9, 8, 7, 6]); p.expect('a'); p.expect('b'); p.done()
    p = Prog('sec6.4 five ints ascend'); p.fs('a', [9, 1, 0, 5, 3]); p.expect('a'); p.done()
    p = Prog('sec6.5 asindices 2x2'); p.fs('a', [(0, 0), (0, 1), (1, 0), (1, 1)]); p.expect('a'); p.done()
    p = Prog('sec6.5 asindices 3x3'); p.fs('a', [(i, j) for i in range(3) for j in range(3)]); p.expect('a'); p.done()
    p = Prog('sec6.6 copy reorders'); p.set('s', [16, 1, 2, 3, 4]); p.expect('s'); p.frz('f', 's'); p.expect('f')
    p.mut('m', 's'); p.expect('m'); p.mut('m2', 'f'); p.expect('m2'); p.done()
    p = Prog('sec6.7 last dummy wins'); p.set('s', [0, 8, 16, 24]); p.discard('s', 0); p.discard('s', 16)
    p.add('s', 0); p.expect('s'); p.frz('f', 's'); p.expect('f'); p.done()
    p = Prog('sec6.8 intersection walks smaller/right'); p.fs('a', [1, 9]); p.fs('b', [9, 1])
    p.op('and', 'c', 'a', 'b'); p.expect('c'); p.op('and', 'd', 'b', 'a'); p.expect('d')
    p.op('or', 'e', 'a', 'b'); p.expect('e'); p.op('or', 'g', 'b', 'a'); p.expect('g'); p.done()
    p = Prog('sec6.9 xor from right'); p.fs('a', [1, 2, 3]); p.fs('b', [3, 9]); p.op('xor', 'c', 'a', 'b'); p.expect('c'); p.done()
    p = Prog('sec6.10 collisions -1 -2'); p.fs('a', [-1, -2]); p.fs('b', [-2, -1]); p.expect('a'); p.expect('b')
    p.has('a', -1); p.has('a', -2); p.has('a', -3); p.done()
    p = Prog('bool/int: True kept'); p.fs('a', [True, 1, 2]); p.expect('a'); p.fs('b', [1, True, 0, False, 0.0])
    p.expect('b'); p.op('or', 'c', 'a', 'b'); p.expect('c'); p.op('and', 'd', 'a', 'b'); p.expect('d')
    p.op('and', 'd2', 'b', 'a'); p.expect('d2'); p.op('xor', 'e', 'a', 'b'); p.expect('e'); p.done()
    p = Prog('self ops a&a a|a a^a a-a'); p.fs('a', [7, 15]); p.expect('a'); p.op('and', 'b', 'a', 'a'); p.expect('b')
    p.op('or', 'c', 'a', 'a'); p.expect('c'); p.op('xor', 'd', 'a', 'a'); p.expect('d'); p.op('sub', 'e', 'a', 'a')
    p.expect('e'); p.fs('z', []); p.op('sub', 'g', 'a', 'z'); p.expect('g'); p.op('or', 'h', 'z', 'a'); p.expect('h')
    p.op('xor', 'k', 'z', 'a'); p.expect('k'); p.op('xor', 'k2', 'a', 'z'); p.expect('k2'); p.done()


def sizes(rng):
    ns = list(range(0, 41)) + [50, 63, 64, 76, 77, 100, 127, 128, 200, 255, 256, 306, 307, 400,
                               511, 512, 1023, 1024, 1228, 1229, 2000]
    for n in ns:
        w = max(1, int(math.sqrt(n)) + 1)
        kinds = {
            'grid': [(i // w, i % w) for i in range(n)],
            'ints': rng.sample(range(-50, 5 * n + 50), n),
            'cells': [(rng.randint(0, 9), (i // 30, i % 30)) for i in range(n)],
        }
        if n > 400:
            del kinds['cells']
        if n > 1100:
            del kinds['ints']
        for kind, xs in kinds.items():
            p = Prog('size %d %s' % (n, kind))
            p.fs('a', xs); p.expect('a')
            p.set('s', xs); p.frz('c', 's'); p.expect('c')
            p.mut('m', 'a'); p.expect('m')
            ys = xs[::3]
            p.fs('b', ys)
            for op in ('sub', 'and', 'xor', 'or'):
                p.op(op, 'r' + op, 'a', 'b'); p.expect('r' + op)
            p.op('sub', 'q', 'b', 'a'); p.expect('q')
            if xs:
                p.has('a', xs[-1]); p.has('a', (99, 99) if kind != 'ints' else 10 ** 9)
            # deletions: dummies, then growth decided by fill
            for x in xs[: n // 2]:
                p.discard('s', x)
            p.expect('s')
            for x in xs[n // 2:][:n // 4] + xs[: n // 4]:
                p.add('s', x)
            p.expect('s'); p.frz('d', 's'); p.expect('d')
            p.done()


FAMILIES = {
    'small': lambda r: r.randint(0, 9),
    'wide': lambda r: r.randint(-40, 1100),
    'coll': lambda r: r.choice([-1, -2, 0, 8, 16, 24, 32, 64, P, P + 1, -P, 1 << 61, -(1 << 61),
                                I64[1], I64[0], 1 << 62, 5, 13, 21, r.randint(*I64)]),
    'boolint': lambda r: r.choice([True, False, 0, 1, 2, 3, 9]),
    'float': lambda r: r.choice([0.0, -0.0, 1.0, 1.5, 2, 0.5, math.inf, -math.inf, 1e300, 3, -1.0, 7.25, 8, 8.0]),
    'pair': lambda r: (r.randint(0, 9), r.randint(0, 9)),
    'cell': lambda r: (r.randint(0, 9), (r.randint(0, 9), r.randint(0, 9))),
    'triple': lambda r: (r.randint(0, 9), r.randint(0, 9), r.randint(0, 9)),
    'nested': lambda r: stable(frozenset((r.randint(0, 3), r.randint(0, 3)) for _ in range(r.randint(0, 4)))) or frozenset(),
}


def random_programs(rng, count):
    for c in range(count):
        fam = rng.choice(list(FAMILIES))
        gen = FAMILIES[fam]
        big = rng.random() < 0.08
        p = Prog('random %d %s' % (c, fam))
        nreg = 0

        def elems():
            n = rng.randint(0, 200 if big else 24)
            return [gen(rng) for _ in range(n)]

        fro, mu = [], []
        for _ in range(rng.randint(1, 4)):
            name = 'r%d' % nreg; nreg += 1
            if rng.random() < 0.6:
                p.fs(name, elems()); fro.append(name)
            else:
                p.set(name, elems()); mu.append(name)
            p.expect(name)
        for _ in range(rng.randint(0, 10)):
            name = 'r%d' % nreg; nreg += 1
            k = rng.random()
            if k < 0.45 and fro:
                op = rng.choice(['or', 'and', 'sub', 'xor'])
                p.op(op, name, rng.choice(fro), rng.choice(fro)); fro.append(name)
            elif k < 0.55:
                src = rng.choice(fro + mu)
                p.frz(name, src); fro.append(name)
            elif k < 0.65:
                src = rng.choice(fro + mu)
                p.mut(name, src); mu.append(name)
            elif k < 0.75 and mu:
                p.op('msub', name, rng.choice(mu), rng.choice(mu)); mu.append(name)
            elif k < 0.85 and mu:
                name = rng.choice(mu)
                p.merge(name, rng.choice(fro + mu))
            elif mu:
                name = rng.choice(mu)
                for _ in range(rng.randint(1, 60)):
                    x = gen(rng)
                    if rng.random() < 0.5:
                        p.add(name, x)
                    else:
                        p.discard(name, x)
            else:
                continue
            p.expect(name)
            if rng.random() < 0.3:
                p.has(name, gen(rng))
        p.done()


def main():
    rng = random.Random(20240611)
    hash_cases(rng)
    worked_examples()
    sizes(rng)
    random_programs(rng, 600)
    sys.stdout.write('\n'.join(out) + '\n')


main()
