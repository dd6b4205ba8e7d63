"""Task kinds of the robustness tests, importable by worker processes (tests/ is on their path).

``robust-sleepy`` sleeps ``options["sleep"]`` seconds and returns numbers
that depend only on the task's inputs.  ``robust-kill-once`` does the same,
but the first time it runs the task with ``x == options["kill_at"]`` in a
process whose environment names a marker file (``LSSVM_KILL_MARKER``), it
creates the marker and SIGKILLs its own process: a worker dying mid-task,
exactly once.
"""
from __future__ import annotations

import os
import signal
import time

from lssvm_analysis.experiments import register_task_kind

__all__ = ["sleepy_row", "kill_once_row", "kill_always_row", "set_env", "batch_row", "batch_rows", "batch_group"]


def set_env(name: str, value: str) -> None:
    """Set an environment variable in this process (``client.run(set_env, ...)`` on Dask workers)."""
    os.environ[name] = value


def _any(spec) -> None:
    """No registry names to check (the kinds take no solver, precision or data set)."""


def sleepy_row(task) -> dict:
    time.sleep(float(task.options.get("sleep", 0.0)))
    x = float(task.params["x"])
    return {"value": x * x + 1.0, "half": x / 2, "label": f"x={x:g}"}


def kill_once_row(task) -> dict:
    marker = os.environ.get("LSSVM_KILL_MARKER")
    if marker and task.params["x"] == task.options["kill_at"] and not os.path.exists(marker):
        with open(marker, "w") as fh:
            fh.write(str(os.getpid()))
        os.kill(os.getpid(), signal.SIGKILL)
    return sleepy_row(task)


def kill_always_row(task) -> dict:
    """SIGKILLs its process at ``x == options["kill_at"]`` whenever ``LSSVM_KILL_ALWAYS`` is set (a task
    that kills every worker that runs it, as a fit beyond a worker's memory limit does)."""
    if os.environ.get("LSSVM_KILL_ALWAYS") and task.params["x"] == task.options["kill_at"]:
        os.kill(os.getpid(), signal.SIGKILL)
    return sleepy_row(task)


def _log(task, what):
    """Append a line to ``options["log"]`` (calls counted across processes)."""
    log = task.options.get("log")
    if log:
        with open(log, "a") as fh:
            fh.write(f"{what} {os.getpid()}\n")


def batch_row(task) -> dict:
    """``robust-batch`` alone: a number of x and of the group's shared value g (``params["g"]``)."""
    _log(task, "alone")
    if task.params["x"] == task.options.get("fail_at"):
        raise ValueError(f"x={task.params['x']} fails")
    shared = float(task.params["g"]) ** 2  # what the batch computes once for its group
    return {"value": float(task.params["x"]) + shared, "shared": shared}


def batch_group(task):
    """Tasks with the same g share work; g < 0 runs alone."""
    return None if task.params["g"] < 0 else task.params["g"]


def batch_rows(tasks, clock) -> list:
    """The rows of ``batch_row``, the shared value computed once (charged to the first task)."""
    _log(tasks[0], f"batch{len(tasks)}")
    with clock.charge(0):
        shared = float(tasks[0].params["g"]) ** 2
        time.sleep(float(tasks[0].options.get("sleep", 0.0)))
    rows = []
    for i, task in enumerate(tasks):
        with clock.charge(i):
            if task.params["x"] == task.options.get("fail_at"):
                raise ValueError(f"x={task.params['x']} fails")
            if task.params["x"] == task.options.get("warn_at"):
                import warnings
                warnings.warn(f"x={task.params['x']} warns", RuntimeWarning)
            rows.append({"value": float(task.params["x"]) + shared, "shared": shared})
    return rows


register_task_kind("robust-batch", batch_row, validate=_any, replace=True, group=batch_group, batch=batch_rows)
register_task_kind("robust-sleepy", sleepy_row, validate=_any, replace=True)
register_task_kind("robust-kill-always", kill_always_row, validate=_any, replace=True)
register_task_kind("robust-kill-once", kill_once_row, validate=_any, replace=True)
