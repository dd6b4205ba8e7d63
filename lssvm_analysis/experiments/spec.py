"""Declarative sweeps: a frozen ``SweepSpec`` expands into content-keyed ``Task`` s.

A sweep is the product solver x precision x dataset x seed x hyper-parameter
grid, for one task *kind* (the row function, see
:mod:`lssvm_analysis.experiments.kinds`).  Expansion is deterministic and
every task carries a stable content key: the SHA-256 of the canonical JSON of
its inputs (kind, the kind's version, solver, precision, dataset and its
keyword arguments, hyper-parameters, seed, options) and of ``SPEC_VERSION``.
The spec's *name* is not part of the key, so two sweeps that share a task
share its stored row.
"""
from __future__ import annotations

import hashlib
import itertools
import json
import numbers
from dataclasses import dataclass, field
from types import MappingProxyType
from typing import Any, Mapping

import numpy as np
from ..core.validation import short_repr as _short
from ..core.memo import Memo
from .kinds import get_task_kind

__all__ = ["SPEC_VERSION", "INPUT_COLUMNS", "SweepSpec", "Task", "canonical_json"]

#: Bump when the meaning of stored rows changes for every kind: all keys change.
SPEC_VERSION = 1
#: The task lists of the specs expanded in this process, keyed on the spec's value and the kind
#: that expanded them.  A report expands each of its ~100 specs about nine times (planning, the
#: progress bar's announcement, the sweep, the status counts, reading the records), 82,000 Task
#: keys (a SHA-256 of canonical JSON each): 2.6 s of the parent's CPU while the workers waited.
_TASKS_MEMO = Memo(max_entries=512)

#: Columns every row starts with (hyper-parameters follow, one column each).
INPUT_COLUMNS = ("key", "kind", "solver", "precision", "dataset", "dataset_kw", "seed", "options")

#: Names a grid key may not take (they are columns the engine writes).
RESERVED = frozenset(INPUT_COLUMNS) | {"status", "message", "error_type", "traceback",
                                       "warnings", "time_task", "time_task_cpu"}


def canonical_json(obj) -> str:
    """The canonical JSON text of ``obj``: sorted keys, no spaces, NaN/inf as tokens.

    Floats are written by ``repr`` (shortest round-tripping form), so equal
    floats give equal text; ``1000`` (int) and ``1000.0`` (float) differ.
    """
    return json.dumps(obj, sort_keys=True, separators=(",", ":"), allow_nan=True)


def json_scalar(value, where: str):
    """Return ``value`` as a plain JSON scalar (None, bool, int, float, str).

    NumPy scalars are converted (``np.float64`` to ``float``, ...); anything
    else raises ``TypeError`` naming ``where``.
    """
    if value is None or isinstance(value, (bool, str)):
        return value
    if isinstance(value, np.bool_):
        return bool(value)
    if isinstance(value, numbers.Integral):
        return int(value)
    if isinstance(value, numbers.Real) and not isinstance(value, np.longdouble):
        return float(value)
    raise TypeError(f"expected a JSON scalar (None, bool, int, float, str) for {where}, "
                    f"got {where}={_short(value)} of type {type(value).__name__}")


def _json_value(value, where: str):
    """Plain JSON data (nested dicts with str keys, lists, scalars) for options."""
    if isinstance(value, Mapping):
        out = {}
        for k, v in value.items():
            if not isinstance(k, str):
                raise TypeError(f"expected str keys in {where}, got key {k!r}")
            out[k] = _json_value(v, f"{where}[{k!r}]")
        return out
    if isinstance(value, (list, tuple)):
        return [_json_value(v, f"{where}[{i}]") for i, v in enumerate(value)]
    return json_scalar(value, where)


def _freeze(mapping: Mapping) -> Mapping:
    return MappingProxyType(dict(mapping))


def _names(value, what: str, *, allow_empty: bool = True) -> tuple:
    if isinstance(value, str) or not isinstance(value, (list, tuple)):
        raise TypeError(f"expected a list of {what} names, got {what}s={_short(value)}")
    for v in value:
        if not isinstance(v, str) or not v:
            raise TypeError(f"expected non-empty str {what} names, got {what}s={_short(value)}")
    if len(set(value)) != len(value):
        raise ValueError(f"expected distinct {what} names, got {what}s={_short(value)}")
    if not value and not allow_empty:
        raise ValueError(f"expected at least one {what}, got {what}s=[]")
    return tuple(value)


def _dataset_entry(entry) -> tuple[str, Mapping]:
    """``"sinc"``, ``("sinc", {"n_train": 50})`` or ``{"name": "sinc", "n_train": 50}``."""
    if isinstance(entry, str) and entry:
        return entry, _freeze({})
    if isinstance(entry, Mapping) and isinstance(entry.get("name"), str):
        kw = {k: v for k, v in entry.items() if k != "name"}
        name = entry["name"]
    elif (isinstance(entry, (tuple, list)) and len(entry) == 2 and isinstance(entry[0], str)
          and isinstance(entry[1], Mapping)):
        name, kw = entry
    else:
        raise TypeError("expected a dataset entry 'name', ('name', {kw}) or {'name': ..., **kw}, "
                        f"got datasets entry {_short(entry)}")
    if "seed" in kw:
        raise ValueError(f"expected the seed in SweepSpec.seeds, not in the dataset keywords, "
                         f"got datasets entry {_short(entry)}")
    return name, _freeze(_json_value(dict(kw), f"dataset_kw of {name!r}"))


def _grid(grid) -> Mapping:
    if not isinstance(grid, Mapping):
        raise TypeError(f"expected a mapping name -> list of values for grid, got grid={_short(grid)}")
    out = {}
    for name, values in grid.items():
        if not isinstance(name, str) or not name:
            raise TypeError(f"expected non-empty str grid keys, got grid key {name!r}")
        if name in RESERVED or name.startswith("time_"):
            raise ValueError(f"expected a grid key that is not a reserved column name "
                             f"{sorted(RESERVED)} or time_*, got grid key {name!r}")
        if isinstance(values, (str, bytes, Mapping)) or not hasattr(values, "__iter__"):
            raise TypeError(f"expected a list of values for grid[{name!r}], "
                            f"got grid[{name!r}]={_short(values)}")
        vals = tuple(json_scalar(v, f"grid[{name!r}]") for v in values)
        if not vals:
            raise ValueError(f"expected at least one value in grid[{name!r}], got grid[{name!r}]=[]")
        out[name] = vals
    return _freeze(out)


def _seeds(seeds) -> tuple:
    if isinstance(seeds, (str, bytes)) or not hasattr(seeds, "__iter__"):
        raise TypeError(f"expected a list of int seeds, got seeds={_short(seeds)}")
    out = []
    for s in seeds:
        if s is not None and (isinstance(s, (bool, np.bool_)) or not isinstance(s, numbers.Integral)
                              or s < 0):
            raise TypeError(f"expected non-negative int seeds (or None), got seeds={_short(seeds)}")
        out.append(None if s is None else int(s))
    if not out:
        raise ValueError("expected at least one seed, got seeds=[]")
    if len(set(out)) != len(out):
        raise ValueError(f"expected distinct seeds, got seeds={_short(seeds)}")
    return tuple(out)


@dataclass(frozen=True)
class Task:
    """One unit of work: a kind applied to one combination of inputs.

    Attributes
    ----------
    kind : str
        Registered task kind (the row function).
    solver, precision, dataset : str or None
        Registry names (None when the spec leaves that axis empty).
    dataset_kw : mapping
        Keyword arguments of ``datasets.load`` besides ``seed`` (read-only).
    params : mapping
        Hyper-parameters (unified names: C, sigma2, eta, ...), read-only.
    seed : int or None
    options : mapping
        Sweep-wide options of the kind (read-only), e.g. ``reference_max_n``.
    kind_version : int
        Version of the kind's row function, part of the key.
    key : str
        24 hex digits of SHA-256 of the canonical JSON of everything above
        and ``SPEC_VERSION``.
    """

    kind: str
    solver: str | None
    precision: str | None
    dataset: str | None
    dataset_kw: Mapping[str, Any]
    params: Mapping[str, Any]
    seed: int | None
    options: Mapping[str, Any]
    kind_version: int = 1
    key: str = field(init=False)

    def __post_init__(self):
        for name in ("dataset_kw", "params", "options"):
            object.__setattr__(self, name, _freeze(getattr(self, name)))
        digest = hashlib.sha256(canonical_json(self.identity()).encode()).hexdigest()
        object.__setattr__(self, "key", digest[:24])

    def identity(self) -> dict:
        """The inputs the key is the hash of (plain JSON data)."""
        return {"spec_version": SPEC_VERSION, "kind": self.kind, "kind_version": self.kind_version,
                "solver": self.solver, "precision": self.precision, "dataset": self.dataset,
                "dataset_kw": dict(self.dataset_kw), "params": dict(self.params),
                "seed": self.seed, "options": dict(self.options)}

    def input_columns(self) -> dict:
        """The row's leading columns: ``INPUT_COLUMNS`` then one column per parameter."""
        row = {"key": self.key, "kind": self.kind, "solver": self.solver,
               "precision": self.precision, "dataset": self.dataset,
               "dataset_kw": canonical_json(dict(self.dataset_kw)), "seed": self.seed,
               "options": canonical_json(dict(self.options))}
        row.update(self.params)
        return row

    def __hash__(self):
        return hash(self.key)

    def __reduce__(self):  # MappingProxyType does not pickle: rebuild from plain dicts
        return (Task, (self.kind, self.solver, self.precision, self.dataset, dict(self.dataset_kw),
                       dict(self.params), self.seed, dict(self.options), self.kind_version))


@dataclass(frozen=True)
class SweepSpec:
    """A declarative sweep: solvers x precisions x datasets x seeds x grid, for one kind.

    Parameters
    ----------
    name : str
        Name under which the store remembers which tasks belong to the sweep.
    kind : str, default "fit"
        Registered task kind (``task_kinds()``).
    solvers, precisions : list of str
        Registry names; an empty list means "not used by this kind" (None).
    datasets : list
        Entries ``"name"``, ``("name", {kw})`` or ``{"name": ..., **kw}``:
        ``datasets.load(name, seed=seed, **kw)``.
    grid : mapping str -> list of JSON scalars
        Hyper-parameter values (unified names C, sigma2, eta, ...); the
        product of the lists is swept.  A kind may keep only the keys a
        solver accepts (kind "fit" does); duplicates this creates are merged.
    seeds : list of int
        Each seed reruns every combination (dataset draw / split).
    options : mapping
        JSON data passed to every task (part of the key), e.g.
        ``{"reference_max_n": 400}`` for kind "fit".

    Raises
    ------
    TypeError, ValueError
        On construction, for malformed fields.  Registry names are checked
        by :meth:`validate` (called by ``run_sweep`` and :meth:`tasks`).

    Notes
    -----
    Lists are stored as tuples and mappings read-only, so a spec is a value.
    Task order: datasets, then seeds, solvers, precisions, then the grid in
    the order of its keys (last key fastest).
    """

    name: str
    kind: str = "fit"
    solvers: tuple = ()
    precisions: tuple = ()
    datasets: tuple = ()
    grid: Mapping[str, tuple] = field(default_factory=dict)
    seeds: tuple = (0,)
    options: Mapping[str, Any] = field(default_factory=dict)

    def __post_init__(self):
        if not isinstance(self.name, str) or not self.name.strip():
            raise TypeError(f"expected a non-empty str for name, got name={_short(self.name)}")
        if not isinstance(self.kind, str) or not self.kind:
            raise TypeError(f"expected a task kind name (str), got kind={_short(self.kind)}")
        if isinstance(self.datasets, (str, bytes)) or not isinstance(self.datasets, (list, tuple)):
            raise TypeError(f"expected a list of datasets, got datasets={_short(self.datasets)}")
        sets = object.__setattr__
        sets(self, "solvers", _names(self.solvers, "solver"))
        sets(self, "precisions", _names(self.precisions, "precision"))
        sets(self, "datasets", tuple(_dataset_entry(d) for d in self.datasets))
        sets(self, "grid", _grid(self.grid))
        sets(self, "seeds", _seeds(self.seeds))
        if not isinstance(self.options, Mapping):
            raise TypeError(f"expected a mapping for options, got options={_short(self.options)}")
        sets(self, "options", _freeze(_json_value(dict(self.options), "options")))

    def __hash__(self):
        return hash(canonical_json(self.to_dict()))

    def __reduce__(self):  # MappingProxyType does not pickle: rebuild from plain data
        return (SweepSpec.from_dict, (self.to_dict(),))

    @classmethod
    def from_dict(cls, data: Mapping) -> "SweepSpec":
        """Inverse of :meth:`to_dict` (e.g. for a spec read back from a store)."""
        return cls(**dict(data))

    def to_dict(self) -> dict:
        """Plain JSON data describing the spec (stored beside the records)."""
        return {"name": self.name, "kind": self.kind, "solvers": list(self.solvers),
                "precisions": list(self.precisions),
                "datasets": [[n, dict(kw)] for n, kw in self.datasets],
                "grid": {k: list(v) for k, v in self.grid.items()}, "seeds": list(self.seeds),
                "options": dict(self.options)}

    def validate(self) -> None:
        """Check the names against the registries; raise their typed errors.

        Raises
        ------
        UnknownTaskKindError, UnknownSolverError, UnknownPrecisionError, ValueError
            As raised by the kind's validator (default: every solver,
            precision and dataset name must be registered).
        """

        get_task_kind(self.kind).validate(self)

    def _grid_of(self, kind, solver) -> dict:
        """The grid axes ``kind.select_params`` keeps for ``solver`` (the others only make duplicates).

        A report grid holds the variant keywords of many solvers; expanding the
        product of all of them for every solver made millions of tasks that the
        key then merged.  Axes are kept in the grid's order, so the tasks and
        their order are those of the full product after merging.
        """
        if not self.grid:
            return {}
        kept = kind.select_params(solver, {k: v[0] for k, v in self.grid.items()})
        return {k: v for k, v in self.grid.items() if k in kept}

    def tasks(self) -> list[Task]:
        """The deterministic, duplicate-free list of tasks (validates first).

        Combinations the kind does not accept are left out (kind "fit": a
        solver on a data set of a task it does not solve).

        Raises
        ------
        ValueError
            Also when no task is left.
        """

        kind = get_task_kind(self.kind)
        kind.validate(self)
        # a re-registered kind (another TaskKind) expands anew; Tasks are frozen, so shared
        key = (canonical_json(self.to_dict()), kind)
        return list(_TASKS_MEMO.get(key, lambda: tuple(self._expand(kind))))

    def _expand(self, kind) -> list[Task]:
        """:meth:`tasks` computed (``kind`` validated the spec)."""
        tasks, seen = [], set()
        for (dname, dkw), seed, solver in itertools.product(
                self.datasets or [(None, {})], self.seeds, self.solvers or [None]):
            grid = self._grid_of(kind, solver)
            for precision, values in itertools.product(self.precisions or [None],
                                                       itertools.product(*grid.values())):
                params = kind.select_params(solver, dict(zip(grid, values)))
                task = Task(self.kind, solver, precision, dname, dkw, params, seed, self.options,
                            kind.version)
                if task.key not in seen and kind.accepts(task):
                    seen.add(task.key)
                    tasks.append(task)
        if not tasks:
            raise ValueError(f"expected a sweep with at least one task, got none from spec "
                             f"{self.name!r}: kind {self.kind!r} accepts no combination of its "
                             f"solvers, precisions and datasets")
        return tasks
