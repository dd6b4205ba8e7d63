"""The assertions of ``lssvm_analysis.testing`` on the package's own solvers, in-process.

(The pytest run of a user's test file through the plugin is in tests/test_plugins.py.)
"""
import numpy as np
import pytest

import lssvm_analysis as la
from lssvm_analysis.solvers import unregister
from lssvm_analysis.testing import assert_matches_exact, assert_model_digits, check_solver, solver_checks


def _sinc(n=40, seed=3):
    rng = np.random.default_rng(seed)
    X = rng.uniform(-3, 3, (n, 2))
    return X, np.sinc(X[:, 0]) + 0.05 * X[:, 1]


def test_assert_model_digits_returns_the_measurement_or_fails_with_the_figures():
    X, y = _sinc()
    fit = la.fit("lssvm-schur", X, y, precision="float32", C=1e4, sigma2=1.0)
    err = assert_model_digits(fit, X, y, at_least=1)
    assert err.model_digits >= 1
    with pytest.raises(AssertionError) as exc:
        assert_model_digits(fit, X, y, at_least=err.model_digits + 1)   # one digit more than it has
    text = str(exc.value)
    assert f"{err.model_digits:.2f} model digits < at_least=" in text
    assert f"problem kappa {err.problem_condition:.3g}" in text and f"certified to {err.exact_digits:.1f}" in text
    with pytest.raises(TypeError, match="at_least='6'"):
        assert_model_digits(fit, X, y, at_least="6")


def test_assert_matches_exact_holds_for_a_backward_stable_solve_and_names_its_bound():
    X, y = _sinc()
    fit = la.fit("krr", X, y, precision="float64", C=1e4, sigma2=1.0)
    # Cholesky of K + I/C: forward error <= c n kappa u (c = 30, Higham Thm 7.2 with LAPACK's ratio)
    err = assert_matches_exact(fit, X, y)
    assert err.model_error <= 30 * len(y) * err.problem_condition * 2.0 ** -53 + 10.0 ** -err.exact_digits
    with pytest.raises(AssertionError, match=r"model error .* > tol = 1e-30 .*problem kappa"):
        assert_matches_exact(fit, X, y, tol=1e-30)   # beyond what float64 can hold: must fail


def test_check_solver_lists_and_runs_the_registry_driven_battery():
    labels = [label for label, _ in solver_checks("krr", precisions_=["float64"])]
    assert "bad_data" in labels and "exact_model_hook[krr]" in labels and "peak_memory[float64]" in labels
    assert check_solver("krr", precisions=["float64"]) == labels
    with pytest.raises(la.UnknownSolverError, match="'no-such'"):
        check_solver("no-such")


def test_check_solver_reports_every_failing_check_of_a_broken_solver():
    """A solver that ignores its C (it fits krr at C = 1): the bad-C checks fail, named, together."""
    @la.register_solver("test-ignores-c", tasks=("regression",), paper="test", equations="-")
    def _fit(X, y, *, precision="float64", C=1.0, kernel="rbf", sigma2=1.0, degree=3, t=1.0):
        return la.fit("krr", X, y, precision=precision, C=1.0, kernel=kernel, sigma2=sigma2)

    try:
        with pytest.raises(AssertionError) as exc:
            check_solver("test-ignores-c", precisions=["float64"])
        text = str(exc.value)
        assert "checks failed for solver 'test-ignores-c'" in text
        assert "bad_hyperparameter[{'C': 0.0}]" in text and "bad_hyperparameter[{'C': -1.0}]" in text
    finally:
        unregister("test-ignores-c")
