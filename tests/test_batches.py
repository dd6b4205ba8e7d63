"""Tasks that share work run as one batch (TaskKind ``group`` / ``batch``) and give the rows they give alone.

The engine hands a worker a task with the queued tasks of its group (same kind, data set, seed,
options and group value) and calls the kind's ``batch`` once; each row must equal the task's row
alone in every column but the ``time_*`` ones, on every engine (in-process, local processes, a
real Dask ``LocalCluster`` in tests/test_dask.py).  A batch that raises gives way to the tasks run
alone, so a failing task's row is its own.
"""
from __future__ import annotations

import warnings

import pandas as pd
import pytest

import _robust_kinds  # noqa: F401  (registers robust-batch here; workers import it from tests/)
from lssvm_analysis.experiments import SweepSpec, register_task_kind, run_sweep
from lssvm_analysis.experiments.kinds import TaskClock, get_task_kind, group_key
from lssvm_analysis.experiments.runner import TIMING_PREFIX, execute_task, execute_tasks


def _spec(tmp_path, **options):
    return SweepSpec("batch", kind="robust-batch", grid={"g": [-1.0, 2.0, 3.0], "x": [1.0, 2.0, 5.0]},
                     seeds=[0], options={"log": str(tmp_path / "calls.log"), **options})


def _calls(tmp_path):
    path = tmp_path / "calls.log"
    return [line.split()[0] for line in path.read_text().splitlines()] if path.exists() else []


def _det(df):
    return df[[c for c in df.columns if not c.startswith(TIMING_PREFIX)]].sort_values("key").reset_index(drop=True)


def _alone(spec):
    return pd.DataFrame([execute_task(t) for t in spec.tasks()])


@pytest.mark.parametrize("n_jobs", [1, 2])
def test_a_group_runs_as_one_batch_with_the_rows_of_its_tasks_alone(tmp_path, n_jobs):
    spec = _spec(tmp_path)
    records = run_sweep(spec, tmp_path / "r.sqlite", n_jobs=n_jobs, progress=False)
    calls = _calls(tmp_path)
    # g = 2 and g = 3: one batch of 3 each; g = -1: its 3 tasks alone
    assert sorted(calls) == ["alone"] * 3 + ["batch3"] * 2
    alone = _alone(spec)
    batched = records[records.g > 0]
    assert (batched.time_batch_cpu > 0).all() and "time_batch_cpu" not in alone.columns
    pd.testing.assert_frame_equal(_det(records).drop(columns=["warnings"]),
                                  _det(alone).drop(columns=["warnings"]), check_like=True)


def test_a_failing_batch_gives_way_to_each_task_alone(tmp_path):
    spec = _spec(tmp_path, fail_at=5.0)
    records = run_sweep(spec, tmp_path / "r.sqlite", n_jobs=1, progress=False).set_index("x")
    calls = _calls(tmp_path)
    assert sorted(calls) == ["alone"] * 9 + ["batch3"] * 2  # each batch raised, then its tasks ran alone
    failed = records.loc[5.0]
    assert (failed.status == "error").all() and failed.message.str.contains("x=5.0 fails").all()
    assert (records.drop(index=5.0).status == "ok").all()


def test_batch_rows_times_sum_to_the_batch_and_warnings_go_to_their_task(tmp_path):
    spec = _spec(tmp_path, warn_at=2.0, sleep=0.05)
    tasks = [t for t in spec.tasks() if t.params["g"] == 2.0]
    rows = execute_tasks(tasks)
    assert [r["key"] for r in rows] == [t.key for t in tasks]
    assert [r["value"] for r in rows] == [5.0, 6.0, 9.0]
    # the shared work (the sleep) is charged to the first task; the rows' wall times sum to the batch's
    assert rows[0]["time_task"] >= 0.05 > max(r["time_task"] for r in rows[1:])
    assert sum(r["time_task_cpu"] for r in rows) == pytest.approx(rows[0]["time_batch_cpu"], abs=1e-6)
    assert [bool(r["warnings"]) for r in rows] == [False, True, False]
    assert "RuntimeWarning: x=2.0 warns" in rows[1]["warnings"]


def test_group_keys_need_the_same_inputs():
    kind = get_task_kind("robust-batch")
    a, b = _spec_tasks(seed=0), _spec_tasks(seed=1)
    g2 = [t for t in a if t.params["g"] == 2.0]
    assert len(g2) == 2 and group_key(kind, g2[0]) == group_key(kind, g2[1]) is not None
    assert group_key(kind, g2[0]) != group_key(kind, [t for t in b if t.params["g"] == 2.0][0])  # another seed
    assert group_key(kind, [t for t in a if t.params["g"] < 0][0]) is None
    assert group_key(get_task_kind("robust-sleepy"), a[0]) is None  # a kind without groups


def _spec_tasks(seed):
    return [t for t in SweepSpec("k", kind="robust-batch", grid={"g": [-1.0, 2.0], "x": [1.0, 2.0]},
                                 seeds=[seed]).tasks()]


def test_register_group_and_batch_together_and_clock_charges_do_not_nest():
    with pytest.raises(TypeError, match=r"group and batch together.*group=None"):
        register_task_kind("robust-batch-bad", _robust_kinds.batch_row, batch=_robust_kinds.batch_rows)
    with pytest.raises(TypeError, match=r"group and batch together.*batch=None"):
        register_task_kind("robust-batch-bad", _robust_kinds.batch_row, group=_robust_kinds.batch_group)
    clock = TaskClock(2)
    with clock.charge(0):
        with pytest.raises(RuntimeError, match="one TaskClock.charge at a time"):
            with clock.charge(1):
                pass
    with warnings.catch_warnings(record=True) as outer:
        warnings.simplefilter("always")
        quiet = TaskClock(1, record_warnings=False)
        with quiet.charge(0):
            warnings.warn("passes through", UserWarning)
    assert quiet.warnings == [{}] and [str(w.message) for w in outer] == ["passes through"]
