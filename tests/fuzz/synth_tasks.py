#!/usr/bin/env python3
"""Synthetic ARC tasks at the edges the public sets rarely reach, for
cross_tasks.py and the batt runs:

    synth_tasks.py [-n 40] [--seed 1] OUTDIR

Each task has three train pairs and one test pair.  Shapes run from 1x1,
1xN and Nx1 to 30x30 (the loader's limit); colours from one to all ten;
the layouts are what solvers look for (a background with rectangles,
hollow boxes, lines, diagonals, lone cells and blobs, mirrored or tiled
halves, periodic rows, noise) drawn at random.  An output is a transform
of its input (identity, mirror, transpose, crop, colour swap, tiling), so
a solver's last comparison sees equal and unequal grids both.
"""
import argparse, json, os, random


def shape(r):
    kind = r.random()
    if kind < .15:
        return r.choice([(1, 1), (1, 2), (2, 1), (2, 2), (1, 3), (3, 1)])
    if kind < .3:
        n = r.randint(2, 30)
        return r.choice([(1, n), (n, 1)])
    if kind < .45:
        return r.choice([(30, 30), (29, 30), (30, 29), (30, r.randint(1, 30))])
    if kind < .55:
        n = r.randint(3, 16)
        return (n, n)
    return (r.randint(2, 20), r.randint(2, 20))


def palette(r):
    k = r.choice([1, 2, 2, 3, 3, 4, 5, 10])
    return r.sample(range(10), k)


def layout(r, h, w):
    cols = palette(r)
    bg = cols[0]
    g = [[bg] * w for _ in range(h)]
    fg = cols[1:] or [bg]
    put = lambda i, j, c: g[i].__setitem__(j, c) if 0 <= i < h and 0 <= j < w else None
    for _ in range(r.randint(0, 6)):
        kind = r.choice(['rect', 'box', 'line', 'diag', 'cell', 'blob', 'noise'])
        c = r.choice(fg)
        i, j = r.randrange(h), r.randrange(w)
        a, b = r.randint(1, max(1, h // 2)), r.randint(1, max(1, w // 2))
        if kind == 'rect':
            for y in range(i, i + a):
                for x in range(j, j + b):
                    put(y, x, c)
        elif kind == 'box':
            for y in range(i, i + a):
                for x in range(j, j + b):
                    if y in (i, i + a - 1) or x in (j, j + b - 1):
                        put(y, x, c)
        elif kind == 'line':
            if r.random() < .5:
                for x in range(w):
                    put(i, x, c)
            else:
                for y in range(h):
                    put(y, j, c)
        elif kind == 'diag':
            d = r.choice([1, -1])
            for k in range(max(h, w)):
                put(i + k, j + d * k, c)
        elif kind == 'cell':
            put(i, j, c)
        elif kind == 'blob':
            y, x = i, j
            for _ in range(r.randint(2, 12)):
                put(y, x, c)
                y += r.choice([-1, 0, 1])
                x += r.choice([-1, 0, 1])
        else:
            for _ in range(r.randint(1, h * w // 3 + 1)):
                put(r.randrange(h), r.randrange(w), r.choice(cols))
    sym = r.random()
    if sym < .15:
        for y in range(h):
            for x in range(w // 2):
                g[y][w - 1 - x] = g[y][x]
    elif sym < .25:
        for y in range(h // 2):
            g[h - 1 - y] = list(g[y])
    elif sym < .35:
        p = r.randint(1, max(1, w // 2))
        for y in range(h):
            for x in range(p, w):
                g[y][x] = g[y][x - p]
    return g


def transform(r, g):
    h, w = len(g), len(g[0])
    kind = r.choice(['same', 'hmirror', 'vmirror', 'transpose', 'crop', 'swap', 'tile'])
    if kind == 'same':
        return [list(row) for row in g]
    if kind == 'hmirror':
        return [list(row) for row in g[::-1]]
    if kind == 'vmirror':
        return [row[::-1] for row in g]
    if kind == 'transpose':
        return [list(c) for c in zip(*g)]
    if kind == 'crop':
        i, j = r.randrange(h), r.randrange(w)
        a, b = r.randint(1, h - i), r.randint(1, w - j)
        return [row[j:j + b] for row in g[i:i + a]]
    if kind == 'swap':
        a, b = r.sample(range(10), 2)
        return [[b if v == a else a if v == b else v for v in row] for row in g]
    if h * 2 <= 30 and w * 2 <= 30:
        return [row + row for row in g] * 2
    return [list(row) for row in g]


def task(r):
    pairs = []
    for _ in range(4):
        h, w = shape(r)
        g = layout(r, h, w)
        pairs.append({'input': g, 'output': transform(r, g)})
    return {'train': pairs[:3], 'test': pairs[3:]}


def main():
    ap = argparse.ArgumentParser(description=__doc__.split('\n\n')[0])
    ap.add_argument('-n', type=int, default=40)
    ap.add_argument('--seed', type=int, default=1)
    ap.add_argument('outdir')
    a = ap.parse_args()
    r = random.Random(a.seed)
    os.makedirs(a.outdir, exist_ok=True)
    for k in range(a.n):
        with open(os.path.join(a.outdir, 'synth%02d%04d.json' % (a.seed % 100, k)), 'w') as f:
            json.dump(task(r), f)


if __name__ == '__main__':
    main()
