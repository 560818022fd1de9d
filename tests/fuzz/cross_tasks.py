#!/usr/bin/env python3
"""Differential check off the goldens' path: arc-dsl solvers run on tasks
that are not theirs, traced by arcrun and by CPython, compared entry by
entry.

    cross_tasks.py --arcrun PATH --arc-dsl DIR [--dialect D] [-n 40] [--seed 1] SOLVERS.py TASKDIR

N solvers (solve_<id>, or re-arc's verify_<id>) are drawn from SOLVERS.py
and renamed any_<id>, so that both sides run each on every task of
TASKDIR (every sample, train then test).  DIR's dsl.py is the reference:
re-arc's verifiers take a re-arc checkout and --dialect re-arc.
CPython traces every assignment as the golden does, 2 s per call; arcrun
runs with --trace and --timeout=2.  Samples where CPython ran out of
time, or where a set holding functions or None (hashed by address in CPython
3.11, so ordered differently from run to run) differs, are counted, not
failed.
Exit status 1 when any other entry differs.
"""
import argparse, ast, collections, json, os, random, re, subprocess, sys, tempfile

sys.path.insert(0, os.path.dirname(os.path.abspath(__file__)))
from diff_run import by_address, timed_call, trace_value, traced   # noqa: E402  (the golden's tracing, 2 s calls)


def pick(solvers, n, seed, ref=None, per=0, cross=False):
    tree = ast.parse(open(solvers).read())
    fs = [f for f in tree.body if isinstance(f, ast.FunctionDef)]
    random.seed(seed)
    fs = random.sample(fs, min(n, len(fs)))
    for f in fs:
        f.name = 'any_' + f.name.split('_', 1)[1]
    if per:
        from mutate import mutants
        fs = mutants(ref, fs, per, seed, cross)
    imports = [ast.ImportFrom(m, [ast.alias('*')], 0) for m in ('dsl', 'constants')]
    return ast.fix_missing_locations(ast.Module(imports + fs, []))


def comparable(t):
    """A trace line's value as one string: the repr, or its hash and length."""
    return t['repr'] if 'repr' in t else 'sha256 %s len %d' % (t['sha256'], t['len'])


def cpython_trace(ref, mod, prog, tasks, addressed):
    """{(solver, task, sample, var or '#end'): repr or (correct, error)};
    the keys whose repr is by_address go into addressed (a repr past the
    trace's limit is compared by its hash, which hides that)."""
    sys.path.insert(0, ref)
    out, key = {}, {}
    for f in (f for f in mod.body if isinstance(f, ast.FunctionDef)):
        f.body = traced(f.body)
    addr = re.compile(r' at 0x[0-9a-f]+')

    def trace(nm, v):
        r = addr.sub('', repr(v))
        if by_address(r):
            addressed.add(key['k'] + (nm,))
        out[key['k'] + (nm,)] = comparable(trace_value(r))
    ns = {'__trace__': trace}
    exec(compile(ast.fix_missing_locations(mod), prog, 'exec'), ns)
    grid = lambda x: tuple(tuple(r) for r in x)
    for tf in sorted(f for f in os.listdir(tasks) if f.endswith('.json')):
        task = json.load(open(os.path.join(tasks, tf)))
        samples = [('train/%d' % i, p) for i, p in enumerate(task['train'])] + \
                  [('test/%d' % i, p) for i, p in enumerate(task['test'])]
        for f in (f for f in mod.body if isinstance(f, ast.FunctionDef)):
            for name, p in samples:
                key['k'] = (f.name, tf[:-5], name)
                got, err = timed_call(ns[f.name], grid(p['input']), 2)
                out[key['k'] + ('#end',)] = (err is None and got == grid(p.get('output', ())), err)
    return out


def arcrun_trace(path):
    out = {}
    for line in open(path):
        j = json.loads(line)
        k = (j['solver'], j['task'], j['sample'])
        if 'var' in j:
            out[k + (j['var'],)] = comparable(j)
        else:
            out[k + ('#end',)] = (j['correct'], j['error'])
    return out


def main():
    ap = argparse.ArgumentParser(description=__doc__.split('\n\n')[0])
    ap.add_argument('--arcrun', required=True)
    ap.add_argument('--arc-dsl', required=True, help='michaelhodel/arc-dsl checkout (re-arc: its checkout)')
    ap.add_argument('--dialect', help="arcrun's --dialect (the renamed functions hide re-arc's verify_)")
    ap.add_argument('-n', type=int, default=40, help='solvers to draw (default 40)')
    ap.add_argument('--seed', type=int, default=1)
    ap.add_argument('--mutants', type=int, default=0, metavar='K',
                    help='run K mutants of each drawn solver instead of the solver (mutate.py)')
    ap.add_argument('--crossover', action='store_true',
                    help="with --mutants: each mutant is a solver's first statements, then another's on their grid")
    ap.add_argument('--save', metavar='FILE', help='also write the program run to FILE')
    ap.add_argument('solvers')
    ap.add_argument('tasks')
    a = ap.parse_args()
    mod = pick(a.solvers, a.n, a.seed, a.arc_dsl, a.mutants, a.crossover)
    with tempfile.TemporaryDirectory() as tmp:
        prog, trace = os.path.join(tmp, 'cross.py'), os.path.join(tmp, 'trace.jsonl')
        open(prog, 'w').write(ast.unparse(mod) + '\n')
        if a.save:
            open(a.save, 'w').write(ast.unparse(mod) + '\n')
        dialect = ['--dialect=' + a.dialect] if a.dialect else []
        r = subprocess.run([a.arcrun, '-q', '--timeout=2', '--trace=' + trace] + dialect + [prog, a.tasks],
                           capture_output=True, text=True)
        if r.returncode != 0:
            sys.exit('arcrun failed (%d): %s' % (r.returncode, r.stderr[-500:]))
        theirs = arcrun_trace(trace)
        addressed = set()
        ours = cpython_trace(a.arc_dsl, mod, prog, a.tasks, addressed)
    timed_out = {k[:3] for k, v in ours.items() if k[3] == '#end' and v[1] == 'timeout'}
    # CPython 3.11 hashes functions and None by address: once a set holding
    # one differs, that sample's later values may too, in CPython's own runs
    unstable = {k[:3] for k, v in ours.items() if k in addressed and v != theirs.get(k)}
    # the first difference of each solver: its later ones mostly follow
    verdict, shown, seen = collections.Counter(), 0, set()
    for k, v in ours.items():
        w = theirs.get(k, '(absent)')
        if v == w:
            verdict['match'] += 1
        elif k[:3] in timed_out:
            verdict['cpython timeout'] += 1
        elif k[:3] in unstable:
            verdict['address-hashed set'] += 1
        else:
            verdict['mismatch'] += 1
            if shown < 40 and k[0] not in seen:
                shown += 1
                seen.add(k[0])
                print('MISMATCH %s %s %s %s\n  cpython: %.200s\n  arcrun:  %.200s' % (k + (v, w)))
    for k in theirs.keys() - ours.keys():
        verdict['cpython timeout' if k[:3] in timed_out else 'mismatch'] += 1
        if k[:3] not in timed_out and shown < 20:
            shown += 1
            print('MISMATCH %s %s %s %s: only arcrun has it' % k)
    what = '%d solvers' % a.n if not a.mutants else '%d mutants of %d solvers' % (
        sum(isinstance(f, ast.FunctionDef) for f in mod.body), a.n)
    print('%s x %s: %s' % (what, a.tasks, ', '.join('%s %d' % kv for kv in sorted(verdict.items()))))
    sys.exit(1 if verdict['mismatch'] else 0)


if __name__ == '__main__':
    main()
