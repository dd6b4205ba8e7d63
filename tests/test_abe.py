"""Gates for Abe's ELS SVRs (``els-primal``, ``els-dual``) and the Mackey-Glass generator.

Bounds (the conventions of ``test_suykens.py``; a fit's own system is
measured with :mod:`lssvm_analysis.analysis.reference` in inf-norms from the exact
data, models are compared in 2-norms by ``_model_error``):

* solve: the backward error of a Cholesky solve is beta = c n u with
  c = LAPACK_THRESHOLD = 30 (LAPACK's residual-test threshold).  The dual
  forms b_e and beta from Omega_e^-1 y and Omega_e^-1 1 (eq. 10), so the
  residual of its bordered system is r_y - b_e r_1: 2 c M u.
* formation: a Gram-type matrix formed by inner products of length l has
  |dA| <= gamma_l |H|^T |H| (Higham 2002, eq. 3.13): relative backward error
  c l u phi with phi = || |H|^T |H| || / ||A||.  The as-described primal
  formation subtracts (1/M) s s^T from sum h h^T: its phi counts both terms,
  which is where its cancellation shows.
* kernel entries computed in the arithmetic: relative error <= c u each
  (distance, division, exp), i.e. 2 c u phi on A.
* forward error: fwd(kappa, beta) = 2 kappa beta / (1 - kappa beta)
  (Higham Thm 7.2), kappa = reference_solve(...).cond_estimate >= kappa_inf.
* maps applied after a solve (b_e by eq. 6, v = H^T beta by eq. 9,
  coef = L^-T v~ for the whitened map) carry the error over with their
  normwise amplification, computed in ``_model_error``.

Data: Abe's Mackey-Glass problem (tau = 17, inputs x(t-18), x(t-12), x(t-6),
x(t), target x(t+6)), the first 200 of its 500 training points for the
stability gates (the size of the measurement in the brief), 40 for the
gates that run in every precision.  Inputs are rounded to multiples of
2^-10 and sigma2 = 1/4, so that inputs and squared distances are exact in
float32 (only the exp rounds).

Measured on MG-200, sigma2 = 1/4, float64, C = 10^k for k = 0..20:
eta = 1e-3: N = 178, cond(H_c)^2 ~ 1e23 (float64 SVD), cond(primal) ~ 1.3e13
at C = 1e10, primal breakdown from C = 1e14, dual from 1e13;
eta = 0.1: N = 45, cond(primal) saturates at cond(H_c)^2 = 1.5e10, primal
never breaks down, dual from C = 1e14 (at step 45 = N).
"""
from __future__ import annotations

import numpy as np
import pytest
import scipy.linalg
from conftest import LAPACK_THRESHOLD, U64, forward_bound, to_f64

import lssvm_analysis as la
from lssvm_analysis.datasets._mackey_glass import HORIZON, LAGS, mackey_glass, mackey_glass_series
from lssvm_analysis.core.exceptions import UnknownPrecisionError
from lssvm_analysis.analysis.conditioning import scan_breakdown
from lssvm_analysis.analysis.reference import backward_error, forward_error, reference_solve
from lssvm_analysis.arith.precision import MPPrecision
from lssvm_analysis.experiments import SweepSpec
from lssvm_analysis.experiments.kinds import raw_task_data
from lssvm_analysis.papers.abe.kinds import primal_dual_row
from lssvm_analysis.solvers.abe import ElsPath

C_LAPACK = LAPACK_THRESHOLD
SIGMA2 = 0.25
PHASES = {"selection", "kernel", "formation", "factorization", "solve"}
CONFIGS = [  # (solver, options): every way the two solvers can be run
    ("els-primal", {"formation": "blas3", "feature_map": "kernel"}),
    ("els-primal", {"formation": "as-described", "feature_map": "kernel"}),
    ("els-primal", {"formation": "blas3", "feature_map": "whitened"}),
    ("els-dual", {"feature_map": "kernel"}),
    ("els-dual", {"feature_map": "whitened"}),
]
CONFIG_IDS = ["primal-blas3", "primal-as-described", "primal-whitened", "dual", "dual-whitened"]


# -- data -------------------------------------------------------------------------------
def _mg(m):
    """The first m Mackey-Glass training points, inputs rounded to multiples of 2^-10."""
    d = mackey_glass(n_train=m, n_test=0)
    return np.round(d.X_train * 1024) / 1024, d.y_train.copy()


def _grid(rng, m=30):
    """m dyadic points k/32 on [0, 1) with sigma2 = 2^-9: every pivot root is far above eta = 1e-3."""
    X = (np.arange(m) / 32.0)[:, None]
    y = np.sin(2 * np.pi * X[:, 0]) + 0.1 * rng.standard_normal(m)
    return X, y, 2.0 ** -9


@pytest.fixture(scope="module")
def mg200():
    return _mg(200)


@pytest.fixture(scope="module")
def mg40():
    return _mg(40)


# -- helpers ----------------------------------------------------------------------------

def _ninf(a):
    a = np.asarray(a, dtype=np.float64)
    return float(np.abs(a).sum(axis=1).max()) if a.ndim == 2 else float(np.abs(a).max())


def _system(fit, X, y):
    return la.get_solver(fit.solver).system(X, y, fit)


def _z(fit):
    """The fit's solution of its own system: v (primal, eq. 7) or [b_e; beta] (dual, bordered)."""
    if fit.solver == "els-primal":
        return fit.diagnostics["v"]
    return np.concatenate([np.array([fit.bias_], dtype=fit.coef_.dtype), fit.diagnostics["beta"]])


def _model(fit):
    return np.concatenate([to_f64(fit.coef_), [float(fit.bias_)]])


def _features(fit, X):
    """float64 H_m (M x N) of the fit's map and the factor L of K[S, S]."""
    s2 = fit.params["sigma2"]
    K = la.rbf_kernel(X, X[fit.support_], sigma2=s2)
    L = np.linalg.cholesky(K[fit.support_])
    if fit.params["feature_map"] == "whitened":
        return scipy.linalg.solve_triangular(L, K.T, lower=True).T, L
    return K, L


def _beta_solve(fit, M, N):
    u = la.get_precision(fit.precision).unit_roundoff
    return C_LAPACK * N * u if fit.solver == "els-primal" else 2 * C_LAPACK * M * u


def _n2(a):
    return float(np.linalg.norm(np.asarray(a, dtype=np.float64), 2 if np.ndim(a) == 2 else None))


def _model_error(fit, X, y, *, kernel_rounding):
    """Bound on ||[coef; b] - exact||_2 / ||[coef; b]||_2 (2-norms), following the module docstring.

    Primal: (A + E) v = r + e with ||E|| <= eps ||A||, eps = c (N + M phi) u
    (Cholesky solve + formation) and ||e|| <= c M u || |H_c|^T |y - y_bar| ||
    (as-described: its two terms), so ||dv|| <= 2 kappa_2(A) (eps ||v|| +
    ||e|| / ||A||) when kappa eps <= 1/2; b_e = y_bar - v^T h_bar (6) adds
    ||h_bar|| ||dv||.
    Dual: Omega_e^-1 y and Omega_e^-1 1 solved with ||E|| <= eps ||Omega_e||,
    eps = c (2 M + N phi) u; to first order db = -(eta^T E nu - b eta^T E eta) / s
    and dv = -H^T Omega_e^-1 (E nu - b E eta) - db H^T eta with
    ||H^T Omega_e^-1||_2 <= sqrt(C) / 2 (its singular values are
    sigma / (sigma^2 + 1/C)), nu = Omega_e^-1 y, eta = Omega_e^-1 1, s = 1^T eta
    -- the product v = H^T beta does not amplify the error by ||H|| ||beta|| / ||v||
    because H^T Omega_e^-1 damps the large null-space part of beta.  Whitened map:
    coef = L^-T v adds ||L^-1|| and the triangular solve's c N u kappa(L);
    the rows of G (forward substitutions) perturb H by c N u kappa(L) relative.
    ``kernel_rounding``: count the rounding of the kernel entries (c u each),
    needed against a model computed from exact kernel values, not when two
    fits share the same computed H.  For data exact in the fit's precision
    (used with float64 fits only).
    """
    u, C = la.get_precision(fit.precision).unit_roundoff, fit.params["C"]
    H, L = _features(fit, X)
    A, eps, eps_r = _backward(fit, H, L, to_f64(_system(fit, X, y)[0]), y, u, kernel_rounding)
    M, N = H.shape
    if fit.solver == "els-primal":
        kappa = np.linalg.cond(A)
        assert kappa * eps <= 0.5, (kappa, eps)
        e_v = 2 * kappa * (eps * _n2(to_f64(fit.diagnostics["v"])) + eps_r / _n2(A))
        e_b = _n2(H.mean(axis=0)) * e_v
    else:
        assert C * eps * _n2(A) <= 0.5  # kappa_2(Omega_e) <= C ||Omega_e||
        cf = scipy.linalg.cho_factor(A)
        nu, eta = scipy.linalg.cho_solve(cf, y), scipy.linalg.cho_solve(cf, np.ones(M))
        s = eta.sum()
        big = _n2(nu) + abs(nu.sum() / s) * _n2(eta)
        E = 2 * eps * _n2(A)  # 2: second-order terms, kappa eps <= 1/2
        e_b = E * _n2(eta) * big / s
        beta = to_f64(fit.diagnostics["beta"])
        e_v = np.sqrt(C) / 2 * E * big + e_b * _n2(H.T @ eta) \
            + C_LAPACK * M * u * _n2(np.abs(H).T @ np.abs(beta))
    coef = to_f64(fit.coef_)
    if fit.params["feature_map"] == "whitened":
        e_c = e_v / np.linalg.svd(L, compute_uv=False)[-1] + C_LAPACK * N * u * np.linalg.cond(L) * _n2(coef)
    else:
        e_c = e_v
    bound = (e_c + e_b) / _n2(_model(fit))
    assert bound <= 0.5
    return 2 * bound  # relative to the exact model: ||exact|| >= ||computed|| / 2


def _backward(fit, H, L, A, y, u, kernel_rounding):
    """(matrix factored, eps, bound on ||e||) of ``_model_error``: relative backward error of the
    matrix (solve + formation + kernel rounding + whitening) and the primal rhs error."""
    c = C_LAPACK
    M, N = H.shape
    aH, aHy = np.abs(H), _n2(np.abs(H).T @ np.abs(y))
    eps_r = 0.0  # bound on ||e||, the primal right-hand side's formation error
    if fit.solver == "els-primal":
        aHc = np.abs(H - H.mean(axis=0))
        if fit.params["formation"] == "blas3":
            phi = _n2(aHc.T @ aHc) / _n2(A)
            eps_r = c * M * u * _n2(aHc.T @ np.abs(y - y.mean()))
        else:
            t = aH.sum(axis=0)
            phi = (_n2(aH.T @ aH) + _n2(np.outer(t, t)) / M) / _n2(A)
            eps_r = c * M * u * (aHy + np.abs(y).sum() * _n2(t) / M)
        eps = c * (N + M * phi) * u
    else:
        A = A[1:, 1:]
        phi = _n2(aH @ aH.T) / _n2(A)
        eps = c * (2 * M + N * phi) * u
    if kernel_rounding:
        eps, eps_r = eps + 2 * c * u * phi, eps_r + c * u * aHy
    if fit.params["feature_map"] == "whitened":
        kL = np.linalg.cond(L)
        eps, eps_r = eps + 2 * c * N * u * kL * phi, eps_r + c * N * u * kL * aHy
    return A, eps, eps_r


def _rel(a, b):
    return _n2(np.asarray(a) - np.asarray(b)) / _n2(b)


def _scaled_lambda_min(A):
    """lambda_min(D^-1 A D^-1), D = diag(A)^1/2 (Higham Thm 10.7), and its LAPACK error bound."""
    d = np.sqrt(np.diag(A))
    Hs = A / np.outer(d, d)
    n = A.shape[0]
    # LAPACK's eigensolver test (dsyt21, threshold 30 on ||A - U L U^T|| / (n ||A|| 2u)): error 60 n u ||H||
    return np.linalg.eigvalsh(Hs)[0], 2 * C_LAPACK * n * U64 * np.linalg.norm(Hs, 2)


def _cholesky_threshold(n, u=U64):
    """Higham (2002) Thm 10.7: Cholesky succeeds if lambda_min(D^-1 A D^-1) > n g / (1 - g).

    g = gamma_{n+1} = (n + 1) u / (1 - (n + 1) u), D = diag(A)^1/2.
    """
    g = (n + 1) * u / (1 - (n + 1) * u)
    return n * g / (1 - g)


# -- registry -----------------------------------------------------------------------------
def test_registered_with_their_systems():
    for name, eqs in (("els-primal", "(6)-(7)"), ("els-dual", "(9)-(11)")):
        info = la.get_solver(name)
        assert name in la.solvers("regression") and name not in la.solvers("classification")
        assert info.paper == "abe" and eqs in info.equations and callable(info.system)
        assert {"C", "sigma2", "eta", "feature_map"} <= set(info.params)
    assert "formation" in la.get_solver("els-primal").params
    assert "formation" not in la.get_solver("els-dual").params


# -- every precision: each fit solves its own system --------------------------------------
@pytest.mark.parametrize(("solver", "opts"), CONFIGS, ids=CONFIG_IDS)
def test_every_precision_solves_its_own_system(solver, opts, precision, mg40):
    """Backward error <= beta and forward error <= fwd(kappa, beta) on the system the fit formed.

    MG-40 with eta = 0.1 (N < M).  Also: dtypes, phases, diagnostics, and
    unpack(z) reproducing coef_ and bias_ bitwise.
    """
    X, y = mg40
    fit = la.fit(solver, X, y, precision=precision.name, C=10.0, sigma2=SIGMA2, eta=0.1, **opts)
    assert fit.status == "ok", fit.breakdown
    M, N = X.shape[0], fit.n_support
    assert 0 < N < M and fit.diagnostics["N"] == N and fit.diagnostics["M"] == M
    assert set(fit.timings) == PHASES
    assert fit.coef_.dtype == precision.dtype and fit.coef_.shape == (N,)
    if precision.dtype == object:
        assert all(v.context is precision.ctx for v in fit.coef_) and fit.bias_.context is precision.ctx
    else:
        assert np.asarray(fit.bias_).dtype == precision.dtype
    roots = fit.diagnostics["pivot_roots"]
    assert roots.shape == (M,) and np.all(roots[fit.support_] >= 0.1)
    assert np.sum(roots >= 0.1) == N  # the selection keeps exactly the roots >= eta
    A, rhs, unpack = _system(fit, X, y)
    assert A.dtype == precision.dtype and A.shape[0] == (N if solver == "els-primal" else M + 1)
    z = _z(fit)
    out = unpack(z)
    assert all(a == b for a, b in zip(out["coef"], fit.coef_)) and out["bias"] == fit.bias_
    beta = _beta_solve(fit, M, N)
    be = backward_error(A, z, rhs)
    assert be.value <= beta, be.ratio / len(rhs)
    ref = reference_solve(A, rhs, digits=max(20, int(precision.digits) + 5))
    fe = forward_error(z, ref)
    assert fe.value <= forward_bound(ref.cond_estimate, beta), (fe.value, ref.cond_estimate)


# -- primal == dual, and the two formations -----------------------------------------------
@pytest.mark.parametrize("eta", [0.1, 1e-3])
@pytest.mark.parametrize("C", [1.0, 1e3])
def test_primal_equals_dual_for_moderate_C(eta, C, mg200):
    """Abe: "in theory the PrLS SVR and DuLS SVR give the same results" -- they do, to the bound.

    ||model_p - model_d|| <= e_p + e_d, each e the bound of ``_model_error``:
    c (l + n) u-type backward errors times the certified kappa of the system
    each solved (max(kappa_primal, kappa_dual) dominates), carried through
    eq. (6) / eq. (9).  Both fits use the same computed H (same selection),
    so the kernel rounding is common and not counted.
    """
    X, y = mg200
    fp = la.fit("els-primal", X, y, C=C, sigma2=SIGMA2, eta=eta)
    fd = la.fit("els-dual", X, y, C=C, sigma2=SIGMA2, eta=eta)
    assert fp.ok and fd.ok and np.array_equal(fp.support_, fd.support_)
    diff = _rel(_model(fd), _model(fp))
    tol = _model_error(fp, X, y, kernel_rounding=False) + _model_error(fd, X, y, kernel_rounding=False)
    assert tol < 1e-2  # the bound is informative: at least two digits are guaranteed
    assert diff <= tol
    # The brief's form c max(kappa_p, kappa_d) u, with LAPACK's forward-error test ratio
    # ||x - x*|| / (||x*|| kappa u) <= 30 (xPOT04) for each of the two fits: c = 2 x 30.
    kp = np.linalg.cond(to_f64(_system(fp, X, y)[0]))
    kd = np.linalg.cond(to_f64(_system(fd, X, y)[0])[1:, 1:])
    assert diff <= 2 * C_LAPACK * max(kp, kd) * U64


@pytest.mark.parametrize("eta", [0.1, 1e-3])
def test_both_formations_give_the_same_primal_solution(eta, mg200):
    """blas3 (centred, one GEMM) == as-described (M rank-one updates, then -(1/M) s s^T).

    Tolerance e_blas3 + e_as-described (``_model_error``): the as-described
    term carries phi = (|| |H|^T|H| || + || |s||s|^T || / M) / ||A||, the
    cancellation of its uncentred formation.
    """
    X, y = mg200
    fb = la.fit("els-primal", X, y, C=1e3, sigma2=SIGMA2, eta=eta, formation="blas3")
    fa = la.fit("els-primal", X, y, C=1e3, sigma2=SIGMA2, eta=eta, formation="as-described")
    assert fb.ok and fa.ok
    tol = _model_error(fb, X, y, kernel_rounding=False) + _model_error(fa, X, y, kernel_rounding=False)
    assert tol < 1e-2
    assert _rel(_model(fa), _model(fb)) <= tol


# -- N = M: the ELS SVR is an LS-SVM -------------------------------------------------------
def _lssvm_exact(X, y, C, Omega, mp):
    """Exact (mp) solution [b; alpha] of Suykens (3.32) [[0, 1^T], [1, Omega + I/C]] = [0; y]."""
    M = len(y)
    A = mp.zeros((M + 1, M + 1))
    A[1:, 1:] = Omega
    for i in range(M):
        A[i + 1, i + 1] = A[i + 1, i + 1] + mp.scalar(1.0) / mp.scalar(C)
    A[0, 1:] = A[1:, 0] = mp.scalar(1.0)
    return mp.solve(A, mp.asarray(np.concatenate([[0.0], y])))


@pytest.mark.parametrize("solver", ["els-primal", "els-dual"])
@pytest.mark.parametrize("C", [1.0, 1e3])
def test_whitened_map_with_N_equal_M_is_the_lssvm(solver, C, rng):
    """N = M, h~ = L^-1 h: h~(x_i)^T h~(x_j) = K_ij, so the ELS SVR is the LS-SVM (3.32) with Omega = K.

    coef_ = alpha and bias_ = b of ``lssvm-kkt`` run in mp30 (exact here),
    to ``_model_error`` with the kernel rounding counted.
    """
    X, y, s2 = _grid(rng)
    fit = la.fit(solver, X, y, C=C, sigma2=s2, eta=1e-3, feature_map="whitened")
    assert fit.ok and fit.n_support == len(y)
    ref = la.fit("lssvm-kkt", X, y, precision="mp30", C=C, sigma2=s2)
    assert np.array_equal(ref.support_, fit.support_)
    assert _rel(_model(fit), _model(ref)) <= _model_error(fit, X, y, kernel_rounding=True)


@pytest.mark.parametrize("solver", ["els-primal", "els-dual"])
@pytest.mark.parametrize("C", [1.0, 1e3])
def test_kernel_map_with_N_equal_M_is_the_lssvm_of_K_squared(solver, C, rng):
    """N = M, h(x) = K(X, x) (eq. 2): Omega_e = H_m H_m^T + I/C = K^2 + I/C.

    So the ELS SVR is the LS-SVM (3.32) with Omega = H_m H_m^T = K K, and
    v = H_m^T beta = K alpha (eq. 9): coef_ = K alpha, bias_ = b, against the
    exact mp30 solution.
    """
    X, y, s2 = _grid(rng)
    fit = la.fit(solver, X, y, C=C, sigma2=s2, eta=1e-3, feature_map="kernel")
    assert fit.ok and fit.n_support == len(y)
    mp = la.get_precision("mp30")
    K = la.rbf_kernel(X, sigma2=s2, precision=mp)
    z = _lssvm_exact(X, y, C, K @ K, mp)
    exact = np.concatenate([to_f64(K @ z[1:]), [float(z[0])]])
    assert _rel(_model(fit), exact) <= _model_error(fit, X, y, kernel_rounding=True)


# -- float32 against float64 --------------------------------------------------------------
@pytest.mark.parametrize(("solver", "opts"), CONFIGS[:2] + CONFIGS[3:4], ids=["primal-blas3",
                         "primal-as-described", "dual"])
def test_float32_agrees_with_float64(solver, opts, mg40):
    """z32 vs z64 within fwd(beta32 + delta) + fwd(beta64), delta = ||A32 - A64|| / ||A64|| (and rhs).

    delta is measured on the systems the two fits formed and checked against
    its O(u32) bound: inputs and squared distances are exact (dyadic data),
    each kernel entry carries the float32 exp's error (NumPy's SIMD exp is
    not correctly rounded: <= 3.45 u32 relative, see test_suykens) and the
    float32 formation c l u32 phi; y rounds to nearest (u32).
    """
    X, y = mg40
    f32 = la.fit(solver, X, y, precision="float32", C=1.0, sigma2=SIGMA2, eta=0.1, **opts)
    f64 = la.fit(solver, X, y, precision="float64", C=1.0, sigma2=SIGMA2, eta=0.1, **opts)
    assert f32.ok and f64.ok and np.array_equal(f32.support_, f64.support_)
    assert f32.coef_.dtype == np.float32 and np.asarray(f32.bias_).dtype == np.float32
    A32, b32, _ = _system(f32, X, y)
    A64, b64, _ = _system(f64, X, y)
    M, N = X.shape[0], f64.n_support
    u32 = la.get_precision("float32").unit_roundoff
    H = _features(f64, X)[0]
    length = M if solver == "els-primal" else N
    if solver == "els-primal" and opts["formation"] == "blas3":
        Hc = np.abs(H - H.mean(axis=0))
        phi, phi_b = _ninf(Hc.T @ Hc) / _ninf(A64), _ninf(Hc.T @ np.abs(y - y.mean())) / _ninf(b64)
    elif solver == "els-primal":
        t = np.abs(H).sum(axis=0)
        phi = (_ninf(np.abs(H).T @ np.abs(H)) + _ninf(np.outer(t, t)) / M) / _ninf(A64)
        phi_b = (_ninf(np.abs(H).T @ np.abs(y)) + np.abs(y).sum() * _ninf(t) / M) / _ninf(b64)
    else:
        phi, phi_b = _ninf(np.abs(H) @ np.abs(H).T) / _ninf(A64), 1.0
    delta = max(_ninf(to_f64(A32) - A64) / _ninf(A64), _ninf(to_f64(b32) - b64) / _ninf(b64))
    # 2 x 3.45 u32: kernel entries enter products of two; + 1 for y; c l (u32 + u64): the formations
    assert delta <= (2 * 3.45 + 1 + C_LAPACK * length * (1 + U64 / u32)) * u32 * max(phi, phi_b), delta
    kappa = reference_solve(A64, b64, digits=20).cond_estimate
    z32, z64 = to_f64(_z(f32)), to_f64(_z(f64))
    tol = forward_bound(kappa, _beta_solve(f32, M, N) + delta) + forward_bound(kappa, _beta_solve(f64, M, N))
    assert tol < 1  # informative
    # the bounds are relative to ||z*||; ||z64|| >= ||z*|| (1 - fwd) is absorbed by the 2
    assert _ninf(z32 - z64) <= 2 * tol * _ninf(z64)


# -- Abe's stability claim on Mackey-Glass --------------------------------------------------
@pytest.mark.parametrize("eta", [0.1, 1e-3])
@pytest.mark.parametrize("C", [1e2, 1e5])
def test_omega_e_has_eigenvalue_1_over_C_with_multiplicity_M_minus_N(eta, C, mg200):
    """Omega_e = H_m H_m^T + I/C with rank(H_m) = N < M: its M - N smallest eigenvalues are 1/C.

    Tolerance (60 M + 30 N) u ||Omega_e||_2: LAPACK's eigensolver (dsyt21 threshold
    30 on ||A - U L U^T|| / (n ||A|| 2u): 60 M u ||Omega_e||, Weyl) plus the
    formation gamma_N || |H||H|^T || <= 30 N u ||Omega_e|| (H >= 0 for RBF).
    """
    X, y = mg200
    fit = la.fit("els-dual", X, y, C=C, sigma2=SIGMA2, eta=eta)
    M, N = X.shape[0], fit.n_support
    assert N < M
    Om = _system(fit, X, y)[0][1:, 1:]
    lam = np.linalg.eigvalsh(Om)
    tol = (2 * C_LAPACK * M + C_LAPACK * N) * U64 * lam[-1]
    assert np.abs(lam[:M - N] - 1 / C).max() <= tol
    assert tol < 1e-3 / C  # the test resolves 1/C to three digits at least


def _large_C(mg200, eta):
    """Fits at C = 1e18, where 1/C is below half an ulp of every diagonal entry of both matrices."""
    X, y = mg200
    C = 1e18
    fp = la.fit("els-primal", X, y, C=C, sigma2=SIGMA2, eta=eta)
    fd = la.fit("els-dual", X, y, C=C, sigma2=SIGMA2, eta=eta)
    H = la.rbf_kernel(X, X[fd.support_], sigma2=SIGMA2)
    Hc = H - H.mean(axis=0)
    # the ridge is invisible: fl(a_ii + 1/C) = a_ii, so the stored Omega_e is fl(H H^T) of rank N < M
    assert 1 / C < U64 / 2 * min(np.min(np.sum(H * H, axis=1)), np.min(np.sum(Hc * Hc, axis=0)))
    assert fd.n_support < X.shape[0]
    # the dual: a breakdown, recorded (Abe's '-')
    assert fd.status == "breakdown" and fd.coef_ is None and fd.bias_ is None
    rec = fd.breakdown
    assert rec.precision == "float64" and rec.n == X.shape[0] and 0 <= rec.step < rec.n
    assert not rec.pivot > 0
    assert fd.diagnostics["N"] == fd.n_support
    with pytest.raises(RuntimeError, match="status='breakdown'"):
        fd.predict(X[:2])
    Om = _system(fd, X, y)[0][1:, 1:]
    lam, err = _scaled_lambda_min(Om)
    assert lam - err < _cholesky_threshold(X.shape[0])  # success is no longer guaranteed
    return X, y, fp, Hc


def test_large_C_dual_breaks_down_primal_solves_when_H_c_is_well_conditioned(mg200):
    """eta = 0.1 (N = 45 on MG-200): cond(H_c)^2 << 1/u, the regime where Abe's claim holds.

    At C = 1e18 the dual's Cholesky breaks down (recorded) while the primal
    matrix, whose condition saturates at cond(H_c)^2, is guaranteed to factor
    (Higham Thm 10.7: lambda_min(D^-1 A D^-1) above n gamma_{n+1} / (1 - gamma_{n+1})),
    solves with backward error <= 30 N u and forward error <= fwd(kappa, 30 N u).
    """
    X, y, fp, Hc = _large_C(mg200, 0.1)
    A, rhs, _ = _system(fp, X, y)
    N = A.shape[0]
    lam, err = _scaled_lambda_min(A)
    assert lam - err > _cholesky_threshold(N)  # theory: the primal Cholesky succeeds ...
    assert fp.status == "ok"  # ... and it does
    beta = C_LAPACK * N * U64
    assert backward_error(A, fp.diagnostics["v"], rhs).value <= beta
    ref = reference_solve(A, rhs, digits=20)
    assert forward_error(fp.diagnostics["v"], ref).value <= forward_bound(ref.cond_estimate, beta)
    # saturation: A = H_c^T H_c + I/C -> cond(A) = cond(H_c)^2, to the eigenvalues' accuracy
    # (60 N u ||A|| each, relative to lambda_min: 60 N u cond) plus the ridge's 1/(C lambda_min)
    ev = np.linalg.eigvalsh(A)
    s = np.linalg.svd(Hc, compute_uv=False)
    cond_A, cond_Hc2 = ev[-1] / ev[0], (s[0] / s[-1]) ** 2
    tol = 2 * 2 * C_LAPACK * N * U64 * cond_A + 1 / (fp.params["C"] * ev[0])
    assert abs(cond_A / cond_Hc2 - 1) <= tol < 1e-2
    assert cond_A * U64 < 1e-4  # far from singular in float64


def test_large_C_both_fail_when_H_c_is_ill_conditioned(mg200):
    """eta = 1e-3 (N = 175 on MG-200): cond(H_c)^2 >= 1/u, Abe's claim does not hold.

    The primal matrix's condition saturates at cond(H_c)^2, which is beyond
    1/u here: theory no longer guarantees its Cholesky (the Thm 10.7
    condition fails) and, as measured, it breaks down too -- as the dual.
    """
    X, y, fp, Hc = _large_C(mg200, 1e-3)
    s = np.linalg.svd(Hc, compute_uv=False)
    # cond(H_c)^2 > 1/u even allowing the SVD's error (60 M u s_max, Weyl; LAPACK threshold 30 on 2u)
    assert s[-1] + 2 * C_LAPACK * X.shape[0] * U64 * s[0] < np.sqrt(U64) * s[0]
    A = _system(fp, X, y)[0]
    lam, err = _scaled_lambda_min(A)
    assert lam - err < _cholesky_threshold(A.shape[0])
    assert fp.status == "breakdown"
    assert fp.breakdown.precision == "float64" and fp.breakdown.n == fp.n_support


# -- fits along C (ElsPath, the registry's ridge_path) -------------------------------------
def _same_fit(a, b):
    """Bit for bit: status, breakdown record, support, coefficients, bias, and the solution."""
    assert a.status == b.status and a.breakdown == b.breakdown
    assert np.array_equal(a.support_, b.support_) and a.params == b.params
    if a.status != "ok":
        return
    assert all(x == z for x, z in zip(a.coef_, b.coef_)) and a.bias_ == b.bias_
    assert all(x == z for x, z in zip(a.diagnostics["solution"], b.diagnostics["solution"]))
    assert a.diagnostics["kappa_estimate"] == b.diagnostics["kappa_estimate"]


@pytest.mark.parametrize(("solver", "opts"), CONFIGS, ids=CONFIG_IDS)
def test_path_fits_and_factorizations_are_fresh_fits(solver, opts, precision, mg40):
    """ElsPath.fit(solver, C) is la.fit(solver, C=C) bit for bit in every precision, and
    ElsPath.factor(solver, C) is that fit's breakdown record (None when it factors).

    No tolerance: the path runs the fit's own operations on the same numbers (the selection
    and the C-independent matrix once, then a copy plus the same ridge); the grid reaches
    beyond 1/u of float32, float64 and longdouble (C = 1e24), so breakdowns are compared too.
    """
    X, y = mg40
    kw = {"sigma2": SIGMA2, "eta": 1e-3}
    path = ElsPath(X, y, precision=precision.name, **kw, **opts)
    view = la.get_solver(solver).ridge_path(X, y, precision=precision.name, **kw, **opts)
    seen = set()
    for C in (1e-2, 1e2, 1e6, 1e10, 1e14, 1e18, 1e24):
        fresh = la.fit(solver, X, y, precision=precision.name, C=C, **kw, **opts)
        _same_fit(path.fit(solver, C), fresh)
        _same_fit(view.fit(C), fresh)
        assert path.factor(solver, C) == view.factor(C) == fresh.breakdown
        seen.add(fresh.status)
    if precision.name in ("float32", "float64") and opts["feature_map"] == "kernel":
        assert "breakdown" in seen   # the grid crossed the breakdown it is meant to compare
        # (the whitened map's matrices stay far better conditioned: not every one breaks down)


def test_path_checks_its_solver_and_C(mg40):
    X, y = mg40
    path = ElsPath(X, y, sigma2=SIGMA2, eta=0.1)
    with pytest.raises(ValueError, match="solver"):
        path.fit("lssvm-schur", 1.0)
    for bad in (0.0, -1.0):
        with pytest.raises(ValueError, match="C"):
            path.factor("els-dual", bad)
    with pytest.raises(ValueError, match="eta"):
        ElsPath(X, y, sigma2=SIGMA2, eta=1.5)


def test_breakdown_scan_with_a_path_finds_the_fresh_fits_breakdown(mg40):
    """The scan factors along C on a path; the same scan by fresh fits finds the same C*, step,
    pivot and C_ok (float64, both forms), and a path-free scan reports each fit's status."""
    X, y = mg40
    kw = {"sigma2": SIGMA2, "eta": 1e-3}
    for solver in ("els-dual", "els-primal"):
        fast = scan_breakdown(X, y, precision="float64", solver=solver, C_max=1e24, bisect=4, **kw)
        slow = scan_breakdown(X, y, precision="float64", solver=solver, C_max=1e24, bisect=4,
                              path=_FreshFits(solver, X, y, kw), **kw)
        assert np.isfinite(fast.C_star)
        assert (fast.C_star, fast.C_ok, fast.step, fast.n) == (slow.C_star, slow.C_ok, slow.step, slow.n)
        assert fast.pivot == slow.pivot
        assert set(fast.grid.status) == {"factored", "breakdown"}


class _FreshFits:
    """A path whose factor(C) is a fresh fit's breakdown record (the scan's reference)."""

    def __init__(self, solver, X, y, kw):
        self.solver, self.X, self.y, self.kw = solver, X, y, kw

    def factor(self, C):
        return la.fit(self.solver, self.X, self.y, C=C, **self.kw).breakdown


def test_mp_dual_fit_on_flint_agrees_with_the_mpmath_engine(mg40):
    """els-dual in mp50: v = H^T beta is a FLINT product (one rounding per entry) and Omega_e's
    factorization FLINT's; the mpmath engine runs NumPy's loops.  Each fit is within 30 kappa u
    of the exact solution of its bordered system (LAPACK's xPOT04 threshold, the conformance
    battery's constant), so the two within 60 kappa u; v = H^T beta adds gamma_M |H^T||beta|
    per engine (M = 40, gamma_M <= 1.01 M u), bounded normwise by 2 * 1.01 M u ||H||_inf."""
    X, y = mg40
    fl, mp = la.get_precision("mp50"), MPPrecision(50, engine="mpmath")
    if fl.engine != "flint":
        pytest.skip("libflint could not be loaded through ctypes")
    kw = {"C": 10.0, "sigma2": SIGMA2, "eta": 0.1}
    fits = [la.fit("els-dual", X, y, precision=p, **kw) for p in (fl, mp)]
    A = _system(fits[0], X, y)[0]
    kappa = float(np.linalg.cond(to_f64(A), p=np.inf))
    u = fl.unit_roundoff
    M = X.shape[0]
    H = la.rbf_kernel(X, X[fits[0].support_], sigma2=SIGMA2)
    beta = to_f64(fits[0].diagnostics["beta"])
    dv = np.abs(to_f64(fits[0].diagnostics["v"]) - to_f64(mp.asarray(fits[1].diagnostics["v"])))
    bound = (60 * kappa * u * _ninf(H.T) + 2 * 1.01 * M * u * _ninf(H.T)) * np.abs(beta).max()
    assert dv.max() <= bound
    assert abs(float(fits[0].bias_ - fits[1].bias_)) <= 60 * kappa * u * max(abs(float(fits[1].bias_)), 1.0)


# -- inputs, errors -----------------------------------------------------------------------
@pytest.mark.parametrize(("solver", "opts"), CONFIGS, ids=CONFIG_IDS)
def test_inputs_never_modified(solver, opts, mg40):
    X, y = mg40
    X = np.asfortranarray(X)
    X0, y0 = X.copy(), y.copy()
    fit = la.fit(solver, X, y, C=10.0, sigma2=SIGMA2, eta=0.1, **opts)
    _system(fit, X, y)
    fit.predict(X)
    assert np.array_equal(X, X0) and np.array_equal(y, y0)
    assert not np.shares_memory(fit.X_support_, X)
    for v in (fit.coef_, fit.diagnostics["v"], fit.diagnostics["pivot_roots"]):
        assert not np.shares_memory(v, X) and not np.shares_memory(v, y)


BAD = [
    ({"eta": 0.0}, ValueError, "eta"), ({"eta": 1.0}, ValueError, "eta"),
    ({"eta": -0.1}, ValueError, "eta"), ({"eta": float("nan")}, ValueError, "eta"),
    ({"eta": "0.1"}, TypeError, "eta"), ({"C": 0.0}, ValueError, "C"), ({"C": -1.0}, ValueError, "C"),
    ({"C": float("inf")}, ValueError, "C"), ({"sigma2": 0.0}, ValueError, "sigma2"),
    ({"sigma2": -2.0}, ValueError, "sigma2"), ({"feature_map": "empirical"}, ValueError, "feature_map"),
    ({"kernel": "laplace"}, ValueError, "kernel"), ({"precision": "float16"}, UnknownPrecisionError,
                                                     "precision"),
]


@pytest.mark.parametrize("solver", ["els-primal", "els-dual"])
@pytest.mark.parametrize(("kw", "exc", "name"), BAD)
def test_bad_options_raise_typed_errors(solver, kw, exc, name, mg40):
    X, y = mg40
    with pytest.raises(exc, match=name):
        la.fit(solver, X, y, **kw)


@pytest.mark.parametrize("solver", ["els-primal", "els-dual"])
def test_bad_data_raise_typed_errors(solver, mg40):
    X, y = mg40
    Xn = X.copy()
    Xn[3, 1] = np.nan
    yn = y.copy()
    yn[0] = np.inf
    for args, name in (((Xn, y), "X"), ((X, yn), "y"), ((X, y[:-1]), "y.shape"), ((X[:, 0], y), "X")):
        with pytest.raises(ValueError, match=name):
            la.fit(solver, *args)


def test_formation_is_validated_and_primal_only(mg40):
    X, y = mg40
    with pytest.raises(ValueError, match="formation"):
        la.fit("els-primal", X, y, formation="gemm")
    with pytest.raises(TypeError, match="formation"):
        la.fit("els-dual", X, y, formation="blas3")


def test_system_builder_checks_its_parameters(mg40):
    X, y = mg40
    fit = la.fit("els-dual", X, y, C=10.0, sigma2=SIGMA2, eta=0.1)
    with pytest.raises(ValueError, match="support vectors"):
        la.get_solver("els-dual").system(X, y, fit, eta=1e-3)
    with pytest.raises(TypeError, match="formation"):
        la.get_solver("els-dual").system(X, y, fit, formation="blas3")
    with pytest.raises(ValueError, match="precision"):
        la.get_solver("els-dual").system(X, y, fit, precision="float32")


# -- Mackey-Glass ---------------------------------------------------------------------------
@pytest.mark.parametrize(("n_train", "n_test"), [(500, 500), (37, 0), (1, 3)])
def test_mackey_glass_shapes(n_train, n_test):
    d = mackey_glass(n_train=n_train, n_test=n_test)
    X_tr, y_tr, X_te, y_te, prov = d
    assert X_tr.shape == (n_train, 4) and y_tr.shape == (n_train,)
    assert X_te.shape == (n_test, 4) and y_te.shape == (n_test,)
    assert all(a.dtype == np.float64 for a in (X_tr, y_tr, X_te, y_te))
    assert "tau=17" in prov and "Crowder" in prov and "Abe" in prov


def test_mackey_glass_is_deterministic_and_seeded():
    a, b = mackey_glass(n_train=50, n_test=20), mackey_glass(n_train=50, n_test=20)
    for u, v in zip(a[:4], b[:4]):
        assert np.array_equal(u, v)
    s1, s1b = mackey_glass(n_train=50, n_test=0, seed=1), mackey_glass(n_train=50, n_test=0, seed=1)
    s2 = mackey_glass(n_train=50, n_test=0, seed=2)
    assert np.array_equal(s1.X_train, s1b.X_train) and not np.array_equal(s1.X_train, s2.X_train)
    g = mackey_glass(n_train=50, n_test=0, seed=np.random.default_rng(1))
    assert np.array_equal(g.X_train, s1.X_train)  # an int seeds default_rng


def test_mackey_glass_inputs_and_targets_are_aligned():
    """Row k is (x(t-18), x(t-12), x(t-6), x(t)) at t = t0 + k, target x(t+6): exact shifts by 6 rows."""
    d = mackey_glass(n_train=100, n_test=50)
    X, y = np.vstack([d.X_train, d.X_test]), np.concatenate([d.y_train, d.y_test])
    assert LAGS == (18, 12, 6, 0) and HORIZON == 6
    assert np.array_equal(X[6:, :3], X[:-6, 1:])  # x(t+6-18) = x(t-12), ...
    assert np.array_equal(X[6:, 3], y[:-6])  # the target of row k is the input x(t) of row k + 6
    series = mackey_glass_series(118.0 + 155)  # t0 = 100 + 18 by default, unit sampling, dt = 0.1
    assert np.array_equal(X[:, 3], series[1180:1180 + 1500:10])


def test_mackey_glass_stays_on_the_attractor():
    """tau = 17: after the transient x(t) stays in about (0.4, 1.35) (Mackey & Glass 1977).

    Gate: (0.2, 1.4), the range the brief quotes; and it is not a fixed point.
    """
    d = mackey_glass()
    for a in d[:4]:
        assert 0.2 < a.min() and a.max() < 1.4
    x = mackey_glass_series(3000.0)[1000:]
    assert 0.2 < x.min() and x.max() < 1.4
    assert x.max() - x.min() > 0.5  # not a fixed point: it fills the attractor


def test_rk4_with_hermite_delays_is_fourth_order():
    """Halving dt divides the error by 2^4: the half-step delayed values (cubic Hermite) keep RK4's order.

    Observed order from dt = 0.1, 0.05, 0.025 on [0, 100]; linear interpolation
    of the delay would give 2.  Gate: within 0.5 of 4 (asymptotic regime).
    """
    xs = [mackey_glass_series(100.0, dt=h)[::round(1 / h)] for h in (0.1, 0.05, 0.025)]
    e1, e2 = np.abs(xs[0] - xs[1]).max(), np.abs(xs[1] - xs[2]).max()
    assert abs(np.log2(e1 / e2) - 4) < 0.5


def test_tau_17_is_chaotic_tau_10_is_not():
    """Largest Lyapunov exponent ~0.0056 per time unit at tau = 17 (Farmer 1982); 0 at tau = 10 (limit cycle).

    Two histories 1e-9 apart; the slope of log|x1 - x2| over t in [500, 3000]
    must exceed half the published exponent at tau = 17 and stay below a
    tenth of it at tau = 10.
    """
    t = np.arange(0, 30001) * 0.1
    win = (t >= 500) & (t <= 3000)
    lyap = 0.0056
    for tau, chaotic in ((17.0, True), (10.0, False)):
        a = mackey_glass_series(3000.0, tau=tau, x0=1.2)
        b = mackey_glass_series(3000.0, tau=tau, x0=1.2 + 1e-9)
        slope = np.polyfit(t[win], np.log(np.abs(a - b)[win] + 1e-300), 1)[0]
        if chaotic:
            assert slope > lyap / 2, slope
        else:
            assert slope < lyap / 10, slope


@pytest.mark.parametrize(("kw", "exc", "name"), [
    ({"n_train": 0}, ValueError, "n_train"), ({"n_train": 2.5}, TypeError, "n_train"),
    ({"n_test": -1}, ValueError, "n_test"), ({"tau": 0.0}, ValueError, "tau"),
    ({"tau": 17.05}, ValueError, "tau"), ({"dt": 0.3}, ValueError, "dt"), ({"dt": 2.0}, ValueError, "dt"),
    ({"dt": -0.1}, ValueError, "dt"), ({"discard": -1}, ValueError, "discard"),
    ({"x0": -1.0}, ValueError, "x0"), ({"x0": 1.0, "seed": 3}, ValueError, "x0"),
    ({"seed": -3}, TypeError, "seed"), ({"seed": "a"}, TypeError, "seed"),
])
def test_mackey_glass_bad_arguments(kw, exc, name):
    with pytest.raises(exc, match=name):
        mackey_glass(**{"n_train": 5, "n_test": 0, **kw})


def test_primal_dual_rows_from_shared_paths_are_those_of_fresh_fits():
    """The primal-dual task kind fits both forms from one ElsPath per (data, eta, precision), kept
    across tasks; every row equals the row computed from fresh fits (bit for bit, so exactly)."""
    spec = SweepSpec("t-abe-pd", kind="primal-dual", precisions=["float64", "mp50"],
                     datasets=[("mackey-glass", {"n_train": 40, "n_test": 40})],
                     grid={"C": [1.0, 1e8], "sigma2": [1.0], "eta": [0.1]})
    tasks = list(spec.tasks())
    rows = [primal_dual_row(t) for t in tasks]   # one path per precision serves both C
    for t, row in zip(tasks, rows):
        ds = raw_task_data(t)
        fp, fd = (la.fit(s, ds.X_train, ds.y_train, precision=t.precision, **t.params)
                  for s in ("els-primal", "els-dual"))
        assert (row["status_primal"], row["status_dual"]) == (fp.status, fd.status)
        a, b = fp.predict(ds.X_test), fd.predict(ds.X_test)
        assert row["mae_primal"] == float(np.mean(np.abs(a - ds.y_test)))
        assert row["pred_rel_diff"] == float(np.max(np.abs(a - b)) / max(np.max(np.abs(a)), 1e-300))
        assert row["bias_diff"] == abs(float(fp.bias_) - float(fd.bias_))
