"""Gates of the exact model: the printed formula against its stable reformulation, measured
against the model the data define (not against the system each formulation formed).

Problem: 200 points uniform on [-3, 3], targets sinc (noise-free for op-lssvm, 0.1 Gaussian
noise for reduced-lssvr), RBF kernel; parameters chosen so that the least-squares matrix
of the kept columns has kappa_2 ~ 1e9 (measured by the exact model's ``problem_condition``).
"""
import math
import warnings

import numpy as np
import pytest

import lssvm_analysis as la
from lssvm_analysis.analysis.model_error import model_errors, solve_exact_model
from lssvm_analysis.exact.double_double import linear_dd, rbf_dd
from conftest import U64


def _data(noise):
    rng = np.random.default_rng(3)
    X = rng.uniform(-3, 3, (200, 1))
    y = np.sinc(X[:, 0]) + noise * rng.standard_normal(200)
    return X, y, rng


def _measure(name, X, y, **kw):
    with warnings.catch_warnings():
        warnings.simplefilter("ignore")  # IllConditionedWarning: the point of the test
        fit = la.fit(name, X, y, precision="float64", **kw)
    assert fit.status == "ok", fit.breakdown
    problem = la.get_solver(name).exact_model(X, y, fit)
    exact = solve_exact_model(problem)
    return fit, exact, model_errors(fit, exact)["model_error"], problem


def _residual_ratio(y, exact, problem):
    """eta = ||r|| / (||M|| ||theta||) of the exact least-squares model (regression: theta is
    the model vector).  At the minimizer of ||M theta - l||^2, ||r||^2 = l^T l - theta^T c
    with c = M^T l (the rhs of the normal equations H theta = c), and ||M||_2^2 = ||H||_2
    (Zhao & Sun's R term counted in both); evaluated in mp50 from the certified model."""
    mp = la.get_precision("mp50")
    with mp.context():
        theta = mp.asarray(exact.vector())
        r2 = sum(mp.asarray(y) ** 2) - sum(theta * mp.asarray(problem.rhs))
        H = problem.A.hi + problem.A.lo
        norm_m = math.sqrt(float(np.abs(np.linalg.eigvalsh(H)).max()))
        return float(mp.sqrt(max(r2, 0))) / (norm_m * float(max(abs(v) for v in theta)))


CASES = [
    # solver, stable / literal keyword values, data noise, hyper-parameters
    ("reduced-lssvr", ("ridge", "lstsq", "literal"), 0.1,
     dict(C=1e4, sigma2=4.0, support="random-12")),
    ("op-lssvm", ("solve", "lstsq", "normal-equations"), 0.0, dict(C=1e8, sigma2=1.0, k_max=14)),
]


@pytest.mark.parametrize("name, variants, noise, params", CASES, ids=[c[0] for c in CASES])
def test_stable_variant_within_kappa_u_and_literal_worse_by_theory(name, variants, noise, params):
    X, y, rng = _data(noise)
    params = dict(params)
    if params.pop("support", None):
        params["support"] = np.sort(rng.choice(200, 12, replace=False))
    opt, stable, literal = variants
    fit_s, exact_s, err_s, problem = _measure(name, X, y, **params, **{opt: stable})
    fit_l, exact_l, err_l, _ = _measure(name, X, y, **params, **{opt: literal})
    kappa = exact_s.problem_condition
    assert 1e8 <= kappa <= 1e10, kappa          # the problem the gate is about
    # the same frozen choices, hence the same exact model, for both variants
    assert np.array_equal(fit_s.support_, fit_l.support_)
    assert exact_s.digits >= 9 and exact_l.digits >= 9   # the yardstick resolves what is asserted
    # Stable (Householder QR of the stacked matrix M, m x n): Higham Thm 20.3 gives a
    # backward error ||dM_j|| <= gamma_mn ||M_j||, ~ m n u, to which the float64 kernel
    # adds a few u per entry; Wedin's bound turns it into a forward error
    # <= c u kappa (2 + (kappa + 1) eta), eta = ||r|| / (||M|| ||theta||), c = m n
    # (||theta||_inf in eta's denominator: eta can only grow, the bound only loosen).
    m, n = X.shape[0] + len(fit_s.support_), len(fit_s.support_) + 1
    eta = _residual_ratio(y, exact_s, problem)
    assert err_s <= m * n * U64 * kappa * (2 + (kappa + 1) * eta), (err_s, kappa, eta)
    # Literal (Cholesky of the formed normal equations H = M^T M): error ~ c kappa^2 u,
    # i.e. log10(kappa) digits fewer than the stable form's ~ c kappa u, and no digit
    # once kappa^2 u >= 1.  Predicted gap: min(log10 kappa, stable digits); one digit of
    # slack for the ratio of the two constants.
    d_s, d_l = -math.log10(err_s), -math.log10(err_l) if err_l > 0 else math.inf
    gap = min(math.log10(kappa), d_s)
    assert d_s - d_l >= gap - 1, (d_s, d_l, gap)


@pytest.mark.parametrize("make, ref", [
    (lambda X: rbf_dd(X, None, 0.37), "rbf"),
    (lambda X: rbf_dd(X, X[:7] * 0.5, 2.0), "rbf-rect"),
    (lambda X: linear_dd(X, X[:5]), "linear"),
])
def test_double_double_kernel_within_its_bound(make, ref):
    """Every entry within the a-priori bound of exact/double_double.py, checked in 300-bit balls."""
    import flint

    rng = np.random.default_rng(1)
    X = rng.uniform(-3, 3, (25, 3))
    K = make(X)
    Z = X if K.shape[1] == 25 else (X[:7] * 0.5 if ref == "rbf-rect" else X[:5])
    s2 = 0.37 if ref == "rbf" else 2.0
    with flint.ctx.workprec(300):
        for i in range(K.shape[0]):
            for j in range(K.shape[1]):
                if ref == "linear":
                    e = sum(flint.arb(X[i, k]) * flint.arb(Z[j, k]) for k in range(3))
                else:
                    d = sum((flint.arb(X[i, k]) - flint.arb(Z[j, k])) ** 2 for k in range(3))
                    e = (-d / flint.arb(s2)).exp()
                err = abs(e - flint.arb(K.hi[i, j]) - flint.arb(K.lo[i, j]))
                assert err.upper() <= flint.arb(float(np.broadcast_to(K.bound, K.shape)[i, j]))

