"""Compare `arcrun --format=jsonl VERIFIERS TASKS` with CPython running the
same verifiers on re-arc's own dsl.py: every (verifier, task, sample) gives
the same repr, or the same 'Type: message'.

    python3 tests/rearc_verifiers.py RE_ARC_CHECKOUT TASKS_DIR ARCRUN_JSONL
"""
import json, os, sys

ref, tasks, jsonl = sys.argv[1:4]
sys.path.insert(0, ref)
sys.setrecursionlimit(10000)
import verifiers

want = {}
for f in sorted(os.listdir(tasks)):
    tid = f[:-5]
    fn = getattr(verifiers, 'verify_' + tid, None)
    if not f.endswith('.json') or fn is None:
        continue
    t = json.load(open(os.path.join(tasks, f)))
    for kind in ('train', 'test'):
        for i, p in enumerate(t[kind]):
            try:
                r = repr(fn(tuple(map(tuple, p['input']))))
            except Exception as e:
                r = '%s: %s' % (type(e).__name__, e)
            want['verify_' + tid, tid, '%s/%d' % (kind, i)] = r
got = {}
for line in open(jsonl):
    j = json.loads(line)
    if 'summary' not in j:
        got[j['program'], j['task'], j['sample']] = j['output'] if j['error'] is None else j['error']
bad = [k for k in want if want[k] != got.get(k)]
print('%d instances, %d differ' % (len(want), len(bad)))
for k in bad[:5]:
    print('  %s %s %s: CPython %.100s | arcrun %.100s' % (k + (want[k], got.get(k))))
sys.exit(1 if bad or not want else 0)
