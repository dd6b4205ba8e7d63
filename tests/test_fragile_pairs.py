"""The fragile formulas of SEED_NOTES §6 measured as literal/stable pairs.

Each test puts the printed form beside its stable reformulation on a problem
where theory predicts a difference (or predicts none), measures both against
an extended-precision run of the same mathematics, and asserts the predicted
loss with its constant derived next to the assertion.
"""
from __future__ import annotations

import math

import numpy as np
import pytest

from conftest import HARDWARE

import lssvm_analysis as la
from lssvm_analysis.arith.precision import get_precision
from lssvm_analysis.solvers import chen_zhou as cz


def _sinc(rng, m, outliers=0):
    X = rng.uniform(-3, 3, (m, 1))
    y = np.sinc(X[:, 0]) + 0.05 * rng.standard_normal(m)
    y[:outliers] += 3.0
    return X, y


def _rel(a, b) -> float:
    return float(np.max(np.abs(np.asarray(a, float) - b)) / np.max(np.abs(b)))


# -- FS-LSSVM: Lambda^{-1/2} ------------------------------------------------------------------
@pytest.mark.parametrize("precision", HARDWARE)
def test_fs_lssvm_literal_inverse_root_of_noise_eigenvalues_fails_where_the_floor_holds(precision):
    # sigma2 = 10 over [-3, 3]: K_MM (M = 20) has eigenvalues down to ~1e-36 (mp), far below
    # M u lambda_max in both precisions.  Computed eigenvalues there are rounding noise of either
    # sign: Lambda^{-1/2} of a non-positive one is NaN (status "overflow"); of a tiny positive one
    # it scales noise by (M u)^{-1/2} or more.  The floored features drop them.
    rng = np.random.default_rng(0)
    X, y = _sinc(rng, 200)
    Xt = np.linspace(-3, 3, 50)[:, None]
    kw = dict(C=10.0, sigma2=10.0, n_support=20, rng=0)
    exact = la.fit("fs-lssvm", X, y, precision="mp40", **kw).predict(Xt)  # same prototypes (rng)
    floored = la.fit("fs-lssvm", X, y, precision=precision, **kw)
    literal = la.fit("fs-lssvm", X, y, precision=precision, features="literal", **kw)
    assert floored.ok and floored.diagnostics["n_features"] < 20
    err_floored = _rel(floored.predict(Xt), exact)  # the truncation's error (no bound derived: stated)
    assert np.isfinite(err_floored)
    if literal.ok:  # every noise eigenvalue came out positive: amplified noise instead
        assert _rel(literal.predict(Xt), exact) >= 10 * err_floored
    else:
        assert literal.status == "overflow" and literal.diagnostics["nonfinite"]["phase"] == "formation"


def test_fs_lssvm_literal_equals_floored_when_no_eigenvalue_is_below_the_floor():
    # sigma2 = 0.3: lambda_min(K_MM) ~ 1e-3 lambda_max, above M u in float32: same features, same model
    rng = np.random.default_rng(0)
    X, y = _sinc(rng, 200)
    kw = dict(C=10.0, sigma2=0.3, n_support=20, rng=0, precision="float32")
    a, b = la.fit("fs-lssvm", X, y, **kw), la.fit("fs-lssvm", X, y, features="literal", **kw)
    assert a.diagnostics["n_features"] == b.diagnostics["n_features"] == 20
    np.testing.assert_array_equal(a.coef_, b.coef_)


# -- Chen & Zhou (27): the digits of J --------------------------------------------------------
@pytest.mark.parametrize("precision", HARDWARE)
def test_j_as_printed_loses_the_digits_of_the_mean_column(precision):
    # A wide kernel (sigma2 = 1e4 over [-3, 3]) makes K nearly constant: P's columns are mostly
    # their mean, ||P||_F^2 >> ||P_c||_F^2.  (27) sums P^T P (error ~ m u ||P||^2, Higham (3.5))
    # and subtracts a rank-one term of the same size; the centred form sums P_c^T P_c (error
    # ~ m u ||P_c||^2).  Predicted loss: log10(||P||^2 / ||P_c||^2) digits.
    rng = np.random.default_rng(1)
    m = 400
    X = rng.uniform(-3, 3, (m, 1))
    p, mp = get_precision(precision), get_precision("mp40")
    sel, _ = cz.factor(X, la.make_kernel("rbf", sigma2=1e4), p, 10, None, "relative")
    P = sel.G
    mlam = p.reciprocal(1e6)
    with mp.context():  # the exact J of this P (P's entries are exact in mp)
        J_exact = mp.to_float64(cz.form_j(mp.asarray(p.to_float64(P)), mp.reciprocal(1e6), mp, "centered")[0])
    err = {}
    for form in ("literal", "centered"):
        with p.context():
            J = cz.form_j(P.copy(), mlam, p, form)[0]
        err[form] = np.linalg.norm(p.to_float64(J) - J_exact) / np.linalg.norm(J_exact)
    Pf = p.to_float64(P)
    Pc = Pf - Pf.mean(axis=0)
    predicted = math.log10(np.linalg.norm(Pf) ** 2 / np.linalg.norm(Pc) ** 2)
    assert predicted > 2  # the problem separates the forms (else the test tests nothing)
    # the centred form is within its bound: gamma_m |P_c|^T |P_c| (Higham 3.5) plus the mean's
    # rounding (2 u relative per entry of P_c), normwise m u ||P_c||_F^2 + 2 u ||J||; c = 2
    bound = 2 * (m * p.unit_roundoff * np.linalg.norm(Pc) ** 2 / np.linalg.norm(J_exact) + 2 * p.unit_roundoff)
    assert err["centered"] <= bound
    # both errors are sums of m roundings of random sign (~ sqrt(m) u times the norms, not the
    # worst case m u): their ratio scatters around the norms' ratio by a factor < 10: 1 digit slack
    assert math.log10(err["literal"] / err["centered"]) >= predicted - 1


# -- SR-LSSVM (22): the smoothing's overflow and underflow ------------------------------------
def test_literal_smoothing_overflows_and_its_active_set_is_defined_by_underflow():
    # p = 1e4: e^{p(xi^2 - tau^2)} overflows (> 88.7 in float32, > 709.8 in float64) at every
    # outlier; min(1, inf) = 1 rescues the value in IEEE arithmetic, so theory predicts no lost
    # digit in the model.  But S_t (the non-zero gammas Comment 3 sums over) is then defined by
    # underflow: the tiny e^{p(.)} of inliers flush to 0 in hardware, never in mp.  The stable
    # form zeroes gamma below expit(-40) in every precision.
    rng = np.random.default_rng(0)
    X, y = _sinc(rng, 300, outliers=15)
    Xt = np.linspace(-3, 3, 50)[:, None]
    kw = dict(C=10.0, sigma2=1.0, n_support=15, tau=0.5, update="comment3")
    active = {}
    for prec in ("float32", "float64", "mp30"):
        s = la.fit("sr-lssvm", X, y, precision=prec, smoothing="stable", **kw)
        lit = la.fit("sr-lssvm", X, y, precision=prec, smoothing="literal", **kw)
        assert s.ok and lit.ok
        u = get_precision(prec).unit_roundoff
        if prec != "mp30":
            assert lit.diagnostics["smoothing_overflows"] > 0 == s.diagnostics["smoothing_overflows"]
        # same model: the literal's extra non-zeros are < e^{-40}|xi| each (sum over m = 300
        # points, through J^{-1} of kappa_J): within kappa_J u of the stable model, c = 10
        assert _rel(lit.predict(Xt), s.predict(Xt)) <= 10 * s.diagnostics["kappa_J"] * u
        active[prec] = (list(s.history["n_active"]), list(lit.history["n_active"]))
    stable_sets = {tuple(v[0]) for v in active.values()}
    assert len(stable_sets) == 1  # the stable S_t: the same in every precision
    assert set(active["mp30"][1]) == {300}  # literal in mp: nothing underflows, every point "active"
    assert active["float32"][1] != active["mp30"][1]


# -- Chen & Zhou Comment 2: alpha_B = P_B^{-T} upsilon against the feature map ---------------
@pytest.mark.parametrize("solver", ["pcp-lssvm", "sr-lssvm"])
def test_explicit_alpha_b_and_the_feature_map_differ_by_no_more_than_their_common_bound(solver):
    # Large C and r = 30 pivots: cond(P_B) ~ 4e7, ||alpha_B|| ~ 4e7 against ||upsilon|| ~ 5e2.
    # Printed: f = k_B(x)^T alpha_B.  alpha_B solves (P_B + E)^T alpha = upsilon, |E| <= gamma_r |P_B|
    # (Higham Thm 8.5), so f errs by p(x)^T E^T alpha + the sum's gamma_r |k_B|^T |alpha|, with
    # ||p(x)|| <= sqrt(k(x, x)) = 1: <= gamma_r (||P_B||_F + sqrt(r)) ||alpha||.  Feature map:
    # p(x) solves (P_B + E') p = k_B, so f errs by <= gamma_r cond(P_B) ||upsilon|| (+ the dot
    # product's gamma_r ||upsilon||).  With ||alpha|| <= ||P_B^-1|| ||upsilon|| both bounds are
    # gamma_r cond(P_B) ||upsilon|| up to a constant: theory predicts no digit lost by the printed
    # form beyond that bound (SEED_NOTES' "cancellation" is bounded by it); c = 2 for both sums.
    rng = np.random.default_rng(0)
    X, y = _sinc(rng, 300)
    Xt = np.linspace(-3, 3, 60)[:, None]
    kw = dict(C=1e8, sigma2=1.0, n_support=30, trace_tol=0.0, trace_rule="absolute")
    printed = la.fit(solver, X, y, **kw)
    fmap = la.fit(solver, X, y, coef="feature-map", **kw)
    assert type(fmap).__name__ == "NystromFit" and printed.ok and fmap.ok
    np.testing.assert_array_equal(printed.coef_, fmap.coef_)  # same fit, another evaluation
    r, u = printed.n_support, get_precision("float64").unit_roundoff
    g_r = r * u / (1 - r * u)
    P_B = np.asarray(printed.diagnostics["P_B"], float)
    ups, alpha = np.asarray(printed.diagnostics["upsilon"], float), np.asarray(printed.coef_, float)
    bound = 2 * g_r * ((np.linalg.norm(P_B) + math.sqrt(r)) * np.linalg.norm(alpha)
                       + (np.linalg.cond(P_B) + 1) * np.linalg.norm(ups))
    gap = np.max(np.abs(printed.predict(Xt) - fmap.predict(Xt)))
    assert 0 < gap <= bound


# -- Chen & Zhou (6): I + K/(m lambda), factored once (R-LSSVM-W/Y) ---------------------------
def _ladder_sinc():
    """The digits ladder's problem (report/sections_digits.py): sinc, n = 30, sigma2 = 10."""
    from lssvm_analysis.datasets import load

    ds = load("sinc", n_train=30, n_test=100, seed=0)
    return ds.X_train, ds.y_train


def _cccp_model_error(X, y, fit):
    from lssvm_analysis.analysis.model_error import model_errors, solve_exact_model

    exact = solve_exact_model(la.get_solver(fit.solver).exact_model(X, y, fit))
    return model_errors(fit, exact)["model_error"], exact


@pytest.mark.parametrize("precision, C", [("float32", 1e2), ("float64", 1e7), ("float64", 1e10)])
def test_cccp_cholesky_and_eigen_solve_lose_the_same_digits_where_both_solve(precision, C):
    # Both forms use the same working-precision K, bit for bit; its rounding dK moves the model
    # by -(K + I/C)^{-1} dK alpha, up to kappa u (solvers/cccp_factor.py), and each solve adds a
    # backward error c m u ||A|| (Cholesky: Higham Thm 10.3; eigensolver + floor: p(m) + 1).
    # Bound c m kappa u with c = 30 (LAPACK's test ratio) for both; and since the kernel's term
    # is common and the solves' constants are within 10x of each other, theory predicts the
    # same digits: <= 1 digit apart.
    X, y = _ladder_sinc()
    u, m = get_precision(precision).unit_roundoff, len(y)
    fits = {s: la.fit("r-lssvm-w", X, y, precision=precision, C=C, sigma2=10.0, solve=s)
            for s in ("cholesky", "eigen")}
    assert all(f.ok for f in fits.values())
    errs = {}
    for s, f in fits.items():
        errs[s], exact = _cccp_model_error(X, y, f)
        assert exact.digits >= 15
    kappa = exact.problem_condition
    assert 30 * m * kappa * u < 1  # the bound says something (kappa ~ 6e3 / 5e8 / 6e11 here)
    for s, err in errs.items():
        assert err <= 30 * m * kappa * u, (s, err, kappa)
    assert abs(math.log10(errs["cholesky"] / errs["eigen"])) <= 1.0, errs


@pytest.mark.parametrize("C", [1e7, 1e10, 1e16])
def test_cccp_printed_cholesky_breaks_down_where_the_formed_a_is_indefinite_and_eigen_solves(C):
    # float32: the formed A = I + C fl(K) is indefinite once C ||dK||_2 > 1 (dK the kernel's
    # rounding): predicted here from A's spectrum evaluated in float64 on the float32 entries.
    # The eigen form floors K's spectrum at u lambda_max (a backward perturbation <= u ||K||):
    # a solution exists at every C, with the normwise backward error of (6) <= 2 c m u
    # (two solves, c = 30: the solver's registered backward bound).
    X, y = _ladder_sinc()
    p = get_precision("float32")
    m = len(y)
    K32 = la.rbf_kernel(X, X, sigma2=10.0, precision="float32")
    with p.context():
        A32 = K32 * p.scalar(C) + np.eye(m, dtype=np.float32)
    assert np.linalg.eigvalsh(A32.astype(np.float64))[0] < 0  # theory: the printed form breaks down
    printed = la.fit("r-lssvm-w", X, y, precision="float32", C=C, sigma2=10.0)
    assert printed.status == "breakdown" and printed.coef_ is None
    stable = la.fit("r-lssvm-w", X, y, precision="float32", C=C, sigma2=10.0, solve="eigen")
    assert stable.ok and np.all(np.isfinite(np.asarray(stable.coef_, float)))
    x = np.asarray(stable.diagnostics["solution"], float)
    K = la.rbf_kernel(X, X, sigma2=10.0)
    A = np.zeros((m + 1, m + 1))
    A[:m, :m], A[:m, m], A[m, :m] = np.eye(m) + C * K, 1.0, 1.0
    rhs = np.r_[y - np.asarray(stable.diagnostics["gamma"], float), 0.0]
    backward = np.abs(rhs - A @ x).max() / (np.abs(A).sum(axis=1).max() * np.abs(x).max() + np.abs(rhs).max())
    assert backward <= 2 * 30 * m * p.unit_roundoff


# -- Chen & Zhou §4.2: the pivoted Cholesky's residual diagonal and tolerance ------------------
def _pcp(precision, residual):
    from lssvm_analysis.datasets import load

    ds = load("sinc", n_train=200, n_test=100, seed=0)
    return la.fit("pcp-lssvm", ds.X_train, ds.y_train, precision=precision, C=1e2, sigma2=10.0,
                  n_support=60, residual=residual)


def test_pivoted_cholesky_rank_depends_on_the_precision_and_the_printed_form_extends_the_stable_one():
    # sigma2 = 10 on [-3, 3]: K's eigenvalues fall by ~10x per index, so the residual trace after
    # k pivots (~ the tail sum of the eigenvalues) reaches the default tolerance r u trace(K) at a
    # k that grows with -log10 u: the rank reached is a property of the precision (strictly
    # larger for each smaller u: the thresholds differ by 5e8 and 2e3, several eigenvalues each).
    fits = {(p, r): _pcp(p, r) for p in ("float32", "float64", "longdouble") for r in ("clamped", "literal")}
    for res in ("clamped", "literal"):
        ranks = [fits[p, res].diagnostics["rank"] for p in ("float32", "float64", "longdouble")]
        assert ranks[0] < ranks[1] < ranks[2] < 60, (res, ranks)
        assert all(fits[p, res].diagnostics["rank_stop"] == "trace_tol" for p in ("float32", "float64"))
    for p in ("float32", "float64", "longdouble"):
        c, lit = fits[p, "clamped"], fits[p, "literal"]
        # Clamped: the residual diagonal is never negative.  Printed: d - g^2 of an entry whose
        # residual is at the rounding level rounds to either sign, so negatives remain.
        assert c.diagnostics["negative_residuals"] == 0 < lit.diagnostics["negative_residuals"]
        # d only decreases, so an entry that went negative (printed) or was clamped to 0 never
        # becomes the argmax again while a positive one remains: both forms take the same pivots,
        # with bitwise the same columns, until one stops.  The printed absolute tolerance r u is
        # trace(K) = 200 times below the relative one: it stops later, on top of the same prefix.
        r = c.diagnostics["rank"]
        assert lit.diagnostics["rank"] > r
        np.testing.assert_array_equal(lit.support_[:r], c.support_)
        np.testing.assert_array_equal(np.asarray(lit.diagnostics["P_B"])[:r, :r],
                                      np.asarray(c.diagnostics["P_B"]))
