"""Every random choice of a sweep comes from its task's seed.

A task carries one seed (``SweepSpec.seeds``).  The data set is drawn from it
(``datasets.load(name, seed=seed)``); a solver that makes random choices (a
random support set, candidate draws, prototype swaps: ``SolverInfo.takes_rng``)
gets a generator derived from the same seed on a separate stream,
``numpy.random.default_rng([seed, SOLVER_STREAM])``, so that

* every precision and every variant of one (data set, hyper-parameters, seed)
  row makes the same draws (a random support set is the same in float32 and
  mp50, and the rows of one task differ by the arithmetic only);
* two runs, local or on a Dask cluster, give identical rows;
* the solver's draws are not the data's draws replayed (the stream differs).

A seed of None (``seeds=[None]``) counts as 0, as for the data loaders.  A
grid that gives ``rng`` itself keeps its value.
"""
from __future__ import annotations

import numpy as np

from ..solvers import RANDOM_KEYWORD, get_solver

__all__ = ["SOLVER_STREAM", "task_rng", "with_task_rng"]

#: The spawn key of the solvers' stream ("SEED" read as hex digits).
SOLVER_STREAM = 0x5EED


def task_rng(task, *stream: int) -> np.random.Generator:
    """A fresh generator for the random choices of ``task`` (``stream`` tells several draws apart).

    Parameters
    ----------
    task : Task
        Its ``seed`` (int >= 0 or None, read as 0) seeds the generator.
    *stream : int
        Further non-negative ints, e.g. a support size, for independent draws
        within one task.
    """
    seed = 0 if task.seed is None else int(task.seed)
    return np.random.default_rng([seed, SOLVER_STREAM, *map(int, stream)])


def with_task_rng(solver: str, task, params: dict, *stream: int) -> dict:
    """``params`` plus ``rng=task_rng(task, *stream)`` when ``solver`` takes one and ``params`` gives none.

    Returns a new dict; ``params`` is not modified.
    """
    out = dict(params)
    if get_solver(solver).takes_rng and RANDOM_KEYWORD not in out:
        out[RANDOM_KEYWORD] = task_rng(task, *stream)
    return out
