"""Gates of the experiments layer: declarative, resumable, parallel records.

The engine is tested with tiny task kinds registered here at import time
(module-level functions, so worker processes find them by importing this
module); kind "fit" is tested on ``lssvm-schur`` over a small generated set.
"""
from __future__ import annotations

import concurrent.futures as cf
import hashlib
import json
import math
import multiprocessing
import os
import subprocess
import sys
import textwrap

import numpy as np
import pandas as pd
import pytest

from conftest import HARDWARE

import lssvm_analysis as la
from lssvm_analysis.datasets import UnknownDatasetError
from lssvm_analysis.experiments import (SPEC_VERSION, TIMING_PREFIX, Store, SweepSpec,
                                        UnknownTaskKindError, canonical_json, load_records,
                                        register_task_kind, run_sweep, task_kinds)

# ---------------------------------------------------------------------------
# Tiny task kinds (module level: importable by worker processes)
# ---------------------------------------------------------------------------
_INTERRUPT = {"after": None, "calls": 0}  # in-process interruption switch (n_jobs=1 only)


def _log_call(task):
    """Append the task key to options["log"]: counts calls across processes."""
    log = task.options.get("log")
    if log:
        with open(log, "a") as fh:
            fh.write(task.key + "\n")


def toy_row(task):
    """Deterministic in (params, seed): a seeded draw, a function of the grid values."""
    _log_call(task)
    _INTERRUPT["calls"] += 1
    if _INTERRUPT["after"] is not None and _INTERRUPT["calls"] > _INTERRUPT["after"]:
        raise KeyboardInterrupt  # simulated Ctrl-C after `after` rows
    a = task.params["a"]
    if a == "fail":
        raise ZeroDivisionError("a='fail' asks for an error")
    if os.environ.get("LSSVM_TEST_INTERRUPT_A") == str(a):
        raise KeyboardInterrupt  # simulated Ctrl-C inside a worker process
    rng = np.random.default_rng(task.seed)
    return {"draw": float(rng.standard_normal()), "value": a * 2.0, "time_sleep": 0.0}


def special_values_row(task):
    """Values that JSON and pandas must carry unchanged."""
    return {"nan": float("nan"), "pinf": math.inf, "ninf": -math.inf, "negzero": -0.0,
            "subnormal": 5e-324, "huge": 1.7976931348623157e308, "bigint": 2**62 + 1,
            "np_float32": np.float32(0.1), "np_int": np.int64(-7), "np_bool": np.bool_(True),
            "text": "Ω_e ≥ 0 \"quoted\"", "none": None, "status": task.params["outcome"]}


def breakdown_like_row(task):
    """A kind that reports its own outcome, as kind "fit" does for a breakdown."""
    return {"status": "breakdown", "message": "pivot -1e-17 at step 3", "breakdown_step": 3}


def _no_validation(spec):
    return None


def _drop_eta_for_plain(solver, params):
    return {k: v for k, v in params.items() if solver != "plain" or k != "eta"}


register_task_kind("toy", toy_row, validate=_no_validation)
register_task_kind("toy-registry", toy_row)  # default validation against the registries
register_task_kind("toy-special", special_values_row, validate=_no_validation)
register_task_kind("toy-breakdown", breakdown_like_row, validate=_no_validation)
register_task_kind("toy-select", toy_row, validate=_no_validation, select_params=_drop_eta_for_plain)


@pytest.fixture(autouse=True)
def _reset_interrupt():
    _INTERRUPT.update(after=None, calls=0)
    yield
    _INTERRUPT.update(after=None, calls=0)


def toy_spec(tmp_path=None, *, name="toy", a=(1, 2, 3), b=(0.5, 2.0), seeds=(0, 1), **kw):
    options = {"log": str(tmp_path / "calls.log")} if tmp_path is not None else {}
    return SweepSpec(name, kind=kw.pop("kind", "toy"), grid={"a": list(a), "b": list(b)},
                     seeds=list(seeds), options=options, **kw)


def logged_keys(tmp_path) -> list[str]:
    path = tmp_path / "calls.log"
    return path.read_text().split() if path.exists() else []


def deterministic(df: pd.DataFrame) -> pd.DataFrame:
    """The records without wall-clock columns (the only non-deterministic ones)."""
    return df.drop(columns=[c for c in df.columns if c.startswith(TIMING_PREFIX)])


# ---------------------------------------------------------------------------
# Spec expansion and keys
# ---------------------------------------------------------------------------
def test_expansion_is_deterministic_with_stable_content_keys():
    spec = toy_spec()
    same = SweepSpec("another-name", kind="toy", grid={"a": np.array([1, 2, 3]),
                                                       "b": [np.float64(0.5), 2.0]},
                     seeds=[np.int64(0), 1])
    tasks = spec.tasks()
    assert len(tasks) == 3 * 2 * 2
    # same inputs, other name and other container types: the same keys in the same order
    assert [t.key for t in tasks] == [t.key for t in same.tasks()]
    assert len({t.key for t in tasks}) == len(tasks)
    # order: seeds outside the grid, last grid key fastest
    assert [(t.seed, t.params["a"], t.params["b"]) for t in tasks[:3]] == [(0, 1, 0.5), (0, 1, 2.0),
                                                                       (0, 2, 0.5)]
    # the key is the hash of the canonical JSON of the inputs and the spec version
    t = tasks[0]
    assert t.identity()["spec_version"] == SPEC_VERSION
    assert t.key == hashlib.sha256(canonical_json(t.identity()).encode()).hexdigest()[:24]
    # changing one grid value changes exactly the keys of the tasks that use it
    moved = {x.key for x in toy_spec(b=(0.5, 3.0)).tasks()}
    kept = {x.key for x in tasks if x.params["b"] == 0.5}
    assert moved & {x.key for x in tasks} == kept


def test_spec_is_a_value_and_leaves_the_callers_containers_alone():
    grid, options, datasets = {"a": [1, 2]}, {"o": [1]}, [("sinc", {"n_train": 5})]
    spec = SweepSpec("v", kind="toy", grid=grid, options=options, datasets=datasets)
    assert grid == {"a": [1, 2]} and options == {"o": [1]} and datasets == [("sinc", {"n_train": 5})]
    grid["a"].append(3)  # later changes to the caller's objects do not reach the spec
    assert spec.grid["a"] == (1, 2) and len(spec.tasks()) == 2
    with pytest.raises(TypeError):
        spec.grid["b"] = (1,)


def test_select_params_merges_the_duplicates_it_creates():
    spec = SweepSpec("sel", kind="toy-select", solvers=["plain", "thresholded"],
                     grid={"a": [1, 2], "eta": [1e-3, 1e-2]})
    tasks = spec.tasks()
    plain = [t for t in tasks if t.solver == "plain"]
    assert len(plain) == 2 and all("eta" not in t.params for t in plain)
    assert len(tasks) - len(plain) == 4


def test_tasks_and_specs_pickle_and_serialize_to_equal_values():
    import pickle

    for t in toy_spec().tasks():
        u = pickle.loads(pickle.dumps(t))
        assert u == t and u.key == t.key and dict(u.params) == dict(t.params)
    spec = SweepSpec("s", kind="toy", datasets=["sinc", ("sinc", {"n_train": 20})],
                     grid={"a": [1, 2.5]}, options={"nested": {"k": [1, None]}})
    for copy in (pickle.loads(pickle.dumps(spec)),
                 SweepSpec.from_dict(json.loads(canonical_json(spec.to_dict())))):
        assert copy == spec and hash(copy) == hash(spec)
        assert [t.key for t in copy.tasks()] == [t.key for t in spec.tasks()]


# ---------------------------------------------------------------------------
# Validation: typed errors up front, before anything runs or is written
# ---------------------------------------------------------------------------
@pytest.mark.parametrize("kwargs, error, match", [
    ({"grid": {"a": 1.0}}, TypeError, r"list of values for grid\['a'\].*grid\['a'\]=1.0"),
    ({"grid": {"a": [[1, 2]]}}, TypeError, r"JSON scalar.*grid\['a'\]=\[1, 2\]"),
    ({"grid": {"status": [1]}}, ValueError, r"reserved.*got grid key 'status'"),
    ({"grid": {"a": []}}, ValueError, r"at least one value.*grid\['a'\]=\[\]"),
    ({"seeds": [-1]}, TypeError, r"non-negative int seeds.*seeds=\[-1\]"),
    ({"seeds": [0, 0]}, ValueError, r"distinct seeds.*seeds=\[0, 0\]"),
    ({"solvers": "lssvm-schur"}, TypeError, r"list of solver names.*solvers='lssvm-schur'"),
    ({"datasets": [("sinc", {"seed": 3})]}, ValueError, r"seed in SweepSpec.seeds"),
    ({"datasets": [3]}, TypeError, r"dataset entry.*got datasets entry 3"),
    ({"options": {"x": object()}}, TypeError, r"JSON scalar.*options\['x'\]"),
    ({"name": ""}, TypeError, r"non-empty str for name.*name=''"),
])
def test_malformed_spec_raises_typed_error(kwargs, error, match):
    base = {"name": "bad", "kind": "toy", "grid": {"a": [1]}}
    with pytest.raises(error, match=match):
        SweepSpec(**{**base, **kwargs})


@pytest.mark.parametrize("kwargs, error, match", [
    ({"kind": "no-such-kind"}, UnknownTaskKindError, r"task kind in .*got kind='no-such-kind'"),
    ({"kind": "toy-registry", "solvers": ["no-such-solver"]}, la.UnknownSolverError,
     r"got solver='no-such-solver'"),
    ({"kind": "toy-registry", "precisions": ["float65"]}, la.UnknownPrecisionError,
     r"got precision='float65'"),
    ({"kind": "toy-registry", "datasets": ["no-such-set"]}, UnknownDatasetError,
     r"got name='no-such-set'"),
    ({"kind": "fit", "solvers": ["no-such-solver"], "precisions": ["float64"],
      "datasets": ["sinc"]}, la.UnknownSolverError, r"got solver='no-such-solver'"),
])
def test_unknown_names_raise_the_registries_errors_before_running(tmp_path, kwargs, error, match):
    spec = SweepSpec("bad", grid={"a": [1]}, options={"log": str(tmp_path / "calls.log")}, **kwargs)
    with pytest.raises(error, match=match):
        run_sweep(spec, tmp_path / "r.sqlite", n_jobs=1, progress=False)
    assert logged_keys(tmp_path) == []
    with Store(tmp_path / "r.sqlite") as store:
        assert len(store) == 0


def test_run_sweep_argument_errors(tmp_path):
    spec = toy_spec(tmp_path)
    path = tmp_path / "r.sqlite"
    with pytest.raises(TypeError, match="expected a SweepSpec"):
        run_sweep({"name": "x"}, path)
    with pytest.raises(ValueError, match=r"n_jobs >= 1.*n_jobs=0"):
        run_sweep(spec, path, n_jobs=0, progress=False)
    with pytest.raises(ValueError, match=r"max_tasks >= 0.*max_tasks=-2"):
        run_sweep(spec, path, max_tasks=-2)
    with pytest.raises(ValueError, match=r"progress in.*progress='yes'"):
        run_sweep(spec, path, n_jobs=1, progress="yes")
    with pytest.raises(TypeError, match="concurrent.futures.Executor"):
        run_sweep(spec, path, executor=object(), progress=False)
    with pytest.raises(ValueError, match=r"n_jobs=None when an executor is given"):
        with cf.ThreadPoolExecutor(1) as ex:
            run_sweep(spec, path, executor=ex, n_jobs=2, progress=False)
    with pytest.raises(TypeError, match=r"int or None for n_jobs.*n_jobs='2'"):
        run_sweep(spec, path, n_jobs="2")
    assert not path.exists()  # argument errors are raised before the store is touched
    with pytest.raises(FileNotFoundError, match="existing record store"):
        load_records(tmp_path / "missing.sqlite")


def test_register_task_kind_errors():
    with pytest.raises(ValueError, match=r"got name='toy'.*replace=True"):
        register_task_kind("toy", special_values_row)
    with pytest.raises(TypeError, match="expected a callable"):
        register_task_kind("toy-not-callable", 3)
    with pytest.raises(TypeError, match=r"positive int for version.*version=0"):
        register_task_kind("toy-bad-version", toy_row, version=0)
    assert register_task_kind("toy", toy_row, validate=_no_validation).func is toy_row
    assert {"fit", "toy"} <= set(task_kinds())


# ---------------------------------------------------------------------------
# Resumability: interrupted sweeps lose nothing, duplicate nothing, recompute nothing
# ---------------------------------------------------------------------------
def test_interrupted_sweep_resumes_without_recomputing(tmp_path):
    spec, path, k = toy_spec(tmp_path), tmp_path / "r.sqlite", 5
    n = len(spec.tasks())
    _INTERRUPT["after"] = k
    with pytest.raises(KeyboardInterrupt):
        run_sweep(spec, path, n_jobs=1, progress=False)
    assert len(load_records(path, spec)) == k  # each row was committed as it finished
    _INTERRUPT.update(after=None, calls=0)
    df = run_sweep(spec, path, n_jobs=1, progress=False)
    assert _INTERRUPT["calls"] == n - k  # the k stored rows were not recomputed
    assert len(df) == n and df["key"].is_unique
    assert list(df["key"]) == [t.key for t in spec.tasks()]
    assert (df["status"] == "ok").all()
    _INTERRUPT["calls"] = 0
    assert len(run_sweep(spec, path, n_jobs=1, progress=False)) == n and _INTERRUPT["calls"] == 0


_CRASH_SCRIPT = """
import os, sys
sys.path.insert(0, {tests!r})
from lssvm_analysis.experiments import register_task_kind, run_sweep
from test_experiments import toy_spec, toy_row, _no_validation
import pathlib

calls = [0]
def crash_row(task):
    calls[0] += 1
    if calls[0] > {k}:
        os._exit(3)  # the process dies at once: no cleanup, no exception handler
    return toy_row(task)

register_task_kind("toy-crash", crash_row, validate=_no_validation)
run_sweep(toy_spec(pathlib.Path({tmp!r}), kind="toy-crash"), {path!r}, n_jobs=1, progress=False)
"""


def crash_row_after_restart(task):
    return toy_row(task)


def test_killed_process_loses_no_committed_row(tmp_path):
    path, k = tmp_path / "r.sqlite", 4
    script = _CRASH_SCRIPT.format(tests=os.path.dirname(__file__), k=k, tmp=str(tmp_path),
                                  path=str(path))
    proc = subprocess.run([sys.executable, "-c", textwrap.dedent(script)], capture_output=True,
                          text=True, timeout=120)
    assert proc.returncode == 3, proc.stderr
    spec = toy_spec(tmp_path, kind="toy-crash")
    # same kind name and version in this process: the same task keys
    register_task_kind("toy-crash", crash_row_after_restart, validate=_no_validation, replace=True)
    assert len(load_records(path, spec)) == k
    df = run_sweep(spec, path, n_jobs=1, progress=False)
    n = len(spec.tasks())
    assert len(df) == n and df["key"].is_unique
    calls = logged_keys(tmp_path)
    assert len(calls) == n and len(set(calls)) == n  # k before the crash + n - k after


def test_max_tasks_then_parallel_resume_matches_serial(tmp_path):
    spec, path = toy_spec(tmp_path, a=(1, 2, 3, 4)), tmp_path / "par.sqlite"
    n, k = len(spec.tasks()), 3
    assert len(run_sweep(spec, path, n_jobs=2, max_tasks=k, progress=False)) == k
    assert len(logged_keys(tmp_path)) == k
    par = run_sweep(spec, path, n_jobs=2, progress=False)
    calls = logged_keys(tmp_path)
    assert len(calls) == n and len(set(calls)) == n  # nothing computed twice
    serial = run_sweep(spec, tmp_path / "serial.sqlite", n_jobs=1, progress=False)
    pd.testing.assert_frame_equal(deterministic(par), deterministic(serial))


def test_interrupt_in_a_worker_keeps_the_finished_rows(tmp_path, monkeypatch):
    spec, path = toy_spec(tmp_path, a=(1, 2, 3, 4)), tmp_path / "r.sqlite"
    n = len(spec.tasks())
    monkeypatch.setenv("LSSVM_TEST_INTERRUPT_A", "4")  # workers are forked/spawned per sweep
    with pytest.raises(KeyboardInterrupt):
        run_sweep(spec, path, n_jobs=2, progress=False)
    stored = set(load_records(path, spec)["key"])
    assert len(stored) < n
    monkeypatch.delenv("LSSVM_TEST_INTERRUPT_A")
    df = run_sweep(spec, path, n_jobs=2, progress=False)
    assert len(df) == n and df["key"].is_unique and (df["status"] == "ok").all()
    calls = logged_keys(tmp_path)
    assert all(calls.count(key) == 1 for key in stored)  # stored rows never recomputed


def test_error_rows_are_recorded_and_retried_on_request(tmp_path):
    spec, path = toy_spec(tmp_path, a=(1, "fail"), b=(0.5,), seeds=(0,)), tmp_path / "r.sqlite"
    df = run_sweep(spec, path, n_jobs=1, progress=False).set_index("a")
    assert df.loc[1, "status"] == "ok"
    err = df.loc["fail"]
    assert err["status"] == "error" and err["error_type"] == "ZeroDivisionError"
    assert err["message"] == "a='fail' asks for an error" and "toy_row" in err["traceback"]
    assert np.isnan(err["draw"])
    run_sweep(spec, path, n_jobs=1, progress=False)
    assert len(logged_keys(tmp_path)) == 2  # error rows count as done
    again = run_sweep(spec, path, n_jobs=1, progress=False, retry_errors=True)
    assert len(logged_keys(tmp_path)) == 3 and len(again) == 2  # only the error row re-ran


def test_kind_reported_outcome_is_a_row(tmp_path):
    spec = SweepSpec("bd", kind="toy-breakdown", grid={"a": [1]})
    row = run_sweep(spec, tmp_path / "r.sqlite", n_jobs=1, progress=False).iloc[0]
    assert (row["status"], row["message"], row["breakdown_step"]) == (
        "breakdown", "pivot -1e-17 at step 3", 3)


# ---------------------------------------------------------------------------
# Determinism, storage fidelity, reading back
# ---------------------------------------------------------------------------
def test_same_seed_gives_identical_records(tmp_path):
    one = run_sweep(toy_spec(), tmp_path / "a.sqlite", n_jobs=1, progress=False)
    two = run_sweep(toy_spec(), tmp_path / "b.sqlite", n_jobs=1, progress=False)
    pd.testing.assert_frame_equal(deterministic(one), deterministic(two))
    other = run_sweep(toy_spec(seeds=(2, 3)), tmp_path / "c.sqlite", n_jobs=1, progress=False)
    assert not np.array_equal(one["draw"].to_numpy(), other["draw"].to_numpy())
    assert (one["time_task"] >= 0).all() and "time_sleep" in one  # timings are columns too


def test_nan_inf_and_exotic_values_round_trip(tmp_path):
    spec = SweepSpec("special", kind="toy-special", grid={"outcome": ["ok", "not-converged"]})
    path = tmp_path / "r.sqlite"
    run_sweep(spec, path, n_jobs=1, progress=False)
    df = load_records(path, spec="special")
    for _, row in df.iterrows():
        assert np.isnan(row["nan"]) and row["pinf"] == math.inf and row["ninf"] == -math.inf
        assert row["negzero"] == 0.0 and np.signbit(row["negzero"])
        assert row["subnormal"] == 5e-324 and row["huge"] == 1.7976931348623157e308
        assert row["bigint"] == 2**62 + 1 and row["np_int"] == -7 and row["np_bool"] is True
        assert row["np_float32"] == float(np.float32(0.1))  # float32 -> float exactly
        assert row["text"] == "Ω_e ≥ 0 \"quoted\"" and row["none"] is None
    assert list(df["status"]) == ["ok", "not-converged"]  # the kind's own status column


def test_tasks_shared_between_sweeps_are_stored_once(tmp_path):
    path = tmp_path / "r.sqlite"
    small, big = toy_spec(tmp_path, name="small", a=(1,)), toy_spec(tmp_path, name="big")
    run_sweep(small, path, n_jobs=1, progress=False)
    df = run_sweep(big, path, n_jobs=1, progress=False)
    n_small, n_big = len(small.tasks()), len(big.tasks())
    assert len(df) == n_big and len(logged_keys(tmp_path)) == n_big  # small's rows reused
    assert len(load_records(path, "small")) == n_small and len(load_records(path, "big")) == n_big
    assert list(load_records(path, small)["key"]) == [t.key for t in small.tasks()]
    with Store(path) as store:
        assert len(store) == n_big and store.spec_names() == ["big", "small"]
    assert len(load_records(path, kind="toy")) == n_big
    assert load_records(path, kind="fit").empty
    # a reader that does not know the kind still finds the sweep by its name
    unknown = SweepSpec("big", kind="kind-of-another-process", grid={"a": [1]})
    assert list(load_records(path, unknown)["key"]) == [t.key for t in big.tasks()]


def test_executors_threads_and_dask_like_clients(tmp_path):
    spec = toy_spec()
    serial = deterministic(run_sweep(spec, tmp_path / "s.sqlite", n_jobs=1, progress=False))

    class DaskLikeClient:  # what run_sweep uses of a dask.distributed.Client
        def get_executor(self):
            return cf.ThreadPoolExecutor(2)

    with cf.ThreadPoolExecutor(2) as ex:
        threads = run_sweep(spec, tmp_path / "t.sqlite", executor=ex, progress=False)
    dask = run_sweep(spec, tmp_path / "d.sqlite", executor=DaskLikeClient(), progress=False)
    pd.testing.assert_frame_equal(deterministic(threads), serial)
    pd.testing.assert_frame_equal(deterministic(dask), serial)


def test_spawned_workers_import_the_kind_module(tmp_path):
    """A fresh interpreter knows no kinds: the worker imports the module that registered it."""
    spec = toy_spec(a=(1,), b=(0.5,))
    ctx = multiprocessing.get_context("spawn")
    with cf.ProcessPoolExecutor(1, mp_context=ctx) as ex:
        df = run_sweep(spec, tmp_path / "r.sqlite", executor=ex, progress=False)
    assert list(df["status"]) == ["ok", "ok"]


def test_progress_bar_on_stderr_only_when_forced(tmp_path, capsys):
    """Off a terminal the bar is not drawn: one line per label instead (elapsed, tasks, ETA);
    progress=False prints nothing; "force" draws the bar."""
    run_sweep(toy_spec(name="quiet"), tmp_path / "a.sqlite", n_jobs=1, progress=True)
    out = capsys.readouterr()
    assert out.out == "" and out.err.count("\n") == 1  # stderr is not a TTY under pytest
    assert out.err.startswith("quiet: started at 0:0") and "0/12 tasks done, ETA ?" in out.err
    run_sweep(toy_spec(name="silent"), tmp_path / "c.sqlite", n_jobs=1, progress=False)
    assert capsys.readouterr().err == ""
    run_sweep(toy_spec(name="loud"), tmp_path / "b.sqlite", n_jobs=1, progress="force")
    out = capsys.readouterr()
    assert "loud" in out.err and "12/12" in out.err and out.out == ""


def test_off_a_terminal_a_long_section_prints_a_heartbeat(tmp_path, monkeypatch):
    """Off a terminal, a label's tasks print a line again once HEARTBEAT_SECONDS have passed since the
    last one (here 0 s: every task), with the elapsed time, the tasks done and the ETA."""
    import io

    from lssvm_analysis.experiments import progress as prog

    monkeypatch.setattr(prog, "HEARTBEAT_SECONDS", 0.0)
    lines = io.StringIO()
    with prog.SweepProgress(False, lines=lines) as bar:
        run_sweep(toy_spec(name="beat"), tmp_path / "h.sqlite", n_jobs=1, progress=bar)
    got = lines.getvalue().splitlines()
    assert got[0].startswith("beat: started at 0:0") and "0/12 tasks done" in got[0]
    assert len(got) == 13 and got[-1].startswith("beat: at 0:0") and "12/12 tasks done, ETA 0:00" in got[-1]


def test_stored_rows_are_plain_json_with_indexed_columns(tmp_path):
    path = tmp_path / "r.sqlite"
    run_sweep(toy_spec(a=(1,), b=(0.5,), seeds=(0,)), path, n_jobs=1, progress=False)
    import sqlite3

    con = sqlite3.connect(path)
    key, kind, status, text = con.execute("SELECT key, kind, status, row FROM records").fetchone()
    con.close()
    row = json.loads(text)
    assert (row["key"], row["kind"], row["status"]) == (key, kind, status) == (key, "toy", "ok")


# ---------------------------------------------------------------------------
# Kind "fit" on the real solvers
# ---------------------------------------------------------------------------
SINC = {"name": "sinc", "n_train": 30, "n_test": 30}


def schur_spec(**options):
    return SweepSpec("schur", solvers=["lssvm-schur"], precisions=["float64"], datasets=[SINC],
                     grid={"C": [1.0, 1e6], "sigma2": [1.0]}, seeds=[0], options=options)


def _independent_forward_error(task, row):
    """||m - m*|| / ||m*|| with m* from mpmath LU at 60 digits on the solver's own system."""
    import mpmath

    from lssvm_analysis import datasets

    ds = datasets.load(task.dataset, seed=task.seed, **task.dataset_kw)
    fit = la.fit("lssvm-schur", ds.X_train, ds.y_train, precision="float64", **task.params)
    A, rhs, unpack = la.get_solver("lssvm-schur").system(ds.X_train, ds.y_train, fit, **task.params)
    ctx = mpmath.MPContext()
    ctx.dps = 60
    z = ctx.lu_solve(ctx.matrix(A.tolist()), ctx.matrix(rhs.tolist()))
    ref = unpack(np.array([z[i] for i in range(len(rhs))], dtype=object))
    m_ref = [ctx.mpf(ref["bias"])] + [ctx.mpf(v) for v in ref["coef"]]
    m_fit = [ctx.mpf(float(fit.bias_))] + [ctx.mpf(float(v)) for v in fit.coef_]
    err = max(abs(a - b) for a, b in zip(m_fit, m_ref)) / max(abs(b) for b in m_ref)
    r = fit.predict(ds.X_test) - ds.y_test
    return float(err), float(np.mean(np.abs(r))), float(np.sqrt(np.mean(r * r))), fit


@pytest.mark.parametrize("change, error, match", [
    ({"options": {"reference_max": 10}}, ValueError, r"options among .*got option 'reference_max'"),
    ({"options": {"reference_max_n": 0}}, ValueError, r"reference_max_n'\] >= 1"),
    ({"options": {"reference": "no"}}, TypeError, r"bool for options\['reference'\]"),
    ({"grid": {"C": [1.0], "gamma": [1.0]}}, ValueError, r"accepted by one of the solvers.*'gamma'"),
    ({"grid": {"task": ["regression"]}}, ValueError, r"no 'task' in grid"),
    ({"datasets": []}, ValueError, r"at least one entry in datasets.*datasets=\[\]"),
    ({"datasets": ["no-such-set"]}, UnknownDatasetError, r"got name='no-such-set'"),
    ({"precisions": ["float65"]}, la.UnknownPrecisionError, r"got precision='float65'"),
])
def test_fit_kind_spec_validation(change, error, match):
    base = {"name": "v", "solvers": ["lssvm-schur"], "precisions": ["float64"],
            "datasets": [SINC], "grid": {"C": [1.0]}}
    with pytest.raises(error, match=match):
        SweepSpec(**{**base, **change}).tasks()


def test_fit_kind_records_errors_against_the_reference(tmp_path):
    spec = schur_spec()
    df = run_sweep(spec, tmp_path / "r.sqlite", n_jobs=1, progress=False)
    assert len(df) == 2 and (df["status"] == "ok").all() and (df["kind"] == "fit").all()
    u = np.finfo(np.float64).eps / 2
    for task, (_, row) in zip(spec.tasks(), df.iterrows()):
        fe, mae, rmse, fit = _independent_forward_error(task, row)
        assert row["n_support"] == row["n_train"] == 30 and row["system_n"] == 31
        assert np.isnan(row["breakdown_step"]) and np.isnan(row["breakdown_pivot"])
        assert row["unit_roundoff"] == u and row["task"] == "regression"
        # default digits for float64: max(30, ceil(-log10 u) + 15) = 31, certified
        assert row["reference_digits"] >= 31 and row["system_condition"] >= 1
        # the recorded error is the error: both references carry >= 31 correct digits
        # (mpmath LU at 60 digits loses <= log10(kappa) + 2 < 12 of them), so the two
        # measures differ by <= 2 * 10^-31 absolutely, plus one float64 rounding each
        assert abs(row["solve_error"] - fe) <= 2 * 10.0 ** -31 + 2 * u * fe
        assert row["solve_digits"] == -np.log10(row["solve_error"])
        # Schur-complement solve (Cholesky of H, two solves): forward error <= c kappa u
        # with c = 30, LAPACK's threshold on error / (kappa u) in xPOT04 / xGET04;
        # kappa is the certified kappa_inf estimate of the KKT matrix.
        assert row["solve_error"] <= 30 * row["system_condition"] * u
        # model error against the exact model (kernel in double-double): the fit's own
        # kernel rounding (~ u per entry) adds at most kappa u to the solve's, so the
        # same c = 30 on 2 kappa u; the exact model carries >= 15 certified digits here
        assert row["exact_digits"] >= 15 and row["problem_condition"] >= 1
        assert row["model_error"] <= 30 * 2 * row["problem_condition"] * u
        # float64 fit: ~15 digits, below the exact model's certified digits, so not capped
        assert not row["model_digits_capped"] and row["model_digits"] < row["exact_digits"]
        assert row["model_digits"] == -np.log10(row["model_error"])
        assert 0 < row["prediction_error"] < 1 and row["choices_agree"] is None
        assert row["exact_note"] == "" and row["time_exact"] > 0
        # normwise backward error of the KKT unknowns [b; alpha] the solver kept:
        # two backward-stable solves recombined, <= 2 * 30 * n * u (xPOT02's 30)
        assert 0 <= row["backward_error"] <= 2 * 30 * row["system_n"] * u
        # test error (Abe's average absolute error) from the same deterministic fit
        assert (row["test_mae"], row["test_rmse"]) == (mae, rmse)
        assert row["time_fit"] > 0 and row["time_factorization"] >= 0
        assert row["diag_s"] == float(fit.diagnostics["s"])
    # the reference-size cap: no reference, NaN errors, and the reason
    capped = run_sweep(schur_spec(reference_max_n=10), tmp_path / "r.sqlite", n_jobs=1,
                       progress=False)
    assert capped["solve_error"].isna().all() and (capped["system_n"] == 31).all()
    assert capped["reference_note"].str.contains("31 > reference_max_n=10").all()
    assert list(capped["test_mae"]) == list(df["test_mae"])


def test_fit_kind_parallel_equals_serial_and_filters_by_task(tmp_path):
    solvers = ["lssvm-schur"] + (["els-dual"] if "els-dual" in la.solvers() else [])
    spec = SweepSpec("mixed", solvers=solvers, precisions=HARDWARE,
                     datasets=[SINC, {"name": "ripley-mixture", "n_train": 24, "n_test": 40}],
                     grid={"C": [10.0], "sigma2": [0.5], "eta": [1e-3]}, seeds=[0])
    tasks = spec.tasks()
    # a regression-only solver is not swept on the classification set
    assert not [t for t in tasks if t.solver == "els-dual" and t.dataset == "ripley-mixture"]
    assert all("eta" not in t.params for t in tasks if t.solver == "lssvm-schur")
    serial = run_sweep(spec, tmp_path / "s.sqlite", n_jobs=1, progress=False)
    par = run_sweep(spec, tmp_path / "p.sqlite", n_jobs=2, progress=False)
    pd.testing.assert_frame_equal(deterministic(par), deterministic(serial))
    cls = serial[serial["dataset"] == "ripley-mixture"]
    assert (cls["task"] == "classification").all() and cls["test_mae"].isna().all()
    assert cls["test_error_rate"].between(0, 1).all()  # labels coded +-1 by Dataset.as_pm1


def test_fit_kind_breakdown_is_a_row(tmp_path):
    """Abe's '—': els-dual in float32 with a huge C breaks down and is recorded.

    Omega_e = H_m H_m^T + I/C has lambda_min = 1/C (N < M) or about
    sigma_min(H_m)^2 <= eta^2 (N = M), far below n u32 ||Omega_e|| for C = 1e12,
    eta = 1e-3; measured: 40 of 40 seeds break down on this set.
    """
    spec = SweepSpec("bd", solvers=["els-dual"], precisions=["float32"],
                     datasets=[{"name": "sinc", "n_train": 40, "n_test": 10}],
                     grid={"C": [1e12], "sigma2": [1.0], "eta": [1e-3]}, seeds=[0])
    row = run_sweep(spec, tmp_path / "r.sqlite", n_jobs=1, progress=False).iloc[0]
    from lssvm_analysis import datasets

    ds = datasets.load("sinc", seed=0, n_train=40, n_test=10)
    fit = la.fit("els-dual", ds.X_train, ds.y_train, precision="float32", C=1e12, sigma2=1.0,
                 eta=1e-3)
    assert row["status"] == fit.status == "breakdown"
    assert (row["breakdown_step"], row["breakdown_pivot"]) == (fit.breakdown.step,
                                                               fit.breakdown.pivot)
    assert f"step {fit.breakdown.step}" in row["message"]
    assert np.isnan(row["test_mae"]) and np.isnan(row["solve_error"])
    assert np.isnan(row["model_error"]) and "no model to compare" in row["exact_note"]
    assert "no solution to compare" in row["reference_note"]


def test_an_uncertified_exact_model_is_not_measured():
    """reduced-lssvr with every point a support at C = 1e16 (sinc, sigma2 = 10): the exact model
    formed as normal equations from the double-double kernel (kappa ~ 1e20 squared, times the
    formation's ~1e-29) certifies no digit.  Without escalation (``exact_escalate_max_n`` below
    n) the row must say "not measured" (NaN digits and a note with the figures), not -inf digits
    that would read as a failure of the fit; with it (the default at n = 30) the model is formed
    again in balls and certified, and the fit is measured against it."""
    from lssvm_analysis import datasets
    from lssvm_analysis.experiments.fit_kind import exact_columns
    from lssvm_analysis.solvers import get_solver

    ds = datasets.load("sinc", seed=0, n_train=30, n_test=10)
    params = dict(C=1e16, sigma2=10.0, n_support=30)
    with pytest.warns(la.IllConditionedWarning):
        fit = la.fit("reduced-lssvr", ds.X_train, ds.y_train, precision="float64", **params)
    cols = exact_columns(get_solver("reduced-lssvr"), ds, fit, params, {"exact_escalate_max_n": 29})
    assert fit.status == "ok"
    assert np.isnan(cols["model_digits"]) and np.isnan(cols["model_error"]) and np.isnan(cols["exact_digits"])
    assert cols["exact_note"].startswith("exact model not certified") and "problem kappa" in cols["exact_note"]
    assert cols["problem_condition"] > 1e18
    cols = exact_columns(get_solver("reduced-lssvr"), ds, fit, params, {})
    assert cols["exact_digits"] >= 18 and "bit balls" in cols["exact_method"]   # float64's target
    assert cols["problem_condition"] > 1e18 and np.isfinite(cols["model_digits"])


@pytest.mark.parametrize("n_jobs", [1, 2])
def test_run_sweeps_is_run_sweep_for_each_spec_in_one_pass(tmp_path, n_jobs):
    """run_sweeps: the same rows as one run_sweep per spec, a shared task run once, each spec registered,
    and the progress bar counting every task once (for its own sweep)."""
    from lssvm_analysis.experiments import progress as prog
    from lssvm_analysis.experiments.runner import run_sweeps
    small, big = toy_spec(tmp_path, name="small", a=(1,)), toy_spec(tmp_path, name="big")
    other = toy_spec(tmp_path, name="other", a=(7,), b=(1.0,))
    bar = prog.SweepProgress(False)
    frames = run_sweeps([small, big, other], tmp_path / "r.sqlite", n_jobs=n_jobs, progress=bar)
    n_distinct = len({t.key for s in (small, big, other) for t in s.tasks()})
    assert sorted(logged_keys(tmp_path)) == sorted({t.key for s in (small, big, other) for t in s.tasks()})
    assert bar.done == bar.total == n_distinct
    ref = tmp_path / "ref.sqlite"
    for spec, got in zip((small, big, other), frames):
        want = run_sweep(spec, ref, n_jobs=1, progress=False)
        pd.testing.assert_frame_equal(deterministic(got).reset_index(drop=True),
                                      deterministic(want).reset_index(drop=True))
    with Store(tmp_path / "r.sqlite") as store:
        assert store.spec_names() == ["big", "other", "small"]
    # a second pass finds everything stored and runs nothing
    before = len(logged_keys(tmp_path))
    run_sweeps([small, big, other], tmp_path / "r.sqlite", n_jobs=n_jobs, progress=False)
    assert len(logged_keys(tmp_path)) == before
