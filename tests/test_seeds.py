"""Every random choice of a sweep comes from the task's seed.

The gate over every registered solver on a real Dask LocalCluster is in
``test_dask.py`` (it shares that module's cluster); here: the solver-level
contract (a solver's random choices come from its ``rng`` keyword only) and
the sweep-level one (one task's precisions make the same draws; two cold
runs give identical rows).
"""
from __future__ import annotations

import numpy as np
import pandas as pd
import pytest

from conftest import HARDWARE

import lssvm_analysis as la
from lssvm_analysis.experiments import SweepSpec, run_sweep
from lssvm_analysis.experiments.runner import TIMING_PREFIX
from lssvm_analysis.experiments.seeding import task_rng, with_task_rng
from lssvm_analysis.solvers import RANDOM_KEYWORD, get_solver

RANDOM_SOLVERS = [n for n in la.solvers() if get_solver(n).takes_rng]


def non_time_rows(df: pd.DataFrame) -> pd.DataFrame:
    """Every column except the wall-clock ``time_*`` ones, rows in key order."""
    cols = [c for c in df.columns if not c.startswith(TIMING_PREFIX)]
    return df[cols].sort_values("key").reset_index(drop=True)


def seed_sweep(name: str, precisions=tuple(HARDWARE)) -> SweepSpec:
    """Every registered solver the fit kind runs, one configuration each (its default variant), n = 24.

    The defaults draw: a random support set of ceil(N/10) (reduced-lssvr),
    random prototype swaps (fs-lssvm); ``n_candidates`` = 3 makes rr-lssvr
    score random candidate subsets.  (``n_support`` cannot be a grid value of
    kind "fit": the row's own ``n_support`` column is the fit's count.)
    """
    return SweepSpec(name, kind="fit", solvers=la.solvers(), precisions=list(precisions),
                     datasets=[("sinc", {"n_train": 24, "n_test": 10}),
                               ("ripley-mixture", {"n_train": 24, "n_test": 10})],
                     grid={"C": [10.0], "sigma2": [1.0], "eta": [0.1], "n_candidates": [3]},
                     seeds=[3], options={"first_task_only": True, "reference_max_n": 60})


def test_random_solvers_are_the_ones_expected_and_take_rng_only():
    # the registry says which solvers draw; a solver that draws takes `rng` (no `seed`, no `random_state`)
    assert {"reduced-lssvr", "rr-lssvr", "fs-lssvm"} <= set(RANDOM_SOLVERS)
    for name in la.solvers():
        assert not {"seed", "random_state"} & set(get_solver(name).params), name


@pytest.mark.parametrize("name", RANDOM_SOLVERS)
def test_same_rng_same_fit_other_rng_other_draw(name):
    info = get_solver(name)
    prob = info.example_problem(n=40, rng=0)
    params = {**prob.params, "n_support": 8}
    if info.accepts("n_candidates"):
        params["n_candidates"] = 3
    params.pop(RANDOM_KEYWORD, None)
    a = la.fit(name, prob.X, prob.y, rng=np.random.default_rng(5), **params)
    b = la.fit(name, prob.X, prob.y, rng=np.random.default_rng(5), **params)
    np.testing.assert_array_equal(a.support_, b.support_)
    np.testing.assert_array_equal(a.coef_, b.coef_)  # same draws, same arithmetic: bit-identical
    assert a.bias_ == b.bias_
    supports = {tuple(la.fit(name, prob.X, prob.y, rng=s, **params).support_) for s in range(6)}
    assert len(supports) > 1, "the rng keyword changes nothing: the solver's draws do not come from it"


def test_one_task_draws_the_same_support_in_every_precision():
    # the bug of issue 19: each precision of one (C, sigma2) row drew another random support
    spec = SweepSpec("x", kind="fit", solvers=["reduced-lssvr"], precisions=la.precisions(),
                     datasets=[("sinc", {"n_train": 30})], grid={"n_support": [5]}, seeds=[7])
    ds = la.datasets.load("sinc", seed=7, n_train=30)
    supports = set()
    for task in spec.tasks():
        params = with_task_rng(task.solver, task, task.params)
        supports.add(tuple(la.fit("reduced-lssvr", ds.X_train, ds.y_train, precision=task.precision,
                                  **params).support_))
    assert len(supports) == 1


def test_task_rng_is_a_stream_apart_from_the_data_and_keeps_a_given_rng():
    spec = SweepSpec("x", kind="fit", solvers=["reduced-lssvr"], precisions=["float64"],
                     datasets=["sinc"], seeds=[0, 1])
    t0, t1 = spec.tasks()
    assert task_rng(t0).integers(2 ** 62) == task_rng(t0).integers(2 ** 62)
    assert task_rng(t0).integers(2 ** 62) != task_rng(t1).integers(2 ** 62)
    assert task_rng(t0).integers(2 ** 62) != np.random.default_rng(0).integers(2 ** 62)  # not the data's
    params = {"n_support": 3}
    assert with_task_rng("reduced-lssvr", t0, {**params, "rng": 11})["rng"] == 11
    assert "rng" not in with_task_rng("lssvm-schur", t0, params) and params == {"n_support": 3}


def test_two_cold_runs_give_identical_rows_for_every_registered_solver(tmp_path):
    spec = seed_sweep("seeds-cold")
    first = run_sweep(spec, tmp_path / "a.sqlite", n_jobs=1, progress=False)
    second = run_sweep(spec, tmp_path / "b.sqlite", n_jobs=2, progress=False)  # fresh worker processes
    covered = set(first.solver)
    left_out = {n for n in la.solvers() if get_solver(n).required}  # e.g. pruning's validation set
    assert covered == set(la.solvers()) - left_out, sorted(set(la.solvers()) - left_out - covered)
    assert (first.status != "error").all(), first.loc[first.status == "error", ["solver", "message"]]
    pd.testing.assert_frame_equal(non_time_rows(first), non_time_rows(second))
