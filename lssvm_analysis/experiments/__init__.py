"""Layer 6: declarative, resumable, parallel experiment records.

A :class:`SweepSpec` (solver x precision x dataset x hyper-parameter grid x
seed, for one task *kind*) expands into content-keyed :class:`Task` s;
:func:`run_sweep` runs those not yet stored, on local processes by default,
and appends each row to an embedded SQLite file as soon as it is computed;
:func:`load_records` reads them back as a tidy pandas DataFrame.  Reporting
reads records only.

>>> spec = SweepSpec("abe-mg", solvers=["els-primal", "els-dual"],
...                  precisions=["float32", "float64"], datasets=["mackey-glass"],
...                  grid={"C": [1e2, 1e6], "sigma2": [1.0], "eta": [1e-3]})
>>> df = run_sweep(spec, "records.sqlite", n_jobs=2)       # doctest: +SKIP

Row kinds are pluggable: ``register_task_kind(name, func)`` at import time
of a module workers can import; kind "fit" (:mod:`.fit_kind`) is built in.
"""
from .kinds import (TaskKind, UnknownTaskKindError, get_task_kind, is_measurement, register_task_kind,
                    task_kinds)
from .progress import SweepProgress
from .runner import TIMING_PREFIX, execute_task, load_records, run_sweep
from .spec import INPUT_COLUMNS, SPEC_VERSION, SweepSpec, Task, canonical_json
from .store import Store
from .papers import Paper, get_paper, load_papers, papers, register_paper

__all__ = [
    "INPUT_COLUMNS", "SPEC_VERSION", "TIMING_PREFIX", "Store", "SweepProgress", "SweepSpec", "Task", "TaskKind",
    "UnknownTaskKindError", "canonical_json", "is_measurement", "execute_task", "get_task_kind", "load_records",
    "register_task_kind", "run_sweep", "task_kinds", "Paper", "get_paper", "load_papers", "papers", "register_paper",
]

from . import fit_kind  # noqa: E402,F401  (registers kind "fit")
from . import asv_import, kinds_system  # noqa: E402,F401  (register their kinds)
# The papers' own kinds live in their rooms (lssvm_analysis/papers/<paper>/kinds*.py) and register
# when the papers load: get_task_kind loads them on the first name it does not know, so a Dask worker
# or a user script that never imports ``report`` can run any sweep.
