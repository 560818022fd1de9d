#!/usr/bin/env python3
"""Inputs for fuzz_eval that hand every primitive far ints: sizes, factors,
counts and places near 2**62, past 2**63 apart, or at the ends of 64 bits.

    far_ints.py [--dialect arc-dsl|tokpidjin] [-n DRAWS] [--seed S] OUTDIR

Each file is one call (fuzz_eval's first byte picks the dialect) with at
least one far argument.  Run each through the ASan/UBSan fuzz_eval, which
gives the work budget a run has, and through `arcrun eval`, which has none:

    for f in OUTDIR/*; do tests/fuzz/fuzz_eval -timeout=10 -rss_limit_mb=3000 "$f" \\
        >/dev/null 2>&1 || echo "$f"; done

Every call must end in a value or an exception (MemoryError, OverflowError,
CPython's TypeError...): a crash, a sanitizer report, a timeout or memory
past the limit is a bug (tests/sizes.test holds what was found)."""
import argparse
import os
import random
import re
import subprocess

HERE = os.path.dirname(os.path.abspath(__file__))
ARCRUN = os.path.join(HERE, '..', '..', 'arcrun')

FAR = ['2**62', '-2**62', '10**10', '2**31', '2**32+1', '-10**10', '2**63-1', '-2**63', '3**40',
       '2**62+2**61', '-2**62-2**61']
SMALL = ['0', '1', '2', '-1', '3']
W = '2**62+2**61'


def pool(dialect):
    p = FAR + SMALL + ['(%s, %s)' % (a, b) for a in FAR + SMALL for b in FAR + SMALL][:60]
    p += ['((1, 2), (3, 4))', '((),)', '((), ())', '((1,),)', '()', 'frozenset()',
          'frozenset({(0, 0), (2**62, 2**62)})', 'frozenset({(0, 0), (-2**62, 2**31)})',
          'frozenset({(0, 0), (3, 10**10)})', 'frozenset({(1, (0, 0)), (2, (2**62, 2**62))})',
          'frozenset({(1, (0, 0)), (2, (10**10, 5))})', 'frozenset({(1, (0, 0))})',
          'frozenset({(0, 0)})', 'canvas(0, (2, 3))', 'identity', 'size']
    # places past 2**63 apart: extents and distances beyond 64 bits
    p += ['frozenset({(0, -2**62), (1, %s)})' % W, 'frozenset({(-2**62, 0), (%s, 1)})' % W,
          'frozenset({(1, (0, -2**62)), (2, (1, %s))})' % W,
          'frozenset({(1, (-2**62, 0)), (2, (%s, 1))})' % W,
          '(-2**62, %s)' % W, '(%s, -2**62)' % W] * 3
    if dialect == 'tokpidjin':
        p += ['frozenset({(0, 0, 1), (2**62, 2**62, 2)})', 'frozenset({(0, 0, 1)})',
              'frozenset({(0, -2**62, 1), (1, %s, 2)})' % W,
              'frozenset({(-2**62, 0, 1), (%s, 1, 2)})' % W] * 3
    return p


def signatures(dialect):
    out = subprocess.run([ARCRUN, 'list', '--dialect=' + dialect], capture_output=True,
                         text=True, check=True).stdout
    for line in out.split('\n'):
        m = re.match(r'^([a-z_0-9]+)\((.*)\) ->', line)
        if m:
            yield m.group(1), len([a for a in m.group(2).split(',') if a.strip()])


def main():
    ap = argparse.ArgumentParser(description=__doc__.split('\n')[0])
    ap.add_argument('--dialect', default='arc-dsl', choices=['arc-dsl', 'tokpidjin'])
    ap.add_argument('-n', type=int, default=20, help='draws per primitive')
    ap.add_argument('--seed', type=int, default=1)
    ap.add_argument('outdir')
    a = ap.parse_args()
    rnd = random.Random(a.seed)
    p = pool(a.dialect)
    os.makedirs(a.outdir, exist_ok=True)
    byte = '1' if a.dialect == 'tokpidjin' else '0'
    k = 0
    for name, arity in signatures(a.dialect):
        for _ in range(a.n):
            args = [rnd.choice(p) for _ in range(arity)]
            if not any('**' in x or '10**' in x for x in args):
                continue
            with open(os.path.join(a.outdir, '%05d' % k), 'w') as f:
                f.write(byte + '%s(%s)' % (name, ', '.join(args)))
            k += 1
    print('%d calls in %s' % (k, a.outdir))


if __name__ == '__main__':
    main()
