"""Running one task, or the tasks of a batch, into rows (in a worker process or in-process).

:func:`execute_task` turns a task into its complete row: the kind's outcomes, its status, the warnings
it raised and its times; an exception of the task is a row with status "error".
:func:`execute_tasks` does the same for tasks that share work (their kind's ``group`` / ``batch``,
:class:`~.kinds.TaskKind`): one call of the kind's ``batch``, each task charged its own time.
"""
from __future__ import annotations

import time
import traceback
import warnings

from ..linalg.cost import protocol_scope
from ..linalg.memory import memory_scope
from .kinds import TaskClock, get_task_kind
from .spec import RESERVED, Task, json_scalar

__all__ = ["execute_task", "execute_tasks"]


def _outcome_columns(out, reserved) -> dict:
    if not isinstance(out, dict):
        raise TypeError(f"expected the task kind to return a dict row, got {type(out).__name__}")
    row = {}
    for name, value in out.items():
        if not isinstance(name, str) or name in reserved:
            raise ValueError(f"expected outcome column names other than the input columns "
                             f"{sorted(reserved)}, got column {name!r}")
        row[name] = json_scalar(value, f"column {name!r}")
    return row


def _kind_row(task: Task, result) -> dict:
    """The task's row from the kind's result: its inputs, status and message, its outcome columns (the kind
    may set "status" and "message"; the other engine columns are off-limits).  Raises on a malformed result."""
    row = task.input_columns()
    out = _outcome_columns(result, set(row) | (RESERVED - {"status", "message"}))
    status = out.pop("status", "ok")
    if not isinstance(status, str) or not status:
        raise TypeError(f"expected a non-empty str status, got status={status!r}")
    row.update(status=status, message=str(out.pop("message", "") or ""))
    row.update(out)
    return row


def execute_task(task: Task, module: str | None = None) -> dict:
    """Run one task and return its complete row (inputs, status, outcomes, ``time_task``, ``time_task_cpu``).

    Runs in worker processes (picklable arguments; ``module`` is imported if
    the kind is not registered there).  Exceptions of the task become a row
    with status "error"; ``KeyboardInterrupt`` and ``SystemExit`` propagate.
    Warnings raised by the task are recorded in the "warnings" column.  The kind runs inside
    :func:`~lssvm_analysis.linalg.memory.memory_scope`: its fits' large memory requests wait for,
    and hold until the kind returns or raises, a machine-wide lock, so that workers never allocate
    the same free memory twice, and inside :func:`~lssvm_analysis.linalg.cost.protocol_scope`: its
    fits run at the sizes the protocol fixes, never refused by ``la.fit``'s time limit.
    """
    t0, c0 = time.perf_counter(), time.thread_time()
    with warnings.catch_warnings(record=True) as caught:
        warnings.simplefilter("always")
        try:
            kind = get_task_kind(task.kind, module=module)
            # a large fit holds the machine-wide memory lock until the task ends; the protocol fixes the
            # sizes, so la.fit's interactive time limit does not apply (linalg.cost.protocol_scope)
            with memory_scope(), protocol_scope():
                result = kind.func(task)
            row = _kind_row(task, result)
        except Exception as exc:  # recorded, not swallowed: the row says what happened
            row = {**task.input_columns(), "status": "error", "message": str(exc), "error_type": type(exc).__name__,
                   "traceback": "".join(traceback.format_exception(exc, limit=-8))}
    messages = dict.fromkeys(f"{w.category.__name__}: {w.message}" for w in caught)
    row["warnings"] = "\n".join(messages)
    row["time_task"] = time.perf_counter() - t0
    # the CPU seconds of the thread that ran the task (BLAS runs in it: workers pin one BLAS thread),
    # which a loaded machine does not inflate as it does the wall time: the cost of a section
    row["time_task_cpu"] = time.thread_time() - c0
    return row


def execute_tasks(tasks, module: str | None = None) -> list[dict]:
    """The rows of tasks of one kind that share work (its ``group``), computed by its ``batch``.

    Each row is the one :func:`execute_task` gives the task alone (only ``time_*`` differ): the
    kind's ``batch`` computes what the tasks share once.  ``time_task`` and ``time_task_cpu`` are
    what :class:`~.kinds.TaskClock` charged the task, plus an even share of the batch's
    uncharged time, so that the rows sum to the batch; ``time_batch_cpu`` is the whole batch's.
    When ``batch`` raises, each task runs alone and its row says what happened to it.
    """
    tasks = list(tasks)
    if len(tasks) == 1:
        return [execute_task(tasks[0], module)]
    kind = get_task_kind(tasks[0].kind, module=module)
    if kind.batch is None or any(t.kind != kind.name for t in tasks):
        return [execute_task(t, module) for t in tasks]
    clock = TaskClock(len(tasks))
    t0, c0 = time.perf_counter(), time.thread_time()
    with warnings.catch_warnings(record=True) as caught:
        warnings.simplefilter("always")
        try:
            with memory_scope(), protocol_scope():
                results = kind.batch(tasks, clock)
            if not isinstance(results, list) or len(results) != len(tasks):
                raise TypeError(f"expected the batch of kind {kind.name!r} to return a list of {len(tasks)} "
                                f"rows, got {type(results).__name__}")
            rows = [_kind_row(task, result) for task, result in zip(tasks, results)]
        except Exception:  # each task alone: its own outcome, error or not, is its row
            return [execute_task(t, module) for t in tasks]
    wall, cpu = time.perf_counter() - t0, time.thread_time() - c0
    shared = dict.fromkeys(f"{w.category.__name__}: {w.message}" for w in caught)
    n = len(tasks)
    for i, row in enumerate(rows):
        row["warnings"] = "\n".join({**clock.warnings[i], **shared})
        row["time_task"] = clock.wall[i] + max(wall - sum(clock.wall), 0.0) / n
        row["time_task_cpu"] = clock.cpu[i] + max(cpu - sum(clock.cpu), 0.0) / n
        row["time_batch_cpu"] = cpu
    return rows
