"""arcrun from Python: ARC-AGI DSL programs with CPython's exact results.

    >>> import arcrun
    >>> arcrun.eval('rot90(((1, 2), (3, 4)))')
    ((3, 1), (4, 2))

Values come back as Python values: tuples of tuples for grids, frozensets
(iterating in this interpreter's own order), ints, bools, None; a DSL
function as an arcrun.Function.  A DSL exception is raised as the same
Python exception (TypeError, StopIteration, ...) with CPython's message; a
program or expression that does not parse raises CompileError, a
SyntaxError that carries the file, line, column and message.
"""
import builtins as _builtins
import collections as _collections
import json as _json
import os as _os
import re as _re
import tempfile as _tempfile

from . import _arcrun

__all__ = ["eval", "compile", "load_tasks", "run", "submission", "Result", "Programs", "Tasks",
           "CompileError", "Function", "__version__"]
# arcrun.distributed (Ray) is imported on its own: Ray is optional
__version__ = _arcrun.version()
Function = _arcrun.Function

_LOCATED = _re.compile(r"^(?P<file>.*?):(?P<line>\d+):(?P<col>\d+): error: (?P<msg>.*)$")


class CompileError(SyntaxError):
    """A program or expression arcrun cannot read: .filename, .lineno,
    .offset (1-based column) and .msg as in SyntaxError; .messages lists
    every located message when there are several."""

    def __init__(self, text):
        lines = text.rstrip("\n").split("\n")
        first = _LOCATED.match(lines[0]) if lines else None
        self.messages = [l for l in lines if _LOCATED.match(l)]
        if first:
            source = lines[1].strip() if len(lines) > 1 else None
            super().__init__(first["msg"], (first["file"], int(first["line"]), int(first["col"]), source))
        else:
            super().__init__(text.strip())


def _outcome(r):
    if r[0] == "ok":
        return r[1]
    if r[0] == "compile":
        raise CompileError(r[1])
    exc = getattr(_builtins, r[1], None)
    if not (isinstance(exc, type) and issubclass(exc, BaseException)):
        exc = RuntimeError
    raise exc(r[2]) if r[2] else exc()


def eval(expr, dialect=None):
    """The value of one DSL expression (Python literals and nested DSL
    calls), as CPython would compute it with the dialect's dsl.py:
    'arc-dsl' (default), 're-arc' or 'tokpidjin'."""
    if not isinstance(expr, str):
        raise TypeError("eval() wants the expression as a str, not %s" % type(expr).__name__)
    return _outcome(_arcrun._eval(expr, dialect))


class Programs:
    """Programs compiled from one source (compile()): .names, .dialect,
    .source (what arcrun.distributed ships to its workers)."""

    def __init__(self, capsule, names, dialect, filename, source):
        self._capsule, self.names, self.dialect, self.filename = capsule, tuple(names), dialect, filename
        self.source = source

    def __repr__(self):
        return "<arcrun.Programs %s: %d programs, %s>" % (self.filename, len(self.names), self.dialect)


def compile(source, dialect=None, filename="<string>"):
    """Compile DSL programs from source text, as the CLI reads a program
    file: solve_<id> functions, helpers, constants, a batt.  dialect:
    None (picked from the source), 'arc-dsl', 're-arc' or 'tokpidjin'.
    Raises CompileError, with the location, when the source is not valid."""
    if not isinstance(source, str):
        raise TypeError("compile() wants the source as a str, not %s" % type(source).__name__)
    r = _arcrun._compile(source, dialect, filename)
    if r[0] != "ok":
        raise CompileError(r[1])
    return Programs(r[1], r[2], r[3], filename, source)


class Tasks:
    """ARC tasks loaded by load_tasks(): .ids in order; .origin, what they
    were loaded from (a path, or the data), for arcrun.distributed."""

    def __init__(self, capsule, shapes, keep=None, origin=None):
        self._capsule, self._keep, self.origin = capsule, keep, origin
        self.ids = tuple(s[0] for s in shapes)
        self.ntest = {s[0]: s[2] for s in shapes}      # test inputs per task id

    def __len__(self):
        return len(self.ids)

    def __repr__(self):
        return "<arcrun.Tasks: %d tasks>" % len(self.ids)


def _grid_json(o):
    if hasattr(o, "tolist"):          # numpy arrays and scalars
        return o.tolist()
    if isinstance(o, tuple):
        return list(o)
    raise TypeError("a grid holds %s, not a list, tuple or array of ints" % type(o).__name__)


def load_tasks(path_or_dict, task_id="task", only=None):
    """Tasks from a path (a task file, a directory of them, a combined
    *_challenges.json, a re-arc file: whatever the CLI reads), or from
    Python data in ARC's JSON shape: one task {"train": [...], "test": [...]}
    (named task_id) or {id: task, ...}.  Grids may be lists, tuples or numpy
    arrays.  only: keep just these task ids.  A malformed task raises
    ValueError saying where."""
    keep = None
    if isinstance(path_or_dict, (str, bytes, _os.PathLike)):
        path = _os.fsdecode(path_or_dict)
    elif isinstance(path_or_dict, dict):
        keep = _tempfile.TemporaryDirectory(prefix="arcrun-")
        single = "train" in path_or_dict or "test" in path_or_dict
        if single and not isinstance(task_id, str):
            raise TypeError("task_id must be a str")
        path = _os.path.join(keep.name, (task_id if single else "tasks") + ".json")
        with open(path, "w") as f:
            _json.dump(path_or_dict, f, default=_grid_json)
    else:
        raise TypeError("load_tasks() wants a path or a dict, not %s" % type(path_or_dict).__name__)
    r = _arcrun._load_tasks(path, None if only is None else [str(i) for i in only])
    if r[0] != "ok":
        msg = r[1]
        if keep is not None:
            msg = msg.replace(path, "<data>")
        raise ValueError(msg)
    origin = ("data", path_or_dict, task_id) if keep is not None else ("path", path)
    return Tasks(r[1], r[2], keep, origin)


Result = _collections.namedtuple("Result", "program task sample output error correct C")
Result.__new__.__defaults__ = (None,)
Result.__doc__ = """One instance's outcome: output is the program's value as a Python
value (None after an error; a batt call's is its (o, s) records, as
CPython's batt returns them), error the exception as 'Type: message' or
None, correct True/False against the expected output (None when unknown,
and for batt calls), C: a batt call's C, None or "O" (the expected output)."""

_DONE = object()


def run(programs, tasks, *, all_pairs=False, jobs=None, backend="auto", budget=None, timeout=10.0,
        progress=None, ordered=False):
    """Run programs over tasks as the CLI does (solve_<id> on task <id>, any
    other program on every task, a batt on every sample twice; all_pairs:
    every program on every task, a pair stopping at its first failed
    sample), and yield one Result per instance as it finishes -- or, with
    ordered=True, all of them once the run ends, by program (in the
    source's order), task (in the set's order), then sample.  jobs: threads
    (default all cores); backend: 'cpu', 'cuda' or 'auto' (the GPU where a
    device is and the batch size pays, as the CLI's default); budget: work
    units per instance (default as the CLI's); timeout: seconds per instance
    (0: none).  progress: a tqdm bar (its update(1)) or a callable called
    with each Result.  The GIL is released while the programs run.  Ctrl-C
    stops the run: what finished is yielded, then KeyboardInterrupt is
    raised; leaving the loop early stops the run too."""
    if not isinstance(programs, Programs):
        raise TypeError("run() wants Programs from arcrun.compile(), not %s" % type(programs).__name__)
    if not isinstance(tasks, Tasks):
        raise TypeError("run() wants Tasks from arcrun.load_tasks(), not %s" % type(tasks).__name__)
    jobs = jobs or _os.cpu_count() or 1
    if not isinstance(jobs, int) or jobs < 1:
        raise ValueError("jobs must be a positive int")
    args = (programs._capsule, tasks._capsule, bool(all_pairs), min(jobs, 64), backend,
            -1 if budget is None else int(budget), float(timeout))
    if backend not in ("cpu", "cuda", "auto"):
        raise ValueError("unknown backend %r (cpu, cuda or auto)" % (backend,))

    def tell(r):
        if progress is not None:
            progress.update(1) if hasattr(progress, "update") else progress(r)
        return r

    if ordered:
        rows = []
        interrupted = _arcrun._run(*args, rows.append)
        rows.sort(key=_order(programs.names, tasks.ids))
        for row in rows:
            yield tell(Result(*row))
        if interrupted:
            raise KeyboardInterrupt
        return
    import queue
    import threading
    q, state = queue.SimpleQueue(), {}

    def work():
        try:
            state["interrupted"] = _arcrun._run(*args, q.put)
        except BaseException as e:     # handed to the reader
            state["error"] = e
        finally:
            q.put(_DONE)

    threading.Thread(target=work, name="arcrun.run", daemon=True).start()
    stopped = finished = False
    try:
        while True:
            try:
                row = q.get()
            except KeyboardInterrupt:
                _arcrun._interrupt()
                stopped = True
                continue
            if row is _DONE:
                finished = True
                break
            yield tell(Result(*row))
    finally:
        if not finished:               # the loop was left early: stop, and wait for it
            _arcrun._interrupt()
            while q.get() is not _DONE:
                pass
    if "error" in state:
        raise state["error"]
    if stopped or state.get("interrupted"):
        raise KeyboardInterrupt


def _sample_key(sample):
    kind, k = sample.split("/")
    return (kind != "train", int(k))


def _order(program_names, task_ids):
    """The key that puts results in run()'s order."""
    prog = {n: i for i, n in enumerate(program_names)}
    task = {}
    for i, t in enumerate(task_ids):
        task.setdefault(t, i)
    return lambda row: (prog.get(row[0], len(prog)), task.get(row[1], len(task)), _sample_key(row[2]),
                        len(row) > 6 and row[6] is not None)


BLANK = [[0, 0], [0, 0]]


def _is_grid(v):
    return (isinstance(v, tuple) and v and all(isinstance(r, tuple) and len(r) == len(v[0]) and r for r in v)
            and all(type(c) in (int, bool) for r in v for c in r))


def submission(results, tasks=None, all_pairs=False):
    """The ARC Prize submission dict from run()'s results, by the CLI's
    --submission rule: for every test input of every task (of tasks, or of
    the results), attempt_1 and attempt_2 are the two most common distinct
    grids the programs gave, ties going to the program whose result came
    first, BLANK where fewer.  all_pairs: only programs that solved every
    train sample of the task count (pass the results of a run with
    all_pairs=True)."""
    results = list(results)
    solved, offers, rank = {}, {}, {}
    for r in results:
        rank.setdefault(r.program, len(rank))
        kind, k = r.sample.split("/")
        if kind == "train":
            ok = solved.setdefault((r.program, r.task), True)
            solved[r.program, r.task] = ok and r.correct is True
    for r in results:
        kind, k = r.sample.split("/")
        if kind != "test" or r.error is not None or not _is_grid(r.output):
            continue
        if all_pairs and not solved.get((r.program, r.task), False):
            continue
        grid = [list(row) for row in r.output]
        cands = offers.setdefault((r.task, int(k)), [])
        for c in cands:
            if c[0] == grid:
                c[1] += 1
                c[2] = min(c[2], rank[r.program])
                break
        else:
            cands.append([grid, 1, rank[r.program]])
    if tasks is not None:
        shape = [(t, tasks.ntest[t]) for t in dict.fromkeys(tasks.ids)]
    else:
        n = {}
        for (t, k) in offers:
            n[t] = max(n.get(t, 0), k + 1)
        for r in results:
            kind, k = r.sample.split("/")
            if kind == "test":
                n[r.task] = max(n.get(r.task, 0), int(k) + 1)
        shape = list(n.items())
    out = {}
    for t, ntest in shape:
        entry = []
        for k in range(ntest):
            c = sorted(offers.get((t, k), []), key=lambda c: (-c[1], c[2]))
            entry.append({"attempt_1": c[0][0] if c else BLANK, "attempt_2": c[1][0] if len(c) > 1 else BLANK})
        out[t] = entry
    return out
