"""Worker processes die with their parent; two processes on one store split the work.

A driver script runs a sweep of ``robust-sleepy`` tasks (0.4 s each) on two
local worker processes.  Once the workers exist and some rows are stored the
test signals the *parent only* (SIGKILL, SIGTERM or SIGINT, i.e. Ctrl-C to the
one process) and asserts that no worker is alive 5 s later and that the
parent's stdout pipe reaches EOF (``report | tee log`` ends).  A rerun then
completes and its records equal a clean serial run in every non-``time_*``
column.
"""
from __future__ import annotations

import os
import signal
import sqlite3
import subprocess
import sys
import textwrap
import time
from pathlib import Path

import pandas as pd
import psutil
import pytest

import _robust_kinds  # noqa: F401  (registers the kinds)
from lssvm_analysis.experiments import SweepSpec, load_records, run_sweep
from lssvm_analysis.experiments.runner import TIMING_PREFIX

TESTS = Path(__file__).resolve().parent
ROOT = TESTS.parent
N_TASKS = 16
SLEEP = 0.4


def _spec(sleep=SLEEP, name="lifecycle"):
    return SweepSpec(name, kind="robust-sleepy", grid={"x": list(range(N_TASKS))},
                     seeds=[None], options={"sleep": sleep})


# The driver restores Python's Ctrl-C handler: a process started from a background job of a
# non-interactive shell (``make test &``, some CI runners) inherits SIGINT ignored, and
# Python then never installs its handler, so SIGINT would do nothing (seen: the sweep ran
# to "finished").  What is tested is what Ctrl-C does to a process that receives it.
DRIVER = textwrap.dedent("""
    import signal
    import sys
    signal.signal(signal.SIGINT, signal.default_int_handler)
    sys.path[:0] = [{root!r}, {tests!r}]
    import _robust_kinds
    from lssvm_analysis.experiments import SweepSpec, run_sweep
    spec = SweepSpec("lifecycle", kind="robust-sleepy", grid={{"x": list(range({n}))}},
                     seeds=[None], options={{"sleep": {sleep}}})
    import time
    print("started", flush=True)
    t0 = time.perf_counter()
    run_sweep(spec, sys.argv[1], n_jobs=int(sys.argv[2]), progress=False)
    print("finished", time.perf_counter() - t0, flush=True)
""")


def _driver(tmp_path, sleep=SLEEP):
    script = tmp_path / "driver.py"
    script.write_text(DRIVER.format(root=str(ROOT), tests=str(TESTS), n=N_TASKS, sleep=sleep))
    return script


def _rows(store) -> int:
    try:
        with sqlite3.connect(store, timeout=1) as con:
            return con.execute("SELECT COUNT(*) FROM records").fetchone()[0]
    except sqlite3.Error:
        return 0


def _deterministic(df):
    """Every column but wall-clock ``time_*`` and the inputs that differ on purpose (sleep)."""
    cols = [c for c in df.columns if not c.startswith(TIMING_PREFIX) and c not in ("key", "options")]
    return df[cols].sort_values("x").reset_index(drop=True)


@pytest.fixture(scope="module")
def serial(tmp_path_factory):
    store = tmp_path_factory.mktemp("serial") / "s.sqlite"
    return _deterministic(run_sweep(_spec(sleep=0.0), store, n_jobs=1, progress=False))


@pytest.mark.parametrize("sig", [signal.SIGKILL, signal.SIGTERM, signal.SIGINT],
                         ids=["SIGKILL", "SIGTERM", "SIGINT"])
def test_workers_die_with_their_parent_and_rerun_completes(sig, tmp_path, serial):
    store = str(tmp_path / "s.sqlite")
    env = {**os.environ, "OPENBLAS_NUM_THREADS": "1"}
    proc = subprocess.Popen([sys.executable, str(_driver(tmp_path)), store, "2"], cwd=tmp_path,
                            stdout=subprocess.PIPE, stderr=subprocess.DEVNULL, env=env)
    parent = psutil.Process(proc.pid)
    deadline = time.monotonic() + 60
    workers = []
    while time.monotonic() < deadline:
        workers = parent.children(recursive=True)
        if len(workers) >= 2 and _rows(store) >= 2:
            break
        time.sleep(0.05)
    assert len(workers) >= 2, "the driver never started its workers"
    assert _rows(store) < N_TASKS, "the sweep finished before it could be interrupted"
    t0 = time.monotonic()
    os.kill(proc.pid, sig)
    gone, alive = psutil.wait_procs(workers, timeout=5)
    elapsed = time.monotonic() - t0
    assert not alive, f"workers {[p.pid for p in alive]} outlived their parent by 5 s ({sig!r})"
    out, _ = proc.communicate(timeout=5)  # EOF: no worker keeps the pipe open
    assert b"finished" not in out
    print(f"{sig!r}: all workers gone {elapsed:.2f} s after the signal")
    # the rerun resumes and completes; its records equal a clean serial run
    rerun = subprocess.run([sys.executable, str(_driver(tmp_path)), store, "2"], cwd=tmp_path,
                           capture_output=True, env=env, timeout=120)
    assert rerun.returncode == 0, rerun.stderr.decode()[-2000:]
    df = _deterministic(load_records(store, _spec()))
    assert len(df) == N_TASKS
    pd.testing.assert_frame_equal(df, serial, check_like=True)
    with sqlite3.connect(store) as con:
        assert con.execute("SELECT COUNT(*) FROM leases").fetchone()[0] == 0


def test_two_processes_on_one_store_split_the_work(tmp_path, serial):
    """Both finish and every task is computed once: the two sweeps' work adds up to one sweep's.

    Computing every task twice would cost each process N_TASKS * 0.3 s = 4.8 s of
    sleeping, 9.6 s in sum; split by leases the sum is 4.8 s plus the polling of
    tasks the other process holds (<= 0.5 s per wait) and SQLite commits.  The bound
    1.5 * 4.8 s separates the two outcomes; imports (seconds on a loaded machine) are
    outside the measured span.
    """
    store = str(tmp_path / "s.sqlite")
    env = {**os.environ, "OPENBLAS_NUM_THREADS": "1"}
    script = _driver(tmp_path, sleep=0.3)
    procs = [subprocess.Popen([sys.executable, str(script), store, "1"], cwd=tmp_path,
                              stdout=subprocess.PIPE, stderr=subprocess.PIPE, env=env)
             for _ in range(2)]
    work = []
    for p in procs:
        out, err = p.communicate(timeout=120)
        assert p.returncode == 0, err.decode()[-2000:]
        work.append(float(out.decode().split("finished")[1]))
    print(f"two processes on one store: work {work[0]:.2f} s + {work[1]:.2f} s for {N_TASKS} "
          f"tasks of 0.3 s")
    assert sum(work) < 1.5 * N_TASKS * 0.3
    df = _deterministic(load_records(store, _spec(sleep=0.3)))
    pd.testing.assert_frame_equal(df, serial, check_like=True)
    with sqlite3.connect(store) as con:
        assert con.execute("SELECT COUNT(*) FROM records").fetchone()[0] == N_TASKS
        assert con.execute("SELECT COUNT(*) FROM leases").fetchone()[0] == 0
