"""The FLINT engine of mpN agrees with the generic mpmath code within each operation's rounding bound.

Both engines compute in the same arithmetic (every operation rounded to the
precision's t bits, u = 2^-t); they differ only in the order of the
roundings.  Each is within a known bound of the exact result, so their
difference is within the sum of the two bounds.  The constant of each
assertion is derived next to it; kappa's are computed in float64 from the
float64 data (exact to a few digits for kappa <= 1e10, far inside the
factors 2 that the bounds spare).

Also checked: the breakdown record (same step, pivot within the rounding of
one pivot), the read-only factor with its FLINT form, the exact conversions,
and one fit per seed paper (the registry's first solver of each paper that
forms a system) with the FLINT engine against the mpmath engine.
"""
from __future__ import annotations

import math

import flint
import numpy as np
import pytest
from conftest import logspaced_nonsymmetric, logspaced_spd, to_f64

import lssvm_analysis as la
from lssvm_analysis.core.exceptions import CholeskyBreakdownError
from lssvm_analysis.linalg.cg import _krylov_space, simultaneous_cg
from lssvm_analysis.linalg.incomplete_cholesky import _panel
from lssvm_analysis.linalg.mrsr import bordered_inverse
from lssvm_analysis.arith.precision import MPPrecision

FL = la.get_precision("mp50")
MP = MPPrecision(50, engine="mpmath")
U = FL.unit_roundoff

pytestmark = pytest.mark.skipif(FL.engine != "flint", reason="libflint could not be loaded through ctypes")


def _diff(a, b):
    """max |a - b| evaluated in mp50 (the difference of two mp50 numbers is exact to 1 u)."""
    return max(abs(float(x - y)) for x, y in zip(np.ravel(a), np.ravel(b)))


@pytest.mark.parametrize("n, cond", [(30, 10.0), (120, 1e8)])
def test_cholesky_agrees(rng, n, cond):
    A = FL.asarray(logspaced_spd(rng, n, cond))
    L_f, L_g = FL.cholesky(A), MP.cholesky(A)
    kappa = np.linalg.cond(to_f64(A))
    # Each factor is exact for A + dA, ||dA||_F <= gamma_{n+1} || |L||L^T| ||_F <= (n+1) u n ||A||_2
    # (Higham Thm 10.3, and || |L||L^T| ||_F <= ||L||_F^2 = trace A <= n ||A||_2); Sun's bound
    # (Higham Thm 10.8, first order) gives ||L^ - L||_F / ||L||_2 <= 2^-1/2 kappa_2 ||dA||_F / ||A||_2.
    # Two factors: <= 2^1/2 n (n+1) u kappa_2; constant 2 for the second-order terms.
    bound = 2 * n * (n + 1) * U * kappa
    assert _diff(L_f, L_g) / math.sqrt(np.linalg.norm(to_f64(A), 2)) <= bound
    assert L_f.dtype == object and not L_f.flags.writeable
    assert all(v == 0 for v in L_f[np.triu_indices(n, 1)])


def test_cholesky_breakdown_record_agrees(rng):
    n = 60
    A64 = logspaced_spd(rng, n, 10.0)
    w, V = np.linalg.eigh(A64)
    A64 = (V * np.where(np.arange(n) == 0, -0.5, w)) @ V.T   # one negative eigenvalue
    A64 = (A64 + A64.T) / 2
    A = FL.asarray(A64)
    with pytest.raises(CholeskyBreakdownError) as ef:
        FL.cholesky(A)
    with pytest.raises(CholeskyBreakdownError) as eg:
        MP.cholesky(A)
    rf, rg = ef.value.record, eg.value.record
    assert (rf.step, rf.n, rf.precision) == (rg.step, rg.n, rg.precision)
    # The pivot a_kk - ||l_k||^2 is a dot product of length k over entries bounded by ||A||_2
    # in both engines: each within gamma_{k+1} (a_kk + ||l_k||^2) <= 2 (k+1) u ||A||_2 of the
    # exact pivot of the perturbed factor; constant 2 again for the two engines' L's.
    bound = 2 * 2 * (rf.step + 1) * U * np.linalg.norm(A64, 2) * np.linalg.cond(A64[:rf.step, :rf.step])
    assert abs(rf.pivot - rg.pivot) <= bound


@pytest.mark.parametrize("lower, trans", [(True, False), (True, True), (False, False)])
def test_solve_triangular_agrees(rng, lower, trans):
    n = 80
    T64 = np.tril(rng.standard_normal((n, n))) + 4 * np.eye(n)
    T64 = T64 if lower else T64.T
    T, b = FL.asarray(T64), FL.asarray(rng.standard_normal((n, 2)))
    x_f = FL.solve_triangular(T, b, lower=lower, trans=trans)
    x_g = MP.solve_triangular(T, b, lower=lower, trans=trans)
    # Substitution is backward stable: (T + dT) x^ = b with |dT| <= gamma_n |T| (Higham Thm 8.5),
    # so ||x^ - x||_inf / ||x||_inf <= gamma_n kappa_inf(T) / (1 - ...); two solves: 2 n u kappa,
    # constant 2 for gamma_n = n u / (1 - n u) and the second-order term.
    kappa = np.linalg.cond(T64, np.inf)
    assert _diff(x_f, x_g) / np.abs(to_f64(x_g)).max() <= 2 * 2 * n * U * kappa


def test_solve_and_lu_agree(rng):
    n = 70
    A64 = logspaced_nonsymmetric(rng, n, 1e6)
    A, b = FL.asarray(A64), FL.asarray(rng.standard_normal(n))
    x_f, x_g = FL.solve(A, b), MP.solve(A, b)
    LU, perm = FL.lu_factor(A)
    rho = np.abs(np.triu(to_f64(LU))).max() / np.abs(A64).max()   # growth factor of this LU
    # GEPP: (A + dA) x^ = b, ||dA||_inf <= gamma_3n n rho ||A||_inf (Higham Thm 9.4 with
    # || |L||U| ||_inf <= n rho ||A||_inf... for |l_ij| <= 1), forward <= that times kappa_inf;
    # two solves, constant 2.
    kappa = np.linalg.cond(A64, np.inf)
    assert _diff(x_f, x_g) / np.abs(to_f64(x_g)).max() <= 2 * 3 * n * n * rho * U * kappa
    assert np.array_equal(np.sort(perm), np.arange(n))
    # The packed factors reproduce A[perm] to the same backward bound.
    L = np.tril(to_f64(LU), -1) + np.eye(n)
    assert np.abs(L @ np.triu(to_f64(LU)) - A64[perm]).max() <= 3 * n * n * rho * np.abs(A64).max() * 1e-15


def test_matmul_agrees_componentwise(rng):
    A, B = FL.asarray(rng.standard_normal((40, 25))), FL.asarray(rng.standard_normal((25, 30)))
    C_f, C_g = FL.matmul(A, B), MP.matmul(A, B)
    # Each product: |C^ - AB| <= gamma_k |A||B| entrywise (k = 25); two of them: 2 gamma_k, and
    # gamma_k <= 1.01 k u here.
    absAB = np.abs(to_f64(A)) @ np.abs(to_f64(B))
    assert np.all(np.abs(to_f64(C_f - C_g)) <= 2 * 1.01 * 25 * U * absAB)
    v_f = FL.matmul(A, B[:, 0])
    assert v_f.shape == (40,) and _diff(v_f, C_f[:, 0]) <= 2 * 1.01 * 25 * U * absAB[:, 0].max()
    w_f = FL.matmul(A[0], B)  # a 1-D left operand is a row, as NumPy reads it
    assert w_f.shape == (30,) and _diff(w_f, C_f[0]) <= 2 * 1.01 * 25 * U * absAB[0].max()
    with pytest.raises(ValueError, match="inner dimensions"):
        FL.matmul(A, A)


def test_operator_agrees_componentwise(rng):
    A64 = rng.standard_normal((40, 40))
    A, V = FL.asarray(A64), FL.asarray(rng.standard_normal((40, 3)))
    apply = FL.operator(A)
    # As test_matmul_agrees_componentwise: each product within gamma_k |A||V| entrywise
    # (k = 40, gamma_k <= 1.01 k u), two of them 2 gamma_k.  A is converted once; every call
    # converts only its block.
    absAV = np.abs(A64) @ np.abs(to_f64(V))
    for _ in range(2):
        assert np.all(np.abs(to_f64(apply(V) - MP.matmul(A, V))) <= 2 * 1.01 * 40 * U * absAV)
    assert apply(V[:, 0]).shape == (40,)
    # the hardware and NumPy-loop precisions keep A @ V itself (bit for bit)
    for name in ("float32", "float64", "longdouble"):
        q = la.get_precision(name)
        Aq, Vq = q.asarray(A64), q.asarray(to_f64(V))
        assert np.array_equal(q.operator(Aq)(Vq), Aq @ Vq)


@pytest.mark.parametrize("name", ["float32", "float64", "longdouble", "mp50", "mp-engine"])
def test_panel_products_are_those_of_matmul(rng, name):
    """A panel's column product is p.matmul(G[:, :r], G[j, :r]) bit for bit, in every precision:
    FLINT's form of each column is written once, but the product is the same call on the same
    numbers (mpN), and the other precisions multiply the array itself."""
    q = MP if name == "mp-engine" else la.get_precision(name)
    m, n = 30, 12
    G = q.zeros((m, n))
    P = _panel(q, G)
    cols = q.asarray(rng.standard_normal((m, n)))
    with q.context():
        for r in range(n):
            P.set(r, cols[:, r])
            assert np.array_equal(G[:, :r + 1], cols[:, :r + 1])   # the array itself is written
            for j in (0, r, m - 1):
                got, ref = P.times_row(r + 1, j), q.matmul(G[:, :r + 1], G[j, :r + 1])
                assert got.shape == (m,) and got.dtype == q.dtype
                assert all(a == b for a, b in zip(got, ref))


def test_cg_agrees(rng):
    n, cond = 40, 10.0
    A64 = logspaced_spd(rng, n, cond)
    b64 = rng.standard_normal(n)
    runs = [la.hestenes_stiefel_cg(q.asarray(A64), q.asarray(b64), precision=q, vtol=0) for q in (FL, MP)]
    assert all(r.converged and r.reason == "residual" for r in runs)
    x = np.linalg.solve(A64, b64)
    kappa = np.linalg.cond(A64)
    i = max(r.iterations for r in runs)
    # Each run stops at a recursive residual ||r_i|| <= 100 u ||b|| (the default rtol).  The true
    # residual differs from it by at most ~ i (n + 4) u ||A|| max_j ||x_j|| (Greenbaum 1997: each
    # step adds the rounding of one product and two axpys), and max_j ||x_j|| <= 2 ||x|| for
    # kappa = 10 (constant 2).  With ||b|| <= ||A|| ||x||: ||x^ - x|| <= kappa (100 + 2 i (n + 4)) u ||x||
    # for each engine, twice that between them.
    bound = 2 * kappa * (100 + 2 * i * (n + 4)) * U * np.linalg.norm(x)
    assert _diff(runs[0].x, runs[1].x) <= bound


def test_mrsr_agrees(rng):
    n, m = 40, 12
    X64 = rng.standard_normal((n, m))
    T64 = X64 @ rng.standard_normal(m) + 1e-3 * rng.standard_normal(n)
    paths = [la.mrsr(X64, T64, precision=q) for q in (FL, MP)]
    assert paths[0].status == paths[1].status == "ok"
    # correlation gaps of random data are >> u: the same ranking in both engines
    assert np.array_equal(paths[0].order, paths[1].order)
    # The last step is the least-squares fit on all m columns (beta = 1).  QR least squares
    # is backward stable with ||dX|| <= c m n u ||X|| (Higham Thm 20.3; CGS2 as Householder,
    # Giraud et al. 2005), so the forward error is <= c m n u (kappa + kappa^2 ||r|| /
    # (||X|| ||w||)) ||w|| (Higham Thm 20.1); c = 6 covers CGS2's two passes and the
    # triangular solve, and two engines double it.
    Xn = X64 / np.linalg.norm(X64, axis=0)
    kappa = np.linalg.cond(Xn)
    w, *_ = np.linalg.lstsq(X64, T64, rcond=None)
    r = np.linalg.norm(T64 - X64 @ w)
    ws = np.linalg.norm(w * np.linalg.norm(X64, axis=0))
    rel = kappa + kappa ** 2 * r / (np.linalg.norm(Xn, 2) * ws)
    bound = 2 * 6 * m * n * U * rel * np.abs(w).max()
    assert _diff(paths[0].coefs[-1], paths[1].coefs[-1]) <= bound


@pytest.mark.parametrize("n, cond", [(20, 10.0), (60, 1e12)])
def test_eigvalsh_agrees(rng, n, cond):
    A64 = logspaced_spd(rng, n, cond)
    A = FL.asarray(A64)
    ev_f, ev_g = FL.eigvalsh(A), MP.eigvalsh(A)
    assert ev_f.dtype == object and list(ev_f) == sorted(ev_f)
    # Both are backward stable eigensolvers (FLINT: Hessenberg + shifted QR; mpmath eigsy:
    # tridiagonal + implicit QL): eigenvalues of A + E with ||E||_2 <= c n^2 u ||A||_2 (n
    # sweeps of n rotations, c = 1 generous for the reflections' constant); A symmetric,
    # so each eigenvalue moves by <= ||E||_2 (Weyl for eigsy's symmetric E, Bauer-Fike with
    # orthonormal eigenvectors for FLINT's).  Two engines: 2 n^2 u ||A||_2 -- absolute, so the
    # smallest eigenvalue (1/cond of the largest) is checked to ~28 digits here.
    assert _diff(ev_f, ev_g) <= 2 * n * n * U * np.linalg.norm(A64, 2)
    # longdouble's eigenvalues: FLINT at 21 digits, rounded to longdouble.  Against mpmath's eigsy at 21
    # digits: the two engines' backward errors (2 n^2 u21 ||A||_2, as above) plus the rounding to
    # longdouble (u_ld |lambda|)
    ld = la.get_precision("longdouble")
    mp21 = MPPrecision(21, engine="mpmath")
    ref = ld.asarray(mp21.eigvalsh(mp21.asarray(A64)))
    got = ld.eigvalsh(ld.asarray(A64))
    bound = 2 * n * n * mp21.unit_roundoff * np.linalg.norm(A64, 2) + ld.unit_roundoff * np.abs(ref)
    assert np.all(np.abs(got - ref) <= bound)


def test_exp_agrees(rng):
    x = FL.asarray(rng.uniform(-40, 5, 300))
    e_f, e_g = FL.exp(x), MP.exp(x)
    # arb's exp at t bits returns a ball of radius <= 2 u |e| around its midpoint for exact input
    # (checked below); mpmath's exp is within 1 ulp (2u |e|); together 4 u |e|.
    with flint.ctx.workprec(FL.ctx.prec):
        rad = max(float(flint.arb(v).exp().rad()) / float(FL.ctx.exp(v)) for v in x[:20])
    assert rad <= 2 * U
    rel = max(abs(float((a - b) / b)) for a, b in zip(e_f, e_g))
    assert rel <= 4 * U
    special = FL.asarray(np.array([0.0, -np.inf, np.inf]))
    assert [float(v) for v in FL.exp(special)] == [1.0, 0.0, math.inf]


def test_rbf_kernel_agrees(rng):
    d, sigma2 = 3, 0.7
    X, Z = rng.standard_normal((40, d)), rng.standard_normal((25, d))
    for Zi in (None, Z):
        K_f = la.rbf_kernel(X, Zi, sigma2=sigma2, precision=FL)
        K_g = la.rbf_kernel(X, Zi, sigma2=sigma2, precision=MP)
        Zr = X if Zi is None else Zi
        q = ((X[:, None, :] - Zr[None, :, :]) ** 2).sum(-1).max() / sigma2
        # FLINT: exact distances, one rounding in -d2/sigma2 (|dE| <= u q), exp within 2u: u q + 2u.
        # generic (differences formula, kernels.py): (d + 3) u q + 6u.  The sum bounds the gap;
        # 1.01 for the first-order exp(|dE|) - 1 ~ |dE| (|dE| < 1e-48).
        rel = max(abs(float((a - b) / b)) for a, b in zip(K_f.flat, K_g.flat))
        assert rel <= 1.01 * ((d + 4) * U * q + 8 * U)
        if Zi is None:
            assert all(v == 1 for v in np.diagonal(K_f)) and all(K_f[i, j] is K_f[j, i]
                                                               for i in range(5) for j in range(5))


def test_conversions_are_exact(rng):
    x = rng.standard_normal(500) * 10.0 ** rng.integers(-300, 300, 500)
    a = FL.asarray(x)
    assert all(v == FL.ctx.mpf(float(w)) for v, w in zip(a, x))
    third = a / FL.scalar(3)
    assert np.array_equal(to_f64(third), np.array([float(v) for v in third]))
    assert np.array_equal(FL.asarray(np.arange(-5, 5)), FL.asarray(np.arange(-5.0, 5.0)))


def test_factor_kept_in_flint_only_while_read_only(rng):
    A = FL.asarray(logspaced_spd(rng, 20, 10.0))
    L = FL.cholesky(A)
    b = FL.asarray(rng.standard_normal(20))
    x1 = FL.cho_solve(L, b)
    assert _diff(FL.cho_solve(L.copy(), b), x1) == 0   # a copy is converted: the same numbers
    L.flags.writeable = True                            # the caller may change it now:
    L[0, 0] = L[0, 0] * 2                               # the FLINT form must not be used
    x_f = FL.cho_solve(L, b)
    assert _diff(x_f, x1) > 0 and _diff(x_f, FL.cho_solve(L.copy(), b)) == 0


def _family_cases():
    """The registry's first mp-capable solver with a system, per seed paper."""
    seen, out = set(), []
    for name in la.solvers():
        info = la.get_solver(name)
        if info.paper in seen or info.system is None or "mp50" not in info.supported_precisions():
            continue
        seen.add(info.paper)
        out.append(pytest.param(name, id=name))
    return out


def _routed_cases():
    """Solvers whose mpN products were moved onto Precision.matmul (issue 24), beyond the
    first of each paper: Abe's dual (H H^T), OP-LSSVM (MRSR and the PRESS QR)."""
    first = {p.values[0] for p in _family_cases()}
    return [pytest.param(n, id=n) for n in ("els-dual", "op-lssvm")
            if n not in first and n in la.solvers()]


@pytest.mark.parametrize("name", _family_cases() + _routed_cases())
def test_one_fit_per_family_agrees(name, rng):
    info = la.get_solver(name)
    pb = info.example_problem(n=40, rng=rng)
    kw = {k: v for k, v in pb.params.items() if k not in ("C", "sigma2")}
    fits = [la.fit(name, pb.X, pb.y, precision=p, C=10.0, sigma2=1.0, **kw) for p in (FL, MP)]
    assert [f.status for f in fits] == ["ok", "ok"]
    A, _, _ = info.system(pb.X, pb.y, fits[0], C=10.0, sigma2=1.0, **kw)
    kappa = la.condition_number(A, p=np.inf)
    kappa = float(getattr(kappa, "value", kappa))
    coef = [MP.asarray(f.coef_) for f in fits]
    den = max(abs(float(v)) for v in coef[1])
    # Each fit is within 30 kappa u of the exact solution of its system (the conformance
    # battery's constant, LAPACK's xPOT04 / xGET04 threshold); two fits: 60 kappa u.
    assert _diff(coef[0], coef[1]) / den <= 60 * kappa * U
    if fits[1].bias_ is not None:
        assert abs(float(fits[0].bias_) - float(fits[1].bias_)) <= 60 * kappa * U * max(den, 1.0)


def test_to_float64_rounds_each_entry_as_float_does():
    """_flint.to_float64 (listed in its __all__ and called by MPPrecision.to_float64, which fell
    back to entry-by-entry float() while it was missing) must equal float(mpf) bit for bit:
    both round to nearest, including overflow to inf, underflow to 0, and NaN."""
    from lssvm_analysis.arith import flint_engine as _flint
    p = la.get_precision("mp50")
    rng = np.random.default_rng(7)
    x = p.asarray(rng.standard_normal((40, 40)) * 10.0 ** rng.integers(-300, 300, (40, 40)))
    x = x / p.asarray(np.full((40, 40), 3.0))     # 50-digit entries: the rounding is exercised
    x[0, :6] = [p.ctx.mpf(0), p.ctx.inf, -p.ctx.inf, p.ctx.mpf("1e400"), p.ctx.mpf("-1e-400"), p.ctx.nan]
    got = _flint.to_float64(x)
    want = np.array([float(v) for v in x.flat]).reshape(x.shape)
    assert np.array_equal(got, want, equal_nan=True) and np.array_equal(p.to_float64(x), want, equal_nan=True)


@pytest.mark.parametrize("clamp", [True, False], ids=["clamped", "literal"])
def test_pivoted_cholesky_agrees(rng, clamp):
    """The greedy selection kept in FLINT (``linalg._cholesky_flint.PivotedRBF``) against the mpmath engine's
    NumPy loop: the same pivots, and the pivots' rows of G (the Cholesky factor L of K_BB in pivot
    order) within the rounding bound of two Cholesky factors of slightly different kernels."""
    m, r, d, sigma2 = 60, 12, 2, 0.5
    X = rng.uniform(size=(m, d))
    k = la.make_kernel("rbf", sigma2=sigma2)
    sel_f, sel_g = (la.pivoted_cholesky(X, k, rank=r, clamp=clamp, precision=p) for p in (FL, MP))
    assert (sel_f.formation, sel_g.formation) == ("gemm", "differences")
    assert list(sel_f.indices) == list(sel_g.indices) and len(sel_f.indices) == r
    assert sel_f.G.dtype == object and not sel_f.G.flags.writeable and sel_f.G.shape == (m, r)
    KB = la.rbf_kernel(X[sel_f.indices], sigma2=sigma2)
    kappa, nrm = np.linalg.cond(KB), np.linalg.norm(KB, 2)
    q = float(np.max(((X[:, None, :] - X[None, :, :]) ** 2).sum(-1))) / sigma2
    # Kernel entries (<= 1): exact distances with one rounding in -D/sigma2 and one in exp,
    # relative error <= (q + 2) u, against the differences formula's ((d + 2) q + 2) u (kernels
    # module docstring; first order): ||dK_form||_F <= r ((d + 3) q + 4) u for the two together.
    # Each L is the exact factor of K_BB + dK, ||dK||_F <= (r + 1) u trace K_BB = (r + 1) r u
    # (Higham Thm 10.3), and Sun's bound (Thm 10.8) turns the sum of the three into
    # ||L_f - L_g||_F <= 2^-1/2 kappa_2 ||dK||_F / ||K_BB||_2 ||L||_2, ||L||_2 = ||K_BB||_2^1/2;
    # constant 2 for the second-order terms.
    dK = 2 * (r + 1) * r * U + r * ((d + 3) * q + 4) * U
    bound = 2 * 2 ** -0.5 * kappa * dK / math.sqrt(nrm)
    assert _diff(sel_f.L, sel_g.L) <= bound
    assert sel_f.negative_residuals == 0 if clamp else sel_f.negative_residuals >= 0


def test_center_columns_agrees_and_keeps_its_flint_form(rng):
    m, r = 400, 6
    A64 = rng.standard_normal((m, r)) + 3.0   # a mean far from 0, as the kernel factor's first column
    A = FL.asarray(A64)
    before = [v._mpf_ for v in A.ravel()]
    (Ac_f, mu_f), (Ac_g, mu_g) = FL.center_columns(A, overwrite=True), MP.center_columns(A.copy())
    assert [v._mpf_ for v in A.ravel()] == before   # FLINT never writes A
    assert not Ac_f.flags.writeable and Ac_f.T.base is Ac_f   # kept; its transpose finds it
    # A column sum: m - 1 roundings of partial sums (<= (m - 1) u sum |a|) against one (<= u |sum|);
    # the division by m one more each: |mu_f - mu_g| <= (m + 2) u mean |a| (first order); an
    # entry a - mu: the difference of the means plus one rounding each, 2 u (|a| + |mu|).
    # Constant 2 for the second-order terms.
    mean_abs = np.mean(np.abs(A64), axis=0)
    bound_mu = 2 * (m + 2) * U * mean_abs
    assert all(abs(float(a - b)) <= t for a, b, t in zip(mu_f, mu_g, bound_mu))
    bound_c = bound_mu + 2 * 2 * U * (np.abs(A64) + np.abs(A64.mean(axis=0)))
    assert all(abs(float(a - b)) <= t for a, b, t in zip(Ac_f.ravel(), Ac_g.ravel(), bound_c.ravel()))


@pytest.mark.parametrize("name", la.precisions(native=True))
def test_center_columns_native_is_the_column_sum_formula_bit_for_bit(name, rng):
    p = la.get_precision(name)
    A = p.asarray(rng.standard_normal((50, 4)) + 1.0)
    mu = np.sum(A, axis=0) / p.scalar(50)
    Ac, mu2 = p.center_columns(A.copy())
    assert np.array_equal(mu2, mu) and np.array_equal(Ac, A - mu) and Ac.dtype == p.dtype
    B = A.copy()
    Bc, _ = p.center_columns(B, overwrite=True)
    assert Bc is B and np.array_equal(B, A - mu)


@pytest.mark.parametrize("name", ["sr-lssvm", "pcp-lssvm"])
def test_chen_zhou_fit_agrees(name, rng):
    """sr/pcp-lssvm with the selection, the centring and the products in FLINT, against the
    mpmath engine: the model's predictions agree within the sum of the two fits' bounds."""
    m = 60
    X = rng.uniform(-1, 1, size=(m, 2))
    y = np.sin(3 * X[:, 0]) + 0.1 * rng.standard_normal(m)
    kw = dict(C=10.0, sigma2=0.5, n_support=12, tau=1.0) if name == "sr-lssvm" else \
        dict(C=10.0, sigma2=0.5, n_support=12)
    fits = [la.fit(name, X, y, precision=p, **kw) for p in (FL, MP)]
    assert [f.status for f in fits] == ["ok", "ok"] and list(fits[0].support_) == list(fits[1].support_)
    assert fits[0].iterations == fits[1].iterations
    f = [fit.decision_function(X, native=True) for fit in fits]
    # First order: each engine's P is that of K + dK with ||dK|| / ||K_BB|| <= r (r + 1) u (and the
    # kernel's rounding; test_pivoted_cholesky_agrees), which moves P_B and the rows of P by
    # kappa(K_BB) times that; J (kappa_J) turns it into upsilon's relative error, alpha_B =
    # P_B^{-T} upsilon (kappa(P_B) = kappa(K_BB)^1/2) into alpha's, and f(x) = sum alpha_i k_i(x) + b
    # with |k| <= 1 into an absolute error <= that relative error times ||alpha||_1 + |b|.
    # c = 30 per fit (the conformance battery's constant), 60 for the two.
    kappa_J = fits[0].diagnostics["kappa_J"]
    kappa_B = np.linalg.cond(la.rbf_kernel(X[fits[0].support_], sigma2=0.5))
    r = len(fits[0].support_)
    size = sum(abs(float(v)) for v in fits[1].coef_) + abs(float(fits[1].bias_))
    bound = 60 * r * (r + 1) * kappa_J * kappa_B ** 1.5 * U * size
    assert _diff(f[0], f[1]) <= bound


def _rbf_cluster(rng, n):
    """An RBF kernel of n points on a line: numerically rank deficient in mp50 (about half of
    its eigenvalues below u ||K||, a cluster FLINT's QR returns nearly parallel vectors for)."""
    return la.rbf_kernel(rng.uniform(-2, 2, size=(n, 1)), sigma2=1.0, precision=FL)


@pytest.mark.parametrize("case", ["logspaced", "rbf-cluster"])
def test_eigh_agrees(rng, case):
    n = 40
    A = FL.asarray(logspaced_spd(rng, n, 1e12)) if case == "logspaced" else _rbf_cluster(rng, n)
    norm2 = np.linalg.norm(to_f64(A), 2)
    w, V = FL.eigh(A)
    assert w.dtype == object and V.dtype == object and list(w) == sorted(w)
    # Backward stability (the bounds of test_eigvalsh_agrees: c n^2 u ||A||_2 with c = 1 for the
    # QR algorithm, the Householder orthonormalisation (Higham Thm 19.4: ||dQ||_F <= n gamma_cn)
    # and the Rayleigh quotients); the residual and Gram matrix are themselves formed in mp50,
    # one rounding per entry of a length-n product: + n u ||A||_2 and + n u.
    R = FL.matmul(A, V) - V * w[None, :]
    assert np.abs(to_f64(R)).max() <= (n * n + n) * U * norm2
    G = FL.matmul(V.T, V) - FL.eye(n)
    assert np.abs(to_f64(G)).max() <= (2 * n * n + n) * U
    # the eigenvalues against mpmath's eigsy: each engine within n^2 u ||A||_2 (Weyl), together 2x
    w_g, _ = MP.eigh(A)
    assert _diff(w, w_g) <= 2 * n * n * U * norm2


def test_spectral_solve_agrees(rng):
    from lssvm_analysis.solvers.cccp_factor import factor_a
    m, C = 40, 1e6
    K = _rbf_cluster(rng, m)
    b = FL.asarray(rng.standard_normal(m))
    x_f, x_g = (factor_a(K, C, q, "eigen").solve(b) for q in (FL, MP))
    lam = np.linalg.eigvalsh(to_f64(K))
    kappa = (1 + C * lam[-1]) / (1 + C * max(lam[0], 0.0))
    # U Lambda U^T = K + dK, ||dK||_2 <= m^2 u ||K||_2 (the eigensolver, c = 1 as above), the floor
    # u lambda_max adds u ||K||_2, the two products m u ||A||_2 each (U orthonormal to m^2 u): the
    # computed x solves (A + dA) x = b with ||dA||_2 <= (m + 1)^2 u ||A||_2, so
    # ||x^ - x|| <= (m + 1)^2 u kappa_2(A) ||x|| to first order; two engines, twice that.
    assert _diff(x_f, x_g) <= 2 * (m + 1) ** 2 * U * kappa * np.abs(to_f64(x_g)).max()


def test_householder_q_is_orthonormal_whatever_the_rank(rng):
    from lssvm_analysis.arith import flint_engine as _flint, flint_factor
    m, n = 45, 30
    M64 = rng.standard_normal((m, n))
    M64[:, 7] = 0.0                                   # a zero column: its reflection is skipped
    M = FL.asarray(M64)
    M[:, 5] = M[:, 2] * FL.scalar(3)                  # an exactly dependent column
    Q = flint_factor.householder_q(_flint.to_arb_mat(M), FL.ctx.prec)
    Qo = _flint.to_objects(Q, FL.ctx)
    # Higham Thm 19.4 / Lemma 19.3: Q^ = Q + dQ, ||dQ||_F <= n gamma_cm (c = 1 here), so
    # |Q^T Q - I| <= 2 m n u, + m u for the Gram matrix's own rounding.
    assert np.abs(to_f64(FL.matmul(Qo.T, Qo) - FL.eye(n))).max() <= (2 * m * n + m) * U
    # R = Q^T (M + dM) with ||dM_j|| <= m n u ||M_j||: the strict lower part of Q^T M is that
    # rounding (+ m u max|M| for the product).
    lower = np.tril(np.abs(to_f64(FL.matmul(Qo.T, M))), -1)
    assert lower.max() <= (m * n + m) * U * np.linalg.norm(to_f64(M), axis=0).max()


def test_kept_column_sets_give_the_products_of_a_conversion(rng):
    A = FL.asarray(rng.standard_normal((30, 12)))
    v = FL.asarray(rng.standard_normal(5))
    cols = [7, 2, 9, 0, 4]
    sub = FL.keep_columns(FL.keep(A), cols)            # copied from A's FLINT form
    assert not sub.flags.writeable and np.array_equal(sub, A[:, cols])
    assert _diff(FL.matmul(sub, v), FL.matmul(A[:, cols].copy(), v)) == 0
    assert _diff(FL.matmul(sub.T, A[:, 0]), FL.matmul(A[:, cols].T.copy(), A[:, 0])) == 0
    kept = FL.keep(A)
    grown = FL.keep_columns(kept, cols, FL.keep_columns(kept, cols[:3]))   # a set grown by appending
    assert np.array_equal(grown, A[:, cols]) and _diff(FL.matmul(grown, v), FL.matmul(sub, v)) == 0
    Q = FL.zeros((30, 12))
    prev = None
    for k in (3, 7, 12):                               # a factor filled column by column
        Q[:, :k] = A[:, :k]
        prev = FL.keep_prefix(Q, k, prev)
        w = FL.asarray(rng.standard_normal(k))
        assert np.array_equal(prev, A[:, :k]) and _diff(FL.matmul(prev, w), FL.matmul(A[:, :k].copy(), w)) == 0
    for name in ("float32", "float64", "longdouble"):   # the others: plain slicing, bit for bit
        q = la.get_precision(name)
        Aq = q.asarray(to_f64(A))
        assert np.array_equal(q.keep_columns(Aq, cols), Aq[:, cols])
        pre = q.keep_prefix(Aq, 5)
        assert np.shares_memory(pre, Aq) and np.array_equal(pre, Aq[:, :5])


def test_bordered_inverse_agrees_entrywise(rng):
    n = 12
    G64 = rng.standard_normal((n, n))
    G64 = G64 @ G64.T + np.eye(n)
    inv64 = np.linalg.inv(G64[:-1, :-1])
    out = []
    for q in (FL, MP):
        inv, m2 = q.asarray(inv64), q.asarray(inv64 @ G64[:-1, -1])
        ps = q.scalar(G64[-1, -1]) - q.asarray(G64[:-1, -1]) @ m2
        out.append(bordered_inverse(q, inv, m2, ps))
        assert bordered_inverse(q, inv, q.zeros(0), ps).shape == (1, 1)   # the first column: k = 0
    # Each entry is one product, one quotient and one sum of the same mp50 inputs: within
    # 3 u (|inv| + |m2 m2^T / ps|) of the exact value in each engine, twice that between them
    # (the border entries, one quotient, are inside it).
    m2 = to_f64(MP.asarray(inv64 @ G64[:-1, -1]))
    ps = float(G64[-1, -1] - G64[:-1, -1] @ (inv64 @ G64[:-1, -1]))
    scale = np.pad(np.abs(inv64), (0, 1)) + np.abs(np.outer(np.append(m2, 1.0), np.append(m2, 1.0)) / ps)
    assert np.all(np.abs(to_f64(out[0] - out[1])) <= 2 * 3 * U * scale)
    assert not out[0].flags.writeable   # kept: the next product with it converts nothing
    # float64: the NumPy formula itself
    inv, m2, ps64 = inv64, inv64 @ G64[:-1, -1], G64[-1, -1] - G64[:-1, -1] @ (inv64 @ G64[:-1, -1])
    f64 = bordered_inverse(la.get_precision("float64"), inv, m2, ps64)
    assert np.array_equal(f64[:-1, :-1], inv + np.multiply.outer(m2, m2) / ps64)
    assert np.array_equal(f64[-1], np.append(-m2 / ps64, 1 / ps64))


def test_kept_leading_block_grows_by_its_border(rng):
    R = FL.asarray(np.triu(rng.standard_normal((10, 10))) + 3 * np.eye(10))
    b = FL.asarray(rng.standard_normal(6))
    prev = FL.keep_leading(R, 3)
    prev = FL.keep_leading(R, 6, prev)   # the 3 x 3 block reused, the border converted
    assert np.array_equal(prev, R[:6, :6]) and not prev.flags.writeable
    fresh = FL.solve_triangular(R[:6, :6].copy(), b, lower=False)
    assert _diff(FL.solve_triangular(prev, b, lower=False), fresh) == 0
    q = la.get_precision("float64")
    R64 = to_f64(R)
    assert np.shares_memory(q.keep_leading(R64, 4), R64)


@pytest.mark.parametrize("precision", ["float64", "mp50"])
def test_decision_values_of_the_same_points_are_computed_once(rng, precision, monkeypatch):
    X, y = rng.standard_normal((20, 2)), rng.standard_normal(20)
    fit = la.fit("lssvm-schur", X, y, precision=precision, C=10.0, sigma2=1.0)
    Xt = rng.standard_normal((7, 2))
    first = fit.decision_function(Xt, native=True)
    calls = []
    kernel = fit.kernel
    monkeypatch.setattr(type(kernel), "__call__", lambda self, *a, **k: calls.append(a) or 1 / 0)
    again = fit.decision_function(Xt.copy(), native=True)   # equal points: remembered
    assert calls == [] and np.array_equal(again, first) and again is not first
    again[0] = again[1]                                      # the caller's copy, not the memo
    assert np.array_equal(fit.predict(Xt), FL.to_float64(first) if precision == "mp50" else first)
    with pytest.raises(ZeroDivisionError):                   # other points: computed
        fit.decision_function(Xt[:3])


def test_householder_qr_agrees(rng):
    from lssvm_analysis.linalg.qr import householder_qr
    m, n = 70, 25
    A64 = logspaced_nonsymmetric(rng, m, 1e6)[:, :n]
    b64 = rng.standard_normal(m)
    (R_f, y_f), (R_g, y_g) = (householder_qr(q.asarray(A64), q, q.asarray(b64)) for q in (FL, MP))
    assert R_f.dtype == object and all(v == 0 for v in R_f[np.tril_indices(n, -1)])
    # Both engines run the same reflections (the same sign choice), each backward stable:
    # R^ = Q^T (A + dA), ||dA_j|| <= m n u ||A_j|| (Higham Thm 19.4, c = 1), so R and y = (Q^T b)[:n]
    # move by <= m n u kappa_2(A) ||A||_2 (resp. ||b||) to first order (Sun's perturbation bound for
    # R, constant 1 up to sqrt 2); two engines, twice that.
    kappa, norm = np.linalg.cond(A64), np.linalg.norm(A64, 2)
    assert _diff(R_f, R_g) <= 2 * m * n * U * kappa * norm
    assert _diff(y_f, y_g) <= 2 * m * n * U * kappa * np.linalg.norm(b64)
    assert householder_qr(FL.asarray(A64), FL)[1] is None


def test_krylov_space_agrees(rng):
    """The Krylov space of CG (linalg.cg._krylov_space): FLINT's vectors and scalars against the mpmath engine's arrays, operation
    by operation (the ones CG uses), each within its rounding bound."""
    n = 40
    A64, V64 = rng.standard_normal((n, n)), rng.standard_normal((n, 2))
    A = FL.asarray(A64)
    spaces = [_krylov_space(q, A) for q in (FL, MP)]
    out = []
    for q, S in zip((FL, MP), spaces):
        with S.context():
            v, w = S.vector(q.asarray(V64[:, 0])), S.vector(q.asarray(V64[:, 1]))
            Av, Aw = S.apply([v, w])
            lam = (v @ w) / S.scalar(3)
            z = v + lam * Aw - w
            out.append((S.array(Av), S.array(Aw), float(v @ w), S.array(z), float(-(z @ z) / 2)))
    absA = np.abs(A64) @ np.abs(V64)
    # products: each entry a dot product of length n, within gamma_n |A||v| (gamma_n <= 1.01 n u)
    # in each engine, so 2 gamma_n between them
    for j in range(2):
        assert np.all(np.abs(to_f64(out[0][j] - out[1][j])) <= 2 * 1.01 * n * U * absA[:, j])
    # the dot product v.w: within gamma_n |v|.|w| each, 2 gamma_n between them
    vw = np.abs(V64[:, 0]) @ np.abs(V64[:, 1])
    assert abs(out[0][2] - out[1][2]) <= 2 * 1.01 * n * U * vw
    # z = v + lam Aw - w: lam within (2 gamma_n + u) relative, each entry then a few roundings more:
    # |dz| <= (|lam Aw| (2 gamma_n + 4 u) + 3 u (|v| + |w|)) per engine, twice that between them
    Aw_abs = np.abs(to_f64(out[1][1]))
    lam = abs(out[1][2]) / 3
    zb = (lam * Aw_abs * (2 * 1.01 * n + 4) + 3 * (np.abs(V64[:, 0]) + np.abs(V64[:, 1]))) * U
    assert np.all(np.abs(to_f64(out[0][3] - out[1][3])) <= 2 * zb + 2 * 1.01 * n * U * lam * np.abs(A64) @ np.abs(V64[:, 1]))
    # hardware and NumPy-loop precisions: the arrays themselves and A @ V (bit for bit)
    for name in ("float32", "float64", "longdouble"):
        q = la.get_precision(name)
        Aq, Vq = q.asarray(A64), q.asarray(V64)
        S = _krylov_space(q, Aq)
        v = S.vector(Vq[:, 0])
        assert isinstance(v, np.ndarray) and v.dtype == q.dtype
        assert all(np.array_equal(a, b) for a, b in zip(S.apply([Vq[:, 0], Vq[:, 1]]), (Aq @ Vq).T))


def test_simultaneous_cg_agrees(rng):
    """simultaneous_cg runs in the FLINT Krylov space for mp50; against the mpmath engine's arrays
    within the bound of test_cg_agrees, system by system."""
    n, cond = 40, 10.0
    A64 = logspaced_spd(rng, n, cond)
    B64 = rng.standard_normal((n, 2))
    runs = [simultaneous_cg(q.asarray(A64), q.asarray(B64), precision=q, vtol=0) for q in (FL, MP)]
    kappa = np.linalg.cond(A64)
    for j in range(2):
        assert all(r[j].converged and r[j].reason == "residual" for r in runs)
        x = np.linalg.solve(A64, B64[:, j])
        i = max(r[j].iterations for r in runs)
        # as test_cg_agrees: kappa (100 + 2 i (n + 4)) u ||x|| per engine, twice that between them
        bound = 2 * kappa * (100 + 2 * i * (n + 4)) * U * np.linalg.norm(x)
        assert _diff(runs[0][j].x, runs[1][j].x) <= bound
        assert runs[0][j].x.dtype == object and isinstance(runs[0][j].x[0], FL.ctx.mpf)


def test_rank_one_sum_agrees(rng):
    """Precision.rank_one_sum: m rank-one updates in row order.  Each entry of the result is a
    sequential sum of m products, so it is within gamma_{m+1} sum_i |h_ik h_il| of the exact
    sum in each engine (Higham eq. 3.5 with one product per term; gamma_k <= 1.01 k u), twice
    that between FLINT and the mpmath engine."""
    m, n = 30, 12
    H64 = rng.standard_normal((m, n))
    got, ref = FL.rank_one_sum(FL.asarray(H64)), MP.rank_one_sum(MP.asarray(H64))
    assert got.shape == (n, n) and isinstance(got[0, 0], FL.ctx.mpf)
    bound = 2 * 1.01 * (m + 1) * U * (np.abs(H64).T @ np.abs(H64))
    assert np.all(np.abs(to_f64(got - ref)) <= bound)
    # the other precisions: the loop A += outer(h, h) from A = 0 itself, bit for bit
    for name in ("float32", "float64", "longdouble"):
        q = la.get_precision(name)
        Hq = q.asarray(H64)
        A = q.zeros((n, n))
        for h in Hq:
            A += np.outer(h, h)
        assert np.array_equal(q.rank_one_sum(Hq), A)


def test_column_sumsq_agrees(rng):
    """Precision.column_sumsq: each entry sum_i K_ij^2 of m squares, within gamma_{m+1} sum_i K_ij^2
    in each engine (a square and a sum of m terms, Higham eq. 3.5; gamma_k <= 1.01 k u), twice
    that between FLINT and the mpmath engine."""
    m, n = 30, 12
    K64 = rng.standard_normal((m, n))
    got, ref = FL.column_sumsq(FL.asarray(K64)), MP.column_sumsq(MP.asarray(K64))
    assert got.shape == (n,) and isinstance(got[0], FL.ctx.mpf)
    assert np.all(np.abs(to_f64(got - ref)) <= 2 * 1.01 * (m + 1) * U * (K64 ** 2).sum(axis=0))
