"""The audit's bad inputs as a table: (entry point, bad input, expected error type, argument named).

Two tables.  ``SOLVER_CASES`` is applied to every registered solver (iterating
``la.solvers()`` and ``SolverInfo.example_problem``), so a solver registered
later inherits every row; a row is skipped only where it cannot apply (the
solver takes no C / sigma2, or does not run in float32).  ``API_CASES`` covers
the other public entry points.  Each row asserts the exception type and that
the message names the argument the user passed (as a whole word).
"""
from __future__ import annotations

import re
import warnings

import numpy as np
import pytest

import lssvm_analysis as la
from lssvm_analysis.core.exceptions import (StoreError, UnexpectedParameterError, UnknownPrecisionError,
                                            UnknownSolverError)
from lssvm_analysis.experiments import SweepSpec, run_sweep
from lssvm_analysis.experiments.store import Store


def _nan_X(pb):
    X = pb.X.copy()
    X[1, 0] = np.nan
    return {"X": X}


def _text_X(pb):
    return {"X": pb.X.astype(str)}


def _short_y(pb):
    return {"y": pb.y[:-1]}


# (id, needs, make(pb) -> overrides of X / y / params, error type, argument named)
# needs: keyword the solver must accept, or "float32" (the solver runs in float32).
SOLVER_CASES = [
    ("X-nan", None, _nan_X, ValueError, "X"),
    ("X-text", None, _text_X, TypeError, "X"),
    ("y-length", None, _short_y, ValueError, "y"),
    ("C-None", "C", lambda pb: {"C": None}, TypeError, "C"),
    ("C-zero", "C", lambda pb: {"C": 0.0}, ValueError, "C"),
    ("C-negative", "C", lambda pb: {"C": -1.0}, ValueError, "C"),
    ("C-nan", "C", lambda pb: {"C": float("nan")}, ValueError, "C"),
    ("C-inf", "C", lambda pb: {"C": float("inf")}, ValueError, "C"),
    ("C-text", "C", lambda pb: {"C": "1"}, TypeError, "C"),
    ("sigma2-None", "sigma2", lambda pb: {"sigma2": None}, TypeError, "sigma2"),
    ("sigma2-zero", "sigma2", lambda pb: {"sigma2": 0.0}, ValueError, "sigma2"),
    ("sigma2-negative", "sigma2", lambda pb: {"sigma2": -2.0}, ValueError, "sigma2"),
    ("kernel-unknown", "kernel", lambda pb: {"kernel": "foo"}, ValueError, "kernel"),
    ("poly-t-negative", "t", lambda pb: {"kernel": "poly", "t": -1.0}, ValueError, "t"),
    ("unknown-keyword", None, lambda pb: {"bogus": 1}, UnexpectedParameterError, "bogus"),
    ("precision-float16", None, lambda pb: {"precision": "float16"}, UnknownPrecisionError, "precision"),
    ("precision-mp100000", None, lambda pb: {"precision": "mp100000"}, UnknownPrecisionError, "precision"),
    ("float32-X-overflow", "float32", lambda pb: {"X": pb.X * 1e200}, ValueError, "X"),
    ("float32-y-overflow", "float32", lambda pb: {"y": pb.y * 1e39} if pb.task == "regression" else None,
     ValueError, "y"),
    ("float32-C-tiny", ("float32", "C"), lambda pb: {"C": 1e-300}, ValueError, "C"),
    ("float32-sigma2-tiny", ("float32", "sigma2"), lambda pb: {"sigma2": 1e-300}, ValueError, "sigma2"),
]


def _solver_rows():
    for name in la.solvers():
        for case in SOLVER_CASES:
            yield pytest.param(name, case, id=f"{name}-{case[0]}")


def _names(msg, arg):
    return re.search(rf"(?<![\w]){re.escape(arg)}(?![\w])", msg) is not None


@pytest.mark.parametrize("name, case", list(_solver_rows()))
def test_solver_bad_input_table(name, case):
    cid, needs, make, etype, arg = case
    info = la.get_solver(name)
    needs = needs if isinstance(needs, tuple) else (needs,)
    for need in needs:
        if need == "float32" and not info.supports_precision("float32"):
            pytest.skip(f"{name} does not run in float32")
        if need not in (None, "float32") and not info.accepts(need):
            pytest.skip(f"{name} takes no {need}")
    pb = info.example_problem(n=16, rng=np.random.default_rng(0))
    over = make(pb)
    if over is None:
        pytest.skip("not applicable to this task")
    X, y = over.pop("X", pb.X), over.pop("y", pb.y)
    precision = over.pop("precision", "float32" if "float32" in needs else
                         info.supported_precisions()[0] if "float64" not in info.supported_precisions()
                         else "float64")
    params = {**pb.params, **over}
    X0, y0 = np.array(X, copy=True), np.array(y, copy=True)
    with warnings.catch_warnings():
        warnings.simplefilter("ignore")
        with pytest.raises(etype) as exc:
            la.fit(name, X, y, precision=precision, **params)
    assert _names(str(exc.value), arg), (cid, str(exc.value))
    np.testing.assert_array_equal(np.asarray(X), X0)  # the caller's arrays are untouched
    np.testing.assert_array_equal(np.asarray(y), y0)


_X = np.random.default_rng(0).normal(size=(6, 2))
_A = np.eye(3)
_A_nan = np.eye(3)
_A_nan[0, 1] = _A_nan[1, 0] = np.nan

API_CASES = [
    ("Kernel-unknown", lambda: la.Kernel("foo"), ValueError, "kernel"),
    ("make_kernel-unknown", lambda: la.make_kernel("foo"), ValueError, "kernel"),
    ("make_kernel-poly-t", lambda: la.make_kernel("poly", t=-1), ValueError, "t"),
    ("make_kernel-poly-t-None", lambda: la.make_kernel("poly", t=None), TypeError, "t"),
    ("make_kernel-degree", lambda: la.make_kernel("poly", degree=0), ValueError, "degree"),
    ("cg_iteration_bound-eps-0", lambda: la.cg_iteration_bound(10, 0), ValueError, "eps"),
    ("cg_iteration_bound-kappa-0", lambda: la.cg_iteration_bound(0, 1e-3), ValueError, "kappa"),
    ("cg_iteration_bound-kappa-neg", lambda: la.cg_iteration_bound(-1, 1e-3), ValueError, "kappa"),
    ("cg_iteration_bound-kappa-nan", lambda: la.cg_iteration_bound(float("nan"), 1e-3), ValueError, "kappa"),
    ("cg_iteration_bound-kappa-text", lambda: la.cg_iteration_bound("10", 1e-3), TypeError, "kappa"),
    ("pivoted_cholesky-trace_tol-nan",
     lambda: la.pivoted_cholesky(_X, la.make_kernel("rbf"), trace_tol=float("nan")), ValueError, "trace_tol"),
    ("pivoted_cholesky-trace_tol-neg",
     lambda: la.pivoted_cholesky(_X, la.make_kernel("rbf"), trace_tol=-1.0), ValueError, "trace_tol"),
    ("thresholded_cholesky-eta", lambda: la.thresholded_cholesky(_X, la.make_kernel("rbf"), 1.5),
     ValueError, "eta"),
    ("hestenes_stiefel_cg-A-nan", lambda: la.hestenes_stiefel_cg(_A_nan, np.ones(3)), ValueError, "A"),
    ("hestenes_stiefel_cg-B-nan", lambda: la.hestenes_stiefel_cg(_A, np.array([1.0, np.nan, 1.0])),
     ValueError, "B"),
    ("hestenes_stiefel_cg-B-shape", lambda: la.hestenes_stiefel_cg(_A, np.ones(4)), ValueError, "B"),
    ("rbf_kernel-float32-X-overflow", lambda: la.rbf_kernel(_X * 1e200, precision="float32"),
     ValueError, "X"),
    ("rbf_kernel-float32-sigma2-tiny", lambda: la.rbf_kernel(_X, sigma2=1e-300, precision="float32"),
     ValueError, "sigma2"),
    ("linear_kernel-float32-overflow", lambda: la.linear_kernel(_X * 1e30, precision="float32"),
     ValueError, "X"),
    ("fit-unknown-solver", lambda: la.fit("nope", _X, np.ones(6)), UnknownSolverError, "solver"),
    ("LSSVMRegressor-text-X", lambda: la.LSSVMRegressor().fit(_X.astype(str), np.ones(6)),
     TypeError, "X"),
    ("LSSVMClassifier-text-X",
     lambda: la.LSSVMClassifier().fit(_X.astype(str), np.array([1, -1] * 3)), TypeError, "X"),
    ("ELSRegressor-non-ELS-solver", lambda: la.ELSRegressor(solver="lssvm-schur").fit(_X, np.ones(6)),
     ValueError, "solver"),
    ("run_sweep-n_jobs-0",
     lambda: run_sweep(SweepSpec("b", kind="fit", solvers=["krr"], precisions=["float64"],
                                 datasets=["sinc"], seeds=[0]), ":memory:", n_jobs=0, progress=False),
     ValueError, "n_jobs"),
    ("Store-empty-path", lambda: Store("").connection(), StoreError, "path"),
]


@pytest.mark.parametrize("cid, call, etype, arg", API_CASES, ids=[c[0] for c in API_CASES])
def test_api_bad_input_table(cid, call, etype, arg):
    with pytest.raises(etype) as exc:
        call()
    assert _names(str(exc.value), arg), (cid, str(exc.value))
