#!/usr/bin/env python3
"""Write edge.json: one task whose train inputs are the grids the GPU path
must get exactly right -- 1xN, Nx1, 2x2, 3x2, 30x30, uniform rows and
columns (compress), colour ties in every first-appearance order (mostcolor,
leastcolor, palette follow CPython set order), 8 and 9 (which share slots
with 0 and 1 in an 8-slot set table).  Deterministic: python3 gen_edge.py"""
import json, random

rng = random.Random(20240611)
grids = []
for h, w in [(1, 1), (1, 2), (2, 1), (1, 5), (5, 1), (2, 2), (3, 2), (2, 3), (3, 3),
             (4, 7), (15, 15), (16, 16), (10, 30), (30, 10), (30, 30), (30, 1), (1, 30)]:
    for ncol in (1, 2, 10):
        grids.append([[rng.randrange(ncol) for _ in range(w)] for _ in range(h)])
for perm in ([9, 1, 8, 0], [0, 8, 1, 9], [8, 0], [0, 8], [9, 1], [1, 9], [5, 3, 7, 9, 8, 0, 2, 1, 4, 6],
             [6, 4, 1, 2, 0, 8, 9, 7, 3, 5], [2, 7], [7, 2]):
    grids.append([perm, perm[::-1]])              # every colour twice: all tie
    grids.append([[c for c in perm for _ in range(2)]])
for _ in range(40):
    h, w = rng.randint(1, 8), rng.randint(1, 8)
    pal = rng.sample(range(10), rng.randint(1, 10))
    g = [[rng.choice(pal) for _ in range(w)] for _ in range(h)]
    if rng.random() < 0.5 and h > 1:
        g[rng.randrange(h)] = [g[0][0]] * w      # a uniform row
    if rng.random() < 0.5 and w > 1:
        j = rng.randrange(w)
        for r in g:
            r[j] = g[0][j]                       # a uniform column
    grids.append(g)
task = {"train": [{"input": g, "output": g} for g in grids],
        "test": [{"input": grids[0], "output": grids[0]}]}
with open("edge.json", "w") as f:
    json.dump(task, f, separators=(",", ":"))
    f.write("\n")
