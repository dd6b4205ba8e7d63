"""Running sweeps: resumable, parallel, one writer.

``run_sweep`` validates the spec up front (typed errors), expands it, skips
the tasks whose key is already stored, runs the others in-process or on an
executor (local processes by default, or any ``concurrent.futures`` executor,
or a Dask ``distributed.Client``), and writes each row to the store *in the
parent* as soon as it arrives (one writer, one commit per row).  Workers only
compute and return rows.

Outcomes are data: a task whose kind reports a breakdown is a row with
status "breakdown"; an unexpected exception inside a task is a row with
status "error", the exception type, message and traceback.  Only
``KeyboardInterrupt`` / ``SystemExit`` (and a dead worker process) stop the
sweep; every row finished before that is already committed, so re-running
the same spec resumes where it stopped without recomputing or duplicating.
"""
from __future__ import annotations

import concurrent.futures as cf
import os
import sys
import time
import traceback
import warnings
from collections import Counter

import pandas as pd

from .kinds import get_task_kind, task_kinds
from .spec import SweepSpec, Task, json_scalar
from .store import open_store, records_frame

__all__ = ["run_sweep", "load_records", "execute_task", "TIMING_PREFIX"]

#: Columns whose name starts with this are wall-clock seconds (not deterministic).
TIMING_PREFIX = "time_"


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


def execute_task(task: Task, module: str | None = None) -> dict:
    """Run one task and return its complete row (inputs, status, outcomes, ``time_task``).

    Runs in worker processes (picklable arguments; ``module`` is imported if
    the kind is not registered there).  Exceptions of the task become a row
    with status "error"; ``KeyboardInterrupt`` and ``SystemExit`` propagate.
    Warnings raised by the task are recorded in the "warnings" column.
    """
    row = task.input_columns()
    # the kind may set "status" and "message"; the other engine columns are off-limits
    reserved = set(row) | {"error_type", "traceback", "warnings", "time_task"}
    t0 = time.perf_counter()
    with warnings.catch_warnings(record=True) as caught:
        warnings.simplefilter("always")
        try:
            kind = get_task_kind(task.kind, module=module)
            out = _outcome_columns(kind.func(task), reserved)
            status = out.pop("status", "ok")
            if not isinstance(status, str) or not status:
                raise TypeError(f"expected a non-empty str status, got status={status!r}")
            row.update(status=status, message=str(out.pop("message", "") or ""))
        except Exception as exc:  # recorded, not swallowed: the row says what happened
            out = {"error_type": type(exc).__name__,
                   "traceback": "".join(traceback.format_exception(exc, limit=-8))}
            row.update(status="error", message=str(exc))
    messages = dict.fromkeys(f"{w.category.__name__}: {w.message}" for w in caught)
    row.update(out)
    row["warnings"] = "\n".join(messages)
    row["time_task"] = time.perf_counter() - t0
    return row


def _progress_bar(progress, total, done, desc):
    from tqdm import tqdm

    disable = None if progress is True else (progress is False)  # None: only on a TTY
    return tqdm(total=total, initial=done, desc=desc, unit="task", file=sys.stderr,
                disable=disable, dynamic_ncols=True)


def _check_run_args(spec, n_jobs, executor, progress, max_tasks) -> None:
    if not isinstance(spec, SweepSpec):
        raise TypeError(f"expected a SweepSpec for spec, got spec={spec!r}")
    if progress not in (True, False, "force"):
        raise ValueError(f"expected progress in (True, False, 'force'), got progress={progress!r}")
    if max_tasks is not None and (isinstance(max_tasks, bool) or not isinstance(max_tasks, int)
                                  or max_tasks < 0):
        raise ValueError(f"expected max_tasks >= 0 or None, got max_tasks={max_tasks!r}")
    if executor is not None:
        if n_jobs is not None:
            raise ValueError(f"expected n_jobs=None when an executor is given, got n_jobs={n_jobs!r}")
        if not (hasattr(executor, "get_executor") or isinstance(executor, cf.Executor)):
            raise TypeError("expected a concurrent.futures.Executor or a dask.distributed.Client, "
                            f"got executor={executor!r}")
    elif n_jobs is not None:
        if isinstance(n_jobs, bool) or not isinstance(n_jobs, int):
            raise TypeError(f"expected an int or None for n_jobs, got n_jobs={n_jobs!r}")
        if n_jobs < 1 and n_jobs != -1:
            raise ValueError(f"expected n_jobs >= 1, -1 or None, got n_jobs={n_jobs!r}")


def _limit_blas_threads(n):
    """Worker initializer: n BLAS threads per worker, so workers do not oversubscribe."""
    from threadpoolctl import threadpool_limits

    threadpool_limits(n)


def _resolve_executor(executor, n_jobs, n_pending):
    """``(executor or None for in-process, owned)`` (arguments checked by _check_run_args)."""
    if executor is not None:
        if hasattr(executor, "get_executor"):  # dask.distributed.Client
            return executor.get_executor(), False
        return executor, False
    cpus = os.cpu_count() or 1
    workers = min(cpus if n_jobs in (None, -1) else n_jobs, n_pending)
    if workers <= 1:
        return None, False
    return cf.ProcessPoolExecutor(max_workers=workers, initializer=_limit_blas_threads,
                                  initargs=(max(1, cpus // workers),)), True


def _write(store, row, bar, counts, replace):
    store.write(row, replace=replace)
    counts[row["status"]] += 1
    bar.update(1)
    bar.set_postfix_str(" ".join(f"{s}={n}" for s, n in sorted(counts.items())), refresh=False)


def _run_pool(pool, owned, pending, modules, store, bar, counts, replace):
    futures = [pool.submit(execute_task, t, modules[t.kind]) for t in pending]
    written = set()
    try:
        for fut in cf.as_completed(futures):
            _write(store, fut.result(), bar, counts, replace)
            written.add(fut)
    except BaseException:
        for fut in futures:
            fut.cancel()
        if owned:
            pool.shutdown(wait=True, cancel_futures=True)
        for fut in futures:  # keep what finished meanwhile: an interruption loses nothing
            if (fut not in written and fut.done() and not fut.cancelled()
                    and fut.exception() is None):
                store.write(fut.result(), replace=replace)
        raise
    finally:
        if owned:
            pool.shutdown(wait=True)


def _pending(store, tasks, retry_errors, max_tasks):
    """(tasks to run, in order, at most max_tasks; keys of stored error rows to replace)."""
    stored = store.statuses(t.key for t in tasks)
    redo = {k for k, s in stored.items() if retry_errors and s == "error"}
    pending = [t for t in tasks if t.key not in stored or t.key in redo]
    return (pending if max_tasks is None else pending[:max_tasks]), redo


def run_sweep(spec: SweepSpec, store, *, n_jobs: int | None = None, executor=None,
              progress=True, max_tasks: int | None = None,
              retry_errors: bool = False) -> pd.DataFrame:
    """Run every task of ``spec`` not yet in ``store``; return all the spec's records.

    Parameters
    ----------
    spec : SweepSpec
    store : str, os.PathLike or Store
        SQLite file (created if missing) or an open :class:`Store`.
    n_jobs : int, optional
        Local worker processes (default ``os.cpu_count()``; -1 likewise);
        1 runs in-process.  Each worker limits BLAS to
        ``cpu_count // workers`` threads.
    executor : concurrent.futures.Executor or dask.distributed.Client, optional
        Run the tasks there instead (then ``n_jobs`` must be None).  Kind
        modules must be importable on its workers.
    progress : {True, False, "force"}
        tqdm bar on stderr; True shows it only when stderr is a TTY.
    max_tasks : int, optional
        Run at most this many pending tasks (in task order), then return.
    retry_errors : bool, default False
        Re-run the tasks stored with status "error" and replace their rows.

    Returns
    -------
    pandas.DataFrame
        One row per task of the spec that is stored (old and new), in task
        order.  Columns: ``INPUT_COLUMNS``, one per hyper-parameter,
        ``status``, ``message``, the kind's outcomes, ``warnings``, and
        wall-clock seconds in ``time_*`` columns.

    Raises
    ------
    TypeError, ValueError
        Malformed spec or arguments; the registries' typed errors
        (``UnknownSolverError``, ``UnknownPrecisionError``,
        ``UnknownTaskKindError``, unknown dataset) before anything runs.
    KeyboardInterrupt, concurrent.futures.process.BrokenProcessPool
        Propagated after committing every finished row.

    Notes
    -----
    Warnings raised inside a task are recorded in its "warnings" column;
    with a thread executor they may be attributed to a concurrent task
    (``warnings.catch_warnings`` is process-global): prefer processes.
    """
    _check_run_args(spec, n_jobs, executor, progress, max_tasks)
    tasks = spec.tasks()  # validates: typed errors before any work
    modules = {spec.kind: get_task_kind(spec.kind).module}
    keys = [t.key for t in tasks]
    store, owned_store = open_store(store)
    try:
        store.register_spec(spec, keys)
        pending, redo = _pending(store, tasks, retry_errors, max_tasks)
        pool, owned = _resolve_executor(executor, n_jobs, len(pending))
        with _progress_bar(progress, len(tasks), len(tasks) - len(pending), spec.name) as bar:
            counts = Counter()
            if pool is None:
                for task in pending:
                    _write(store, execute_task(task, modules[task.kind]), bar, counts, bool(redo))
            else:
                _run_pool(pool, owned, pending, modules, store, bar, counts, bool(redo))
        return records_frame(store.rows(keys=keys))
    finally:
        if owned_store:
            store.close()


def load_records(store, spec: SweepSpec | str | None = None, kind: str | None = None) -> pd.DataFrame:
    """Stored records as a tidy DataFrame (see ``run_sweep`` for the columns).

    Parameters
    ----------
    store : str, os.PathLike or Store
    spec : SweepSpec or str, optional
        A spec: its tasks' stored rows in task order (whatever sweep computed
        them; if its kind is not registered in this process, the rows of the
        last sweep run under its name).  A name: the tasks of the last spec
        run under that name.
    kind : str, optional
        Only rows of this task kind.

    Returns
    -------
    pandas.DataFrame
        Empty (with the input columns) if nothing matches.
    """
    if spec is not None and not isinstance(spec, (SweepSpec, str)):
        raise TypeError(f"expected a SweepSpec, a sweep name or None for spec, got spec={spec!r}")
    if isinstance(store, (str, os.PathLike)) and not os.path.exists(store) and store != ":memory:":
        raise FileNotFoundError(f"expected an existing record store, got store={os.fspath(store)!r}")
    store, owned = open_store(store)
    try:
        if isinstance(spec, SweepSpec) and spec.kind in task_kinds():
            rows = store.rows(keys=[t.key for t in spec.tasks()], kind=kind)
        elif isinstance(spec, SweepSpec):  # a reader need not import the kind's module
            rows = store.rows(spec=spec.name, kind=kind)
        else:
            rows = store.rows(spec=spec, kind=kind)
        return records_frame(rows)
    finally:
        if owned:
            store.close()

