#!/usr/bin/env python3
"""Differential check: the expressions fuzz_eval found, evaluated by CPython
with a reference DSL and by arcrun, compared repr for repr.

    diff_eval.py --ref DIR --dialect arc-dsl|tokpidjin --run-cases PATH CORPUS [OUT.cases]
    diff_eval.py --ref DIR --dialect arc-dsl|re-arc|tokpidjin --run-cases PATH --probe [OUT.cases]
    diff_eval.py --ref DIR --dialect arc-dsl|re-arc|tokpidjin --run-cases PATH --closures N [OUT.cases]
    diff_eval.py --ref DIR --dialect arc-dsl|re-arc --run-cases PATH --sets N [OUT.cases]

DIR is a checkout of the dialect's reference (michaelhodel/arc-dsl,
michaelhodel/re-arc: probe only, or pierreb4/tokpidjin).  CORPUS holds fuzz_eval inputs: first byte the dialect
(even arc-dsl, odd tokpidjin), then the expression.  Printable one-line
expressions of the chosen dialect that CPython evaluates within 0.5 s and
4 GiB (--probe: every primitive of the dialect on every combination of a
pool of odd arguments, --draws of them drawn at random, from --seed, for
three or more) become EXPR<TAB>repr lines of OUT.cases (tests/cases
format), which tests/run_cases then checks.  Differences are counted by kind; those of a
kind arcrun documents as out of scope (docs/notes.md, "Left alone": 64-bit
ints, floats as coordinates, syntax outside the subset, functions inside
sets) are counted apart
from the rest, which are listed.  Exit status 1 when the rest is not empty.
"""
import argparse, glob, itertools, os, random, re, resource, signal, subprocess, sys, tempfile

from closures import closure_probe
from lazysets import set_probe
from diff_run import by_address
from pyexprs import python_probe


class Timeout(BaseException):  # not caught by the reference's own excepts
    pass


def expressions(corpus, dialect_bit):
    seen = set()
    for f in sorted(glob.glob(corpus + '/*')):
        b = open(f, 'rb').read()
        if len(b) < 2 or (b[0] & 1) != dialect_bit:
            continue
        try:
            e = b[1:].decode('ascii')
        except UnicodeDecodeError:
            continue
        # one line, printable, and nothing CPython-only (power, dunders, lambdas)
        if not e.isprintable() or '\t' in e or '**' in e or '__' in e or 'lambda' in e:
            continue
        if e not in seen:
            seen.add(e)
            yield e


POOL = ['0', '1', '-1', 'True', 'None', '()', 'frozenset()', '(1, 2)', '((1, 2), (3, 4))',
        '((0, 1, 2),)', 'frozenset({(0, 1), (2, 3)})', '((1, 0, 0), (0, 1, 0))', 'identity', '((5,),)',
        '((1, 2), 5)', '((1, 2), (3, 4, 5))', '-5', '(True, False)', '(((1,),),)',
        '((0, 0, 0), (0, 1, 0), (0, 0, 0))', 'frozenset({(-1, 2), (3, -4)})', '((0, 1), (2,))',
        'frozenset({((4,), 1), ((4,), 2)})', '((3,), (4,))', 'frozenset({(True, 1), (True, 2), (2, False)})']
CELLS = {'arc-dsl': ['frozenset({(1, (0, 0)), (2, (1, 1))})', 'frozenset({frozenset({(1, (0, 0))})})',
                     'frozenset({(1, (-1, -1)), (2, (0, 5))})',
                     '((1, (0, 0)), (2, (1, 1)))', 'frozenset({(1, ((4,), 2))})',
                     'frozenset({(7, (True, 1)), (2, (0, False))})'],
         'tokpidjin': ['frozenset({(0, 0, 1), (1, 1, 2)})', 'frozenset({frozenset({(0, 0, 1)})})',
                       '((0, 0, 1), (1, 1, 2))', '(0, 0, 3)', 'frozenset({((4,), 2, 1)})']}
CELLS['re-arc'] = CELLS['arc-dsl']


HERE = os.path.dirname(os.path.abspath(__file__))


def primitives(dialect):
    """The dialect's (name, arity) pairs, from its list.h."""
    lst, mark = (('tokpidjin', 'TK') if dialect == 'tokpidjin' else ('arcdsl', 'AD'))
    text = open(os.path.join(HERE, '..', '..', 'dsl', lst, 'list.h')).read()
    return [(n, int(a)) for n, a in re.findall(r'^%s\((\w+), (\d+),' % mark, text, re.M)]


def parameters(dsl_py):
    """Each def of the reference's dsl.py: its parameters' names."""
    import ast
    tree = ast.parse(open(dsl_py).read())
    return {f.name: [a.arg for a in f.args.args] for f in tree.body if isinstance(f, ast.FunctionDef)}


def probe(dialect, draws=300, seed=7, builtins=False):
    """Every primitive on the pool's arguments: every pair, and `draws`
    random picks (from `seed`) for three or more (power is left out: its
    results grow past 64 bits); with builtins, Python's len, sum and tuple
    are in the pool too."""
    pool, rnd = POOL + CELLS[dialect], random.Random(seed)
    if builtins:
        pool = pool + ['len', 'sum', 'tuple']
    if dialect == 're-arc':     # its own argmax, argmin and occurrences, and an empty object
        pool = pool + ['frozenset({(3, (2, 2))})', 'frozenset({(0, (0, 0)), (0, (0, 1))})']
    for name, arity in primitives(dialect):
        if name == 'power':
            continue
        combos = itertools.product(pool, repeat=arity) if arity <= 2 else \
            (tuple(rnd.choice(pool) for _ in range(arity)) for _ in range(draws))
        for c in combos:
            yield '%s(%s)' % (name, ', '.join(c))


def reference_cases(ref, exprs, messages=False):
    sys.path.insert(0, ref)
    ns = {}
    exec('from dsl import *\nfrom constants import *', ns)
    addr = re.compile(r' at 0x[0-9a-f]+')
    resource.setrlimit(resource.RLIMIT_AS, (4 << 30, 4 << 30))

    def alarm(*_):
        raise Timeout()
    signal.signal(signal.SIGALRM, alarm)
    for e in exprs:
        signal.setitimer(signal.ITIMER_REAL, 0.5)
        try:
            try:
                res = addr.sub('', repr(eval(e, ns)))
            except (Timeout, SyntaxError, NameError, RecursionError, MemoryError):
                res = None           # not a DSL expression, or too costly to judge
            except Exception as ex:  # the expected outcome is the exception
                res = '!' + type(ex).__name__ + (': ' + str(ex) if messages else '')
            finally:
                signal.setitimer(signal.ITIMER_REAL, 0)
        except Timeout:     # fired in a handler (freeing a big value) before the timer was off
            res = None
        if res is not None and len(res) <= 5000:
            yield e + '\t' + res


def kind(expr, want, got, detail=''):
    if 'ParseError' in got:
        return 'syntax outside the subset'
    if (by_address(want) or by_address(got) or
            ('None' in expr and 'frozenset' in want + got)):   # a set built from such sets
        return 'functions or None in sets (CPython 3.11 hashes them by address)'
    if 'None' in expr and 'None' in want and sorted(want) == sorted(got):
        return 'functions or None in sets (CPython 3.11 hashes them by address)'  # reordered
    if re.search(r'[{,(]\s*(len|abs|min|max|sum|sorted|any|all)\s*[),}]', expr) and 'frozenset' in expr:
        return 'functions or None in sets (CPython 3.11 hashes them by address)'  # a builtin as an item
    if re.search(r'\{\s*\}', expr) and got.startswith('!TypeError'):
        return 'dicts ({} is a dict in Python; arcrun eval has none)'
    if re.search(r'\bnan\b', want) and 'frozenset' in want:
        return 'nan in sets (CPython 3.11 hashes a float nan by address)'
    if "'" in want and not want.startswith('!') and ('frozenset' in want or re.search(r'\b(frozenset|set)\(', expr)):
        return 'strings in sets (hash randomised per process)'
    if 'OverflowError' in got or re.search(r'\d{19,}', expr + want + got):
        return '64-bit ints'
    if re.search(r'(^|[^\w])\d*\.\d|\d\.(?!\d)|\d[eE][+-]?\d|[^/]/[^/]', expr):
        return 'floats'
    if 'not a set (frozenset(...) first)' in got + detail:
        return 'mutable sets (arcrun eval hands DSL functions frozensets only)'
    if re.search(r'\\[uU][0-9a-f]{4}', want) and not re.search(r'\\[uU][0-9a-f]{4}', got):
        return 'characters past Latin-1 that CPython escapes (Unicode tables not reproduced)'
    if (re.search(r'\b(list|tuple|dict|set|frozenset|type)\[', want) or 'GenericAlias' in want or
            (("'type' object is not subscriptable" in got or (got == '!TypeError' and not want.startswith('!')))
             and re.search(r'\b(tuple|frozenset|list|set)\b', expr)) or
            re.search(r'[(,]\s*(tuple|frozenset|list|set|range)\s*[),]', expr)):   # a class as a value
        return 'builtin types subscripted (a GenericAlias in CPython; Python builtins, not DSL values)'
    if 'not a list (tuple(...) first)' in got + detail:
        return 'lists (arcrun eval hands DSL functions tuples, not lists)'
    if ((re.search(r'\bis\b', expr) and not re.search(r'\[|\bset\(|\blist\(', expr)) or
            re.search(r'\)\s+is\s+(not\s+)?\(', expr)):
        return ("identity (`is`) of immutable values (CPython shares equal constant tuples and "
                "makes each frozenset anew; arcrun shares equal values)")
    if "'" in expr and re.fullmatch(r"'.*'", want) and re.fullmatch(r"'.*'", got):
        return 'strings in sets (hash randomised per process)'   # a tie broken by set order
    if re.search(r'\brange\s*\(', expr):
        return 'range objects (Python builtins, not DSL values)'
    if re.search(r'[\'"]', expr):
        return 'strings as containers (arcrun reads strings as values only)'
    if want.startswith('!') and got.startswith('!'):
        if want.split(':')[0] == got.split(':')[0]:
            return None     # --messages: the class right, the words not
        return 'exception class (which of two bad arguments raises first)'
    return None


def main():
    ap = argparse.ArgumentParser(description=__doc__.split('\n\n')[0])
    ap.add_argument('--ref', required=True)
    ap.add_argument('--dialect', required=True, choices=['arc-dsl', 're-arc', 'tokpidjin'])
    ap.add_argument('--run-cases', required=True, help='path of tests/run_cases')
    ap.add_argument('--probe', action='store_true', help='generate the expressions (no CORPUS)')
    ap.add_argument('--draws', type=int, default=300,
                    help='--probe: random argument picks per primitive of three or more (300)')
    ap.add_argument('--seed', type=int, default=7, help='--probe, --closures: seed of the picks (7)')
    ap.add_argument('--closures', type=int, metavar='N',
                    help='generate N random closures at work instead (tests/fuzz/closures.py)')
    ap.add_argument('--sets', type=int, metavar='N',
                    help='generate N random expressions of set algebra over the sets arcrun keeps '
                         'unbuilt instead (tests/fuzz/lazysets.py; arc-dsl cells)')
    ap.add_argument('--corpus-weights', metavar='FILE',
                    help='--closures: draw primitives as often as FILE names them '
                         '(default: the dialect\'s corpus in ../shared)')
    ap.add_argument('--byte-grids', action='store_true',
                    help="hand arcrun the expressions' grids as bytes, as a task's are")
    ap.add_argument('--python', type=int, metavar='N',
                    help="make N expressions of eval's Python around DSL calls (pyexprs.py; no CORPUS)")
    ap.add_argument('--builtins', action='store_true',
                    help="--probe: Python's len, sum and tuple among the arguments")
    ap.add_argument('--messages', action='store_true',
                    help="compare the exceptions' messages too, not only their classes")
    ap.add_argument('corpus', nargs='?')
    ap.add_argument('out', nargs='?')
    args = ap.parse_args()
    bit = args.dialect == 'tokpidjin'
    if args.sets is not None and args.dialect == 'tokpidjin':
        ap.error('--sets writes arc-dsl cells')
    args.probe = args.probe or args.closures is not None or args.sets is not None or args.python is not None
    if args.probe and args.corpus and not args.out:
        args.out, args.corpus = args.corpus, None
    if not args.probe and not args.corpus:
        ap.error('CORPUS is needed without --probe')
    if not args.probe and args.dialect == 're-arc':
        ap.error("re-arc is probed only (fuzz_eval's inputs name arc-dsl or tokpidjin)")
    if args.python is not None:
        exprs = python_probe(primitives(args.dialect), args.python, args.seed,
                             parameters(os.path.join(args.ref, 'dsl.py')))
    elif args.sets is not None:
        exprs = set_probe(args.sets, args.seed)
    elif args.closures is not None:
        shared = os.path.join(HERE, '..', '..', '..', 'shared', 'corpus')
        weights = args.corpus_weights or os.path.join(
            shared, 'tokpidjin/test_batt.py' if bit else 'arc-dsl/solvers.py')
        exprs = closure_probe(args.dialect, args.ref, primitives(args.dialect), weights, args.closures, args.seed)
    elif args.probe:
        exprs = probe(args.dialect, args.draws, args.seed, args.builtins)
    else:
        exprs = expressions(args.corpus, bit)
    lines = list(reference_cases(args.ref, exprs, args.messages))
    out = args.out or tempfile.mkstemp(suffix='.cases')[1]
    with open(out, 'w') as f:
        f.write('\n'.join(lines) + '\n')
    tap = subprocess.run([args.run_cases] + ['--byte-grids'] * args.byte_grids +
                         ['--dialect=' + args.dialect, out],
                         capture_output=True, encoding='utf-8', errors='replace').stdout
    counts, rest = {}, []
    for block in tap.split('\nnot ok ')[1:]:
        n = int(block.split(' ')[0])
        expr, want = lines[n - 1].split('\t', 1)
        got = next((l[len('#   got:'):].strip() for l in block.split('\n')
                    if l.startswith('#   got:')), '')
        detail = next((l for l in block.split('\n') if l.startswith('#   (')), '')
        k = kind(expr, want, got, detail)
        counts[k or 'other'] = counts.get(k or 'other', 0) + 1
        if not k:
            rest.append((expr, want, got))
    print(f'{len(lines)} expressions ({args.dialect}) in {out}; '
          f'{len(lines) - sum(counts.values())} equal')
    for k, c in sorted(counts.items()):
        print(f'  differ, {k}: {c}')
    for expr, want, got in rest:
        print(f'{expr}\n    CPython: {want}\n    arcrun:  {got}')
    return 1 if rest else 0


if __name__ == '__main__':
    sys.exit(main())
