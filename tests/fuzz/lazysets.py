"""Random set algebra for diff_eval.py --sets: arc-dsl's sets that arcrun
keeps unbuilt (objects, products, rectangles, lines, recolors, toindices,
shifts, merges: src/core/fsrecipe.h and its kinds) combined, intersected,
subtracted, merged, recoloured and shifted into each other, then read in
CPython's order (totuple, first, merge of a tuple) or not (size).

Each kind lists its keys, its order and its membership its own way, and
the algebra between them works on those lists; a union that drops a
member's cells, or reads an order from a set laid out otherwise, shows
here as a repr unlike CPython's."""
import random

GRIDS = ['((3, 3, 0), (3, 0, 0), (0, 0, 5))', '((1, 1, 2, 2), (1, 0, 0, 2), (4, 4, 0, 2))',
         '((0, 6, 6), (6, 6, 0), (0, 0, 0))']


class Sets:
    def __init__(self, seed):
        self.rnd = random.Random(seed)

    def flag(self):
        return self.rnd.choice(['True', 'False'])

    def offset(self):
        """Near, or far past the places arcrun interns (-64..63)."""
        r = self.rnd
        if r.random() < 0.2:
            return '(%d, %d)' % (r.choice([-70, 66, 130]), r.randrange(-2, 3))
        return '(%d, %d)' % (r.randrange(-2, 3), r.randrange(-2, 3))

    def grid(self, d=0):
        """A grid, as given or as painted, filled, covered or cut from sets."""
        r = self.rnd
        k = r.random() if d < 2 else 1
        if k < 0.15:
            return 'paint(%s, %s)' % (self.grid(d + 1), self.any(d + 1))
        if k < 0.25:
            return 'fill(%s, %d, %s)' % (self.grid(d + 1), r.randrange(10), self.any(d + 1))
        if k < 0.3:
            return 'cover(%s, %s)' % (self.grid(d + 1), self.any(d + 1))
        if k < 0.35:
            return 'underfill(%s, %d, %s)' % (self.grid(d + 1), r.randrange(10), self.any(d + 1))
        return r.choice(GRIDS)

    def obj(self, d=2):
        r, g = self.rnd, self.grid(d + 1)
        return r.choice(['first(objects(%s, %s, %s, %s))' % (g, self.flag(), self.flag(), self.flag()),
                         'last(objects(%s, True, False, True))' % g, 'first(partition(%s))' % g,
                         'last(fgpartition(%s))' % g, 'asobject(%s)' % g,
                         'toobject(asindices(%s), %s)' % (g, g),
                         'recolor(%d, first(objects(%s, True, False, True)))' % (r.randrange(10), g)])

    def places(self, d=2):
        r, g = self.rnd, self.grid(d + 1)
        return r.choice(['asindices(%s)' % g,
                         'product(interval(0, %d, 1), interval(0, %d, 1))' % (r.randrange(1, 4),
                                                                              r.randrange(1, 4)),
                         'toindices(%s)' % self.obj(), 'backdrop(%s)' % self.obj(),
                         'box(%s)' % self.obj(), 'delta(%s)' % self.obj(),
                         'ofcolor(%s, %d)' % (g, r.choice([0, 1, 3, 6])),
                         'connect((0, 0), (%d, %d))' % (r.randrange(3), r.randrange(3)),
                         'shift(asindices(%s), %s)' % (g, self.offset()),
                         'neighbors((1, 1))', 'hfrontier((1, 0))', 'outbox(%s)' % self.obj(),
                         'corners(%s)' % self.obj()])

    def any(self, d=0):
        r = self.rnd.random()
        if d < 2 and r < 0.3:
            op = self.rnd.choice(['combine', 'intersection', 'difference'])
            return '%s(%s, %s)' % (op, self.any(d + 1), self.any(d + 1))
        if d < 2 and r < 0.45:
            return 'merge(insert(%s, initset(%s)))' % (self.any(d + 1), self.any(d + 1))
        if d < 2 and r < 0.55:
            return 'recolor(%d, %s)' % (self.rnd.randrange(10), self.any(d + 1))
        if d < 2 and r < 0.6:
            return 'toindices(%s)' % self.any(d + 1)
        if d < 2 and r < 0.65:
            return 'shift(%s, %s)' % (self.any(d + 1), self.offset())
        if d < 2 and r < 0.7:
            return 'mapply(lbind(shift, %s), frozenset({%s, %s}))' % (self.any(d + 1), self.offset(),
                                                                     self.offset())
        if d < 2 and r < 0.76:
            objs = 'objects(%s, %s, %s, %s)' % (self.grid(d + 1), self.flag(), self.flag(), self.flag())
            return self.rnd.choice(['merge(sfilter(%s, %s))' % (objs, self.rnd.choice(
                                        ['vline', 'hline', 'square', 'lbind(bordering, %s)' % GRIDS[0],
                                         'compose(even, size)'])),
                                    'mfilter(%s, compose(positive, size))' % objs,
                                    'argmax(%s, size)' % objs, 'argmin(%s, width)' % objs,
                                    'merge(colorfilter(%s, %d))' % (objs, self.rnd.randrange(7)),
                                    'merge(sizefilter(%s, %d))' % (objs, self.rnd.randrange(1, 4)),
                                    'mapply(toindices, %s)' % objs, 'mapply(backdrop, %s)' % objs,
                                    'mapply(lbind(recolor, 4), %s)' % objs])
        if d < 2 and r < 0.8:
            return self.rnd.choice(['normalize(%s)', 'hmirror(%s)', 'vmirror(%s)', 'dmirror(%s)',
                                    'upscale(%s, 2)', 'toobject(%%s, %s)' % self.grid(d + 1)]) % self.any(d + 1)
        return self.obj(d) if self.rnd.random() < 0.5 else self.places(d)

    def read(self):
        if self.rnd.random() < 0.15:
            g = self.grid(0)
            return self.rnd.choice(['%s', 'objects(%s, True, False, False)', 'palette(%s)',
                                    'mostcolor(%s)', 'partition(%s)']) % g
        f = self.rnd.choice(['%s', 'totuple(%s)', 'first(%s)', 'size(%s)', 'merge((%s, %s))',
                             'last(%s)', 'ulcorner(%s)', 'centerofmass(%s)', 'palette(%s)',
                             'order(%s, identity)', 'contained((1, 1), %s)', 'color(%s)',
                             'colorcount(%s, 3)', 'mostcolor(%s)', 'subgrid(%%s, %s)' % GRIDS[1],
                             'equality(%s, %s)'])
        args = (self.any(),) if f.count('%s') == 1 else (self.any(), self.any())
        return f % args


def set_probe(n, seed):
    gen, seen = Sets(seed), set()
    while len(seen) < n:
        e = gen.read()
        if e not in seen:
            seen.add(e)
            yield e
