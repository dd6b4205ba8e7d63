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

__all__ = ["sleepy_row", "kill_once_row", "kill_always_row", "set_env"]


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


register_task_kind("robust-sleepy", sleepy_row, validate=_any, replace=True)
register_task_kind("robust-kill-always", kill_always_row, validate=_any, replace=True)
register_task_kind("robust-kill-once", kill_once_row, validate=_any, replace=True)
