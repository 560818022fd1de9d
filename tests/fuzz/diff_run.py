#!/usr/bin/env python3
"""Differential check: the programs fuzz_run found, run by arcrun and by the
CPython reference on fuzz_run's task, compared value for value.

    diff_run.py --arcrun PATH --arc-dsl DIR --tokpidjin DIR CORPUS...

CORPUS: fuzz_run inputs (files or directories).  Programs arcrun accepts
run on a copy of fuzz_run's built-in task: arc-dsl ones through --trace
against a CPython trace made the golden's way (every assignment recorded,
then a closing line; the first def renamed solve_<task> so that it runs),
batt ones through --format=jsonl against tests/batt/ref_batt.py.  Errors
are compared by exception class.  Programs CPython cannot even load
(syntax arcrun accepts more loosely, imports of names that do not exist)
are counted apart.  Exit status 1 when a difference is found.
"""
import argparse, ast, collections, hashlib, json, os, re, shutil, signal, subprocess, sys, tempfile

HERE = os.path.dirname(os.path.abspath(__file__))
TASK = {"train": [{"input": [[0, 1, 0], [1, 2, 1], [0, 1, 0]], "output": [[2, 1, 2], [1, 0, 1], [2, 1, 2]]},
                  {"input": [[3, 0, 0, 3], [0, 5, 5, 0]], "output": [[0, 3, 3, 0], [5, 0, 0, 5]]}],
        "test": [{"input": [[7, 7, 0], [0, 7, 0], [0, 0, 0]], "output": [[0, 0, 7], [7, 0, 7], [7, 7, 7]]}]}
TID = 'fz000001'
DSL_IMPORT = re.compile(r'^\s*from\s+(dsl|constants|pile)\s+import', re.M)   # as src/front/imports.c scopes names


def trace_value(r):
    """A repr as a trace line holds it (the golden's schema, arcrun's
    --trace): itself, or past 20,000 characters its sha256 and length."""
    if len(r) <= 20000:
        return {'repr': r}
    return {'sha256': hashlib.sha256(r.encode('utf-8')).hexdigest(), 'len': len(r)}


def by_address(r):
    """Whether a repr holds a set whose order follows addresses: one of
    functions (builtins and classes too), or of None (CPython 3.11 hashes
    them by address)."""
    return ('<function' in r or '<built-in function' in r or "<class '" in r or
            ('None' in r and 'frozenset' in r))


# The CPython entries whose repr, hashed past the limit, was by_address
# (json.dumps(entry, sort_keys=True) without the mark): the hash hides it.
ADDRESSED = set()


def traced(stmts):
    """stmts with __trace__(name, value) after every assignment, try blocks
    and handlers included: the golden's method."""
    body = []
    for st in stmts:
        body.append(st)
        if isinstance(st, ast.Assign):
            for n in (n for t in st.targets for n in ast.walk(t) if isinstance(n, ast.Name)):
                body.append(ast.Expr(ast.Call(ast.Name('__trace__', ast.Load()),
                                              [ast.Constant(n.id), ast.Name(n.id, ast.Load())], [])))
        elif isinstance(st, ast.Try):
            st.body = traced(st.body)
            for h in st.handlers:
                h.body = traced(h.body)
    return body


class Timeout(BaseException):
    pass


def _alarm(*_):
    raise Timeout()


def timed_call(fn, arg, seconds):
    """(fn(arg), None), or (None, 'timeout' / 'Type: message')."""
    signal.signal(signal.SIGALRM, _alarm)
    try:
        signal.setitimer(signal.ITIMER_REAL, seconds)
        try:
            return fn(arg), None
        finally:
            signal.setitimer(signal.ITIMER_REAL, 0)
    except Timeout:     # also when it fires just as fn returns, before the timer is off
        return None, 'timeout'
    except Exception as e:
        return None, '%s: %s' % (type(e).__name__, e)


def trace_cpython(ref, prog, taskf):
    """The golden's method: __trace__ after every assignment, 2 s per call."""
    sys.path.insert(0, ref)
    tree = ast.parse(open(prog, encoding='utf-8', errors='replace').read())

    class Tracer(ast.NodeTransformer):
        def visit_FunctionDef(self, f):
            f.body = traced(f.body)
            return f
    tree = ast.fix_missing_locations(Tracer().visit(tree))
    ns, out, key = {}, [], {}
    if not DSL_IMPORT.search(open(prog, encoding='utf-8', errors='replace').read()):
        exec('from dsl import *\nfrom constants import *', ns)   # as arcrun gives such a file every name
    addr = re.compile(r' at 0x[0-9a-f]+')
    def trace(n, v):
        r = addr.sub('', repr(v))
        e = dict(key, var=n, **trace_value(r))
        if 'sha256' in e and by_address(r):
            e['addressed'] = True
        out.append(e)
    ns['__trace__'] = trace
    exec(compile(tree, prog, 'exec'), ns)
    grid = lambda x: tuple(tuple(r) for r in x)
    task = json.load(open(taskf))
    samples = [('train/%d' % i, p) for i, p in enumerate(task['train'])] + \
              [('test/%d' % i, p) for i, p in enumerate(task['test'])]
    loads = lambda node: {n.id for n in ast.walk(node) if isinstance(n, ast.Name) and isinstance(n.ctx, ast.Load)}
    named_by = [(st.name if isinstance(st, ast.FunctionDef) else None, loads(st)) for st in tree.body]
    for f in (f for f in tree.body if isinstance(f, ast.FunctionDef)):
        named = set().union(*(names for who, names in named_by if who != f.name))
        prefix = next((p for p in ('solve_', 'verify_') if f.name.startswith(p)), None)
        if prefix and f.name != prefix + TID:
            continue                # a program of another task, as arcrun pairs it
        if not prefix and (f.name in named or len(f.args.args) != 1):
            continue                # a helper: no harness calls it alone (README: Programs)
        for name, p in samples:
            key = {'solver': f.name, 'task': TID, 'sample': name}
            got, err = timed_call(ns[f.name], grid(p['input']), 2)
            err = err.split(':')[0] if err and err != 'timeout' else err
            out.append(dict(key, correct=err is None and got == grid(p['output']), error=err))
    for o in out:
        print(json.dumps(o))


def by_address_entry(e):
    """Whether a trace entry's value is a set CPython 3.11 orders by address."""
    shown = json.dumps(e)
    return ((by_address(shown) and 'frozenset' in shown) or
            json.dumps(e, sort_keys=True) in ADDRESSED)


def by_instance(lines, fields):
    """{(program, sample[, C]): sorted entries}, errors cut to their class."""
    d = collections.defaultdict(list)
    for l in lines:
        if not l.startswith('{'):
            continue
        j = json.loads(l)
        if 'summary' in j:        # arcrun's last line of a run
            continue
        if j.get('error'):
            j['error'] = j['error'].split(':')[0]
        if j.pop('addressed', False):
            ADDRESSED.add(json.dumps(j, sort_keys=True))
        d[tuple(j.get(f) for f in fields)].append(j)
    return {k: sorted(v, key=lambda j: json.dumps(j, sort_keys=True)) for k, v in d.items()}


def run(cmd, **kw):
    return subprocess.run(cmd, capture_output=True, encoding='utf-8', errors='replace', **kw)


def main():
    ap = argparse.ArgumentParser(description=__doc__.split('\n\n')[0])
    ap.add_argument('--arcrun', required=True)
    ap.add_argument('--arc-dsl', required=True, help='michaelhodel/arc-dsl checkout')
    ap.add_argument('--tokpidjin', required=True, help='pierreb4/tokpidjin checkout')
    ap.add_argument('--trace-one', nargs=3, help=argparse.SUPPRESS)   # REF PROG TASK (internal)
    ap.add_argument('corpus', nargs='*')
    a = ap.parse_args()
    if a.trace_one:
        return trace_cpython(*a.trace_one)
    work = tempfile.mkdtemp()
    os.mkdir(os.path.join(work, 'task'))
    taskf = os.path.join(work, 'task', TID + '.json')
    json.dump(TASK, open(taskf, 'w'))
    prog = os.path.join(work, 'prog.py')
    files = [os.path.join(c, f) for c in a.corpus for f in sorted(os.listdir(c))] \
        if all(os.path.isdir(c) for c in a.corpus) else a.corpus
    counts, bad = collections.Counter(), 0
    for f in files:
        chk = run([a.arcrun, '--check', f])
        if chk.returncode:
            continue
        batt = 'tokpidjin' in chk.stdout
        src = open(f, encoding='utf-8', errors='replace').read()
        if not batt:
            src = re.sub(r'def solve_\w+', 'def solve_' + TID, src, count=1)
        open(prog, 'w').write(src)
        if batt:
            mine = run([a.arcrun, '-q', '--format=jsonl', prog, os.path.dirname(taskf)], timeout=120)
            ref = run([sys.executable, os.path.join(HERE, '..', 'batt', 'ref_batt.py'), '--ref', a.tokpidjin,
                       prog, os.path.dirname(taskf)], timeout=300)
            fields, mine_lines = ('sample', 'C'), mine.stdout.splitlines()
        else:
            tr = os.path.join(work, 'trace.jsonl')
            mine = run([a.arcrun, '-q', '--trace=' + tr, prog, os.path.dirname(taskf)], timeout=120)
            ref = run([sys.executable, os.path.abspath(__file__), '--arcrun', a.arcrun, '--arc-dsl', a.arc_dsl,
                       '--tokpidjin', a.tokpidjin, '--trace-one', a.arc_dsl, prog, taskf], timeout=300)
            fields = ('solver', 'sample')
            mine_lines = open(tr).read().splitlines() if os.path.exists(tr) else []
        if ref.returncode:
            counts['CPython cannot load it'] += 1
            continue
        src = open(prog, encoding='utf-8', errors='replace').read()
        if 'NameError' in ref.stdout and not DSL_IMPORT.search(src):
            counts['no DSL import: NameError in CPython, every name in arcrun (as for .dsl files)'] += 1
            continue
        counts['compared'] += 1
        m, r = by_instance(mine_lines, fields), by_instance(ref.stdout.splitlines(), fields)
        hidden, diff = False, None
        for k in sorted(set(m) | set(r), key=str):
            x, y = m.get(k, []), r.get(k, [])
            if x == y:
                continue
            # a variable whose set CPython orders by address, on either
            # side, is counted apart and the rest compared without it
            # (a batt record, which has no variable, as one)
            gone = {e.get('var', '') for e in x + y if by_address_entry(e)}
            x = [e for e in x if e.get('var', '') not in gone]
            y = [e for e in y if e.get('var', '') not in gone]
            hidden |= bool(gone)
            if x != y:
                diff = k
                break
        if diff is None:
            if hidden:
                counts['functions or None in sets (hashed by address in CPython 3.11)'] += 1
            continue
        i = next((i for i in range(min(len(x), len(y))) if x[i] != y[i]), min(len(x), len(y)))
        bad += 1
        print(f'{f}: {diff}\n    arcrun:  {json.dumps(x[i]) if i < len(x) else None}'
              f'\n    CPython: {json.dumps(y[i]) if i < len(y) else None}')
    shutil.rmtree(work)
    print(', '.join(f'{k}: {v}' for k, v in sorted(counts.items())) + f', differ: {bad}')
    return 1 if bad else 0


if __name__ == '__main__':
    sys.exit(main())
