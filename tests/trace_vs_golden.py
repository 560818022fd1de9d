#!/usr/bin/env python3
"""TAP: arcrun's --trace of the 400 arc-dsl solvers against the golden
traces, variable by variable (not just O):

  1. ../shared/tools/compare_golden.py finds no mismatch and no missing entry;
  2. every entry whose repr differs from the golden is one the golden marks
     "unstable" (sets of functions, ordered by address in CPython), so no
     set-order difference lies on a value CPython reproduces;
  3. and the run traced every variable the golden has.

    trace_vs_golden.py COMPARE_GOLDEN.py GOLDEN.jsonl.gz TRACE.jsonl [TAP_OFFSET]
"""
import gzip, hashlib, json, re, subprocess, sys

tool, golden, trace = sys.argv[1], sys.argv[2], sys.argv[3]
n = int(sys.argv[4]) if len(sys.argv) > 4 else 0
ADDR = re.compile(r' at 0x[0-9a-fA-F]+')


def tap(ok, what, notes=()):
    global n
    n += 1
    print('%s %d - %s' % ('ok' if ok else 'not ok', n, what))
    for line in list(notes)[:5]:
        print('#   ' + line[:300])


cmp = subprocess.run([sys.executable, tool, golden, trace], capture_output=True, text=True)
counts = dict(re.findall(r'^\s+(\w+)\s+(\d+)', cmp.stdout, re.M))
tap(cmp.returncode == 0 and counts.get('mismatch') == '0' and counts.get('missing') == '0',
    'compare_golden.py: %s match, %s mismatch, %s missing, %s set_order, %s unstable' % tuple(
        counts.get(k, '?') for k in ('match', 'mismatch', 'missing', 'set_order', 'unstable')),
    cmp.stdout.splitlines()[-8:] if cmp.returncode else ())

gold = {}
for line in gzip.open(golden, 'rt'):
    r = json.loads(line)
    if 'var' in r:
        gold[(r['solver'], r['sample'], r['var'])] = r
seen, stable_diffs, unstable_diffs = set(), [], 0
for line in open(trace):
    r = json.loads(line)
    if 'var' not in r:
        continue
    key = (r['solver'], r['sample'], r['var'])
    g = gold.get(key)
    if g is None:
        continue
    seen.add(key)
    if 'repr' in r:
        mine = ADDR.sub('', r['repr'])
        same = (g['repr'] == mine) if 'repr' in g else \
            hashlib.sha256(mine.encode()).hexdigest() == g['sha256']
    else:   # arcrun hashes what the golden hashes: a repr past 20,000 characters
        same = r['sha256'] == g.get('sha256') and r['len'] == g.get('len')
    if same:
        continue
    if g.get('unstable'):
        unstable_diffs += 1
    else:
        stable_diffs.append('%s %s %s' % key)
tap(not stable_diffs,
    'entries that differ from the golden: %d, all marked unstable there (%d not)'
    % (unstable_diffs + len(stable_diffs), len(stable_diffs)), stable_diffs)
tap(len(seen) == len(gold), 'every golden variable traced (%d of %d)' % (len(seen), len(gold)))
print('1..%d' % n)
