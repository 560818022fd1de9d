"""arcrun.distributed on a local Ray cluster of 2 CPUs: the same results as
arcrun.run, in its order, also when a worker dies mid-run."""
import os

import pytest

import arcrun

ray = pytest.importorskip("ray")
import arcrun.distributed  # noqa: E402

HERE = os.path.dirname(os.path.abspath(__file__))
ROOT = os.path.dirname(os.path.dirname(HERE))
DEMO = os.path.join(ROOT, "tasks", "demo")
SHARED = os.environ.get("SHARED", os.path.join(ROOT, "..", "shared"))


@pytest.fixture(scope="module")
def cluster(tmp_path_factory):
    die = tmp_path_factory.mktemp("die")
    ray.init(num_cpus=2, include_dashboard=False, object_store_memory=80 * 1024 * 1024,
             runtime_env={"env_vars": {"PYTHONPATH": os.pathsep.join(__import__("sys").path)}})
    yield die
    ray.shutdown()


def programs_and_tasks():
    solvers = os.path.join(SHARED, "corpus", "arc-dsl", "solvers.py")
    if os.path.exists(solvers):
        with open(solvers) as f:
            return arcrun.compile(f.read(), filename=solvers), arcrun.load_tasks(
                os.path.join(SHARED, "arc-agi-1", "training"))
    with open(os.path.join(DEMO, "demo.dsl")) as f:
        return arcrun.compile(f.read(), filename="demo.dsl"), arcrun.load_tasks(DEMO)


def test_same_results_as_a_local_run(cluster):
    p, t = programs_and_tasks()
    local = list(arcrun.run(p, t, jobs=1, ordered=True))
    far = list(arcrun.distributed.run(p, t, shards=4))
    assert far == local and len(local) > 0


def test_python_data_travels_to_the_workers(cluster):
    import json
    data = json.load(open(os.path.join(DEMO, "rot_demo01.json")))
    p = arcrun.compile("def solve_rot_demo01(I):\n    return rot90(I)\n")
    t = arcrun.load_tasks({"rot_demo01": data})
    assert list(arcrun.distributed.run(p, t)) == list(arcrun.run(p, t, jobs=1, ordered=True))


def test_a_killed_worker_loses_nothing(cluster):
    p, t = programs_and_tasks()
    local = list(arcrun.run(p, t, jobs=1, ordered=True))
    os.environ["ARCRUN_TEST_DIE_ONCE"] = str(cluster)
    try:
        ray.shutdown()
        ray.init(num_cpus=2, include_dashboard=False, object_store_memory=80 * 1024 * 1024,
                 runtime_env={"env_vars": {"ARCRUN_TEST_DIE_ONCE": str(cluster),
                                           "PYTHONPATH": os.pathsep.join(__import__("sys").path)}})
        far = list(arcrun.distributed.run(p, t, shards=3))
    finally:
        del os.environ["ARCRUN_TEST_DIE_ONCE"]
    assert len(os.listdir(cluster)) == 3          # every shard's first worker died
    assert far == local                           # none lost, none twice
