"""Mutants of real solvers for cross_tasks.py --mutants: programs shaped as
solvers are (straight-line calls whose values flow from one statement to
the next), but with compositions no corpus holds.

Each mutant changes one to three statements of a solver:
- func: the called primitive becomes another of the same arity that
  takes the same kinds of argument and gives the same kind of value
  (vmirror for hmirror, argmin for argmax, sizefilter for colorfilter);
- arg: an argument becomes another variable already assigned, a
  constant, literal or primitive of the same kind;
- one time in six either ignores the kinds, so that the errors come too.
With cross set, each mutant is first a crossover: a prefix of the
solver's statements, then the statements of another solver, whose grid
parameter becomes a grid the prefix assigned (an upscaled, cropped,
mirrored or concatenated grid; sizes past the tasks' 30x30 come this way)
and whose variables are renamed apart; one to three changes may follow.
Kinds are the reference's own annotations (closures.signatures); a value
made by calling a variable has none.  A mutant runs as its solver does,
on every task, and every value it assigns is compared."""
import ast, copy, inspect, random, sys

from closures import fits, signatures


def constants_of(ref):
    """{name: kind} of the reference's constants.py."""
    sys.path.insert(0, ref)
    import constants
    kinds = {}
    for k, v in vars(constants).items():
        if k.startswith('_') or not k.isupper():
            continue
        if isinstance(v, bool):
            kinds[k] = 'Boolean'
        elif isinstance(v, int):
            kinds[k] = 'Integer'
        elif isinstance(v, tuple) and len(v) == 2 and all(type(x) is int for x in v):
            kinds[k] = 'IntegerTuple'
    return kinds


def reference_sigs(ref):
    sys.path.insert(0, ref)
    import dsl
    names = [(n, len(inspect.signature(f).parameters)) for n, f in vars(dsl).items()
             if inspect.isfunction(f) and f.__module__ == dsl.__name__]
    return signatures('arc-dsl', ref, names)


class Mutator:
    def __init__(self, ref, seed):
        self.sigs = reference_sigs(ref)
        self.consts = constants_of(ref)
        self.rnd = random.Random(seed)

    def kind_of(self, node, env):
        if isinstance(node, ast.Name):
            if node.id in env:
                return env[node.id]
            if node.id in self.consts:
                return self.consts[node.id]
            if node.id in self.sigs:
                return 'Callable'
        return None

    def statements(self, f):
        """[(index, call, kinds of the variables assigned before it)]"""
        env = {a.arg: 'Grid' for a in f.args.args}
        out = []
        for i, st in enumerate(f.body):
            if not (isinstance(st, ast.Assign) and len(st.targets) == 1
                    and isinstance(st.targets[0], ast.Name) and isinstance(st.value, ast.Call)):
                continue
            call = st.value
            out.append((i, call, dict(env)))
            fn = call.func.id if isinstance(call.func, ast.Name) else None
            env[st.targets[0].id] = self.sigs[fn][1] if fn in self.sigs else None
        return out

    def param_kinds(self, call, env):
        fn = call.func.id if isinstance(call.func, ast.Name) else None
        if fn in self.sigs and len(self.sigs[fn][0]) == len(call.args):
            return self.sigs[fn][0]
        return [self.kind_of(a, env) for a in call.args]

    def swap_func(self, call, env):
        fn = call.func.id if isinstance(call.func, ast.Name) else None
        if fn not in self.sigs:
            return False
        ps, ret = self.sigs[fn]
        args = [self.kind_of(a, env) or p for a, p in zip(call.args, ps)]
        loose = self.rnd.random() < 1 / 6
        cands = [n for n, (qs, r) in self.sigs.items()
                 if n != fn and len(qs) == len(ps)
                 and (loose or ((r == ret or fits(ret, r) or ret in (None, 'Any'))
                                and all(a is None or fits(q, a) for q, a in zip(qs, args))))]
        if not cands:
            return False
        call.func = ast.Name(self.rnd.choice(cands), ast.Load())
        return True

    def swap_arg(self, call, env):
        if not call.args:
            return False
        k = self.rnd.randrange(len(call.args))
        old = call.args[k]
        want = self.param_kinds(call, env)[k]
        have = self.kind_of(old, env)
        loose = self.rnd.random() < 1 / 6
        if isinstance(old, ast.Constant) and type(old.value) in (int, bool) and not loose:
            v = old.value
            new = (not v) if type(v) is bool else self.rnd.choice([x for x in range(-2, 11) if x != v])
            call.args[k] = ast.Constant(new)
            return True
        if have == 'Callable' and old.id in self.sigs:
            arity = len(self.sigs[old.id][0])
            pool = [n for n, (qs, _) in self.sigs.items() if len(qs) == arity or loose]
        elif isinstance(old, ast.Name) and old.id in self.consts and not loose:
            pool = [c for c, t in self.consts.items() if t == self.consts[old.id]]
        else:
            pool = [v for v, t in env.items()
                    if loose or want in (None, 'Any') or t is None or fits(want, t)]
        pool = [p for p in pool if not (isinstance(old, ast.Name) and p == old.id)]
        if not pool:
            return False
        call.args[k] = ast.Name(self.rnd.choice(pool), ast.Load())
        return True

    def crossover(self, f, other):
        """f's statements up to one that assigns a grid, then other's body
        run on that grid: other's parameter and variables renamed apart."""
        g = copy.deepcopy(f)
        sts = self.statements(g)
        # re-arc annotates a grid as Piece, a Union, where arc-dsl says Grid
        grids = [(i, g.body[i].targets[0].id) for i, call, _ in sts
                 if (call.func.id if isinstance(call.func, ast.Name) else None) in self.sigs
                 and self.sigs[call.func.id][1] in ('Grid', 'Union')]
        if not grids or not other.args.args:
            return None
        cut, var = self.rnd.choice(grids)
        rename = {other.args.args[0].arg: var}
        tail = copy.deepcopy(other.body)
        for st in tail:
            for n in ast.walk(st):
                if isinstance(n, ast.Name) and isinstance(n.ctx, ast.Store):
                    rename.setdefault(n.id, 'y_' + n.id)
        for st in tail:
            for n in ast.walk(st):
                if isinstance(n, ast.Name) and n.id in rename:
                    n.id = rename[n.id]
        g.body = g.body[:cut + 1] + tail
        return g

    def mutant(self, f, name, other=None):
        if other is not None:
            g = self.crossover(f, other)
            if g is None:
                return None
            g.name = name
            if self.rnd.random() < 0.5:
                return g
        else:
            g = copy.deepcopy(f)
            g.name = name
        sts = self.statements(g)
        if not sts:
            return None
        done = 0
        for _ in range(30):
            if done >= self.rnd.choice((1, 1, 2, 3)):
                break
            _, call, env = self.rnd.choice(sts)
            op = self.swap_func if self.rnd.random() < 0.4 else self.swap_arg
            done += op(call, env)
        return g if done else None


def mutants(ref, funcs, per, seed, cross=False):
    """per mutants of each FunctionDef in funcs, named NAME_mK; with cross,
    each crossed with another of funcs drawn at random."""
    m = Mutator(ref, seed)
    out = []
    for f in funcs:
        for k in range(per):
            other = m.rnd.choice(funcs) if cross else None
            g = m.mutant(f, '%s_m%d' % (f.name, k), other)
            if g is not None:
                out.append(g)
    return out
