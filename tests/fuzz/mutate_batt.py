#!/usr/bin/env python3
"""Mutants of a batt file, for held-out runs against CPython.

    mutate_batt.py --ref TOKPIDJIN [--seed 1] [-p 0.15] BATT.py OUT.py

In each `try: tN = f(args)` of `def batt`, with probability P, one
argument becomes an earlier tK, I, C, S or a constant (one time in five a
primitive), or f becomes another primitive of its arity (an earlier tK
where f is one); the except's `_get_safe_default(f)` follows the callee,
as tokpidjin's generator writes it.  Then, as for any batt file:

    tests/batt/ref_batt.py --ref TOK --mark-nan OUT.py DIR > ref.jsonl
    arcrun --format=jsonl OUT.py DIR > run.jsonl
    compare_golden.py --strict ref.jsonl run.jsonl"""
import argparse, ast, inspect, random, sys


def main():
    ap = argparse.ArgumentParser(description=__doc__.split('\n\n')[0])
    ap.add_argument('--ref', required=True, help='pierreb4/tokpidjin checkout')
    ap.add_argument('--seed', type=int, default=1)
    ap.add_argument('-p', type=float, default=0.15, help='chance that a statement changes')
    ap.add_argument('batt')
    ap.add_argument('out')
    a = ap.parse_args()
    sys.path.insert(0, a.ref)
    import constants, dsl
    prims = {}
    for n, f in vars(dsl).items():
        if inspect.isfunction(f) and f.__module__ == 'dsl' and not n.startswith('_'):
            try:
                prims.setdefault(len(inspect.signature(f).parameters), []).append(n)
            except (TypeError, ValueError):
                pass
    every = sorted(set(sum(prims.values(), [])))
    consts = [k for k, v in vars(constants).items() if k.isupper() and isinstance(v, (int, tuple))]
    rnd = random.Random(a.seed)
    tree = ast.parse(open(a.batt).read())
    for fn in (f for f in tree.body if isinstance(f, ast.FunctionDef) and f.name == 'batt'):
        seen = ['I', 'C', 'S']
        for st in fn.body:
            if not (isinstance(st, ast.Try) and len(st.body) == 1 and isinstance(st.body[0], ast.Assign)):
                continue
            asg = st.body[0]
            call = asg.value
            if isinstance(call, ast.Call) and call.args and rnd.random() < a.p:
                k = rnd.randrange(len(call.args) + 1)
                if k < len(call.args):
                    pool = seen + consts if rnd.random() < 0.8 else every
                    call.args[k] = ast.Name(rnd.choice(pool), ast.Load())
                elif isinstance(call.func, ast.Name) and call.func.id in every:
                    call.func = ast.Name(rnd.choice(prims.get(len(call.args), every)), ast.Load())
                else:
                    call.func = ast.Name(rnd.choice(seen), ast.Load())
                callee = call.func.id if isinstance(call.func, ast.Name) else 'identity'
                for h in st.handlers:
                    for s in h.body:
                        if isinstance(s, ast.Assign) and isinstance(s.value, ast.Call) and s.value.args:
                            s.value.args[0] = ast.Name(callee, ast.Load())
            if isinstance(asg.targets[0], ast.Name):
                seen.append(asg.targets[0].id)
    open(a.out, 'w').write(ast.unparse(tree) + '\n')


if __name__ == '__main__':
    main()
