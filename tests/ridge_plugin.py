"""A primal ridge solver written as an outside plugin would be: only its algorithm, with the public kit.

min_w ||X w - y||^2 + ||w||^2 / C  <=>  (X^T X + I/C) w = X^T y, solved by Cholesky in the
precision; no bias, no kernel.  Used by tests/test_gates.py: ``check_solver`` passes it, and the
project's registry-wide test files run it (in a subprocess, ``pytest -p ridge_plugin``, so the
registration does not leak into the rest of the suite).  As a pytest plugin (``-p ridge_plugin``)
it registers the solver when loaded.
"""
import numpy as np

import lssvm_analysis as la
from lssvm_analysis.solvers import kit

NAME = "test-primal-ridge"


def _normal_equations(X, y, C, p):
    X = p.asarray(np.asarray(X, dtype=np.float64))
    return p.matmul(X.T, X) + p.eye(X.shape[1]) * p.reciprocal(C), p.matmul(X.T, p.asarray(y))


def ridge_system(X, y, fit, **params):
    """The system the fit solved, formed again exactly as the solver formed it."""
    p = la.get_precision(fit.precision)
    A, b = _normal_equations(X, y, kit.fit_params(fit, params)["C"], p)
    return A, b, lambda w: {"w": np.asarray(w), "bias": None}


def fit_primal_ridge(X, y, *, precision="float64", C=1.0):
    """Primal ridge regression by the normal equations (X^T X + I/C) w = X^T y."""
    X, y, k, p = kit.validate_xy(X, y, C=C, kernel="linear", precision=precision)
    timer = kit.PhaseTimer()
    with timer("formation"):
        A, b = _normal_equations(X, y, C, p)
    with timer("solve"):
        w = p.cho_solve(p.cholesky(A), b)
    return kit.make_fit(NAME, p, coef=p.zeros(0), bias=p.scalar(0), support=(), X=X, kernel=k, timer=timer,
                        w=w, params={"C": C}, conditioning=kit.matrix_conditioning(A, p))


def register():
    if NAME not in la.solvers():
        la.register_solver(NAME, tasks=("regression",), paper="test", equations="(X^T X + I/C) w = X^T y",
                           system=ridge_system, condition_estimate=True)(fit_primal_ridge)


def pytest_configure(config):   # as ``pytest -p ridge_plugin``
    register()
