#!/usr/bin/env python3
"""Check that every name a corpus batt calls or passes is declared.

usage: check_corpus.py CORPUS_DIR   (run from dsl/tokpidjin; reads list.h, consts.h)
Prints the used names, the undeclared ones, how many bind arc-dsl's function, and
call sites whose argument count differs from the declared arity.
"""
import ast, re, sys, glob
if len(sys.argv) != 2:
    sys.exit(__doc__)
tk, alias, consts = {}, {}, {}
for l in open('list.h'):
    g = re.match(r'TK\((\w+), (\d+), (\w+), (\w+), (\w+), (\w+)\)', l)
    if g: tk[g[1]] = (int(g[2]), g[3], int(g[4].startswith('ad_')))
    g = re.match(r'TKALIAS\((\w+), (\w+)\)', l)
    if g: alias[g[1]] = g[2]
for l in open('consts.h'):
    g = re.match(r'TKC\((\w+), (\d)', l)
    if g: consts[g[1]] = int(g[2])
skip = {'S', 'I', 'C'}
used = {}; arity_obs = {}
for f in sorted(glob.glob(sys.argv[1] + '/*.py')):
    body = ast.parse(open(f).read()).body
    fn = [n for n in body if isinstance(n, ast.FunctionDef) and n.name == 'batt'][0]
    for n in ast.walk(fn):
        if isinstance(n, ast.Call):
            if isinstance(n.func, ast.Attribute): continue  # s.append / o.append
            for x in [n.func] + n.args:
                if isinstance(x, ast.Name) and not re.fullmatch(r't\d+', x.id) and x.id not in skip:
                    used.setdefault(x.id, set()).add(f.split('/')[-1])
            if isinstance(n.func, ast.Name) and not re.fullmatch(r't\d+', n.func.id):
                arity_obs.setdefault(n.func.id, set()).add(len(n.args))
used.pop('_get_safe_default', None)
fns = sorted(u for u in used if u in tk or u in alias)
cs = sorted(u for u in used if u in consts)
missing = sorted(set(used) - set(fns) - set(cs))
print('used names:', len(used), ' functions:', len(fns), ' constants:', len(cs))
print('functions:', ' '.join(fns))
print('constants:', ' '.join(cs))
print('undeclared:', missing)
same = [u for u in fns if tk[alias.get(u, u)][2] == 1]
print('functions bound to arc-dsl's:', len(same), ' '.join(same))
for name, ar in sorted(arity_obs.items()):
    decl = tk.get(alias.get(name, name))
    if decl and any(a != decl[0] for a in ar): print('call arity differs:', name, sorted(ar), 'declared', decl[0])
    if name in consts: print('constant called:', name, sorted(ar))
print('TK', len(tk), 'TKALIAS', len(alias), 'TKC', len(consts), 'bound to arc-dsl functions', sum(v[2] for v in tk.values()))
sys.exit(1 if missing else 0)
