"""Sweeps on a real Dask cluster: a LocalCluster of 2 worker processes, 1 thread each.

The records of a Dask run must equal the serial run's in every column but the
wall-clock ``time_*`` ones (and "warnings", which both runs leave empty here).
The second test SIGKILLs a worker in the middle of a task (the task kind does
it to its own process, once); the nanny restarts the worker, the scheduler
reschedules the task, and the sweep still completes with identical records.
"""
from __future__ import annotations

import os
import time
from pathlib import Path

import pandas as pd
import pytest

import _robust_kinds  # noqa: F401  (registers the kinds in this process)
from conftest import HARDWARE

from lssvm_analysis.experiments import SweepSpec, run_sweep
from lssvm_analysis.experiments.runner import TIMING_PREFIX

distributed = pytest.importorskip("distributed")

TESTS = Path(__file__).resolve().parent
ROOT = TESTS.parent


def _det(df):
    cols = [c for c in df.columns if not c.startswith(TIMING_PREFIX)]
    return df[cols].sort_values("key").reset_index(drop=True)


@pytest.fixture(scope="module")
def client(tmp_path_factory):
    # spawned workers import lssvm_analysis from this worktree and the test kinds from tests/
    old = os.environ.get("PYTHONPATH")
    os.environ["PYTHONPATH"] = os.pathsep.join([str(ROOT), str(TESTS)] + ([old] if old else []))
    # any marker a kill-once task creates lands in a temporary directory, never in the repository
    os.environ["LSSVM_KILL_MARKER"] = str(tmp_path_factory.mktemp("dask") / "no-kill")
    t0 = time.perf_counter()
    with distributed.LocalCluster(n_workers=2, threads_per_worker=1, processes=True,
                                  dashboard_address=":0") as cluster, \
            distributed.Client(cluster) as c:
        print(f"LocalCluster up in {time.perf_counter() - t0:.1f} s")
        yield c
    if old is None:
        os.environ.pop("PYTHONPATH", None)
    else:
        os.environ["PYTHONPATH"] = old
    os.environ.pop("LSSVM_KILL_MARKER", None)


def test_fit_sweep_on_local_cluster_equals_serial(client, tmp_path):
    spec = SweepSpec("dask-fit", kind="fit", solvers=["lssvm-schur", "krr", "els-primal"],
                     precisions=HARDWARE, datasets=[("sinc", {"n_train": 20, "n_test": 10})],
                     grid={"C": [1.0, 100.0], "sigma2": [1.0], "eta": [0.05]}, seeds=[0, 1])
    t0 = time.perf_counter()
    dask = run_sweep(spec, tmp_path / "d.sqlite", executor=client, progress=False)
    t_dask = time.perf_counter() - t0
    serial = run_sweep(spec, tmp_path / "s.sqlite", n_jobs=1, progress=False)
    print(f"{len(dask)} fit tasks on the LocalCluster in {t_dask:.1f} s")
    assert len(dask) == len(spec.tasks()) and (dask["status"] == "ok").all()
    pd.testing.assert_frame_equal(_det(dask), _det(serial))


def test_worker_killed_mid_sweep_the_sweep_completes_identically(client, tmp_path):
    marker = tmp_path / "killed"
    client.run(_robust_kinds.set_env, "LSSVM_KILL_MARKER", str(marker))  # the running workers
    os.environ["LSSVM_KILL_MARKER"] = str(marker)  # and workers the nanny restarts
    spec = SweepSpec("dask-kill", kind="robust-kill-once", grid={"x": list(range(12))}, seeds=[None],
                     options={"sleep": 0.2, "kill_at": 5})
    t0 = time.perf_counter()
    dask = run_sweep(spec, tmp_path / "d.sqlite", executor=client, progress=False)
    t_dask = time.perf_counter() - t0
    assert marker.exists(), "no worker was killed: the test did not test anything"
    killed_pid = int(marker.read_text())
    print(f"worker {killed_pid} SIGKILLed mid-task; sweep of 12 tasks done in {t_dask:.1f} s")
    os.environ["LSSVM_KILL_MARKER"] = ""  # the serial run in this process must not kill pytest
    serial = run_sweep(spec, tmp_path / "s.sqlite", n_jobs=1, progress=False)
    assert len(dask) == 12 and (dask["status"] == "ok").all()
    pd.testing.assert_frame_equal(_det(dask), _det(serial))


def test_every_registered_solver_gives_identical_rows_locally_and_on_the_cluster(client, tmp_path):
    # issue 19: every random choice comes from the task's seed, so the arithmetic alone decides a row
    from test_seeds import non_time_rows, seed_sweep
    spec = seed_sweep("dask-seeds")
    dask = run_sweep(spec, tmp_path / "d.sqlite", executor=client, progress=False)
    local = run_sweep(spec, tmp_path / "s.sqlite", n_jobs=1, progress=False)
    assert len(dask) == len(spec.tasks()) and (dask["status"] != "error").all()
    pd.testing.assert_frame_equal(non_time_rows(dask), non_time_rows(local))
