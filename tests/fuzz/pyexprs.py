"""Random expressions in the Python `arcrun eval` evaluates around DSL
calls (diff_eval.py --python N): literals, tuple, list and set displays,
the builtins len abs min max sum sorted range tuple list frozenset set any
all (key=, default=, reverse=, start=), arithmetic, bitwise and set
(`|`, `^`, `&`, `~`), comparison and boolean operators, `in` and `is`, conditional expressions, subscripts and slices,
lambdas, and the DSL's own calls on what those make, some of their
arguments given by keyword (the reference's parameter names), now and then
a name the function lacks or a second value for one.  Values stay small:
ints in -3..12, containers of a few items, so that CPython answers at once
and 64-bit ints never come."""
import random

ATOMS = ['0', '1', '2', '-1', '3', '7', 'True', 'False', 'None', '()', '[]', 'frozenset()',
         '(1, 2)', '(0, 1, 2)', '((1, 2), (3, 4))', '[3, 1, 2]', '{1, 2}', '((0, 1), (1, 0))',
         'frozenset({(0, 0), (1, 1)})', 'frozenset({(1, (0, 0)), (2, (0, 1))})', "'ab'"]
BUILTINS = [('len', 1), ('abs', 1), ('min', 0), ('max', 0), ('sum', 0), ('sorted', 1),
            ('range', 0), ('tuple', 1), ('list', 1), ('frozenset', 1), ('set', 1),
            ('any', 1), ('all', 1)]
BINOPS = ['+', '-', '*', '//', '%', '**', '|', '^', '&', '==', '!=', '<', '<=', '>', '>=', 'in',
          'not in', 'is', 'is not', 'and', 'or']


class Gen:
    def __init__(self, seed, prims, params=None):
        self.r = random.Random(seed)
        self.prims = prims          # [(name, arity)] of the dialect
        self.params = params or {}  # name: the reference's parameter names

    def expr(self, depth, names=()):
        r = self.r
        if depth <= 0 or r.random() < 0.25:
            if names and r.random() < 0.5:
                return r.choice(names)
            return r.choice(ATOMS)
        k = r.random()
        d = depth - 1
        if k < 0.22:
            return self.builtin(d, names)
        if k < 0.40:
            op = r.choice(BINOPS)
            return '(%s %s %s)' % (self.expr(d, names), op, self.expr(d, names))
        if k < 0.45:
            return '(%s%s)' % (r.choice(['-', 'not ', '+', '~']), self.expr(d, names))
        if k < 0.55:
            items = [self.expr(d, names) for _ in range(r.randint(0, 3))]
            shape = r.choice(['(%s,)', '[%s]', '{%s}'])
            if not items:
                return r.choice(['()', '[]'])
            return shape % ', '.join(items)
        if k < 0.65:
            base = self.expr(d, names)
            if r.random() < 0.5:
                return '%s[%s]' % (base, r.choice(['0', '1', '-1', '2', self.expr(d, names)]))
            a, b = r.choice(['', '0', '1', '-1']), r.choice(['', '2', '-1', '5'])
            step = r.choice(['', '', ':-1', ':2'])
            return '%s[%s:%s%s]' % (base, a, b, step)
        if k < 0.72:
            return '(%s if %s else %s)' % (self.expr(d, names), self.expr(d, names), self.expr(d, names))
        if k < 0.80:
            n = r.choice(['x', 'y'])
            return '(lambda %s: %s)(%s)' % (n, self.expr(d, names + (n,)), self.expr(d, names))
        return self.dsl(d, names)

    def lam(self, d, names):
        return 'lambda x: %s' % self.expr(d, names + ('x',))

    def builtin(self, d, names):
        r = self.r
        name, fixed = r.choice(BUILTINS)
        n = fixed or r.randint(1, 3)
        if r.random() < 0.05:
            n = r.randint(0, 3)          # a count it refuses, now and then
        args = [self.expr(d, names) for _ in range(n)]
        if name in ('min', 'max', 'sorted') and r.random() < 0.4:
            args.append('key=' + (r.choice(['len', 'abs', 'None']) if r.random() < 0.3 else self.lam(d, names)))
        if name in ('min', 'max') and r.random() < 0.2:
            args.append('default=' + self.expr(d, names))
        if name == 'sorted' and r.random() < 0.3:
            args.append('reverse=' + r.choice(['True', 'False', '1', '0']))
        if name == 'sum' and r.random() < 0.3:
            args.append('start=' + self.expr(d, names))
        return '%s(%s)' % (name, ', '.join(args))

    def dsl(self, d, names):
        r = self.r
        name, arity = r.choice(self.prims)
        args = []
        for _ in range(arity):
            if r.random() < 0.2:
                args.append(r.choice(['(' + self.lam(d, names) + ')', 'len', 'tuple', 'identity']))
            else:
                args.append(self.expr(d, names))
        params = self.params.get(name)
        if params and len(params) == arity and arity and r.random() < 0.2:
            k = r.randint(1, arity)          # the last k by name, in any order
            named = ['%s=%s' % (params[i], args[i]) for i in range(arity - k, arity)]
            if r.random() < 0.15:            # a name it lacks, or a second value
                named.append(r.choice(['zz=1', '%s=0' % r.choice(params)]))
            r.shuffle(named)
            args = args[:arity - k] + named
        return '%s(%s)' % (name, ', '.join(args))


def python_probe(prims, n, seed, params=None):
    """n distinct expressions from seed over the dialect's primitives
    (params: each one's parameter names, for keyword calls)."""
    g, seen, tries = Gen(seed, [p for p in prims if p[0] != 'power'], params), set(), 0
    while len(seen) < n and tries < 20 * n:
        tries += 1
        e = g.expr(g.r.randint(1, 4))
        if e not in seen:
            seen.add(e)
            yield e
