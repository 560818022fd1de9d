"""compile(), load_tasks() and run() against the CLI's results."""
import json
import os
import subprocess

import pytest

import arcrun

HERE = os.path.dirname(os.path.abspath(__file__))
ROOT = os.path.dirname(os.path.dirname(HERE))
DEMO = os.path.join(ROOT, "tasks", "demo")
SHARED = os.environ.get("SHARED", os.path.join(ROOT, "..", "shared"))
ARCRUN = os.environ.get("ARCRUN", os.path.join(ROOT, "arcrun"))


def demo_programs():
    with open(os.path.join(DEMO, "demo.dsl")) as f:
        return arcrun.compile(f.read(), filename="demo.dsl")


def test_compile_names_and_errors():
    p = demo_programs()
    assert p.names == ("solve_rot_demo01", "solve_mirror_demo02", "solve_recolor_demo03",
                       "solve_crop_demo04")
    assert p.dialect == "arc-dsl"
    with pytest.raises(arcrun.CompileError) as e:
        arcrun.compile("def solve_x(I):\n    return rot9(I)\n", filename="bad.py")
    assert (e.value.filename, e.value.lineno, e.value.offset) == ("bad.py", 2, 12)
    with pytest.raises(TypeError):
        arcrun.compile(b"bytes")


def test_run_demo():
    res = list(arcrun.run(demo_programs(), arcrun.load_tasks(DEMO), jobs=2))
    assert len(res) == 16 and all(r.correct is True and r.error is None for r in res)
    rot = {r.sample: r.output for r in res if r.task == "rot_demo01"}
    t = json.load(open(os.path.join(DEMO, "rot_demo01.json")))
    assert rot["train/0"] == tuple(map(tuple, t["train"][0]["output"]))


def test_task_data_as_lists_tuples_and_numpy():
    t = json.load(open(os.path.join(DEMO, "rot_demo01.json")))
    p = arcrun.compile("def solve_rot_demo01(I):\n    return rot90(I)\n")
    as_tuples = {k: [{kk: tuple(map(tuple, g)) for kk, g in s.items()} for s in v] for k, v in t.items()}
    for data in (t, as_tuples):
        res = list(arcrun.run(p, arcrun.load_tasks(data, task_id="rot_demo01"), jobs=1))
        assert [r.correct for r in res] == [True] * 4
    np = pytest.importorskip("numpy")
    as_numpy = {k: [{kk: np.array(g) for kk, g in s.items()} for s in v] for k, v in t.items()}
    res = list(arcrun.run(p, arcrun.load_tasks({"rot_demo01": as_numpy}), jobs=1))
    assert [r.correct for r in res] == [True] * 4


def test_bad_tasks_and_arguments():
    with pytest.raises(ValueError, match="train"):
        arcrun.load_tasks({"train": [{"input": [[1, 2], [3]], "output": [[1]]}], "test": []})
    with pytest.raises(ValueError):
        arcrun.load_tasks(os.path.join(DEMO, "nowhere.json"))
    with pytest.raises(TypeError):
        arcrun.load_tasks(42)
    with pytest.raises(TypeError):
        list(arcrun.run("not programs", arcrun.load_tasks(DEMO)))
    with pytest.raises(ValueError):
        list(arcrun.run(demo_programs(), arcrun.load_tasks(DEMO), backend="quantum"))


def test_errors_come_back_located_as_the_cli_says_them():
    p = arcrun.compile("from dsl import *\ndef program(I):\n    O = first(())\n    return O\n")
    res = list(arcrun.run(p, arcrun.load_tasks(os.path.join(DEMO, "rot_demo01.json")), jobs=1))
    assert {r.error for r in res} == {"StopIteration: "} and {r.output for r in res} == {None}
    assert {r.correct for r in res} == {False}


def nested_program(depth):
    lines = ["def program(I):", "    x0 = I"]
    lines += ["    x%d = initset(x%d)" % (k, k - 1) for k in range(1, depth + 1)]
    return arcrun.compile("\n".join(lines + ["    return x%d" % depth, ""]))


def test_deep_values_convert_or_raise():
    task = arcrun.load_tasks(os.path.join(DEMO, "rot_demo01.json"))
    t = json.load(open(os.path.join(DEMO, "rot_demo01.json")))
    res = list(arcrun.run(nested_program(5000), task, jobs=1))
    assert res[0].sample == "train/0" and res[0].error is None
    x = res[0].output
    for _ in range(5000):
        (x,) = x
    assert x == tuple(map(tuple, t["train"][0]["input"]))
    with pytest.raises(RecursionError):
        list(arcrun.run(nested_program(30000), task, jobs=1))


@pytest.mark.skipif(not os.path.exists(os.path.join(SHARED, "corpus", "arc-dsl", "solvers.py")),
                    reason="../shared is not here")
def test_400_solvers_on_training_equal_the_cli():
    solvers = os.path.join(SHARED, "corpus", "arc-dsl", "solvers.py")
    training = os.path.join(SHARED, "arc-agi-1", "training")
    with open(solvers) as f:
        p = arcrun.compile(f.read(), filename=solvers)
    got = {(r.program, r.task, r.sample): r for r in arcrun.run(p, arcrun.load_tasks(training))}
    cli = subprocess.run([ARCRUN, "--format=jsonl", solvers, training], capture_output=True, text=True,
                         check=True).stdout.splitlines()
    n = 0
    for line in cli:
        d = json.loads(line)
        if "summary" in d:
            continue
        r = got[d["program"], d["task"], d["sample"]]
        assert (repr(r.output) if r.error is None else None) == d["output"], d["program"]
        assert r.error == d["error"] and r.correct == d["correct"]
        n += 1
    assert n == len(got) == 1718


@pytest.mark.skipif(not os.path.exists(os.path.join(SHARED, "corpus", "arc-dsl", "solvers.py")),
                    reason="../shared is not here")
@pytest.mark.parametrize("jobs", [1, 2])
def test_ctrl_c_keeps_what_finished(jobs):
    import signal
    import threading
    solvers = os.path.join(SHARED, "corpus", "arc-dsl", "solvers.py")
    with open(solvers) as f:
        p = arcrun.compile(f.read(), filename=solvers)
    ts = arcrun.load_tasks(os.path.join(SHARED, "arc-agi-1", "training"))
    # the interrupt comes a moment after the first result, not at a fixed
    # time from the start: a loaded host (a sanitizer build) may not have
    # finished any pair by then
    timer = threading.Timer(0.3, lambda: os.kill(os.getpid(), signal.SIGINT))
    got = []
    try:
        with pytest.raises(KeyboardInterrupt):
            for r in arcrun.run(p, ts, all_pairs=True, jobs=jobs):
                if not got:
                    timer.start()
                got.append(r)
    finally:
        timer.cancel()
    # all pairs would be 160,000 programs x tasks; a part finished, each whole
    assert 0 < len(got) < 400 * 1718
    assert all(isinstance(r, arcrun.Result) and r.program.startswith("solve_") for r in got)


def test_streaming_and_ordered_give_the_same_results():
    p, t = demo_programs(), arcrun.load_tasks(DEMO)
    streamed = list(arcrun.run(p, t, jobs=2))
    ordered = list(arcrun.run(p, t, jobs=2, ordered=True))
    assert sorted(streamed) == sorted(ordered) and len(ordered) == 16
    assert [r.task for r in ordered] == ["rot_demo01"] * 4 + ["mirror_demo02"] * 4 + \
        ["recolor_demo03"] * 4 + ["crop_demo04"] * 4
    seen = []
    list(arcrun.run(p, t, jobs=1, progress=seen.append))
    assert len(seen) == 16


def test_leaving_the_loop_early_stops_the_run():
    p, t = demo_programs(), arcrun.load_tasks(DEMO)
    for r in arcrun.run(p, t, jobs=1):
        break
    assert len(list(arcrun.run(p, t, jobs=1))) == 16     # and the next run is whole


def test_batt_programs_return_their_records():
    batt = os.path.join(ROOT, "tests", "batt", "mini_batt.py")
    with open(batt) as f:
        p = arcrun.compile(f.read(), filename=batt)
    assert p.dialect == "tokpidjin"
    res = list(arcrun.run(p, arcrun.load_tasks(os.path.join(DEMO, "rot_demo01.json")), jobs=1, ordered=True))
    cli = [json.loads(l) for l in subprocess.run([ARCRUN, "--format=jsonl", batt, os.path.join(DEMO, "rot_demo01.json")],
                                                 capture_output=True, text=True, check=True).stdout.splitlines()]
    cli = [d for d in cli if "summary" not in d]
    assert len(res) == len(cli) == 8
    for r, d in zip(res, cli):
        assert (r.sample, r.C) == (d["sample"], d["C"])
        o, s = r.output
        assert [list(x[:3]) + [repr(x[3])] for x in o] == d["o"]
        assert [list(x[:3]) + [repr(x[3])] for x in s] == d["s"]


def test_submission_as_the_cli_writes_it(tmp_path):
    vote = os.path.join(ROOT, "tests", "submission", "vote.py")
    with open(vote) as f:
        p = arcrun.compile(f.read(), filename=vote)
    t = arcrun.load_tasks(DEMO)
    sub = arcrun.submission(arcrun.run(p, t, all_pairs=True, ordered=True), t, all_pairs=True)
    subprocess.run([ARCRUN, "-q", "--all-pairs", "--submission=%s" % (tmp_path / "s.json"), vote, DEMO],
                   check=True, capture_output=True)
    assert sub == json.load(open(tmp_path / "s.json"))
    with open(os.path.join(DEMO, "demo.dsl")) as f:
        p = arcrun.compile(f.read())
    sub = arcrun.submission(arcrun.run(p, t, ordered=True), t)
    subprocess.run([ARCRUN, "-q", "--submission=%s" % (tmp_path / "p.json"), os.path.join(DEMO, "demo.dsl"), DEMO],
                   check=True, capture_output=True)
    assert sub == json.load(open(tmp_path / "p.json"))


@pytest.mark.skipif(not os.path.exists(os.path.join(SHARED, "corpus", "tokpidjin", "test_batt.py")),
                    reason="../shared is not here")
def test_test_batt_on_forty_training_tasks_equals_the_cli(tmp_path):
    batt = os.path.join(SHARED, "corpus", "tokpidjin", "test_batt.py")
    training = os.path.join(SHARED, "arc-agi-1", "training")
    some = sorted(os.listdir(training))[:40]
    for f in some:
        os.symlink(os.path.join(training, f), tmp_path / f)
    with open(batt) as f:
        p = arcrun.compile(f.read(), filename=batt)
    res = {(r.task, r.sample, r.C): r for r in arcrun.run(p, arcrun.load_tasks(str(tmp_path)))}
    cli = [json.loads(l) for l in subprocess.run([ARCRUN, "--format=jsonl", batt, str(tmp_path)],
                                                 capture_output=True, text=True, check=True).stdout.splitlines()]
    cli = [d for d in cli if "summary" not in d]
    assert len(cli) == len(res) > 100
    for d in cli:
        r = res[d["task"], d["sample"], d["C"]]
        o, s = r.output
        assert [list(x[:3]) + [repr(x[3])] for x in o] == d["o"]
        assert [list(x[:3]) + [repr(x[3])] for x in s] == d["s"]
