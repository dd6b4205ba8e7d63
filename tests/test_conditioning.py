"""Gates of lssvm_analysis.analysis.conditioning (layer 3).

* lambda_min(Omega_e) = 1/C for N < M (Abe §2.4), in mp and as float64 resolves it;
* the one-SVD spectra against mp where their small end is below float64 resolution;
* the primal matrix's condition saturates near cond(H_c)^2 (against mp);
* the KKT matrix against its Schur complement: Rusten-Winther bounds and interlacing (mp);
* predicted against measured Cholesky breakdown of Omega_e (the issue's gate);
* CG iterations against (3.27); validation and inputs left untouched.

Sizes stay <= 40 wherever mp runs (mp eigvalsh of 40 x 40 takes ~0.2 s).
"""
from __future__ import annotations

import math

import numpy as np
import pytest

from lssvm_analysis.analysis import conditioning as cd
from lssvm_analysis import get_precision
from conftest import U64

MP = "mp30"


def _problem(rng, M=40, d=2):
    X = rng.uniform(0.0, 1.0, (M, d))
    y = np.sin(3 * X[:, 0]) + X[:, 1] + 0.05 * rng.standard_normal(M)
    return X, y


def _mp_eigs(A64_builder, C=None):
    """Eigenvalues (float) of a matrix formed in mp30 from float64 data."""
    p = get_precision(MP)
    with p.context():
        A = A64_builder(p)
        if C is not None:
            c_inv = p.scalar(1.0) / p.scalar(float(C))
            for i in range(A.shape[0]):
                A[i, i] = A[i, i] + c_inv
        return np.array([float(e) for e in p.eigvalsh(A)])


# --------------------------------------------------------------------------- #
# Abe: spectra
# --------------------------------------------------------------------------- #
@pytest.mark.mp
@pytest.mark.parametrize("C", [1.0, 1e4, 1e10])
def test_lambda_min_of_dual_matrix_is_one_over_C(rng, C):
    X, _ = _problem(rng)
    feat = cd.empirical_features(X, sigma2=0.5, eta=0.1)
    M, N = feat.M, feat.N
    assert N < M, f"the gate needs N < M, got N={N}, M={M}"
    ev = cd.dual_eigenvalues(feat, C)
    # The shift formula: M - N eigenvalues are exactly 1/C (zeros of rank-N H H^T, plus 1/C).
    assert np.all(ev[:M - N] == 1.0 / C)
    assert ev[M - N] > 1.0 / C
    # Against Omega_e formed and diagonalized in mp30 from the same float64 H: the M - N
    # smallest agree with 1/C to c * M * u_mp * ||Omega_e||, c = 4 (a backward-stable
    # symmetric eigensolver: |d lambda| <= p(M) u ||A|| with p(M) ~ M; formation adds
    # N u_mp ||H||^2 <= M u_mp ||Omega_e||).
    lam = _mp_eigs(lambda p: p.asarray(feat.H) @ p.asarray(feat.H).T, C)
    u_mp = get_precision(MP).unit_roundoff
    assert np.max(np.abs(lam[:M - N] - 1.0 / C)) <= 4 * M * u_mp * lam[-1]
    assert np.allclose(lam[M - N:], ev[M - N:], rtol=4 * N * U64 * math.sqrt(lam[-1] / lam[M - N]))
    # float64 resolves it only to its own backward error: eigvalsh of the float64-formed
    # Omega_e has |lambda_i - 1/C| <= c * M * u * ||Omega_e||, c = 1 (measured <= 0.07 over seeds;
    # the worst-case constant of LAPACK's syevd is a small multiple of M).
    e64 = np.linalg.eigvalsh(feat.H @ feat.H.T + np.eye(M) / C)
    assert np.max(np.abs(e64[:M - N] - 1.0 / C)) <= M * U64 * e64[-1]


def test_primal_spectrum_is_shifted_centred_gram(rng):
    X, _ = _problem(rng)
    feat = cd.empirical_features(X, sigma2=0.5, eta=0.05)
    Hc = feat.H - feat.H.mean(axis=0)
    M = feat.M
    # eq. (7): I/C + sum h h^T - (1/M) sum_ij h_i h_j^T == H_c^T H_c + I/C
    C = 1e3
    A7 = np.eye(feat.N) / C + feat.H.T @ feat.H - np.outer(feat.H.sum(0), feat.H.sum(0)) / M
    ev7 = np.linalg.eigvalsh(A7)
    ev = cd.primal_eigenvalues(feat, C)
    # both are float64 eigenvalue computations of the same matrix (two formations): they agree to
    # c * N * u * lambda_max absolutely, c = 4 (two backward errors of size ~N u ||A|| each,
    # one of which includes the cancellation of the uncentred formation, ||H||^2 / ||H_c||^2 larger)
    growth = np.linalg.norm(feat.H, 2) ** 2 / np.linalg.norm(Hc, 2) ** 2
    assert np.max(np.abs(ev - ev7)) <= 4 * feat.N * U64 * ev[-1] * growth
    cond = cd.abe_condition(feat, [C])
    row = cond[cond.matrix == "primal"].iloc[0]
    assert row["lambda_min"] == ev[0] and row["lambda_max"] == ev[-1] and row["order"] == feat.N


@pytest.mark.mp
def test_svd_spectra_match_mp_below_float64_resolution(rng):
    X, _ = _problem(rng)
    feat = cd.empirical_features(X, sigma2=1.0, eta=1e-3)  # nearly dependent columns: tiny sigma_min
    chk = cd.check_spectrum_mp(feat, digits=30)
    # the case the check exists for: part of the spectrum is below N u lambda_max
    assert chk.below_resolution.any()
    # |sigma_hat_i - sigma_i| <= p u sigma_max (backward-stable SVD + Weyl), so the relative
    # error of sigma_i^2 is <= 2 r + r^2 with r = N u sigma_max / sigma_i: svd_bound takes p = N
    # (LAPACK guarantees p(M, N) "modestly growing"; measured <= 0.22 of this bound over seeds).
    assert np.all(chk.rel_err <= chk.svd_bound)


@pytest.mark.mp
def test_primal_condition_saturates_near_cond_Hc_squared(rng):
    X, _ = _problem(rng)
    feat = cd.empirical_features(X, sigma2=0.5, eta=0.1)
    Cs = [1e0, 1e2, 1e4, 1e6, 1e8, 1e12, 1e16]
    sat = cd.primal_saturation(X, sigma2=0.5, etas=[0.1], C_grid=Cs)
    # monotone in C and never above the limit: (a + x)/(b + x) <= a/b for a >= b, x = 1/C > 0
    assert np.all(np.diff(sat.cond_primal) > 0)
    assert np.all(sat.saturation <= 1 + 1e-12)
    # exact saturation law: cond(P(C)) / cond(H_c)^2 = (1 + 1/(C s_max^2)) / (1 + 1/(C s_min^2))
    s = feat.sv_centred
    law = (1 + 1 / (sat.C * s[0] ** 2)) / (1 + 1 / (sat.C * s[-1] ** 2))
    assert np.allclose(sat.saturation, law, rtol=8 * U64)  # a handful of roundings of the formula
    # Against mp: P(C) formed in mp30 from the float64 H_c, eigenvalues by mp eigvalsh.
    # The float64 value comes from the SVD of H_c, whose sigma_min has relative error
    # <= N u sigma_max / sigma_min = N u cond(H_c); cond(P) inherits twice that (squared), c = 2.
    Hc = feat.H - feat.H.mean(axis=0)
    kappa_Hc = s[0] / s[-1]
    for C in (1e2, 1e8, 1e16):
        lam = _mp_eigs(lambda p: p.asarray(Hc).T @ p.asarray(Hc), C)
        c_mp = lam[-1] / lam[0]
        c64 = float(sat.loc[sat.C == C, "cond_primal"].iloc[0])
        assert abs(c64 - c_mp) <= 2 * feat.N * U64 * kappa_Hc * c_mp
    lim = _mp_eigs(lambda p: p.asarray(Hc).T @ p.asarray(Hc))
    # at C = 1e16, 1/C is below 1e-4 * sigma_min(H_c)^2 when cond(H_c)^2 < 1e12 (true for eta = 0.1):
    # cond(P) is within 1e-4 of cond(H_c)^2 (mp limit, no float64 involved)
    assert s[-1] ** 2 * 1e16 > 1e4
    c_inf = float(sat.loc[sat.C == 1e16, "cond_primal"].iloc[0])
    assert abs(c_inf / (lim[-1] / lim[0]) - 1) <= 1e-4 + 2 * feat.N * U64 * kappa_Hc


# --------------------------------------------------------------------------- #
# Suykens: KKT against Schur
# --------------------------------------------------------------------------- #
@pytest.mark.mp
@pytest.mark.parametrize("classification", [False, True])
def test_kkt_against_schur_relation_in_mp(rng, classification):
    n = 25
    X = rng.uniform(-1.0, 1.0, (n, 2))
    labels = np.where(X[:, 0] + 0.3 * rng.standard_normal(n) > 0, 1.0, -1.0) if classification else None
    Cs = [1e-2, 1.0, 1e4, 1e8]
    mp = cd.kkt_condition(X, sigma2=0.5, C_grid=Cs, labels=labels, precision=MP)
    u_mp = get_precision(MP).unit_roundoff
    tol = 10 * n * u_mp  # relative slack of the mp eigenvalues (c = 10: eigensolver p(n) ~ n)
    # inertia (1, n): the KKT matrix of an SPD H bordered by d != 0 has exactly one negative eigenvalue
    assert np.all(mp.n_negative == 1)
    # Rusten & Winther (1992), Lemma 2.1 with B = d^T (one singular value ||d||)
    assert np.all(mp.kkt_neg >= mp.rw_neg_lo * (1 + tol))
    assert np.all(mp.kkt_neg <= mp.rw_neg_hi * (1 - tol))
    assert np.all(mp.kkt_pos_min >= mp.mu_min * (1 - tol))
    assert np.all(mp.kkt_max <= mp.rw_pos_hi * (1 + tol))
    # interlacing: the largest KKT eigenvalue is >= lambda_max(H) (H is a principal submatrix)
    assert np.all(mp.kkt_max >= mp.mu_max * (1 - tol))
    # secular equation: |lambda_-| = d^T (H + |lambda_-| I)^-1 d <= d^T H^-1 d = s
    assert np.all(-mp.kkt_neg <= mp.s * (1 + tol))
    # hence kappa(KKT) is bounded by the Rusten-Winther interval ends
    sig_min = np.minimum(mp.mu_min, -mp.rw_neg_hi)
    assert np.all(mp.cond_kkt <= mp.rw_pos_hi / sig_min * (1 + tol))
    # float64 against mp: eigenvalues of a backward-stable solver have absolute error
    # <= c n u ||A||, so a condition number is relatively accurate to c n u kappa; c = 4
    f64 = cd.kkt_condition(X, sigma2=0.5, C_grid=Cs, labels=labels, precision="float64")
    for col in ("cond_H", "cond_kkt", "cond_schur"):
        assert np.all(np.abs(f64[col] / mp[col] - 1) <= 4 * (n + 1) * U64 * mp[col])
    assert np.allclose(f64.s, mp.s, rtol=4 * n * U64 * mp.cond_H.max())


# --------------------------------------------------------------------------- #
# predicted against measured breakdown (the gate of issue 4)
# --------------------------------------------------------------------------- #
@pytest.mark.parametrize("precision", ["float32", "float64", "longdouble"])
def test_predicted_and_measured_breakdown_agree(rng, precision):
    X, y = _problem(rng, M=60)
    # the prediction is for the matrix the solver forms: its selection runs in the same precision
    feat = cd.empirical_features(X, sigma2=0.5, eta=0.1, precision=precision)
    assert feat.N < feat.M
    pred = cd.predict_breakdown(feat, precision)
    scan = cd.scan_breakdown(X, y, precision=precision, sigma2=0.5, eta=0.1, per_decade=2, bisect=8)
    assert scan.step >= 0 and scan.n == feat.M, "the dual must break down on the scanned grid"
    # Rigorous: Demmel's criterion (Higham Thm 10.7) guarantees success below C_safe.
    assert scan.C_star >= pred.C_safe
    # The gate: the predicted C* = 1/(u ||Omega_e||_2) (kappa_2 u = 1, i.e. c n = 1) and the
    # measured one agree within a factor 10.  Why 10: the breakdown happens when the trailing
    # pivots (1/C in exact arithmetic) fall below the rounding noise of the factorization, whose
    # size is the backward error c u ||Omega_e|| with c = O(1) in practice - the n of the
    # worst-case bound needs every rounding error to have the same sign.  10 allows
    # c in [0.1, 10]; measured c n = 1/ratio in [0.36, 0.51] over 12 seeds x 3 precisions here, and
    # in [0.40, 0.48] on Mackey-Glass (M = 200, eta = 1e-3 .. 0.1), M = 60..400.
    assert pred.C_star / 10 <= scan.C_star <= 10 * pred.C_star
    # The statistical estimate 1/(2 sqrt(m) u max_i Omega_ii) (m eigenvalues in the noise, entries'
    # rounding errors with random signs, semicircle law) is within the same factor 10: it is an
    # order-of-magnitude model (measured ratio 0.69-1.0 here, 0.34-0.75 on Mackey-Glass).
    assert pred.n_noise >= feat.M - feat.N
    assert pred.C_stat / 10 <= scan.C_star <= 10 * pred.C_stat
    # the factorizations below the bracket succeeded (the scan stops at the first breakdown; on
    # the solver's ridge path each C runs the fit's factorization alone: "factored")
    below = scan.grid[scan.grid.C < scan.C_ok]
    assert (below.status == "factored").all()


def test_primal_never_breaks_down_where_predicted_stable(rng):
    X, y = _problem(rng, M=60)
    feat = cd.empirical_features(X, sigma2=0.5, eta=0.1)
    pred = cd.predict_breakdown(feat, "float64", matrix="primal")
    # eta = 0.1 keeps H_c well conditioned: cond(H_c)^2 u < 1, so no C can push kappa u to 1 ...
    assert (feat.sv_centred[0] / feat.sv_centred[-1]) ** 2 * U64 < 1
    assert pred.C_star == np.inf and pred.C_safe == np.inf
    # ... and the float64 PrLS Cholesky indeed never fails, up to C = 1e30 (Abe's claim, in the
    # regime where it holds).
    scan = cd.scan_breakdown(X, y, precision="float64", solver="els-primal", sigma2=0.5, eta=0.1,
                             per_decade=1, bisect=0)
    assert np.isnan(scan.C_star) and (scan.grid.status == "factored").all()


# --------------------------------------------------------------------------- #
# CG against (3.27)
# --------------------------------------------------------------------------- #
@pytest.mark.parametrize("C", [1.0, 1e3])
def test_cg_iterations_within_bound(rng, C):
    X = np.sort(rng.uniform(-10, 10, (40, 1)), axis=0)
    y = np.sinc(X[:, 0] / np.pi)
    out = cd.cg_iterations(X, y, sigma2=1.0, C=C, precision="float64")
    for tag in ("y", "1"):
        assert out[f"reason_{tag}"] == "residual"
        # ||e_i||_A / ||e_0||_A <= sqrt(kappa) ||r_i|| / ||b||  (lambda_min ||e||^2 <= ||e||_A^2, ...)
        assert out[f"eps_{tag}"] <= math.sqrt(out["cond_H"]) * out["rtol"]
        # (3.26)-(3.27) in exact arithmetic; at kappa <= 1e5 float64 CG keeps enough orthogonality
        # for the bound to hold (one extra step for rounding of the bound's ceiling)
        assert out[f"iterations_{tag}"] <= out[f"bound_{tag}"] + 1


# --------------------------------------------------------------------------- #
# misc: outcome classes, grids, validation, inputs untouched
# --------------------------------------------------------------------------- #
def test_classify_outcome():
    u = 2.0 ** -24
    assert cd.classify_outcome("ok", 1e-6, u) == "ok"
    assert cd.classify_outcome("ok", 1e-3, u) == "large-error"  # > sqrt(u) = 2.4e-4
    assert cd.classify_outcome("ok", float("nan"), u) == "not-measured"  # no reference: not "ok"
    assert cd.classify_outcome("ok", None, u) == "not-measured"
    assert cd.classify_outcome("ok", float("inf"), u) == "large-error"  # measured: nothing right
    assert cd.classify_outcome("breakdown", float("nan"), u) == "breakdown"
    assert cd.classify_outcome("weird", 0.0, u) == "error"


def test_log_grid():
    g = cd.log_grid(1e-2, 1e2, per_decade=2)
    assert len(g) == 9 and g[0] == pytest.approx(1e-2) and g[-1] == pytest.approx(1e2)
    with pytest.raises(ValueError, match="lo <= hi"):
        cd.log_grid(10, 1)
    with pytest.raises(ValueError, match="per_decade"):
        cd.log_grid(1, 10, per_decade=0)


def test_bad_input_raises_typed_errors(rng):
    X, y = _problem(rng, M=20)
    with pytest.raises(ValueError, match="eta"):
        cd.empirical_features(X, sigma2=1.0, eta=1.5)
    with pytest.raises(ValueError, match="feature_map"):
        cd.empirical_features(X, sigma2=1.0, eta=0.1, feature_map="nope")
    with pytest.raises(ValueError, match="sigma2"):
        cd.empirical_features(X, sigma2=-1.0, eta=0.1)
    with pytest.raises(ValueError, match="X"):
        cd.empirical_features(X[:, :, None], sigma2=1.0, eta=0.1)
    feat = cd.empirical_features(X, sigma2=1.0, eta=0.1)
    with pytest.raises(ValueError, match="C"):
        cd.dual_eigenvalues(feat, 0.0)
    with pytest.raises(ValueError, match="matrix"):
        cd.predict_breakdown(feat, "float64", matrix="kkt")
    with pytest.raises(ValueError, match="labels"):
        cd.kkt_condition(X, sigma2=1.0, C_grid=[1.0], labels=np.zeros(20))
    with pytest.raises(ValueError, match="max_n"):
        cd.check_spectrum_mp(feat, max_n=1)


def test_inputs_not_modified(rng):
    X, y = _problem(rng, M=30)
    X0, y0 = X.copy(), y.copy()
    feat = cd.empirical_features(X, sigma2=0.5, eta=0.1)
    assert not np.shares_memory(feat.H, X)
    cd.kkt_condition(X, sigma2=0.5, C_grid=[1.0])
    cd.scan_breakdown(X, y, precision="float64", sigma2=0.5, eta=0.1, C_min=1e12, C_max=1e16,
                      per_decade=1, bisect=1)
    cd.cg_iterations(X[:, :1], y, sigma2=0.5, C=1.0)
    assert np.array_equal(X, X0) and np.array_equal(y, y0)
    with pytest.raises(ValueError):
        feat.H[0, 0] = 1.0  # the stored feature matrix is read-only


@pytest.mark.parametrize("solver", ["lssvm-schur", "lssvm-fisher", "krr", "lssvm-kkt"])
def test_unread_conditioning_skips_the_estimate_and_keeps_the_model(solver):
    """Inside conditioning_unread (la.tune's fold fits) a fit makes no condition estimate and warns
    nothing; the model is the same bit for bit (the estimate only reads the factor)."""
    import warnings
    import lssvm_analysis as la
    from lssvm_analysis.core.exceptions import IllConditionedWarning
    from lssvm_analysis.linalg.condest import conditioning_unread, conditioning_wanted
    rng = np.random.default_rng(0)
    X = rng.standard_normal((80, 2))  # the degree-6 kernel has rank 28 < 80: kappa(H) ~ C ||K||
    y = np.where(X[:, 0] > 0, 1.0, -1.0)
    kw = dict(kernel="poly", degree=6, t=1.0, C=1e10, task="classification")  # kappa u ~ 2 >= 1/2 in float64
    with pytest.warns(IllConditionedWarning):
        ref = la.fit(solver, X, y, **kw)
    assert np.isfinite(ref.diagnostics["kappa_estimate"])
    with warnings.catch_warnings():
        warnings.simplefilter("error", IllConditionedWarning)
        with conditioning_unread():
            assert not conditioning_wanted()
            lean = la.fit(solver, X, y, **kw)
    assert conditioning_wanted()
    assert math.isnan(lean.diagnostics["kappa_estimate"]) and lean.diagnostics["kappa_method"] == "not estimated"
    assert lean.status == ref.status == "ok"
    assert np.array_equal(lean.coef_, ref.coef_) and lean.bias_ == ref.bias_


def test_tune_does_not_estimate_its_fold_fits_conditioning():
    """la.tune's direct path (closed_form=False: every fold fitted) reads only the models: the fold fits'
    IllConditionedWarnings (one per fit at a large C) are not made."""
    import warnings
    import lssvm_analysis as la
    from lssvm_analysis.core.exceptions import IllConditionedWarning
    rng = np.random.default_rng(1)
    X = rng.standard_normal((80, 2))
    y = np.where(X[:, 0] + 0.3 * rng.standard_normal(80) > 0, 1.0, -1.0)
    grid = {"C": [1.0, 3e10]}
    with warnings.catch_warnings():
        warnings.simplefilter("error", IllConditionedWarning)
        res = la.tune("lssvm-schur", X, y, grid=grid, refinements=0, folds=5, seed=0, closed_form=False,
                      kernel="poly", degree=6, t=1.0, task="classification")
    assert res.best["C"] in grid["C"] and res.history.score.notna().all()
    with pytest.warns(IllConditionedWarning):  # the same fit outside the search warns
        la.cross_validate("lssvm-schur", X, y, folds=5, seed=0, kernel="poly", degree=6, t=1.0, C=3e10,
                          task="classification")
