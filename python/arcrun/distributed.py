"""arcrun.run over a Ray cluster: the (program x task) pairs split into
shards, one Ray task each, on the cluster of `address=` or the current
`ray.init()` (a local one when there is none).

    import arcrun, arcrun.distributed
    for r in arcrun.distributed.run(progs, tasks, gpus_per_worker=1):
        ...

Each shard recompiles the programs from their source and loads its tasks
from where the caller's came from (a path every worker can read, or the data
itself), runs them with arcrun.run, and returns its results whole.  A shard
whose worker dies is run again by Ray (max_retries): no result is lost or
counted twice.  The results come back in arcrun.run(ordered=True)'s order, with its values.
Needs the `ray` package (pip install ray).
"""
import os

import arcrun


def _run_shard(source, dialect, filename, origin, ids, kwargs):
    # a test's way to kill a worker mid-run: the first attempt of each shard dies
    die = os.environ.get("ARCRUN_TEST_DIE_ONCE")
    if die:
        marker = os.path.join(die, "shard-%s" % ids[0])
        if not os.path.exists(marker):
            open(marker, "w").close()
            os._exit(1)
    progs = arcrun.compile(source, dialect=dialect, filename=filename)
    if origin[0] == "path":
        tasks = arcrun.load_tasks(origin[1], only=ids)
    else:
        tasks = arcrun.load_tasks(origin[1], task_id=origin[2], only=ids)
    return [tuple(r) for r in arcrun.run(progs, tasks, ordered=True, **kwargs)]


def run(programs, tasks, *, address=None, shards=None, gpus_per_worker=0, max_retries=3,
        all_pairs=False, jobs=1, backend="auto", budget=None, timeout=10.0, progress=None):
    """arcrun.run(ordered=True)'s results, computed on a Ray cluster.  shards: how many
    pieces the task set is cut into (default: two per CPU of the cluster,
    at most one per task); gpus_per_worker: GPUs each shard asks Ray for
    (1 puts one shard on each GPU, with backend='cuda' or 'auto'); jobs:
    threads inside each shard.  progress: as for arcrun.run, told as shards
    finish."""
    import ray

    if not isinstance(programs, arcrun.Programs) or not isinstance(tasks, arcrun.Tasks):
        raise TypeError("run() wants arcrun.compile()'s Programs and arcrun.load_tasks()'s Tasks")
    if tasks.origin is None:
        raise ValueError("these Tasks do not say where they came from")
    if not ray.is_initialized():
        ray.init(address=address)
    ids = list(dict.fromkeys(tasks.ids))
    if shards is None:
        shards = 2 * int(ray.cluster_resources().get("CPU", 1))
    shards = max(1, min(int(shards), len(ids)))
    parts = [ids[k::shards] for k in range(shards)]
    kwargs = dict(all_pairs=all_pairs, jobs=jobs, backend=backend, budget=budget, timeout=timeout)
    remote = ray.remote(_run_shard).options(num_gpus=gpus_per_worker, max_retries=max_retries)
    dialect = programs.dialect
    pending = [remote.remote(programs.source, dialect, programs.filename, tasks.origin, part, kwargs)
               for part in parts if part]
    rows = []
    while pending:
        done, pending = ray.wait(pending, num_returns=1)
        for ref in done:
            got = ray.get(ref)
            rows.extend(got)
            if progress is not None:
                for row in got:
                    progress.update(1) if hasattr(progress, "update") else progress(arcrun.Result(*row))
    rows.sort(key=arcrun._order(programs.names, tasks.ids))
    for row in rows:
        yield arcrun.Result(*row)
