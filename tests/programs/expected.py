"""Write a program's CPython results on tasks/demo, as tests/programs.test
compares them: one line per (program, task, sample), the repr of the output
or the exception as 'Type: message'.

    python3 tests/programs/expected.py ARC_DSL_CHECKOUT tests/programs/helpers.py
"""
import importlib.util, json, os, sys

ref, prog = sys.argv[1], sys.argv[2]
sys.path.insert(0, ref)
sys.setrecursionlimit(1000)
spec = importlib.util.spec_from_file_location("prog", prog)
mod = importlib.util.module_from_spec(spec)
spec.loader.exec_module(mod)
demo = os.path.join(os.path.dirname(os.path.abspath(__file__)), "..", "..", "tasks", "demo")
tasks = sorted(f[:-5] for f in os.listdir(demo) if f.endswith(".json"))
names = [n for n in vars(mod) if callable(getattr(mod, n)) and
         getattr(getattr(mod, n), "__module__", "") == "prog"]
for name in names:
    own = name.split("_", 1)[1] if name.startswith(("solve_", "verify_")) else None
    if own is None and not name.startswith("program"):
        continue                      # a helper: arcrun does not run it alone
    for tid in tasks:
        if own is not None and own != tid:
            continue
        t = json.load(open(os.path.join(demo, tid + ".json")))
        samples = [("train/%d" % i, p) for i, p in enumerate(t["train"])] + \
                  [("test/%d" % i, p) for i, p in enumerate(t["test"])]
        for sname, p in samples:
            try:
                r = repr(getattr(mod, name)(tuple(map(tuple, p["input"]))))
            except Exception as e:
                r = "%s: %s" % (type(e).__name__, e)
            print("%s %s %s %s" % (name, tid, sname, r))
