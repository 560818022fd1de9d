"""Random closures for diff_eval.py --closures: the shapes a solver builds
(lbind, rbind, compose, chain, fork, matcher, power) nested over the
dialect's primitives, handed to the higher-order primitives (apply,
mapply, sfilter, argmax, order, papply ...) over small grids, objects,
index sets and the odd values of diff_eval's pool.

arcrun recognises some closures and runs them fused (a count of an
intersection, colour counts around a cell, shifts of a patch); a closure
that only looks like one must still fail or succeed as CPython's does.
The draws follow the reference's own annotations (Grid, Patch, Integer
...), so most closures compute something, and, one time in five, ignore
them, so that the wrong kinds of argument come too.  Primitives are drawn
as often as the dialect's corpus names them: the shapes the fused paths
know come up, beside every other."""
import inspect, os, random, re, sys

GRIDS = ['((0, 1, 0), (1, 1, 0), (0, 0, 2))', '((3, 3), (3, 0))',
         '((0, 0, 0, 0), (0, 5, 5, 0), (0, 5, 0, 0))', '((1, 2, 1),)', '((4,), (4,), (0,))']
INDICES = ['frozenset({(0, 0), (1, 1), (2, 0)})', 'frozenset({(0, 1)})',
           'frozenset({(1, 2), (0, 2), (2, 2), (1, 1)})']
OBJECTS = {  # in each dialect's cell layout
    'arc-dsl': ['frozenset({(1, (0, 0)), (1, (0, 1)), (2, (1, 1))})', 'frozenset({(5, (2, 3))})',
                'frozenset({(3, (1, 0)), (3, (2, 0)), (3, (2, 1))})'],
    'tokpidjin': ['frozenset({(0, 0, 1), (0, 1, 1), (1, 1, 2)})', 'frozenset({(2, 3, 5)})',
                  'frozenset({(1, 0, 3), (2, 0, 3), (2, 1, 3)})'],
}
OBJECTS['re-arc'] = OBJECTS['arc-dsl']
INTS = ['0', '1', '2', '3', '5', '-1']
LOCS = ['(0, 0)', '(1, 1)', '(0, -1)', '(2, 1)', 'UP', 'RIGHT']
ODD = ['None', '()', 'frozenset()', '((1, 2), 5)', 'identity', '((1, 2), (3, 4, 5))', '((0, 1), (2,))',
       'frozenset({((4,), 1), ((4,), 2)})']
COMBINATORS = {'lbind', 'rbind', 'compose', 'chain', 'fork', 'matcher', 'power'}

# what a value of each type may be handed as
WIDER = {'Grid': {'Piece', 'Element', 'Tuple', 'TupleTuple', 'Container'},
         'Object': {'Patch', 'Piece', 'Element', 'FrozenSet', 'Container'},
         'Indices': {'Patch', 'Piece', 'FrozenSet', 'Container'},
         'Objects': {'FrozenSet', 'Container', 'ContainerContainer'},
         'Boolean': {'Integer', 'Numerical'},
         'Integer': {'Numerical', 'C_', 'R8', 'R4', 'FL', 'F_', 'I_', 'J_', 'A8', 'A4'},
         'IntegerTuple': {'IJ', 'Numerical', 'Tuple', 'Container'},
         'IntegerSet': {'FrozenSet', 'Container'},
         'Tuple': {'Container'}, 'FrozenSet': {'Container'}}


def fits(param, t):
    return param in (None, 'Any') or param == t or param in WIDER.get(t, ())


def signatures(dialect, ref, names):
    """{name: ([param types], return type)} from the reference's
    annotations, as arc_types names (tokpidjin writes them as strings)."""
    sys.path.insert(0, ref)
    import dsl
    alias = {}
    try:
        import arc_types
        for k, v in vars(arc_types).items():
            if not k.startswith('_') and k[0].isupper():
                try:
                    alias.setdefault(v, k)
                except TypeError:
                    pass
    except ImportError:
        pass
    alias.update({int: 'Integer', bool: 'Boolean'})

    def name_of(a):
        if a is inspect.Parameter.empty:
            return None
        if isinstance(a, str):
            return a
        try:
            return alias.get(a, getattr(a, '_name', None) or getattr(a, '__name__', None))
        except TypeError:
            return None
    sigs = {}
    for n, arity in names:
        f = getattr(dsl, n, None)
        if not inspect.isfunction(f):
            continue
        s = inspect.signature(f)
        ps = [name_of(p.annotation) for p in s.parameters.values()]
        if len(ps) == arity:
            sigs[n] = (ps, name_of(s.return_annotation))
    return sigs


class Closures:
    def __init__(self, dialect, sigs, weights, seed):
        self.dialect, self.sigs, self.weights = dialect, sigs, weights
        self.rnd = random.Random(seed)
        self.by_arity = {}
        for n, (ps, _) in sigs.items():
            if n not in COMBINATORS:
                self.by_arity.setdefault(len(ps), []).append(n)

    def ho(self, base):
        """A higher-order primitive, or one of tokpidjin's typed variants."""
        return self.rnd.choice([n for n in (base, base + '_t', base + '_f') if n in self.sigs])

    def prim(self, arity, param=0, t=None):
        """A primitive of `arity`, most often one whose param'th argument
        takes a t."""
        names = self.by_arity[arity]
        if t and self.rnd.random() < 0.8:
            names = [n for n in names if fits(self.sigs[n][0][param], t)] or names
        return self.rnd.choices(names, [self.weights.get(n, 0) + 1 for n in names])[0]

    def value(self, t=None):
        """An expression of type t, or of any type one time in five."""
        r = self.rnd
        if t is None or r.random() < 0.2:
            t = r.choice(['Grid', 'Object', 'Indices', 'Objects', 'Integer', 'IntegerTuple',
                          'Boolean', 'Odd', 'Container'])
        if t in ('Patch', 'Piece', 'Element'):
            t = r.choice(['Object', 'Indices'] + (['Grid'] if t != 'Patch' else []))
        if t == 'Numerical':
            t = r.choice(['Integer', 'IntegerTuple'])
        g = r.choice(GRIDS)
        if t == 'Grid':
            return g
        if t == 'Object':
            return r.choice(OBJECTS[self.dialect])
        if t == 'Indices':
            return r.choice(INDICES + ['asindices(%s)' % g])
        if t == 'Objects':
            if self.dialect == 'tokpidjin':
                return r.choice(['o_g(%s, %d)' % (g, r.randrange(8)), 'partition(%s)' % g])
            return r.choice(['objects(%s, %s)' % (g, ', '.join(r.choice(['True', 'False'])
                                                               for _ in range(3))),
                             'partition(%s)' % g, 'fgpartition(%s)' % g,
                             'frozenset({%s, %s})' % tuple(r.sample(OBJECTS[self.dialect], 2))])
        if t in ('Integer', 'C_', 'R8', 'R4', 'FL', 'F_', 'I_', 'J_', 'A8', 'A4'):
            return r.choice(INTS)
        if t == 'Boolean':
            return r.choice(['True', 'False'])
        if t in ('IntegerTuple', 'IJ'):
            return r.choice(LOCS)
        if t == 'Cell':
            return r.choice(['(1, (0, 0))', '(2, (1, 3))'] if self.dialect != 'tokpidjin'
                            else ['(0, 0, 1)', '(1, 3, 2)'])
        if t == 'IntegerSet':
            return 'palette(%s)' % g
        if t == 'Callable':
            return self.f1(1)[0]
        if t in ('Tuple', 'TupleTuple'):
            return r.choice(['interval(0, 4, 1)', '(%s, %s)' % (g, r.choice(GRIDS)), g,
                             'totuple(%s)' % self.value('Objects')])
        if t in ('Container', 'FrozenSet', 'ContainerContainer'):
            return self.container()[0]
        return r.choice(ODD)

    def container(self):
        """A container a higher-order primitive walks, and its elements' type."""
        r = self.rnd
        t = r.choice(['Objects', 'Objects', 'TupleObjects', 'Indices', 'Object', 'Grids',
                      'Ints', 'Product'])
        if t == 'Objects':
            return self.value('Objects'), 'Object'
        if t == 'TupleObjects':
            return 'totuple(%s)' % self.value('Objects'), 'Object'
        if t == 'Indices':
            return self.value('Indices'), 'IntegerTuple'
        if t == 'Object':
            return self.value('Object'), 'Cell'
        if t == 'Grids':
            return '(%s, %s)' % (r.choice(GRIDS), r.choice(GRIDS)), 'Grid'
        if t == 'Ints':
            return 'interval(0, 4, 1)', 'Integer'
        return 'product(interval(0, 2, 1), interval(0, 2, 1))', 'IntegerTuple'

    def f1(self, depth, t=None):
        """A function of one argument that takes a t: (expression, its
        argument's type, its result's type)."""
        r = self.rnd.random()
        if depth == 0 or r < 0.3:
            p = self.prim(1, 0, t)
            ps, ret = self.sigs[p]
            return p, ps[0], ret
        if r < 0.55:
            p = self.prim(2, 0, t)
            (a, b), ret = self.sigs[p]
            if self.rnd.random() < 0.5:
                return 'rbind(%s, %s)' % (p, self.value(b)), a, ret
            p = self.prim(2, 1, t)
            (a, b), ret = self.sigs[p]
            return 'lbind(%s, %s)' % (p, self.value(a)), b, ret
        if r < 0.68:
            g = self.f1(depth - 1, t)
            f = self.f1(depth - 1, g[2])
            return 'compose(%s, %s)' % (f[0], g[0]), g[1], f[2]
        if r < 0.78:
            h = self.f1(depth - 1, t)
            g = self.f1(depth - 1, h[2])
            f = self.f1(depth - 1, g[2])
            return 'chain(%s, %s, %s)' % (f[0], g[0], h[0]), h[1], f[2]
        if r < 0.9:
            a, b = self.f1(depth - 1, t), self.f1(depth - 1, t)
            outer = self.prim(2, 0, a[2])
            return 'fork(%s, %s, %s)' % (outer, a[0], b[0]), a[1], self.sigs[outer][1]
        if r < 0.96:
            f = self.f1(depth - 1, t)
            return 'matcher(%s, %s)' % (f[0], self.value(f[2])), f[1], 'Boolean'
        f = self.f1(depth - 1, t)
        return 'power(%s, %d)' % (f[0], self.rnd.randrange(4)), f[1], f[2]

    def f2(self, t=None):
        """A function of two arguments, the first taking a t."""
        if self.rnd.random() < 0.7:
            return self.prim(2, 0, t)
        p = self.prim(3, 1, t)
        return 'lbind(%s, %s)' % (p, self.value(self.sigs[p][0][0]))

    def places(self):
        """A set of places, or now and then something that is not."""
        r, g = self.rnd, self.rnd.choice(GRIDS)
        return r.choice(['asindices(%s)' % g, 'ofcolor(%s, %d)' % (g, r.randrange(3)),
                         'toindices(%s)' % r.choice(OBJECTS[self.dialect]), r.choice(INDICES),
                         'product(interval(0, 3, 1), interval(0, 2, 1))', 'neighbors((1, 1))',
                         r.choice(ODD), 'totuple(asindices(%s))' % g])

    def fused(self):
        """The shapes arcrun runs fused (arc-dsl's functional.c, pairfork.c,
        fitfilter.c), with their look-alikes and odd arguments."""
        r = self.rnd
        g, c, v = r.choice(GRIDS + ODD[-2:]), r.randrange(6), r.choice(LOCS + ['(1, 1)'])
        side = lambda: r.choice(['lbind', 'rbind', 'rbind'])
        k = r.randrange(7)
        if k == 0:      # template matching: where a shifted patch fits
            fit = 'chain(size, %s(difference, %s), %s(shift, %s))' % (
                side(), self.places(), r.choice(['lbind', 'lbind', 'rbind']), self.places())
            m = 'matcher(%s, %d)' % (fit, r.randrange(3))
            pred = r.choice([m, 'chain(flip, %s, %s(add, %s))' % (m, side(), v),
                             'fork(%s, %s, chain(flip, %s, lbind(add, %s)))' % (
                                 r.choice(['both', 'either']), m, m, v)])
            return 'sfilter(%s, %s)' % (self.places(), pred)
        if k == 1:      # the size of an intersection
            f = 'compose(size, %s(intersection, %s))' % (side(), self.places())
            return '%s(%s, %s)' % (r.choice(['argmax', 'valmax', 'argmin', 'sfilter']),
                                   self.value('Objects'), f if r.random() < 0.7 else
                                   'matcher(%s, %d)' % (f, r.randrange(3)))
        if k == 2:      # colour counts of a patch, or around a place
            count = 'compose(%s(colorcount, %d), %s(toobject, %s))' % (side(), c, side(), g)
            if r.random() < 0.6:
                count = 'chain(%s(colorcount, %d), %s(toobject, %s), %s)' % (
                    side(), c, side(), g, r.choice(['neighbors', 'dneighbors', 'ineighbors']))
            return '%s(%s, %s)' % (r.choice(['apply', 'valmax']), count, self.places()) \
                if r.random() < 0.5 else 'apply(%s, %s)' % (count, self.places())
        if k == 3:      # a fork over a product's pairs
            leaf = lambda: r.choice(['first', 'last', 'compose(first, first)', 'compose(last, last)',
                                     'chain(first, last, identity)', 'color', 'identity'])
            f = 'fork(%s, %s, %s)' % (r.choice(['connect', 'astuple', 'add', 'combine', 'subtract']),
                                      leaf(), leaf())
            return '%s(%s, product(%s, %s))' % (r.choice(['apply', 'mapply']), f, self.places(),
                                                self.places())
        if k == 4:
            return '%s(%s, %s, %s)' % (r.choice(['prapply', 'papply', 'mpapply']),
                                       r.choice(['connect', 'astuple', 'add', 'combine']),
                                       self.places(), self.places())
        if k == 5:      # shifts of one patch by many offsets
            return 'mapply(%s(shift, %s), %s)' % (side(), self.places(),
                                                  r.choice(['frozenset({(0, 1), (1, 0), (2, 2)})',
                                                            self.places(), '((0, 1), (70, 0))']))
        paths = r.choice(['compose(first, last)', 'chain(last, first, identity)',
                          'compose(identity, first)', 'compose(last, identity)'])
        return 'apply(%s, %s)' % (paths, r.choice([self.value('Objects'), self.places(),
                                                  'totuple(%s)' % self.value('Objects')]))

    def tk_fused(self):
        """tokpidjin's fused shapes (common/mshift.c, tokpidjin/boxes.c):
        shifts of one patch by many offsets, neighbourhoods of places."""
        r = self.rnd
        offs = r.choice(['((0, 1), (1, 0), (2, 2))', 'frozenset({(0, 1), (1, 0)})', self.places(),
                         '((0, 1), (70, 0))', '((0, True), (1, 0))', '((0, 1), (1, 0.5))'])
        if r.random() < 0.5:
            p = r.choice(OBJECTS['tokpidjin'] + [self.places(), 'o_g(%s, %d)' % (r.choice(GRIDS), r.randrange(8)),
                                                 'first(o_g(%s, 1))' % r.choice(GRIDS)])
            return '%s(%s(shift, %s), %s)' % (self.ho('mapply'), r.choice(['lbind', 'lbind', 'rbind']),
                                             p, offs)
        return '%s(%s, %s)' % (self.ho('mapply'), r.choice(['neighbors', 'dneighbors', 'ineighbors']),
                               r.choice([self.places(), offs, '((True, 1), (2, 2))']))

    def use(self):
        """A closure at work."""
        if self.dialect == 'tokpidjin' and self.rnd.random() < 0.2:
            return self.tk_fused()
        if self.dialect != 'tokpidjin' and self.rnd.random() < 0.3:
            return self.fused()
        d = self.rnd.randrange(1, 4)
        c, elem = self.container()
        r = self.rnd.random()
        if r < 0.15:
            f = self.f1(d)
            return '%s(%s)' % (f[0], self.value(f[1]))
        f = self.f1(d, elem)[0]
        if r < 0.55:
            return '%s(%s, %s)' % (self.ho(self.rnd.choice(['apply', 'mapply'])), f, c)
        if r < 0.85:
            base = self.rnd.choice(['sfilter', 'mfilter', 'argmax', 'argmin', 'valmax', 'valmin',
                                    'order', 'extract'])
            return '%s(%s, %s)' % (self.ho(base), c, f)
        if r < 0.95:
            base = self.rnd.choice(['papply', 'mpapply', 'prapply'])
            c2, _ = self.container()
            return '%s(%s, %s, %s)' % (base, self.f2(elem), c, c2)
        return 'rapply((%s, %s), %s)' % (f, self.f1(d, elem)[0], c)


def corpus_weights(path):
    """How often each name occurs in a corpus file, {} without one."""
    if not path or not os.path.exists(path):
        return {}
    counts = {}
    for w in re.findall(r'\b[a-z_][a-z0-9_]*\b', open(path).read()):
        counts[w] = counts.get(w, 0) + 1
    return counts


def closure_probe(dialect, ref, names, corpus, n, seed):
    gen = Closures(dialect, signatures(dialect, ref, names), corpus_weights(corpus), seed)
    seen = set()
    while len(seen) < n:
        e = gen.use()
        if e not in seen:
            seen.add(e)
            yield e
