"""A full-profile section on a real Dask cluster, started as a user starts one, gives the local records.

The appendix section (the spectra and condition numbers of every system the solvers form, 217
tasks in the full profile, ~20 s on 2 cores) runs three ways through the command line:

* on a cluster a user starts by hand: ``dask scheduler`` and two ``dask worker`` processes,
  reached with ``--scheduler ADDRESS``;
* on a ``LocalCluster`` the command starts itself (``--dask-workers 2``);
* on local processes (``--jobs 2``).

The three stores hold the same task keys and the same rows, column for column, except the
columns named as run-to-run measurements (``time_*`` and what a kind declares, :func:`is_measurement`).  A second run on the cluster
resumes: it computes nothing.
"""
from __future__ import annotations

import json
import math
import os
import signal
import sqlite3
import subprocess
import sys
import time
from pathlib import Path

import pytest

distributed = pytest.importorskip("distributed")

from lssvm_analysis.experiments import is_measurement  # noqa: E402

ROOT = Path(__file__).resolve().parents[1]
DASK = [sys.executable, "-m", "distributed.cli.dask_scheduler"]
WORKER = [sys.executable, "-m", "distributed.cli.dask_worker"]
REPORT = [sys.executable, "-m", "lssvm_analysis.cli", "report", "--profile", "full", "--only", "appendix"]

pytestmark = pytest.mark.slow


def _env():
    old = os.environ.get("PYTHONPATH")
    return dict(os.environ, OPENBLAS_NUM_THREADS="1",
                PYTHONPATH=os.pathsep.join([str(ROOT)] + ([old] if old else [])))


@pytest.fixture(scope="module")
def scheduler(tmp_path_factory):
    """``dask scheduler`` plus two ``dask worker`` processes of one thread each, as a user starts them."""
    tmp = tmp_path_factory.mktemp("cluster")
    file = tmp / "scheduler.json"
    env = _env()
    procs = [subprocess.Popen(DASK + ["--scheduler-file", str(file), "--host", "127.0.0.1", "--port", "0",
                                      "--dashboard-address", ":0"],
                              env=env, stdout=subprocess.DEVNULL, stderr=subprocess.DEVNULL,
                              start_new_session=True)]
    try:
        t0 = time.monotonic()
        while not file.is_file() and time.monotonic() - t0 < 60:
            time.sleep(0.2)
        assert file.is_file(), "the scheduler wrote no scheduler file within 60 s"
        for _ in range(2):
            procs.append(subprocess.Popen(WORKER + ["--scheduler-file", str(file), "--nthreads", "1",
                                                    "--nworkers", "1", "--no-dashboard"],
                                          env=env, stdout=subprocess.DEVNULL, stderr=subprocess.DEVNULL,
                                          start_new_session=True))
        address = json.loads(file.read_text())["address"]
        with distributed.Client(address, timeout=60) as client:
            client.wait_for_workers(2, timeout=120)
        yield address
    finally:
        for p in procs:
            try:
                os.killpg(p.pid, signal.SIGTERM)
            except ProcessLookupError:
                pass
        for p in procs:
            try:
                p.wait(timeout=30)
            except subprocess.TimeoutExpired:
                os.killpg(p.pid, signal.SIGKILL)


def _report(tmp_path, name, *how):
    store, out = tmp_path / f"{name}.sqlite", tmp_path / name
    run = subprocess.run(REPORT + ["--store", str(store), "--out", str(out), *how], env=_env(),
                         capture_output=True, text=True, timeout=1200)
    assert run.returncode == 0, run.stderr[-3000:]
    return store, run.stdout + run.stderr


def _rows(store) -> dict:
    with sqlite3.connect(store) as c:
        return {k: json.loads(row) for k, row in c.execute("SELECT key, row FROM records")}


def _same(a, b) -> bool:
    if isinstance(a, float) and isinstance(b, float) and math.isnan(a) and math.isnan(b):
        return True
    return a == b


def _differences(x: dict, y: dict) -> list:
    out = []
    for key in x:
        cols = set(x[key]) | set(y[key])
        out += [(key, c, x[key].get(c), y[key].get(c)) for c in sorted(cols)
                if not is_measurement(c, x[key].get("kind")) and not _same(x[key].get(c), y[key].get(c))]
    return out


def test_a_full_profile_section_on_a_users_cluster_equals_a_local_cluster_and_local_processes(
        scheduler, tmp_path):
    on_cluster, said = _report(tmp_path, "scheduler", "--scheduler", scheduler)
    on_local_cluster, _ = _report(tmp_path, "localcluster", "--dask-workers", "2")
    on_processes, _ = _report(tmp_path, "processes", "--jobs", "2")
    a, b, c = _rows(on_cluster), _rows(on_local_cluster), _rows(on_processes)
    assert len(a) >= 200 and set(a) == set(b) == set(c)
    assert {r["status"] for r in a.values()} <= {"ok", "breakdown", "not-converged"}  # no "error" row
    assert _differences(a, b) == [] and _differences(a, c) == []
    # resumable: the same command on the same store computes nothing more
    _, again = _report(tmp_path, "scheduler", "--scheduler", scheduler)
    assert "computed in this run: 0" in again, again[-500:]
