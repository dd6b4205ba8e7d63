"""The registry of task kinds: ``kind name -> function(task) -> dict row``.

A kind is registered at import time of the module that defines it
(``register_task_kind("spectrum", spectrum_row)`` at module level), keyed by
name.  Tasks carry only the kind's name; a worker process that does not know
the name yet imports the module the function was defined in (recorded at
registration) before running the task, so a kind works with every start
method ("fork", "spawn", "forkserver") and on Dask workers as long as that
module is importable there.
"""
from __future__ import annotations

import contextlib
import fnmatch
import importlib
import time
import warnings
from dataclasses import dataclass
from typing import Callable
from ..core.memo import Memo, json_key
from ..arith.precision import get_precision
from ..solvers import get_solver
from .. import datasets as registry
from .papers import load_papers

__all__ = ["TASK_DATA_MEMO", "TaskClock", "TaskKind", "UnknownTaskKindError", "register_task_kind", "task_kinds",
           "is_measurement", "group_key",
           "get_task_kind", "validate_registry_names", "validate_no_solver", "check_dataset_names",
           "raw_task_data"]


class UnknownTaskKindError(ValueError):
    """The task kind name is not registered."""


def validate_registry_names(spec) -> None:
    """Default validator: every solver, precision and dataset name is registered.

    Raises the registries' typed errors (``UnknownSolverError``,
    ``UnknownPrecisionError``, the datasets registry's error).
    """

    for name in spec.solvers:
        get_solver(name)
    for name in spec.precisions:
        get_precision(name)
    if spec.datasets:
        check_dataset_names([name for name, _ in spec.datasets])


def check_dataset_names(names) -> None:
    """Raise the datasets registry's ``UnknownDatasetError`` for a name it does not know."""

    for name in names:
        registry.dataset_info(name)


def validate_no_solver(spec) -> None:
    """Validator of the kinds that take no solver: check precisions and datasets only."""

    for name in spec.precisions:
        get_precision(name)
    if spec.datasets:
        check_dataset_names([name for name, _ in spec.datasets])


#: The data sets of the last tasks of this (worker) process.  A report worker runs the methods of
#: one split of one set one after another (the Suykens tables: eight per split, Chen & Zhou: eight
#: solvers per seed): each parsed the set again (splice: np.vectorize over 191k cells, 0.13 s).
#: A Dataset is immutable (read-only arrays), so the tasks share it; 16 entries hold the splits two
#: sweeps interleave.
TASK_DATA_MEMO = Memo(max_entries=16)


def raw_task_data(task):
    """The task's data set as the datasets registry makes it (labels as stored; kind "fit"
    codes them {-1, +1}, ``fit_kind.load_task_data``).

    Memoized per process on (data set, seed, options) with the warnings its loading raised
    (:data:`TASK_DATA_MEMO`); a seed that is not plain data is loaded anew.
    """
    key = json_key([task.dataset, task.seed, task.dataset_kw])
    return TASK_DATA_MEMO.get(key, lambda: registry.load(task.dataset, seed=task.seed, **task.dataset_kw))


def _all_params(solver, params: dict) -> dict:
    return params


def _accept_all(task) -> bool:
    return True


@dataclass(frozen=True)
class TaskKind:
    """A registered row function and what the engine needs to know about it.

    Attributes
    ----------
    name : str
    func : callable
        ``func(task) -> dict`` of column -> JSON scalar.  It may set
        ``"status"`` (default "ok"); it must not reuse input column names.
    module : str
        Module the worker imports to find ``name`` when it is not registered.
    version : int
        Part of every task key: bump it to invalidate the kind's stored rows.
    validate : callable
        ``validate(spec)`` raising typed errors for bad names.
    select_params : callable
        ``select_params(solver, params) -> params``: the grid values a task
        of ``solver`` really uses (duplicates are merged by key).
    accepts : callable
        ``accepts(task) -> bool``: False drops the combination from the sweep
        (e.g. a regression-only solver on a classification data set).
    measurements : tuple of str
        Glob patterns of the kind's columns that are run-to-run measurements (a timing, a traced
        peak) besides the engine's ``time_*`` columns: two runs of one task may differ there and
        nowhere else (:func:`is_measurement`).
    group : callable or None
        ``group(task) -> JSON data or None``: the tasks of a run that share the data set, its
        options, the seed, the kind's options and this value go to one worker together, as one
        ``batch`` call (None: the task runs alone).
    batch : callable or None
        ``batch(tasks, clock) -> list of dict``: the rows of a group, each the row ``func`` gives
        the task alone (only the engine's ``time_*`` columns may differ), computed together so
        that what the tasks share is computed once.  ``clock`` (:class:`TaskClock`) charges each
        task with the time and warnings of its own work.
    """

    name: str
    func: Callable
    module: str
    version: int = 1
    validate: Callable = validate_registry_names
    select_params: Callable = _all_params
    accepts: Callable = _accept_all
    measurements: tuple = ()
    group: Callable | None = None
    batch: Callable | None = None


class TaskClock:
    """What each task of a batch spent: CPU and wall seconds, and the warnings it raised.

    ``with clock.charge(i): ...`` charges task ``i`` with the block (charges do not nest).  Work
    two tasks share (a factorization both read) is charged to the task that made it, so the
    batch's time is the sum of its tasks' and a task's figure is what it added.
    """

    def __init__(self, n: int, *, record_warnings: bool = True):
        self.cpu = [0.0] * n
        self.wall = [0.0] * n
        self.warnings: list[dict] = [{} for _ in range(n)]
        self._record = bool(record_warnings)  # False: warnings pass through (a task run alone)
        self._active = False

    @contextlib.contextmanager
    def charge(self, i: int):
        if self._active:
            raise RuntimeError("expected one TaskClock.charge at a time, got a nested one")
        self._active = True
        t0, c0 = time.perf_counter(), time.thread_time()
        caught = []
        try:
            with (warnings.catch_warnings(record=True) if self._record else contextlib.nullcontext()) as got:
                if self._record:
                    warnings.simplefilter("always")
                    caught = got
                yield
        finally:
            self.cpu[i] += time.thread_time() - c0
            self.wall[i] += time.perf_counter() - t0
            self._active = False
            for w in caught:
                self.warnings[i][f"{w.category.__name__}: {w.message}"] = None


_KINDS: dict[str, TaskKind] = {}


def _qualname(func) -> tuple:
    return getattr(func, "__module__", None), getattr(func, "__qualname__", repr(func))


def register_task_kind(name: str, func: Callable, *, version: int = 1, validate=None,
                       select_params=None, accepts=None, replace: bool = False,
                       measurements: tuple = (), group=None, batch=None) -> TaskKind:
    """Register ``func(task) -> dict`` as the row function of task kind ``name``.

    Parameters
    ----------
    name : str
    func : callable
        Must be a module-level function (workers import its module).
    version : int, default 1
        Part of the task keys: bump it when the rows' meaning changes.
    validate : callable, optional
        ``validate(spec)``; default :func:`validate_registry_names`.
    select_params : callable, optional
        ``select_params(solver, params) -> params``; default keeps them all.
    accepts : callable, optional
        ``accepts(task) -> bool``; default accepts every combination.
    replace : bool, default False
        Allow re-registering ``name`` (e.g. when a module is reloaded).
    measurements : tuple of str
        Glob patterns of the columns that are run-to-run measurements besides ``time_*``
        (a timing under another name, ``peak_bytes``): named as such, so that a determinism check
        (:func:`is_measurement`) can tell them from the results.
    group, batch : callable, optional
        Both or neither (:class:`TaskKind`): tasks that share work run together.  ``batch`` must
        be a module-level function, as ``func``.

    Returns
    -------
    TaskKind

    Raises
    ------
    ValueError
        If ``name`` is taken and ``replace`` is False.
    TypeError
        If ``func`` is not callable or ``version`` not a positive int.
    """
    if not isinstance(name, str) or not name:
        raise TypeError(f"expected a non-empty str for name, got name={name!r}")
    if not callable(func):
        raise TypeError(f"expected a callable func(task) -> dict, got func={func!r}")
    if isinstance(version, bool) or not isinstance(version, int) or version < 1:
        raise TypeError(f"expected a positive int for version, got version={version!r}")
    if isinstance(measurements, str) or not all(isinstance(m, str) and m for m in measurements):
        raise TypeError(f"expected a tuple of column patterns for measurements, got measurements={measurements!r}")
    if (group is None) != (batch is None) or not all(f is None or callable(f) for f in (group, batch)):
        raise TypeError(f"expected callables group and batch together, or neither, got group={group!r}, "
                        f"batch={batch!r}")
    old = _KINDS.get(name)
    if old is not None and not replace and _qualname(old.func) != _qualname(func):
        raise ValueError(f"expected a new task kind name, got name={name!r} (already registered "
                         f"by {_KINDS[name].module}; pass replace=True to override)")
    kind = TaskKind(name, func, getattr(func, "__module__", None) or "__main__", version,
                    validate or validate_registry_names, select_params or _all_params,
                    accepts or _accept_all, tuple(measurements), group, batch)
    _KINDS[name] = kind
    return kind


def group_key(kind: TaskKind, task) -> str | None:
    """The key of the task's batch (:class:`TaskKind` ``group``), or None when it runs alone."""
    if kind.group is None:
        return None
    value = kind.group(task)
    if value is None:
        return None
    return json_key([task.kind, task.kind_version, task.dataset, dict(task.dataset_kw), task.seed,
                     dict(task.options), value])


def task_kinds() -> list[str]:
    """Registered task kind names (the papers' rooms loaded first)."""
    load_papers()
    return list(_KINDS)


def get_task_kind(name: str, *, module: str | None = None) -> TaskKind:
    """The registered kind ``name``, importing ``module`` first if it is unknown.

    A name that is still unknown loads the papers' rooms (:func:`~.papers.load_papers`), where the
    papers' own kinds register.

    Raises
    ------
    UnknownTaskKindError
    """
    if name not in _KINDS and module and module != "__main__":
        importlib.import_module(module)
    if name not in _KINDS:
        load_papers()
    try:
        return _KINDS[name]
    except (KeyError, TypeError):
        raise UnknownTaskKindError(f"expected a task kind in {task_kinds()}, got kind={name!r}") \
            from None


#: The engine's own run-to-run columns: every ``time_*`` (the task's and the kinds' timings).
MEASUREMENT_PREFIX = "time_"


def is_measurement(column: str, kind: str | None = None) -> bool:
    """Whether ``column`` of a row of ``kind`` is a run-to-run measurement (a timing, a traced peak).

    ``time_*`` columns always are; a kind declares its others at registration (``measurements``).
    Two runs of the same task give the same row except in these columns.
    """
    if column.startswith(MEASUREMENT_PREFIX):
        return True
    if kind is None:
        return False
    return any(fnmatch.fnmatchcase(column, pat) for pat in get_task_kind(kind).measurements)
