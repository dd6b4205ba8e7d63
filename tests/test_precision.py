"""Accuracy gates of every registered precision: LAPACK's test ratios of its primitives, measured exactly.

Every residual is computed exactly (FLINT rationals, see ``conftest.Exact``) from
the numbers the precision produced, so the measurement adds no error to the
ratio it reports.  Ratios follow LAPACK's test programs and pass below its
threshold 30 (``LAPACK_THRESHOLD``):

* dpot01: ||L L^T - A||_1 / (n ||A||_1 u)
* dpot02 / dtrt02: ||b - A x||_1 / (||A||_1 ||x||_1 u)

``A`` is always the matrix in the tested precision (for float32, float64 data
rounded to float32: that rounding belongs to float32's backward error).
"""
from __future__ import annotations

import pickle

import flint
import numpy as np
import pytest
from conftest import LAPACK_THRESHOLD, U64

import lssvm_analysis as la
from lssvm_analysis.core.exceptions import CholeskyBreakdownError, UnknownPrecisionError

__all__: list[str] = []


def _demmel_kappa(n, u):
    """Largest kappa for which Cholesky provably succeeds, with a factor 2 to spare.

    Demmel (Higham 2002, Thm 10.7): Cholesky runs to completion if
    n^{3/2} gamma_{n+1} kappa_2(H) < 1, H = D^{-1/2} A D^{-1/2}.  Our matrices have a
    constant diagonal, so kappa_2(H) = kappa_2(A).  Capped at 1e10, the largest
    condition the fixture certifies to 1 % for n <= 120.
    """
    return min(1e10, 0.5 * (1 - (n + 1) * u) / (n ** 1.5 * (n + 1) * u))


def _chol_ratio(exact, L, A, u):
    n = A.shape[0]
    Lq, Aq = exact.mat(L), exact.mat(A)
    return exact.to_float(exact.norm1(Lq * Lq.transpose() - Aq) / exact.norm1(Aq)) / (n * u)


def _solve_ratio(exact, A, x, b, u):
    Aq, xq = exact.mat(A), exact.mat(x)
    r = exact.norm1(exact.mat(b) - Aq * xq)
    return exact.to_float(r / (exact.norm1(Aq) * exact.norm1(xq))) / u


# -- the registry -------------------------------------------------------------

def test_registry_names_and_unit_roundoffs():
    names = la.precisions()
    assert {"float32", "float64", "longdouble", "mp50"} <= set(names)
    expected = {"float32": 2.0 ** -24, "float64": 2.0 ** -53,
                "longdouble": float(np.finfo(np.longdouble).eps) / 2}
    for name in names:
        p = la.get_precision(name)
        assert p.name == name and la.get_precision(p) is p and la.get_precision(name) is p
        assert pickle.loads(pickle.dumps(p)) is p
        if name in expected:
            assert p.unit_roundoff == expected[name] and p.dtype == np.dtype(name)
    mp = la.get_precision("mp30")
    assert mp.unit_roundoff == 2.0 ** -mp.ctx.prec and mp.ctx.prec >= 30 * np.log2(10)
    assert mp.dtype == np.dtype(object)


@pytest.mark.parametrize("name", ["float16", "mp4", "mp", "MP50", "mp50x", "", "double"])
def test_unknown_precision_name(name):
    with pytest.raises(UnknownPrecisionError, match=f"got precision={name!r}") as info:
        la.get_precision(name)
    assert isinstance(info.value, ValueError)


@pytest.mark.parametrize("value", [3, None, 1.5])
def test_precision_not_a_name(value):
    with pytest.raises(UnknownPrecisionError, match=f"got precision={value!r}"):
        la.get_precision(value)


def test_asarray_is_exact_from_float64(precision, rng):
    a = rng.standard_normal((5, 4)) * 10.0 ** rng.integers(-30, 30, (5, 4))
    back = precision.to_float64(precision.asarray(a))
    if precision.name == "float32":  # the one rounding conversion: round to nearest
        np.testing.assert_array_equal(back, a.astype(np.float32).astype(np.float64))
    else:
        np.testing.assert_array_equal(back, a)


# -- LAPACK-style backward-error ratios ---------------------------------------

@pytest.mark.parametrize("regime", ["kappa=10", "kappa=demmel"])
def test_cholesky_backward_error_ratio(precision, regime, rbf_system, n_for, exact):
    p = precision
    n = n_for(p, 120, 40)
    kappa = 10.0 if regime == "kappa=10" else _demmel_kappa(n, p.unit_roundoff)
    A = p.asarray(rbf_system(n, kappa).A)
    L = p.cholesky(A)
    ratio = _chol_ratio(exact, L, A, p.unit_roundoff)
    assert ratio < LAPACK_THRESHOLD, f"dpot01 ratio {ratio:.3g} (kappa={kappa:.3g})"


def test_solve_backward_error_ratios(precision, rbf_system, n_for, exact, rng):
    """cho_solve, LU solve and both triangular solves, each with dpot02/dtrt02's ratio < 30."""
    p = precision
    n = n_for(p, 120, 40)
    A = p.asarray(rbf_system(n, _demmel_kappa(n, p.unit_roundoff)).A)
    b = p.asarray(rng.standard_normal(n))
    L = p.cholesky(A)
    ratios = {"cho_solve": _solve_ratio(exact, A, p.cho_solve(L, b), b, p.unit_roundoff),
              "solve (LU)": _solve_ratio(exact, A, p.solve(A, b), b, p.unit_roundoff)}
    for trans in (False, True):
        op = L.T if trans else L
        y = p.solve_triangular(L, b, lower=True, trans=trans)
        ratios[f"solve_triangular(trans={trans})"] = _solve_ratio(exact, op, y, b, p.unit_roundoff)
    assert max(ratios.values()) < LAPACK_THRESHOLD, ratios


# -- every primitive keeps its dtype --------------------------------------------

def _assert_native(p, arr, what):
    assert isinstance(arr, np.ndarray) and arr.dtype == p.dtype, (what, getattr(arr, "dtype", type(arr)))
    if p.dtype == object:  # mpf numbers of this precision's own context
        bad = [v for v in arr.flat if not isinstance(v, p.ctx.mpf) or v.context is not p.ctx]
        assert not bad, (what, type(bad[0]))


def test_every_primitive_keeps_the_dtype(precision, rng):
    p = precision
    n = 6
    X = rng.uniform(size=(n, 2))
    A = la.rbf_kernel(X, sigma2=0.5) + np.eye(n)
    b = rng.standard_normal(n)
    L = p.cholesky(A)
    outputs = {
        "asarray": p.asarray(A), "zeros": p.zeros((2, 3)), "eye": p.eye(3),
        "scalar": np.array([p.scalar(0.1)], dtype=p.dtype), "cholesky": L,
        "cholesky(native input)": p.cholesky(p.asarray(A)),
        "solve_triangular": p.solve_triangular(L, b),
        "solve_triangular(trans, 2-D)": p.solve_triangular(L, np.c_[b, b], trans=True),
        "solve_triangular(float64 factor)": p.solve_triangular(p.to_float64(L), b),
        "cho_solve": p.cho_solve(L, b), "cho_solve(2-D)": p.cho_solve(L, np.c_[b, b]),
        "solve": p.solve(A, b), "solve(native)": p.solve(p.asarray(A), p.asarray(b)),
        "eigvalsh": p.eigvalsh(A), "exp": p.exp(-A), "sqrt": p.sqrt(A),
        "rbf_kernel": la.rbf_kernel(X, sigma2=0.5, precision=p),
        "rbf_kernel(X, Z)": la.rbf_kernel(X, X[:2], sigma2=0.5, precision=p.name),
        "linear_kernel": la.linear_kernel(X, precision=p),
        "poly_kernel": la.poly_kernel(X, degree=2, precision=p),
        "Kernel": la.make_kernel("rbf", sigma2=2.0)(X, precision=p),
    }
    for what, arr in outputs.items():
        _assert_native(p, arr, what)
    if p.dtype == object:
        assert isinstance(p.scalar(0.1), p.ctx.mpf)
    else:
        assert type(p.scalar(0.1)) is p.dtype.type


# -- Cholesky breakdown records ------------------------------------------------

def _dyadic_factor(rng, n):
    """L = D + N: D = diag(1, 2 or 4), N strictly lower in {-1, 0, 1}."""
    L = np.tril(rng.integers(-1, 2, (n, n)), -1).astype(float)
    np.fill_diagonal(L, 2.0 ** rng.integers(0, 3, n))
    return L


def _steps(rng, n):
    return {"first": 0, "second": 1, "inner": int(rng.integers(2, n - 1)), "last": n - 1}


@pytest.mark.parametrize("where", ["first", "second", "inner", "last"])
@pytest.mark.parametrize("target", [0.0, -1.0])
def test_breakdown_step_and_pivot_exact(precision, where, target, rng, n_for):
    """A = L L^T with a dyadic L, a_kk lowered so that the pivot at k is exactly `target`.

    Every quantity Cholesky forms here (sums of products of small integers,
    division by 1, 2 or 4, square roots of 1, 4 or 16) is representable in
    each precision (|a_ij| < 2^9 << 2^24), whatever the evaluation order or
    blocking, so each precision computes the exact pivot: it must report step
    k and the pivot exactly, including a pivot of exactly zero.
    """
    p = precision
    n = n_for(p, 150, 40)  # 150 > OpenBLAS's unblocked potf2 size: the blocked path runs
    L = _dyadic_factor(rng, n)
    k = _steps(rng, n)[where]
    A = L @ L.T
    A[k, k] -= L[k, k] ** 2 - target
    with pytest.raises(CholeskyBreakdownError) as info:
        p.cholesky(A)
    rec = info.value.record
    assert (rec.step, rec.pivot, rec.n, rec.precision) == (k, target, n, p.name)
    assert isinstance(info.value, np.linalg.LinAlgError)


@pytest.mark.parametrize("where", ["first", "second", "inner", "last"])
def test_breakdown_pivot_matches_exact_schur_complement(precision, where, rng, n_for, exact):
    """Random real L; the exact pivot d = a_kk - a_k^T A_11^{-1} a_k < 0 is computed in rationals.

    Bound (``Exact.pivot_bound``): |d^ - d| <= gamma_{k+1} (|| |L'|^T |v| ||^2 + |d|),
    v = [-A_11^{-1} a_k; 1] — Higham's Thm 10.3 backward error of the partial
    factor, propagated to the Schur complement (c = 1, first order); it is
    <= gamma_{k+1} ||A||_2 (1 + ||v||)^2 n-type, i.e. c n u ||A||.  The record
    stores the pivot as a float64, which adds u64 |d|.  For LAPACK precisions
    the pivot is recovered from potrf's info and partial factor by one
    triangular solve and one dot product, covered by the same gamma_{k+1}.
    """
    p = precision
    n = n_for(p, 150, 40)
    k = _steps(rng, n)[where]
    L = np.tril(rng.uniform(-1, 1, (n, n)), -1) / np.sqrt(n)
    np.fill_diagonal(L, rng.uniform(1, 2, n))
    A = L @ L.T
    A = np.tril(A) + np.tril(A, -1).T  # exactly symmetric
    A[k, k] -= L[k, k] ** 2 * rng.uniform(1.1, 2.0)  # exact pivot ~ -(0.1 .. 1) l_kk^2
    with pytest.raises(CholeskyBreakdownError) as info:
        p.cholesky(A)
    rec = info.value.record
    Aq = exact.mat(p.asarray(A))
    d, w = exact.schur(Aq, list(range(k)), k)
    d_float = exact.to_float(d)
    bound = exact.pivot_bound(L[:k + 1, :k], w, d_float, p.unit_roundoff) + U64 * abs(d_float)
    err = exact.to_float(abs(exact.q(rec.pivot) - d))
    assert rec.step == k and d_float < 0
    assert err <= bound, f"|pivot - d| = {err:.3g} > bound {bound:.3g} (d = {d_float:.6g})"


def test_float32_breaks_down_where_float64_factors(rbf_system, exact):
    """RBF + I/C with kappa = 1e10, n = 60: lambda_min(A) = ||A||/1e10, far below u32 ||A||.

    float64 (and every finer precision) must factor it: Demmel's condition
    n^{3/2} gamma_{n+1} kappa = 465 * 61 * 1.1e-16 * 1e10 = 0.03 < 1.
    float32 cannot: rounding A to float32 alone moves eigenvalues by up to
    u32 ||A|| = 6e-8 ||A||, and K has numerical rank ~30, so ~30 eigenvalues of
    A sit at lambda_min; fl32(A) is indefinite (asserted: its lambda_min is
    below -1e-9 ||A||, measured -3e-9 .. -5e-9 over 300 seeds, certified
    against the 60 n u64 ||A|| = 4e-13 ||A|| error of the eigensolver).
    """
    s = rbf_system(60, 1e10)
    A32 = s.A.astype(np.float32)
    lam = np.linalg.eigvalsh(A32.astype(np.float64))
    assert lam[0] < -1e-9 * lam[-1] and 60 * 60 * U64 * lam[-1] < 1e-9 * lam[-1]
    with pytest.raises(CholeskyBreakdownError) as info:
        la.get_precision("float32").cholesky(s.A)
    rec = info.value.record
    assert rec.precision == "float32" and rec.n == 60 and 0 < rec.step < 60 and rec.pivot <= 0
    for name in la.precisions():
        if name != "float32":
            p = la.get_precision(name)
            L = p.cholesky(s.A)
            assert _chol_ratio(exact, L, p.asarray(s.A), p.unit_roundoff) < LAPACK_THRESHOLD


# -- bad input -------------------------------------------------------------------

def _bad_matrices():
    sym_inf = np.eye(3)
    sym_inf[0, 2] = sym_inf[2, 0] = np.inf
    diag_inf = np.eye(3)
    diag_inf[1, 1] = np.inf
    nan = np.eye(3)
    nan[1, 1] = np.nan
    return {
        "non-square": (np.ones((3, 4)), ValueError, r"square matrix for A, got A\.shape=\(3, 4\)"),
        "1-D": (np.ones(3), ValueError, r"2-D array for A, got A\.shape=\(3,\)"),
        "empty": (np.empty((0, 0)), ValueError, r"non-empty array for A, got A\.shape=\(0, 0\)"),
        "NaN": (nan, ValueError, r"finite values in A, got NaN or inf"),
        "symmetric inf": (sym_inf, ValueError, r"finite values in A, got NaN or inf"),
        "inf on the diagonal": (diag_inf, ValueError, r"finite values in A, got NaN or inf"),
        "complex": (np.eye(3) + 0j, TypeError, r"for A, got dtype=complex128"),
        "strings": (np.array([["1", "0"], ["0", "1"]]), TypeError, r"for A, got dtype=<U1"),
        "object strings": (np.array([["a", 0.0], [0.0, "a"]], dtype=object), TypeError,
                           r"real numbers in A, got a non-real entry in A"),
        "object complex": (np.array([[1j, 0.0], [0.0, 1.0]], dtype=object), TypeError,
                           r"real numbers in A, got a non-real entry in A"),
    }


BAD = _bad_matrices()


@pytest.mark.parametrize("case", list(BAD))
@pytest.mark.parametrize("method", ["cholesky", "eigvalsh", "solve"])
@pytest.mark.filterwarnings("ignore:invalid value encountered:RuntimeWarning")  # mp converts NaN
def test_bad_matrix_gets_a_named_typed_error(precision, method, case):
    A, error, message = BAD[case]
    call = {"cholesky": lambda: precision.cholesky(A), "eigvalsh": lambda: precision.eigvalsh(A),
            "solve": lambda: precision.solve(A, np.ones(A.shape[0]))}[method]
    with pytest.raises(error, match=message):
        call()


@pytest.mark.parametrize("method", ["cholesky", "eigvalsh"])
def test_non_symmetric_matrix_is_rejected(precision, method):
    """Asymmetry 1e-3 max|A| is far above the tolerance n u max|A| (n = 2, u <= 6e-8)."""
    A = np.array([[2.0, 1.0], [1.0 + 2e-3, 2.0]])
    with pytest.raises(ValueError, match=r"expected a symmetric matrix for A .*got \|A\[1, 0\] - "
                                         r"A\[0, 1\]\| = 0.002 for A.shape=\(2, 2\)"):
        getattr(precision, method)(A)


@pytest.mark.parametrize("n", [2, 80, 700])
def test_cholesky_reads_the_lower_triangle_of_a_matrix_symmetric_to_rounding(precision, n, rng):
    """LAPACK's convention: within the tolerance n u max|A| the factor is the one of tril(A) mirrored.

    A is symmetric but for one entry of its upper triangle moved by 0.5 n u max|A| (u of float64,
    the format of A): accepted, and L equals bit for bit the factor of the mirrored lower triangle,
    in either memory order (a C-ordered A symmetric only to the tolerance is copied to Fortran
    order, so LAPACK's uplo='L' reads its lower triangle; an exactly symmetric one is read as A.T).  Twice
    the tolerance is refused (for float64; float32's u makes the same matrix acceptable).
    """
    if n == 700 and not precision.hardware:
        pytest.skip("generic O(n^3) loops: n = 80 covers them")
    X = rng.uniform(-1, 1, (n, 3))
    S = np.asarray(la.rbf_kernel(X, sigma2=2.0)) + np.eye(n)
    tol = n * 2.0 ** -53 * np.abs(S).max()
    A = S.copy()
    A[0, n - 1] += 0.5 * tol
    L = precision.cholesky(S)
    for order in (np.ascontiguousarray, np.asfortranarray):
        assert np.array_equal(precision.cholesky(order(A)), L)
    A[0, n - 1] = S[0, n - 1] + 2 * tol
    if precision.name == "float64":
        with pytest.raises(ValueError, match=rf"expected a symmetric matrix for A .*A.shape=\({n}, {n}\)"):
            precision.cholesky(A)


@pytest.mark.parametrize("b, error, message", [
    (np.ones(4), ValueError, r"expected b of shape \(3,\) or \(3, k\), got b\.shape=\(4,\)"),
    (np.ones((3, 2, 1)), ValueError, r"got b\.shape=\(3, 2, 1\)"),
    (np.array([1.0, np.nan, 1.0]), ValueError, r"finite values in b, got NaN or inf"),
    (np.ones(3) + 0j, TypeError, r"for b, got dtype=complex128"),
], ids=["length", "3-D", "NaN", "complex"])
@pytest.mark.filterwarnings("ignore:invalid value encountered:RuntimeWarning")  # mp converts NaN
def test_bad_right_hand_side_gets_a_named_typed_error(precision, b, error, message):
    with pytest.raises(error, match=message):
        precision.solve(np.eye(3) * 2, b)


def test_inputs_are_never_modified(precision, rng):
    p = precision
    n = 8
    X = rng.uniform(size=(n, 2))
    inputs = {"A64": la.rbf_kernel(X) + np.eye(n), "b64": rng.standard_normal(n)}
    inputs["A"] = p.asarray(inputs["A64"])  # already native: asarray passes it through
    inputs["b"] = p.asarray(inputs["b64"])
    inputs["L"] = p.cholesky(inputs["A"])
    saved = {k: v.copy() for k, v in inputs.items()}
    A, b, L = inputs["A"], inputs["b"], inputs["L"]
    outputs = [p.cholesky(A), p.cholesky(inputs["A64"]), p.eigvalsh(A), p.solve(A, b),
               p.solve(inputs["A64"], inputs["b64"]), p.cho_solve(L, b),
               p.solve_triangular(L, b), p.solve_triangular(L, b, trans=True),
               p.exp(A), p.sqrt(A)]
    for name, value in inputs.items():
        assert np.array_equal(value, saved[name]), f"{name} was modified"
        for out in outputs:
            assert not np.shares_memory(out, value), f"an output shares memory with {name}"


# -- eigenvalues -------------------------------------------------------------------

def test_eigvalsh_matches_certified_eigenvalues(precision, rbf_system, exact):
    """|lambda^_i - lambda_i| <= 60 n u ||A||_2 against FLINT's certified enclosures.

    c = 60: LAPACK's eigensolver test (dsyt21) accepts ||A - U L U^T|| / (n ||A|| ulp)
    < 30 with ulp = 2u, and Weyl's theorem turns that backward error into the
    eigenvalue error.  longdouble runs mpmath at 21 digits (u = 2^-73) and
    rounds to 2^-64; mp runs mpmath's eigsy in its own context.  The
    reference works at 2 t + 64 bits for a t-bit precision.
    """
    p = precision
    n = 40
    A = p.asarray(rbf_system(n, 1e6).A)
    computed = p.eigvalsh(A)
    bits = 2 * int(-np.log2(p.unit_roundoff)) + 64
    ref = exact.eigvalsh(A, bits=bits)
    norm2 = exact.to_float(max(abs(v) for v in ref))
    errors = [exact.to_float(abs(exact.q(c) - r)) for c, r in zip(computed, ref)]
    bound = 60 * n * p.unit_roundoff * norm2
    assert max(errors) <= bound, f"max error {max(errors):.3g} > {bound:.3g}"


def test_eigh_decomposes_and_matches_eigvalsh(precision, rbf_system, exact):
    """``eigh``: eigenvalues within the bound of ``eigvalsh``'s test, and ||A U - U diag(w)||
    <= 60 n u ||A||_2 (the same dsyt21 ratio, c = 60: 30 with ulp = 2u), U orthonormal to
    60 n u; checked in exact rationals so that measuring adds no error."""
    p = precision
    n = 12
    A = p.asarray(rbf_system(n, 1e4).A)
    w, U = p.eigh(A)
    assert w.dtype == p.dtype and U.dtype == p.dtype and U.shape == (n, n)
    assert all(a <= b for a, b in zip(w[:-1], w[1:]))  # ascending
    ref = exact.eigvalsh(A, bits=2 * int(-np.log2(p.unit_roundoff)) + 64)
    norm2 = exact.to_float(max(abs(v) for v in ref))
    bound = 60 * n * p.unit_roundoff * norm2
    assert max(exact.to_float(abs(exact.q(c) - r)) for c, r in zip(w, ref)) <= bound
    Aq, Uq = exact.mat(A), exact.mat(U)
    W = flint.fmpq_mat(n, n, [exact.q(w[i]) if i == j else 0 for i in range(n) for j in range(n)])
    I = flint.fmpq_mat(n, n, [int(i == j) for i in range(n) for j in range(n)])

    def max_abs(M):
        return exact.to_float(max(abs(x) for row in exact.entries(M) for x in row))

    assert max_abs(Aq * Uq - Uq * W) <= bound
    assert max_abs(Uq.transpose() * Uq - I) <= 60 * n * p.unit_roundoff


def test_eigh_without_check_is_the_same_decomposition(precision, rbf_system):
    p = precision
    A = p.asarray(rbf_system(8, 1e3).A)
    for a, b in zip(p.eigh(A), p.eigh(A, check=False)):
        assert np.array_equal(a, b)


# -- the primitives the callers used to choose between by dtype ---------------------

def test_native_and_hardware_are_registry_queries():
    assert la.precisions(native=True) == [n for n in la.precisions() if la.get_precision(n).native]
    assert set(la.precisions(hardware=True)) <= set(la.precisions(native=True))
    assert not any(la.get_precision(n).native for n in la.precisions(native=False))
    assert set(la.precisions(native=True)) | set(la.precisions(native=False)) == set(la.precisions())


def test_expit_is_accurate_and_does_not_overflow(precision):
    """|expit_p(z) - expit(z)| <= 8 (u_p + u64) expit(z) at the rounded z: exp and two roundings
    (c = 8 covers scipy's expit, a few u, and the float64 reference's own u64)."""
    import scipy.special

    p = precision
    z = np.array([-800.0, -40.0, -3.5, -1e-3, 0.0, 1e-3, 2.0, 35.0, 800.0])
    zp = p.asarray(z)
    got = p.to_float64(p.expit(zp))
    ref = scipy.special.expit(p.to_float64(zp))
    assert np.isfinite(got).all()
    assert np.all(np.abs(got - ref) <= 8 * (p.unit_roundoff + U64) * ref)


def test_masks_and_column_sums_of_squares(precision, rng):
    p = precision
    a = p.asarray(np.array([0.0, -2.0, np.inf, 0.0, 1e-30, -np.inf]))
    assert p.nonzero(a).tolist() == [False, True, True, False, True, True]
    assert p.isinf(a).tolist() == [False, False, True, False, False, True]
    assert p.nonzero(p.zeros((2, 3))).shape == (2, 3)
    K64 = rng.normal(size=(7, 4))
    K = p.asarray(K64)
    s = p.column_sumsq(K)
    assert s.dtype == p.dtype and s.shape == (4,)
    # a sum of 7 non-negative products: relative error <= (7 + 1) u_p (Higham (3.4)), plus the
    # rounding of K's entries where asarray is inexact (float32: 2 u32 per square) and the
    # float64 reference's own 8 u64
    ref = (K64 * K64).sum(axis=0)
    conversion = 2 * p.unit_roundoff if p.unit_roundoff > U64 else 0.0
    tol = (8 * p.unit_roundoff + conversion + 8 * U64) * ref
    assert np.all(np.abs(p.to_float64(s) - ref) <= tol)


def test_precision_asks_engines_by_capability_only():
    """The precision names no algorithm of a higher floor (issue 30): no engine hook is left on the
    base class; an algorithm with a FLINT engine asks ``p.engine`` and keeps the engine beside it."""
    from lssvm_analysis.arith import flint_engine
    from lssvm_analysis.arith.precision import FlintPrecision, MPPrecision

    for hook in ("krylov", "panel", "bordered_inverse", "householder_engine", "rbf_kernel_exact",
                 "pivoted_rbf", "qr_engine", "mrsr_engine", "press_engine"):
        assert not hasattr(la.Precision, hook), hook
    engines = {name: la.get_precision(name).engine for name in la.precisions()}
    assert engines["float32"] == engines["float64"] == "lapack" and engines["longdouble"] == "numpy"
    mp = la.get_precision("mp50")
    assert mp.engine == ("flint" if flint_engine.AVAILABLE else "mpmath")
    assert isinstance(mp, FlintPrecision) == flint_engine.AVAILABLE and isinstance(mp, MPPrecision)
    ref = MPPrecision(50, engine="mpmath")
    assert type(ref) is MPPrecision and ref.engine == "mpmath"
    assert pickle.loads(pickle.dumps(ref)).engine == "mpmath"
    with pytest.raises(ValueError, match="got engine='gmp'"):
        MPPrecision(50, engine="gmp")
