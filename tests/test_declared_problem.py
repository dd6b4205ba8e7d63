"""A plugin declares its exact model (``kit.DeclaredProblem``) and gets certified model digits.

The example is the issue's: a package that regularises the bias solves (K + 1 1^T + I/C) alpha = y
with b = 1^T alpha.  It declares ``exact_model=kit.DeclaredProblem(bias="in-kernel")`` and writes no
extended-precision code; the suite forms the system in double-double and certifies it.  The
certified model is checked against an independent float64 computation (numpy's LU solve of the
matrix formed here by numpy), to the forward bound of a backward-stable solve.
"""
import numpy as np
import pytest

import lssvm_analysis as la
from lssvm_analysis import kit
from lssvm_analysis.solvers import unregister

NAME = "test-bias-in-kernel"
U = 2.0 ** -53


def fit_bias_in_kernel(X, y, *, precision="float64", C=1.0, sigma2=1.0):
    """(K + 1 1^T + I/C) alpha = y by Cholesky, b = 1^T alpha: the plugin's whole algorithm."""
    X, y, k, p = kit.validate_xy(X, y, C=C, sigma2=sigma2, precision=precision)
    timer = kit.PhaseTimer()
    with timer("solve"):
        A = k(X, precision=p.name) + p.asarray(np.ones((len(y), len(y)))) + p.eye(len(y)) * p.reciprocal(C)
        alpha = p.cho_solve(p.cholesky(A), p.asarray(y))
    return kit.make_fit(NAME, p, coef=alpha, bias=np.sum(alpha),
                        support=np.arange(len(y)), X=X, kernel=k, timer=timer, params={"C": C, "sigma2": sigma2})


@pytest.fixture(scope="module")
def plugin():
    la.register_solver(NAME, tasks=("regression",), paper="test", equations="(K + 1 1^T + I/C) alpha = y",
                       exact_model=kit.DeclaredProblem(bias="in-kernel"), condition_estimate=False,
                       precisions=("float32", "float64"))(fit_bias_in_kernel)
    yield NAME
    unregister(NAME)


def _sinc(n=40, seed=5):
    rng = np.random.default_rng(seed)
    X = rng.uniform(-3, 3, (n, 2))
    return X, np.sinc(X[:, 0]) + 0.05 * X[:, 1]


@pytest.mark.parametrize("C", [1e2, 1e6])
def test_the_declared_model_agrees_with_an_independent_float64_solve(plugin, C):
    X, y = _sinc()
    n = len(y)
    fit = la.fit(plugin, X, y, precision="float64", C=C, sigma2=1.0)
    exact = la.exact_model(plugin, X, y, fit=fit)
    assert exact.digits >= 20    # certified far below float64's u (kappa <= 1e9 here, DD ~1e-29)
    # independent: numpy's kernel and LU solve of M = K + 1 1^T + I/C
    sq = np.sum((X[:, None, :] - X[None, :, :]) ** 2, axis=-1)
    M = np.exp(-sq) + 1.0 + np.eye(n) / C
    alpha = np.linalg.solve(M, y)
    kappa = np.linalg.cond(M, np.inf)
    a_ex = np.array([float(c) for c in exact.coef])
    # LU with partial pivoting is backward stable (Higham Thm 9.4): ||d alpha|| / ||alpha|| <= c n kappa u,
    # the kernel's float64 rounding (a few u per entry) included; c = 30 (LAPACK's test ratio)
    bound = 30 * n * kappa * U
    assert np.max(np.abs(alpha - a_ex)) <= bound * np.max(np.abs(a_ex))
    # b = 1^T alpha: |d b| <= ||d alpha||_1 + n u ||alpha||_1 <= n (c n kappa u + u) ||alpha||_inf
    assert abs(alpha.sum() - float(exact.bias)) <= n * (bound + U) * np.max(np.abs(a_ex))
    # and the plugin's own fit gets certified digits, as many as the bound allows
    err = la.model_error(fit, X, y)
    assert err.exact_digits >= 20 and err.model_digits >= -np.log10(n * bound)


def test_the_declared_kkt_and_ridge_forms_are_the_packages_own_exact_models():
    """bias="kkt" and bias=None form the same systems as the LS-SVM and KRR hooks (same DD formation)."""
    X, y = _sinc(30)
    for solver, declared in (("lssvm-kkt", kit.DeclaredProblem(bias="kkt")), ("krr", kit.DeclaredProblem(bias=None))):
        fit = la.fit(solver, X, y, precision="float64", C=1e3, sigma2=1.0)
        ours, theirs = declared(X, y, fit), la.get_solver(solver).exact_model(X, y, fit)
        assert ours.A.shape == theirs.A.shape
        assert np.array_equal(ours.A.hi, theirs.A.hi) and np.array_equal(ours.A.lo, theirs.A.lo)
        assert np.array_equal(ours.rhs, theirs.rhs)


@pytest.mark.parametrize("kwargs, exc, needle", [
    ({"bias": "intercept"}, ValueError, "bias='intercept'"),
    ({"bias": 1}, ValueError, "bias=1"),
    ({"ridge": "C"}, TypeError, "ridge='C'"),
    ({"ridge": -1.0}, ValueError, "ridge=-1.0"),
    ({"ridge": float("nan")}, ValueError, "ridge=nan"),
    ({"ridge": True}, TypeError, "ridge=True"),
])
def test_a_bad_declaration_is_refused_by_name(kwargs, exc, needle):
    with pytest.raises(exc, match=needle.replace("(", r"\(")):
        kit.DeclaredProblem(**kwargs)
