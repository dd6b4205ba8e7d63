"""Sweeps on a real Dask cluster: a LocalCluster of 2 worker processes, 1 thread each.

The records of a Dask run must equal the serial run's in every column but the
wall-clock ``time_*`` ones (and "warnings", which both runs leave empty here).
The second test SIGKILLs a worker in the middle of a task (the task kind does
it to its own process, once); the nanny restarts the worker, the scheduler
reschedules the task, and the sweep still completes with identical records.
"""
from __future__ import annotations

import contextlib
import os
import sys
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


def test_a_task_that_kills_every_worker_is_an_error_row_and_the_sweep_goes_on(tmp_path, monkeypatch):
    """Dask gives up on a task whose workers all died running it (KilledWorker, e.g. a fit beyond a
    nanny's memory limit): that task's row says so, status "error", and the sweep's other tasks are
    stored, where the whole report used to stop on a traceback (Vieira's full profile, once)."""
    import dask

    monkeypatch.setenv("PYTHONPATH", os.pathsep.join([str(ROOT), str(TESTS), os.environ.get("PYTHONPATH", "")]))
    monkeypatch.setenv("LSSVM_KILL_ALWAYS", "1")   # inherited by the cluster's workers, not read here
    spec = SweepSpec("dask-kill-always", kind="robust-kill-always", grid={"x": list(range(6))}, seeds=[None],
                     options={"sleep": 0.05, "kill_at": 3})
    with dask.config.set({"distributed.scheduler.allowed-failures": 0}), \
            distributed.LocalCluster(n_workers=1, threads_per_worker=1, processes=True,
                                     dashboard_address=":0") as cluster, distributed.Client(cluster) as c:
        rows = run_sweep(spec, tmp_path / "k.sqlite", executor=c, progress=False)
    by_x = rows.set_index("x")
    assert len(rows) == 6
    assert by_x.loc[3, "status"] == "error" and by_x.loc[3, "error_type"] == "KilledWorker"
    assert "rerun to retry it" in by_x.loc[3, "message"]
    # Dask counts a death against every task the worker was processing: with allowed-failures = 0 a task
    # queued beside the killer (worker-saturation: up to 2 on a 1-thread worker) may share its fate; the
    # rest ran and were stored
    others = by_x.drop(index=3)
    assert (others.status.eq("ok") | others.error_type.eq("KilledWorker")).all() and others.status.eq("ok").sum() >= 4


def test_every_registered_solver_gives_identical_rows_locally_and_on_the_cluster(client, tmp_path):
    # issue 19: every random choice comes from the task's seed, so the arithmetic alone decides a row
    from test_seeds import non_time_rows, seed_sweep
    spec = seed_sweep("dask-seeds")
    dask = run_sweep(spec, tmp_path / "d.sqlite", executor=client, progress=False)
    local = run_sweep(spec, tmp_path / "s.sqlite", n_jobs=1, progress=False)
    assert len(dask) == len(spec.tasks()) and (dask["status"] != "error").all()
    pd.testing.assert_frame_equal(non_time_rows(dask), non_time_rows(local))


# --- faults of a real cluster: a `dask scheduler` and a `dask worker` process (issue 42) ----------------

def _free_port() -> int:
    import socket

    with socket.socket() as s:
        s.bind(("127.0.0.1", 0))
        return s.getsockname()[1]


def _env():
    return dict(os.environ, PYTHONPATH=os.pathsep.join([str(ROOT), str(TESTS)]), OPENBLAS_NUM_THREADS="1",
                LSSVM_KILL_MARKER="")


def _start_cluster(port: int):
    """A scheduler process on ``port`` and one single-threaded worker process: (scheduler, worker)."""
    import subprocess

    dask_bin = Path(sys.executable).with_name("dask")
    cmd = [str(dask_bin)] if dask_bin.exists() else [sys.executable, "-m", "distributed.cli.dask_scheduler"]
    addr = f"tcp://127.0.0.1:{port}"
    sched = subprocess.Popen([*cmd, "scheduler", "--host", "127.0.0.1", "--port", str(port), "--no-dashboard"]
                             if dask_bin.exists() else [*cmd, "--host", "127.0.0.1", "--port", str(port),
                                                        "--no-dashboard"],
                             env=_env(), stdout=subprocess.DEVNULL, stderr=subprocess.DEVNULL)
    wcmd = ([str(dask_bin), "worker"] if dask_bin.exists() else [sys.executable, "-m", "distributed.cli.dask_worker"])
    worker = subprocess.Popen([*wcmd, addr, "--nthreads", "1", "--nworkers", "1", "--no-dashboard"],
                              env=_env(), stdout=subprocess.DEVNULL, stderr=subprocess.DEVNULL)
    return sched, worker


def _stop(*procs):
    for p in procs:  # only the processes this test started, by their own handles
        if p.poll() is None:
            p.kill()
        p.wait(timeout=30)


def _stored(db) -> dict:
    """key -> written time of the rows in the store (empty while the store has no table yet)."""
    import sqlite3

    try:
        with contextlib.closing(sqlite3.connect(db)) as con:
            return dict(con.execute("SELECT key, finished FROM records"))
    except sqlite3.Error:
        return {}


def test_scheduler_killed_mid_run_one_line_exit_1_and_the_rerun_resumes(tmp_path):
    """``compare --scheduler`` on a real scheduler process that is SIGKILLed once rows are stored: one
    line on stderr naming the address and "rerun the same command to resume", exit status 1, no
    traceback; the same command on a new scheduler at the same address recomputes nothing stored."""
    import subprocess

    import numpy as np

    rng = np.random.default_rng(0)
    X = rng.uniform(-3, 3, (160, 2))   # mp50 fits of ~120 training rows: seconds each, so the kill lands mid-run
    data = tmp_path / "f.csv"
    pd.DataFrame({"a": X[:, 0], "b": X[:, 1], "y": np.sinc(X[:, 0]) + 0.05 * X[:, 1]}).to_csv(data, index=False)
    port = _free_port()
    out, db = tmp_path / "out", tmp_path / "out" / "compare.sqlite"
    argv = [sys.executable, "-m", "lssvm_analysis.cli", "compare", "--data", str(data), "--target", "y",
            "--solvers", "krr,lssvm-schur", "--precisions", "float64,mp50", "--C", "10",
            "--scheduler", f"tcp://127.0.0.1:{port}", "--out", str(out), "--no-progress"]
    sched, worker = _start_cluster(port)
    try:
        run = subprocess.Popen(argv, env=_env(), stdout=subprocess.PIPE, stderr=subprocess.PIPE, text=True)
        t0 = time.perf_counter()
        while not _stored(db) and run.poll() is None and time.perf_counter() - t0 < 300:
            time.sleep(0.2)
        assert run.poll() is None, f"the run ended before any row was stored: {run.communicate()}"
        sched.kill()                     # the scheduler dies mid-run
        t_kill = time.perf_counter()
        stdout, stderr = run.communicate(timeout=120)
        print(f"scheduler killed after {t_kill - t0:.1f} s; the command ended {time.perf_counter() - t_kill:.1f} s later")
    finally:
        _stop(sched, worker)
    assert run.returncode == 1, stderr
    assert stderr.count("\n") == 1 and "Traceback" not in stderr, stderr
    assert stderr.startswith(f"lssvm-analysis: the Dask scheduler at tcp://127.0.0.1:{port} was lost; "
                             "rerun the same command to resume"), stderr
    before = _stored(db)
    assert before and f"({len(before)} records kept)" in stderr
    sched, worker = _start_cluster(port)   # the same address again
    try:
        rerun = subprocess.run(argv, env=_env(), capture_output=True, text=True, timeout=600)
    finally:
        _stop(sched, worker)
    assert rerun.returncode == 0, rerun.stderr
    after = _stored(db)
    assert len(after) > len(before)
    assert {k: after[k] for k in before} == before   # what was stored was resumed from, not recomputed
    assert (out / "index.html").is_file()


def test_unreachable_scheduler_gives_up_within_its_timeout_and_leaves_nothing(tmp_path):
    """Nobody listens at the address: one line, exit status 2, before any work (no output directory,
    no store file)."""
    import subprocess

    data = tmp_path / "f.csv"
    data.write_text("a,y\n" + "".join(f"{i},{(i * 7) % 5}\n" for i in range(12)))
    port = _free_port()
    out, store = tmp_path / "out", tmp_path / "s.sqlite"
    t0 = time.perf_counter()
    res = subprocess.run([sys.executable, "-m", "lssvm_analysis.cli", "compare", "--data", str(data),
                          "--target", "y", "--scheduler", f"tcp://127.0.0.1:{port}", "--scheduler-timeout", "2",
                          "--out", str(out), "--store", str(store)],
                         env=_env(), capture_output=True, text=True, timeout=120)
    print(f"refused after {time.perf_counter() - t0:.1f} s (timeout 2 s, plus the interpreter's start-up)")
    assert res.returncode == 2
    assert res.stderr.count("\n") == 1 and "Traceback" not in res.stderr
    assert f"could not reach the Dask scheduler at --scheduler tcp://127.0.0.1:{port} within 2 s" in res.stderr
    assert not out.exists() and not store.exists()


def test_batches_on_local_cluster_equal_serial(client, tmp_path):
    """Tasks that share work (robust-batch: groups of three) go to one worker as one batch; the rows
    equal the serial run's, which runs the same batches in-process."""
    spec = SweepSpec("dask-batch", kind="robust-batch", grid={"g": [-1.0, 2.0, 3.0], "x": [1.0, 2.0, 5.0]},
                     seeds=[0, 1], options={"log": str(tmp_path / "calls.log")})
    dask = run_sweep(spec, tmp_path / "d.sqlite", executor=client, progress=False)
    calls = sorted(line.split()[0] for line in (tmp_path / "calls.log").read_text().splitlines())
    assert calls == ["alone"] * 6 + ["batch3"] * 4
    serial = run_sweep(spec, tmp_path / "s.sqlite", n_jobs=1, progress=False)
    assert len(dask) == 18 and (dask["status"] == "ok").all()
    pd.testing.assert_frame_equal(_det(dask), _det(serial))
