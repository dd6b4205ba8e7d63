"""Exact-model hooks of Chen & Zhou's solvers (pcp/sr-lssvm, r-lssvm-w/-y, w-lssvm, fs-lssvm)
and of lssvm-pruned: the model error of a float64 fit is within its theoretical bound, and the
frozen iteration state (gamma, the weights, the kept points) is really part of the exact model.

Problem: 120 points uniform on [-3, 3]^2, targets sinc(x_1) + 0.05 N(0, 1), 12 outliers
shifted by +3 (so that the truncated loss and the robust weights act); RBF kernel.  The
agreement of every hook with an mp40 run is the conformance battery's
(tests/test_conformance.py::test_exact_model_hook_matches_an_mp_run).
"""
import dataclasses
import warnings

import numpy as np
import pytest

import lssvm_analysis as la
from lssvm_analysis.analysis.model_error import model_errors, solve_exact_model
from lssvm_analysis.exact.formation import exact_targets, reduced_lssvr_problem
from conftest import U64


def _data():
    rng = np.random.default_rng(5)
    X = rng.uniform(-3, 3, (120, 2))
    y = np.sinc(X[:, 0]) + 0.05 * rng.standard_normal(120)
    y[rng.choice(120, 12, replace=False)] += 3.0
    return X, y


def _exact(name, X, y, **kw):
    with warnings.catch_warnings():
        warnings.simplefilter("ignore")  # ConvergenceWarning / IllConditionedWarning are data here
        fit = la.fit(name, X, y, precision="float64", **kw)
    assert fit.coef_ is not None, fit.status
    problem = la.get_solver(name).exact_model(X, y, fit, **kw)
    return fit, problem, solve_exact_model(problem)


# (solver, keywords, family): "kkt" solves the (weighted) LS-SVM KKT system by Cholesky of the
# SPD block (Suykens transform / Schur), "normal" a primal ridge by Cholesky of J = M^T M + ...
CASES = [
    ("pcp-lssvm", dict(n_support=20), "normal"),
    ("sr-lssvm", dict(n_support=20, tau=0.5), "normal"),
    ("sr-lssvm", dict(n_support=20, tau=0.5, j_form="literal", smoothing="literal"), "normal"),
    ("fs-lssvm", dict(n_support=20), "normal"),
    ("r-lssvm-w", dict(tau=0.5), "kkt"),
    ("r-lssvm-y", dict(tau=0.5, h=0.1), "kkt"),
    ("w-lssvm", dict(weights="hampel"), "kkt"),
    ("lssvm-pruned", dict(fraction=0.1), "kkt"),
]


@pytest.mark.parametrize("C, sigma2", [(10.0, 1.0), (1e4, 4.0)])
@pytest.mark.parametrize("name, kw, family", CASES,
                         ids=[f"{c[0]}-{'-'.join(map(str, c[1].values()))}" for c in CASES])
def test_float64_model_error_within_theory(name, kw, family, C, sigma2):
    X, y = _data()
    kw = dict(kw, C=C, sigma2=sigma2)
    info = la.get_solver(name)
    if info.example is not None:  # the keywords the solver needs (lssvm-pruned: a validation set)
        kw.update(info.example(X, y, "regression", np.random.default_rng(0)))
    fit, problem, exact = _exact(name, X, y, **kw)
    err = model_errors(fit, exact)["model_error"]
    kappa = exact.problem_condition
    assert exact.digits >= 20   # the yardstick resolves far below what is asserted
    if family == "kkt":
        # Cholesky of the SPD block and two solves recombined (Schur / Suykens transform):
        # forward error <= c kappa u with c = 30 (LAPACK's xPOT04 threshold) per solve, 2 solves;
        # the fit's float64 kernel (a few u per entry) adds <= kappa u (as tests/test_experiments).
        assert err <= 2 * 30 * kappa * U64, (err, kappa)
    else:
        # J = M^T M (+ m lambda I) formed and factored: the normal-equations bound
        # c n u kappa(M)^2 (Higham, Accuracy and Stability, §20.4), n = the order r + 1 of the
        # unknowns, c = 30; alpha_B = P_B^{-T} upsilon and the pivoted Cholesky of P stay
        # inside it at these kappa (kappa(K_BB) <= kappa(M)^2).
        n = len(fit.support_) + 1
        assert err <= 30 * n * kappa ** 2 * U64, (err, kappa)


@pytest.mark.parametrize("name, kw", [("sr-lssvm", dict(n_support=20, tau=0.5)),
                                      ("r-lssvm-w", dict(tau=0.5))])
def test_frozen_gamma_is_part_of_the_exact_model(name, kw):
    """The hook uses the gamma of the last solve: the exact model with gamma = 0 instead is
    far from the fit (the outliers' gamma ~ 3 moves the model by O(1e-2) at least), the
    hook's own is within the float64 bound above."""
    X, y = _data()
    fit, problem, exact = _exact(name, X, y, C=10.0, sigma2=1.0, **kw)
    gamma = fit.diagnostics["gamma"]
    assert np.count_nonzero(gamma) >= 5          # the truncation acts on the outliers
    assert problem.rhs.dtype == object           # y - gamma exactly, not its float64 rounding
    assert model_errors(fit, exact)["model_error"] < 1e-10
    if name == "sr-lssvm":
        plain = reduced_lssvr_problem(X, y, fit.kernel, 10.0, fit.support_, penalty="kernel")
    else:
        plain = la.get_solver(name).exact_model(X, y, fit, C=10.0, sigma2=1.0, **kw)
        plain = dataclasses.replace(plain, rhs=np.concatenate([[0.0], y]).astype(object))
    assert model_errors(fit, solve_exact_model(plain))["model_error"] > 1e-2


def test_exact_targets_are_exact():
    """y - gamma for gamma in longdouble and mp: every bit kept (compared in 300-bit mpmath)."""
    import mpmath

    y = np.array([1.0, -2.5, 1e-3])
    for g in (np.array([1 / 3, 2 / 7, 0.1], dtype=np.longdouble),
              la.get_precision("mp50").asarray(np.array([1.0, 2.0, 3.0])) / 3):
        t = exact_targets(y, g)
        with mpmath.workprec(300):
            for k in range(3):
                gk = g[k] if isinstance(g[k], mpmath.mpf) else mpmath.mpf(g[k].as_integer_ratio()[0]) \
                    / g[k].as_integer_ratio()[1]
                assert t[k] == mpmath.mpf(y[k]) - gk


def test_exact_targets_take_a_scalar_shift_and_refuse_a_wrong_length():
    """A 0-d shift (one gamma for every target) is subtracted from each entry, exactly; a shift of another
    length is refused by name rather than truncated by zip."""
    import mpmath

    y = np.array([1.0, -2.5, 1e-3])
    for g in (np.longdouble(1) / 3, la.get_precision("mp50").asarray(np.array([1.0]))[0] / 3, 0.1):
        t = exact_targets(y, g)
        with mpmath.workprec(300):  # the exact quotient of as_integer_ratio: 300 bits hold it
            gq = g if isinstance(g, mpmath.mpf) else mpmath.mpf(g.as_integer_ratio()[0]) / g.as_integer_ratio()[1]
            assert all(t[k] == mpmath.mpf(y[k]) - gq for k in range(3))
    with pytest.raises(ValueError, match=r"shift of shape \(2,\)"):
        exact_targets(y, np.array([0.1, 0.2]))


def test_pruned_exact_model_is_the_base_hook_on_the_kept_points():
    X, y = _data()
    kw = dict(C=10.0, sigma2=1.0, fraction=0.1, validation=(X[:30], y[:30]))
    fit, problem, exact = _exact("lssvm-pruned", X, y, **kw)
    S = fit.support_
    assert problem.choices["support"] == tuple(int(i) for i in S)
    base = la.fit("lssvm-schur", X[S], y[S], C=10.0, sigma2=1.0)
    ref = solve_exact_model(la.get_solver("lssvm-schur").exact_model(X[S], y[S], base))
    diff = max(abs(a - b) for a, b in zip(exact.vector(), ref.vector()))
    scale = max(abs(v) for v in ref.vector())
    assert float(diff / scale) <= 2 * 10.0 ** -min(exact.digits, ref.digits)


def test_every_solver_has_an_exact_model_or_says_why():
    """Registry-wide: a hook, or a one-sentence ``exact_note`` the fit rows carry."""
    for name in la.solvers():
        info = la.get_solver(name)
        assert (info.exact_model is None) != (info.exact_note == ""), name
