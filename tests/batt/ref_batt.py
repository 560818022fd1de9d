#!/usr/bin/env python3
"""Run a batt program with the tokpidjin reference in CPython and print one
JSON line per batt call in the schema of ../shared/golden/batt/ (used to
make the expected files of tests/batt/; not needed to run the tests).

    ref_batt.py --ref TOKPIDJIN_CHECKOUT [--mark-nan] BATT.py TASK.json|DIR...

The calling convention is run_batt.py's score_sample: S = the demo pairs,
every sample (train, then test) with C=None, then C=O.  --mark-nan adds
the goldens' "nan" list (the s entries whose solver output holds nan: their
set order follows nan's address, so compare_golden.py does not fail them).

A held-out check of another batt file against CPython:
    ref_batt.py --ref TOK --mark-nan B.py DIR > ref.jsonl
    arcrun --format=jsonl B.py DIR > run.jsonl
    compare_golden.py --strict ref.jsonl run.jsonl"""
import argparse, importlib.util, json, os, re, sys, types

def install_shims(ref):
    """The reference on sys.path and the modules the 2025-10 batt files
    import (see ../shared/golden/README.md)."""
    sys.path.insert(0, ref)
    pile = types.ModuleType('pile')
    exec('from constants import *\nfrom dsl import *', pile.__dict__)
    sys.modules['pile'] = pile
    genv = types.ModuleType('gpu_env')
    genv.GPUEnv = type('GPUEnv', (), {})
    sys.modules['gpu_env'] = genv
    bg = types.ModuleType('batt_gpu')
    def batch_process_samples_gpu(S):
        t1 = pile.apply(pile.first, S)
        t2 = pile.apply(pile.second, S)
        return t1, t2, pile.mapply(pile.p_g, t1), pile.mapply(pile.p_g, t2)
    bg.batch_process_samples_gpu = batch_process_samples_gpu
    sys.modules['batt_gpu'] = bg

def load_batt(path):
    spec = importlib.util.spec_from_file_location('battmod', path)
    mod = importlib.util.module_from_spec(spec)
    spec.loader.exec_module(mod)
    return mod

def task_files(paths):
    files = []
    for t in paths:
        if os.path.isdir(t):
            files += [os.path.join(t, f) for f in sorted(os.listdir(t)) if f.endswith('.json')]
        else:
            files.append(t)
    return files

def calls(path):
    """The batt calls of one task file, in run_batt.py's order: (task id,
    split, sample name, C's name, S, I, C)."""
    task = json.load(open(path))
    tid = os.path.basename(path)[:-5]
    split = os.path.basename(os.path.dirname(os.path.abspath(path)))
    g = lambda x: tuple(map(tuple, x))
    S = tuple((g(p['input']), g(p['output'])) for p in task['train'])
    samples = [('train/%d' % i, p) for i, p in enumerate(task['train'])] + \
              [('test/%d' % i, p) for i, p in enumerate(task['test'])]
    for name, p in samples:
        I, O = g(p['input']), g(p['output'])
        for C, cname in ((None, None), (O, 'O')):
            yield tid, split, name, cname, S, I, C

def main():
    ap = argparse.ArgumentParser()
    ap.add_argument('--ref', required=True)
    ap.add_argument('--mark-nan', action='store_true')
    ap.add_argument('batt')
    ap.add_argument('tasks', nargs='+')
    a = ap.parse_args()
    install_shims(a.ref)
    mod = load_batt(a.batt)
    addr = re.compile(r' at 0x[0-9a-f]+')
    r = lambda v: addr.sub('', repr(v))
    for path in task_files(a.tasks):
        for tid, split, name, cname, S, I, C in calls(path):
            line = {'task': tid, 'split': split, 'sample': name, 'C': cname}
            try:
                o, s = mod.batt(tid, S, I, C, 'pile.log')
                line['o'] = [[t, m, sid, r(v)] for t, m, sid, v in o]
                line['s'] = [[t, sid, d, r(v)] for t, sid, d, v in s]
                line['error'] = None
                if a.mark_nan:
                    nan = {sid for _, _, sid, v in line['o'] if 'nan' in v}
                    line['nan'] = ['s:%d' % k for k, e in enumerate(line['s']) if e[1] in nan]
            except Exception as e:
                line.update(o=None, s=None, error='%s: %s' % (type(e).__name__, e))
            print(json.dumps(line))

if __name__ == '__main__':
    main()
