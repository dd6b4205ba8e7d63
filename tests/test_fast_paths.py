"""Gates of the fast paths: each is tested against the path it replaces.

* GEMM RBF kernel (``formation="gemm"``) against the mp kernel of the same
  numbers, within the bound of ``rbf_kernel``'s Notes: per entry
  |K^ - K| <= K (exp(dE) (1 + 6u) - 1), dE = (3 d + 20) u (a_i + b_j), evaluated
  (maximised over the entries) by ``kernels.rbf_error_bound``; exact symmetry,
  exact unit diagonal, the clamp (K <= 1), ``out=`` writes the same numbers.
* In-place Cholesky / LU (``overwrite=True``) against the copying calls: the
  same factor bit for bit, the same breakdown record (step and pivot) in
  float32 and float64, the same LU solution up to the rounding of two
  backward-stable solves.
* The dense fits (kernel, ridge and factor in place) against the replaced
  path written out here (fresh kernel, copied H, copying Cholesky / LU of the
  separately assembled KKT matrix): same Fit within the forward-error bound
  2 kappa beta / (1 - kappa beta) of each (Higham Thm 7.2, beta = 30 N u, the
  LAPACK test threshold), plus the kernel formation's own perturbation when
  the formations differ.
* Simultaneous CG against one Hestenes-Stiefel run per system: same stop
  reason, iterates within the CG residual bound; the same iteration count
  where the two products round identically (longdouble, mp), the theoretical
  CG bound (Suykens 3.27) on it for BLAS precisions.
"""
from __future__ import annotations

import dataclasses

import numpy as np
import pytest
from conftest import HARDWARE, LAPACK_THRESHOLD, forward_bound, to_f64

import lssvm_analysis as la
from lssvm_analysis.analysis.reference import reference_solve
from lssvm_analysis.core.exceptions import CholeskyBreakdownError
from lssvm_analysis.linalg.kernels import RBF_FORMATIONS, rbf_error_bound
from lssvm_analysis.linalg.rbf_formation import GEMM_BAND
from lssvm_analysis.linalg.cg import cg_iteration_bound, hestenes_stiefel_cg, simultaneous_cg



# -- the GEMM kernel ------------------------------------------------------------------
@pytest.mark.parametrize("name", HARDWARE)
@pytest.mark.parametrize("d, offset, sigma2", [(1, 0.0, 0.5), (3, 5.0, 0.2), (6, -2.0, 3.0), (3, 1e3, 10.0)])
@pytest.mark.parametrize("with_z", [False, True])
def test_gemm_kernel_within_its_bound_of_the_mp_kernel(name, d, offset, sigma2, with_z, rng):
    """|K^ - K| <= K e, e = rbf_error_bound (gemm) in the precision, K the mp30 kernel of the same numbers.

    The bound is first order; the second-order rest (e^2 / 2 ~ 1e-10 relative in float32 here)
    is covered by using exp(e) - 1.  The offset shows that centring makes the error depend on
    the spread of the points, not on their distance from the origin.
    """
    p = la.get_precision(name)
    X = offset + rng.uniform(-1, 1, (14, d))
    X[1] = X[0]  # a duplicate: its distance is 0, E is clamped at 0
    Z = offset + rng.uniform(-1, 1, (9, d)) if with_z else None
    if with_z:
        Z[4] = X[0]  # a point of X in Z: E rounds to either side of 0, and the clamp must act
    K = la.rbf_kernel(X, Z, sigma2=sigma2, precision=p)
    assert K.dtype == p.dtype and (K <= 1).all() and (K >= 0).all()
    Xp, Zp = to_f64(p.asarray(X)), None if Z is None else to_f64(p.asarray(Z))
    s = float(p.scalar(sigma2))
    ref = to_f64(la.rbf_kernel(Xp, Zp, sigma2=s, precision="mp30", formation="differences"))
    e = rbf_error_bound(Xp, Zp, sigma2=s, precision=p)
    err = np.abs(to_f64(K) - ref)
    assert (err <= ref * np.expm1(e) + 1e-300).all(), (err / ref).max() / e
    if Z is None:
        assert np.array_equal(K, K.T) and (np.diag(K) == 1).all()


@pytest.mark.parametrize("n", [1, 2, GEMM_BAND, GEMM_BAND + 1, 301])
@pytest.mark.parametrize("d", [1, 2, 4, 7, 16, 64])
def test_gemm_kernel_is_exactly_symmetric(n, d, rng):
    """K(X, X) == K(X, X).T bit for bit, for bands of every shape (BLAS accumulation order)."""
    X = rng.standard_normal((n, d))
    K = la.rbf_kernel(X, sigma2=d)
    assert np.array_equal(K, K.T) and (np.diag(K) == 1).all()


@pytest.mark.parametrize("name", HARDWARE + ["longdouble", "mp30"])
@pytest.mark.parametrize("formation", RBF_FORMATIONS)
def test_kernel_of_x_with_itself_is_the_symmetric_kernel(name, formation, rng):
    """rbf_kernel(X, X) (a copy of X too) is rbf_kernel(X) bit for bit, so it factors (issue 21)."""
    n = 80 if name in HARDWARE else 12
    X = rng.uniform(-1, 1, (n, 3))
    K = la.rbf_kernel(X, sigma2=2.0, precision=name, formation=formation)
    for Z in (X, X.copy()):
        assert np.array_equal(la.rbf_kernel(X, Z, sigma2=2.0, precision=name, formation=formation), K)
    p = la.get_precision(name)
    L = p.cholesky(la.rbf_kernel(X, X, sigma2=2.0, precision=p, formation=formation) + p.eye(n))
    assert L.shape == (n, n)


def test_formations_are_registered_and_validated(rng):
    X = rng.uniform(size=(7, 3))
    assert RBF_FORMATIONS[0] == "gemm" and "differences" in RBF_FORMATIONS
    k = la.Kernel("rbf", {"sigma2": 0.5}, formation="differences")
    assert np.array_equal(k(X), la.rbf_kernel(X, sigma2=0.5, formation="differences"))
    assert "formation='differences'" in repr(k)
    assert la.make_kernel("rbf", sigma2=0.5, formation="differences") == k
    with pytest.raises(ValueError, match=r"expected formation in .*got formation='syrk'"):
        la.rbf_kernel(X, formation="syrk")
    with pytest.raises(ValueError, match=r"got formation='syrk'"):
        la.Kernel("rbf", {"sigma2": 1.0}, formation="syrk")
    # the generic precisions keep the differences formula under either name
    assert np.array_equal(la.rbf_kernel(X, precision="longdouble"),
                          la.rbf_kernel(X, precision="longdouble", formation="differences"))


@pytest.mark.parametrize("name", HARDWARE + ["mp20"])
def test_kernel_out_writes_the_same_numbers(name, rng):
    p = la.get_precision(name)
    X = rng.uniform(size=(11, 2))
    A = p.zeros((12, 12))
    got = la.rbf_kernel(X, sigma2=0.3, precision=p, out=A[1:, 1:])
    assert np.shares_memory(got, A) and np.array_equal(A[1:, 1:], la.rbf_kernel(X, sigma2=0.3, precision=p))
    assert all(v == 0 for v in A[0].flat) and all(v == 0 for v in A[:, 0].flat)
    with pytest.raises(ValueError, match=r"expected out of shape \(11, 11\)"):
        la.rbf_kernel(X, sigma2=0.3, precision=p, out=p.zeros((11, 10)))


# -- in-place factorizations -----------------------------------------------------------
@pytest.mark.parametrize("name", HARDWARE)
def test_inplace_cholesky_is_the_same_factor_and_breakdown(name, rng):
    """overwrite=True: the lower triangle is bit-identical; a breakdown has the same step and pivot."""
    p = la.get_precision(name)
    X = rng.uniform(size=(120, 2))
    H = la.rbf_kernel(X, sigma2=0.1, precision=p) + p.scalar(1e-3) * p.eye(120)
    L = p.cholesky(H)
    H2 = H.copy()
    L2 = p.cholesky(H2, check=False, overwrite=True)
    assert np.shares_memory(L2, H2) and np.array_equal(np.tril(L2), L)
    # C = 1e30: H is the kernel itself, numerically singular: a breakdown in both precisions
    K = la.rbf_kernel(X, sigma2=2.0, precision=p) + p.scalar(1e-30) * p.eye(120)
    with pytest.raises(CholeskyBreakdownError) as copy_err:
        p.cholesky(K)
    with pytest.raises(CholeskyBreakdownError) as inplace_err:
        p.cholesky(K.copy(), check=False, overwrite=True)
    assert copy_err.value.record == inplace_err.value.record


@pytest.mark.parametrize("name", HARDWARE)
@pytest.mark.parametrize("order", ["C", "F"])
def test_inplace_lu_solves_the_same_system(name, order, rng):
    """getrf of A^T in place (C order) or of A (F order) against lu_factor of a copy: two
    backward-stable solves of the same system, so ||x1 - x2|| <= (fwd1 + fwd2) ||x*||."""
    p = la.get_precision(name)
    n = 60
    A = p.asarray(rng.standard_normal((n, n)) + 4 * np.eye(n))
    b = p.asarray(rng.standard_normal(n))
    x_copy = p.solve(A, b)
    A2 = np.array(A, order=order)
    x_in = p.solve(A2, b, overwrite=True)
    ref = reference_solve(A, b, digits=20)
    fwd = forward_bound(ref.cond_estimate, LAPACK_THRESHOLD * n * p.unit_roundoff)
    xs = np.abs(ref.x_float64()).max()
    assert np.abs(to_f64(x_in) - to_f64(x_copy)).max() <= 2 * fwd * xs
    S = p.zeros((3, 3))
    with pytest.raises(np.linalg.LinAlgError, match="singular"):
        p.solve(S, p.asarray(np.ones(3)), overwrite=True)


# -- the dense fits against the replaced path -------------------------------------------
def _old_schur(X, y, p, C, sigma2, formation):
    """The replaced lssvm-schur path (regression): fresh kernel, H copy, copying Cholesky."""
    K = la.rbf_kernel(X, sigma2=sigma2, precision=p, formation=formation)
    H = K + p.reciprocal(C) * p.eye(len(y))
    L = p.cholesky(H)
    sol = p.cho_solve(L, np.stack([p.asarray(np.ones(len(y))), p.asarray(y)], axis=1))
    eta, nu = sol[:, 0], sol[:, 1]
    b = eta.sum() ** -1 * nu.sum()
    return to_f64(np.concatenate([[b], nu - eta * b]))


def _old_kkt(X, y, p, C, sigma2, formation):
    """The replaced lssvm-kkt path: H formed, then copied into the KKT matrix, LU of a copy."""
    n = len(y)
    K = la.rbf_kernel(X, sigma2=sigma2, precision=p, formation=formation)
    A = p.zeros((n + 1, n + 1))
    A[1:, 1:] = K + p.reciprocal(C) * p.eye(n)
    A[0, 1:] = A[1:, 0] = p.asarray(np.ones(n))
    rhs = p.zeros(n + 1)
    rhs[1:] = p.asarray(y)
    return to_f64(p.solve(A, rhs)), A


@pytest.mark.parametrize("name", HARDWARE)
@pytest.mark.parametrize("formation", RBF_FORMATIONS)
def test_dense_fits_agree_with_the_replaced_path(name, formation, rng):
    """z_new vs z_old: (fwd_new + fwd_old) ||z*|| plus kappa times the formations' difference.

    Both paths solve a system A + E with ||E|| <= beta ||A|| (beta = 2 * 30 N u for the Schur
    route, 30 N u for LU); the kernels of the two formations differ entrywise by at most
    K (e_gemm + e_diff) (rbf_error_bound), a normwise relative perturbation of the same size,
    which enters the forward bound like beta.  kappa = inf-norm estimate of the certified solve.
    """
    p = la.get_precision(name)
    n, C, s2 = 90, 10.0, 1.0
    X = rng.uniform(-2, 2, (n, 2))
    y = np.sin(X.sum(axis=1))
    kern = la.make_kernel("rbf", sigma2=s2, formation=formation)
    z_old, A = _old_kkt(X, y, p, C, s2, "differences")
    ref = reference_solve(A, np.concatenate([[0.0], to_f64(p.asarray(y))]), digits=20)
    kappa, zs = ref.cond_estimate, np.abs(ref.x_float64()).max()
    u = p.unit_roundoff
    dk = 0.0 if formation == "differences" else (rbf_error_bound(X, sigma2=s2, precision=p)
                                                 + rbf_error_bound(X, sigma2=s2, precision=p,
                                                                   formation="differences"))
    for solver, beta in (("lssvm-kkt", LAPACK_THRESHOLD * (n + 1) * u),
                         ("lssvm-schur", 2 * LAPACK_THRESHOLD * (n + 1) * u)):
        fit = la.fit(solver, X, y, precision=p, C=C, kernel=kern)
        assert fit.status == "ok" and fit.coef_.dtype == p.dtype
        z_new = to_f64(fit.diagnostics["solution"])
        old = z_old if solver == "lssvm-kkt" else _old_schur(X, y, p, C, s2, "differences")
        tol = (forward_bound(kappa, beta + dk) + forward_bound(kappa, beta)) * zs
        assert np.abs(z_new - old).max() <= tol, (solver, np.abs(z_new - old).max() / tol)
    fit = la.fit("krr", X, y, precision=p, C=C, kernel=kern)
    H = la.rbf_kernel(X, sigma2=s2, precision=p, formation="differences") + p.reciprocal(C) * p.eye(n)
    alpha_old = to_f64(p.cho_solve(p.cholesky(H), p.asarray(y)))
    refk = reference_solve(H, to_f64(p.asarray(y)), digits=20)
    beta = LAPACK_THRESHOLD * n * u
    kap = refk.cond_estimate
    tol = (forward_bound(kap, beta + dk) + forward_bound(kap, beta)) * np.abs(refk.x_float64()).max()
    assert np.abs(to_f64(fit.coef_) - alpha_old).max() <= tol


@pytest.mark.parametrize("name", HARDWARE)
@pytest.mark.parametrize("solver", ["lssvm-schur", "krr"])
def test_inplace_fit_breaks_down_at_the_replaced_step(name, solver, rng):
    """Same kernel (differences): the in-place fit reports the breakdown record of the copying Cholesky."""
    p = la.get_precision(name)
    X = rng.uniform(size=(150, 2))
    y = np.cos(X[:, 0])
    C = 1e30
    kern = la.make_kernel("rbf", sigma2=4.0, formation="differences")
    H = la.rbf_kernel(X, sigma2=4.0, precision=p, formation="differences")
    H[np.diag_indices(150)] += p.reciprocal(C)
    with pytest.raises(CholeskyBreakdownError) as err:
        p.cholesky(H)
    fit = la.fit(solver, X, y, precision=p, C=C, kernel=kern)
    assert fit.status == "breakdown" and fit.breakdown == err.value.record


# -- simultaneous CG -------------------------------------------------------------------
#: Precisions whose block product A P rounds each column exactly as the product A p of one vector:
#: NumPy's own loops for longdouble and object arrays (one dot per entry, same order) -- there the
#: two runs are the same computation and must agree to the iteration.  float32/64 go through BLAS,
#: whose GEMM and GEMV kernels (chosen per CPU) sum in different orders.
SAME_ROUNDING = ["longdouble", "mp30"]


@pytest.mark.parametrize("name", HARDWARE + SAME_ROUNDING)
def test_simultaneous_cg_runs_each_system_as_hestenes_stiefel(name, rng):
    """Each column of the simultaneous run against its own Hestenes-Stiefel run.

    * Both stop on the residual test and ``||x - x_hs||`` is within the two runs' stopping error:
      ``||e|| <= ||A^-1|| ||r|| <= kappa rtol ||x*||`` per run (the recursive residual the test
      reads differs from the true one by O(i n u ||A|| ||x||), far below rtol = 1e3 n u), so
      ``||x - x_hs||_inf <= 2 kappa rtol sqrt(n) ||x*||_inf``.
    * Iteration counts: equal where the products round identically (``SAME_ROUNDING``).  For
      float32/64 the BLAS block product and vector product round differently from the first
      step and finite-precision CG turns such differences into delays of any size (Greenbaum
      1989), so no "within 1" holds; the count is bounded by what theory gives instead.
      ``||r|| <= sqrt(lambda_max) ||e||_A`` and ``||x*||_A <= ||B|| / sqrt(lambda_min)``, so
      ``||e_i||_A <= (rtol / sqrt(kappa)) ||x*||_A`` implies ``||r_i|| <= rtol ||B||``: the
      residual test has fired by ``cg_iteration_bound(kappa, rtol / sqrt(kappa))`` steps
      (Suykens 3.27, the exact-arithmetic bound); Greenbaum's result
      keeps this bound in finite precision for a kappa of an interval widened by O(n u ||A||),
      negligible here (kappa ~ 2e2, n u ||A|| ~ 1.5e-13 in float64), so it is applied with factor 1.
    """
    p = la.get_precision(name)
    n = 70 if name not in SAME_ROUNDING[1:] else 30  # mp: object-array products, keep it short
    X = rng.uniform(-1, 1, (n, 2))
    H = la.rbf_kernel(X, sigma2=0.5, precision=p) + p.scalar(0.1) * p.eye(n)
    B = np.stack([p.asarray(np.ones(n)), p.asarray(np.sin(3 * X[:, 0]))], axis=1)
    rtol = 1e3 * n * p.unit_roundoff
    runs = simultaneous_cg(H, B, rtol=rtol, vtol=0, precision=p)
    ev = np.linalg.eigvalsh(to_f64(H))
    kappa = ev[-1] / ev[0]
    bound = np.ceil(cg_iteration_bound(kappa, rtol / np.sqrt(kappa)))
    for j, run in enumerate(runs):
        hs = hestenes_stiefel_cg(H, B[:, j], rtol=rtol, vtol=0, precision=p)
        assert run.reason == hs.reason == "residual"
        assert len(run.history["residual_norm"]) == run.iterations + 1
        if name in SAME_ROUNDING:
            assert run.iterations == hs.iterations
        else:
            assert max(run.iterations, hs.iterations) <= bound, (run.iterations, hs.iterations, bound)
        xs = np.abs(to_f64(hs.x)).max()
        assert np.abs(to_f64(run.x) - to_f64(hs.x)).max() <= 2 * rtol * kappa * np.sqrt(n) * xs
    # a system that is solved at once leaves the block; the other goes on
    B0 = B.copy()
    B0[:, 0] = p.scalar(0)
    r0, r1 = simultaneous_cg(H, B0, rtol=rtol, vtol=0, precision=p)
    assert (r0.iterations, r0.reason) == (0, "residual") and r1.reason == "residual"
    if name in SAME_ROUNDING:
        assert r1.iterations == runs[1].iterations
    else:
        assert r1.iterations <= bound


def test_lssvm_cg_keeps_both_histories(rng):
    X = rng.uniform(-1, 1, (60, 2))
    y = np.sin(X[:, 0])
    fit = la.fit("lssvm-cg", X, y, C=10.0, sigma2=0.5, estimate_kappa=False)
    d = fit.diagnostics
    assert fit.status == "ok" and fit.iterations == d["iterations_eta"] + d["iterations_nu"]
    for name in ("eta", "nu"):
        assert len(fit.history[f"{name}_residual_norm"]) == d[f"iterations_{name}"] + 1
        assert len(fit.history[f"{name}_V"]) == d[f"iterations_{name}"] + 1


def test_kernel_keeps_dataclass_semantics():
    k = la.Kernel("rbf", {"sigma2": 2.0})
    assert k.formation == "gemm"
    assert dataclasses.replace(k, formation="differences").formation == "differences"
