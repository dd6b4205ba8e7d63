"""Certified reference solutions and the error measures.

* Honesty: the digits and the error bound ``reference_solve`` claims hold
  against the *exact* rational solution (FLINT ``fmpq_mat.solve`` on the
  exact entries, conftest ``Exact``), for SPD RBF matrices and an indefinite
  KKT matrix at several conditions, for every input precision, and on the
  arb fallback (kappa >= 1e16).
* Forward error gate: every registered precision's Cholesky and LU solves are
  within 30 kappa_inf u of the reference (LAPACK's test threshold).
* The error measures are exact on hand-checkable systems; bad input raises
  typed errors naming the argument; inputs are never modified.
"""
from __future__ import annotations

import math
import pickle

import flint
import numpy as np
import pytest
from conftest import Exact, LAPACK_THRESHOLD, U64, logspaced_spd

import lssvm_analysis as la
from lssvm_analysis.analysis import measures as errors
from lssvm_analysis.exact import inverse_bounds as ib
from lssvm_analysis.analysis import reference as refmod
from lssvm_analysis.exact.arb import exact_system
from lssvm_analysis.exact.ozaki import slice_bits, split_rows
from lssvm_analysis.analysis.measures import (ErrorReport, backward_error, correct_digits,
                                              forward_error, kkt_residual)
from lssvm_analysis.core.exceptions import ReferenceAccuracyError
from lssvm_analysis.analysis.reference import ReferenceSolution, condition_number, reference_solve
from lssvm_analysis.core.records import ReadOnlyDict


# -- helpers -------------------------------------------------------------------

def _kkt(H):
    """Suykens (3.32): [[0, 1^T], [1, H]] with H = Omega + I/gamma, in H's dtype
    (an object H gets Python ints 0 and 1 in the border, which are exact)."""
    n = H.shape[0]
    A = np.zeros((n + 1, n + 1), dtype=H.dtype)
    A[0, 1:] = A[1:, 0] = 1
    A[1:, 1:] = H
    return A


_assert_honest = Exact.assert_certified


def _rbf_1d_mp(rng, n, p, shift_ratio):
    """RBF matrix of n points in [0, 1] (1-D, sigma2 = 1) in precision p, plus t I, t = lambda_max * ratio.

    In 1-D the Gaussian kernel's eigenvalues decay like 1/k! (Fornberg), so
    lambda_min(K) ~ 1e-47 for n = 40, far below t: kappa ~ 1/ratio.
    """
    X = rng.uniform(size=(n, 1))
    with p.context():
        K = la.rbf_kernel(X, sigma2=1.0, precision=p)
        t = p.scalar(float(np.linalg.eigvalsh(p.to_float64(K))[-1]) * shift_ratio)
        return K + p.eye(n) * t


# -- honesty -------------------------------------------------------------------

@pytest.mark.parametrize("kappa", [1e2, 1e6, 1e12])
def test_reference_honest_spd(rbf_system, rng, kappa):
    S = rbf_system(40, kappa)
    b = rng.standard_normal(40)
    ref = reference_solve(S.A, b, digits=30)
    assert ref.digits >= 30
    _assert_honest(ref, S.A, b)
    # kappa_2 <= kappa_inf for a symmetric matrix (||M||_2 <= sqrt(||M||_1 ||M||_inf)); the
    # estimate is an upper bound on kappa_inf up to the rounding of ||A||_inf (<= n u).
    assert ref.cond_estimate >= S.kappa * (1 - S.kappa_rtol) * (1 - 40 * U64)


@pytest.mark.parametrize("kappa", [1e4, 1e10])
def test_reference_honest_kkt(rbf_system, rng, kappa):
    S = rbf_system(40, kappa)
    A = _kkt(S.A)
    rhs = np.r_[0.0, rng.standard_normal(40)]
    # inertia (N, 0, 1) (Haynsworth: In(KKT) = In(H) + In(-1^T H^-1 1)), certified
    ev = Exact.eigvalsh(A, bits=128)
    assert sum(1 for v in ev if v < 0) == 1
    ref = reference_solve(A, rhs, digits=30)
    assert ref.digits >= 30 and ref.factorization in ("lu", None)
    _assert_honest(ref, A, rhs)


def test_reference_honest_fallback_beyond_float64(rng):
    """kappa >= 1e16 (certified): float64 cannot certify, the arb-inverse route does."""
    p = la.get_precision("mp50")
    A = _rbf_1d_mp(rng, 40, p, 1e-18)
    # certified kappa_2 lower bound, exact rationals (the clustered small eigenvalues
    # defeat eigenvalue isolation): lambda_max >= 1^T A 1 / n and, for every i,
    # 1 / lambda_min = ||A^-1||_2 >= (A^-1)_ii
    M = Exact.mat(A)
    inv = M.solve(Exact.mat(np.eye(40)))
    lam_max_lower = sum(M[i, j] for i in range(40) for j in range(40)) / 40
    assert lam_max_lower * max(inv[i, i] for i in range(40)) >= 10 ** 16
    b = p.asarray(rng.standard_normal(40))
    for digits in (30, 60):
        ref = reference_solve(A, b, digits=digits)
        assert ref.method.startswith("arb-solve-") and ref.certificate == "arb-inverse"
        assert ref.digits >= digits
        _assert_honest(ref, A, b)


@pytest.mark.parametrize("name", ["float32", "float64", "longdouble", "mp50"])
def test_reference_honest_every_input_precision(rbf_system, rng, name):
    """Entries beyond float64 (A/3 in longdouble or mp50) are taken exactly; k = 3 columns."""
    p = la.get_precision(name)
    S = rbf_system(30, 1e6)
    with p.context():
        A = p.asarray(S.A) / p.scalar(3)
        B = p.asarray(rng.standard_normal((30, 3))) / p.scalar(7)
    B[:, 1] = p.zeros(30)  # a zero column: x_1 = 0 exactly
    ref = reference_solve(A, B, digits=40)
    assert ref.x.shape == (30, 3) and ref.digits >= 40
    _assert_honest(ref, A, B)
    assert all(v == 0 for v in ref.x[:, 1])


@pytest.mark.parametrize("name, eps_bits", [("longdouble", 60), ("mp50", 150)])
def test_reference_solves_the_system_as_given(name, eps_bits):
    """A = (1 + 2^-e) I: x* = 1/(1 + 2^-e), while the float64 rounding of A gives x = 1."""
    p = la.get_precision(name)
    with p.context():
        one = p.scalar(1)
        a = one + p.scalar(2.0 ** -eps_bits)
        A = p.eye(4) * a
        b = p.asarray(np.ones(4))
    assert np.all(p.to_float64(A) == np.eye(4))
    ref = reference_solve(A, b, digits=60)
    _assert_honest(ref, A, b)
    # the float64 solution 1 is 2^-e away, far outside the certified ball
    assert ref.error_bound < 2.0 ** -eps_bits / 4


def test_reference_ozaki_product_certificate(monkeypatch, rbf_system, rng):
    """With the float64 bound disabled, the Ozaki evaluation of ||I - R A|| certifies."""
    monkeypatch.setattr(ib, "inverse_bound_float64", lambda A64, R: None)
    S = rbf_system(40, 1e8)
    b = rng.standard_normal(40)
    ref = reference_solve(S.A, b)
    assert ref.method == "refinement-float64" and ref.certificate == "ozaki-product"
    _assert_honest(ref, S.A, b)


@pytest.mark.parametrize("kind", ["spd", "kkt"])
def test_inverse_norm_bounds_are_rigorous(rbf_system, kind):
    S = rbf_system(30, 1e6)
    A = S.A if kind == "spd" else _kkt(S.A)
    n = A.shape[0]
    inv = Exact.mat(A).solve(Exact.mat(np.eye(n)))
    exact_norm = Exact.to_float(max(sum((abs(inv[i, j]) for j in range(n)), flint.fmpq(0))
                                    for i in range(n)))
    s = exact_system(A, np.ones(n))
    _, _, inverse = ib.factor64(s, None)
    R = inverse()
    split = split_rows(s.A64, slice_bits(n)[0], 2)
    for bound in (ib.inverse_bound_float64(s.A64, R), ib.inverse_bound_ozaki(s, split, R)[0],
                  ib.inverse_enclosure_arb(s.A, 128)[1]):
        # rigorous: >= ||A^-1||_inf (the float conversion of the exact norm is within u);
        # tight: delta <= (n + 2) u ||R||_inf ||A||_inf ~ 1e-7 here, so within a factor 2
        assert exact_norm * (1 - U64) <= float(bound) <= 2 * exact_norm


def test_reference_solution_record(rbf_system, rng):
    S = rbf_system(20, 1e3)
    b = rng.standard_normal(20)
    ref = reference_solve(S.A, b, digits=25, spd=False)
    assert ref.factorization == "lu" and ref.precision == "mp35" and ref.requested_digits == 25
    q = la.get_precision(ref.precision)
    assert q.asarray(ref.x) is ref.x and all(isinstance(v, q.ctx.mpf) for v in ref.x)
    with pytest.raises(ValueError):
        ref.x[0] = 0  # read-only
    assert np.array_equal(ref.x_float64(), np.array([float(v) for v in ref.x]))
    zero = reference_solve(S.A, np.zeros(20))
    assert zero.digits == math.inf and zero.error_bound == 0 and all(v == 0 for v in zero.x)
    assert reference_solve(S.A, b, spd=True).factorization == "cholesky"


@pytest.mark.parametrize("A", [np.array([[1.0, 2.0], [2.0, 4.0]]),
                               np.vstack([np.eye(5), np.eye(5)[4]])[1:]])
def test_reference_singular_raises(A):
    with pytest.raises(ReferenceAccuracyError, match="digits=30") as info:
        reference_solve(A, np.ones(A.shape[0]), max_bits=256)
    assert info.value.digits_reached == -math.inf
    again = pickle.loads(pickle.dumps(info.value))
    assert type(again) is ReferenceAccuracyError and str(again) == str(info.value)
    assert again.digits_reached == -math.inf
    assert ReferenceAccuracyError("no digits").digits_reached is None


@pytest.mark.parametrize("cols", [1, 3])
def test_reference_solution_pickles_exactly(rbf_system, rng, cols):
    """x survives pickling bit for bit, in its own context (mpmath alone would round it
    to 53 bits in its global context), read-only; every other field is unchanged.
    Three columns b, -b, 0 make sure negative and zero entries are exercised."""
    S = rbf_system(8, 1e3)
    b = rng.standard_normal(8)
    if cols == 3:
        b = np.column_stack([b, -b, np.zeros(8)])
    ref = reference_solve(S.A, b, digits=40)
    back = pickle.loads(pickle.dumps(ref))
    assert type(back) is ReferenceSolution
    q = la.get_precision(ref.precision)
    assert back.x.shape == ref.x.shape and q.asarray(back.x) is back.x
    assert all(v._mpf_ == w._mpf_ for v, w in zip(back.x.flat, ref.x.flat))
    assert not back.x.flags.writeable
    for f in ("digits", "error_bound", "method", "certificate", "factorization", "iterations",
              "inverse_norm_bound", "cond_estimate", "precision", "requested_digits"):
        assert getattr(back, f) == getattr(ref, f), f


def test_error_report_pickles(rbf_system, rng):
    """parts is a ReadOnlyDict: read-only, and the report round-trips through pickle."""
    S = rbf_system(8, 1e3)
    A = _kkt(S.A)
    rhs = np.r_[0.0, rng.standard_normal(8)]
    x = np.linalg.solve(A, rhs)
    reports = [kkt_residual(A, rhs, x[0], x[1:], cond=1e3), forward_error(x, x, cond=1e3),
               ErrorReport("backward", 1e-17, U64, "float64")]
    for rep in reports:
        assert type(rep.parts) is ReadOnlyDict
        back = pickle.loads(pickle.dumps(rep))
        assert back == rep and type(back.parts) is ReadOnlyDict
    assert set(reports[0].parts) == {"bias_row", "alpha_rows"}
    with pytest.raises(TypeError, match="read-only"):
        reports[0].parts["bias_row"] = 0.0


def test_reference_reexports_the_error_measures():
    for name in errors.__all__:
        assert getattr(refmod, name) is getattr(errors, name) and name in refmod.__all__


# -- forward error gate --------------------------------------------------------

def _gate_kappa(p, n):
    """Target kappa_2: min(1e8, (1 - g) / (2 n g)), g = gamma_{n+1}(u).

    Demmel (Higham 2002, Thm 10.7): Cholesky runs to completion if
    lambda_min(H) > n g / (1 - g), H = D^-1/2 A D^-1/2; with unit-size diagonal
    lambda_min(H) >= 1/kappa_2, so half that kappa is safe.  The cap 1e8 keeps
    I/C far above the rounding noise of K's eigenvalues, where C controls kappa.
    """
    g = (n + 1) * p.unit_roundoff / (1 - (n + 1) * p.unit_roundoff)
    return min(1e8, (1 - g) / (2 * n * g))


@pytest.mark.parametrize("solve", ["cholesky", "lu", "lu-kkt"])
def test_forward_error_gate(precision, n_for, rbf_system, rng, solve):
    p = precision
    n = n_for(p, 100, 40)
    S = rbf_system(n, _gate_kappa(p, n))  # asserts kappa_2(A) = target
    A = _kkt(S.A) if solve == "lu-kkt" else S.A
    b = rng.standard_normal(A.shape[0])
    if solve == "lu-kkt":
        b[0] = 0.0
    Ap, bp = p.asarray(A), p.asarray(b)
    with p.context():
        x = p.cho_solve(p.cholesky(Ap), bp) if solve == "cholesky" else p.solve(Ap, bp)
    # the reference of the system as the solver saw it, resolving errors 15 digits below u
    ref = reference_solve(Ap, bp, digits=max(30, math.ceil(p.digits) + 15))
    fe = forward_error(x, ref)
    assert (fe.unit_roundoff, fe.precision) == (p.unit_roundoff, p.name)
    # c = 30: LAPACK's threshold on the ratio ||x - x*||_inf / (||x*||_inf kappa_inf u)
    # (xGET04 / xPOT04); kappa_inf is the reference's certified upper estimate.
    assert fe.value <= LAPACK_THRESHOLD * ref.cond_estimate * p.unit_roundoff, fe
    be = backward_error(Ap, x, bp)
    # c = 30: LAPACK's threshold on ||b - A x|| / (||A|| ||x|| n u) (xGET02 / xPOT02),
    # which bounds the Rigal-Gaches error (its denominator also has ||b||).
    assert be.value <= LAPACK_THRESHOLD * A.shape[0] * p.unit_roundoff, be
    if solve == "lu-kkt":
        kkt = kkt_residual(Ap, bp, x[0], x[1:])
        # each block row is a sub-system of A x = b with its own normwise backward error;
        # the same c = 30 n u (LU's bound is row-wise: |dA| <= gamma_3n |L||U|).
        for part, value in kkt.parts.items():
            assert value <= LAPACK_THRESHOLD * A.shape[0] * p.unit_roundoff, (part, value)


# -- the measures on hand-checkable data ---------------------------------------

def _fq(v):
    return Exact.q(v)


def test_backward_error_exact():
    A = np.array([[2.0, 1.0], [1.0, 3.0]])
    X = np.array([[0.5, 1.0], [0.25, -1.0]])
    B = np.array([[1.0, 0.0], [1.0, 2.0]])
    expected = 0.0
    for j in range(2):  # definition, in exact rationals
        r = [_fq(B[i, j]) - sum(_fq(A[i, k]) * _fq(X[k, j]) for k in range(2)) for i in range(2)]
        normA = max(sum(abs(_fq(v)) for v in row) for row in A)
        den = normA * max(abs(_fq(v)) for v in X[:, j]) + max(abs(_fq(v)) for v in B[:, j])
        expected = max(expected, Exact.to_float(max(abs(v) for v in r) / den))
    rep = backward_error(A, X, B)
    assert rep.kind == "backward" and rep.value == expected and rep.unit_roundoff == U64
    assert rep.ratio == expected / U64
    assert backward_error(A, np.array([np.nan, 0.0]), B[:, 0]).value == math.inf


def test_kkt_residual_exact():
    A = np.array([[0.0, 1.0, 1.0], [1.0, 2.0, 0.0], [1.0, 0.0, 2.0]])
    rhs = np.array([0.0, 1.0, 3.0])
    bias, coef = 0.5, np.array([0.5, 0.25], dtype=np.float32)
    z = [_fq(bias)] + [_fq(v) for v in coef]
    r = [_fq(rhs[i]) - sum(_fq(A[i, k]) * z[k] for k in range(3)) for i in range(3)]
    zn = max(abs(v) for v in z)
    row = [sum(abs(_fq(v)) for v in A[i]) for i in range(3)]
    bias_row = abs(r[0]) / (row[0] * zn + abs(_fq(rhs[0])))
    alpha_rows = max(abs(r[1]), abs(r[2])) / (max(row[1:]) * zn + max(abs(_fq(v)) for v in rhs[1:]))
    rep = kkt_residual(A, rhs, bias, coef)
    assert dict(rep.parts) == {"bias_row": Exact.to_float(bias_row),
                               "alpha_rows": Exact.to_float(alpha_rows)}
    assert rep.value == max(rep.parts.values())
    assert (rep.precision, rep.unit_roundoff) == ("float32", 2.0 ** -24)


def test_forward_error_exact(rbf_system, rng):
    S = rbf_system(20, 1e4)
    b = rng.standard_normal(20)
    ref = reference_solve(S.A, b)
    assert forward_error(ref.x, ref).value == 0.0
    x = np.linalg.solve(S.A, b)
    xr = Exact.mat(ref.x)
    diff = max(abs(Exact.q(x[i]) - xr[i, 0]) for i in range(20))
    expected = Exact.to_float(diff / max(abs(xr[i, 0]) for i in range(20)))
    rep = forward_error(x, ref)
    # the measure rounds twice (the 128-bit difference, then to float64): within 2u
    assert rep.value == pytest.approx(expected, rel=2 * U64)
    assert rep.cond == ref.cond_estimate and rep.ratio == rep.value / (rep.cond * U64)
    plain = forward_error(x.astype(np.float32), ref.x)  # a plain array reference
    assert plain.cond is None and math.isnan(plain.ratio) and plain.precision == "float32"
    assert forward_error(np.full(20, np.inf), ref).value == math.inf


def test_correct_digits_and_report():
    assert correct_digits(1e-5) == pytest.approx(5.0, rel=U64 * 4)
    assert correct_digits(0.0) == -math.log10(np.finfo(np.float64).tiny)
    np.testing.assert_allclose(correct_digits(np.array([1.0, 1e-3])), [0.0, 3.0], rtol=4 * U64)
    with pytest.raises(ValueError, match="rel_err"):
        correct_digits(-1.0)
    rep = ErrorReport("forward", 1e-12, U64, "float64", cond=1e3)
    assert rep.digits == correct_digits(1e-12) and rep.ratio == 1e-12 / (1e3 * U64)


def test_condition_number():
    a = 3.0
    T = np.array([[1.0, a], [0.0, 1.0]])
    # kappa_inf = ||T|| ||T^-1|| = (1 + a)^2 exactly; the certificate exceeds it by
    # 1/((1 - g)(1 - delta)) with delta <= (n + 2) u kappa_inf: allow 10x that
    k_inf = condition_number(T, p=np.inf)
    assert (1 + a) ** 2 <= k_inf <= (1 + a) ** 2 * (1 + 10 * 4 * U64 * (1 + a) ** 2)
    # sigma_max / sigma_min of T: ((a + sqrt(a^2 + 4)) / 2)^2; float64 SVD, error ~ u kappa
    assert condition_number(T) == pytest.approx(((a + math.sqrt(a * a + 4)) / 2) ** 2, rel=1e-12)
    D = np.diag([1.0, 2.0 ** -30, 2.0 ** -70])  # beyond float64's reach: mp eigenvalues
    # stated accuracy of the 2-norm estimate: relative 1e-2 (u kappa <= 1e-2 rule)
    assert condition_number(D) == pytest.approx(2.0 ** 70, rel=1e-2)
    with pytest.raises(ReferenceAccuracyError, match="n=201"):
        condition_number(np.diag(np.r_[np.ones(200), 2.0 ** -70]))
    with pytest.raises(ValueError, match="p=1"):
        condition_number(T, p=1)


# -- bad input, inputs unmodified ------------------------------------------------

_mp = la.get_precision("mp20")
_BAD = [
    (lambda: reference_solve(np.ones((3, 2)), np.ones(3)), ValueError, r"A\.shape=\(3, 2\)"),
    (lambda: reference_solve(np.ones(3), np.ones(3)), ValueError, r"A\.shape=\(3,\)"),
    (lambda: reference_solve(np.ones((0, 0)), np.ones(0)), ValueError, r"non-empty.*A\.shape"),
    (lambda: reference_solve(np.diag([1.0, np.nan]), np.ones(2)), ValueError, "finite.*A"),
    (lambda: reference_solve(np.array([[_mp.ctx.inf]], dtype=object), np.ones(1)), ValueError,
     r"finite.*A\[0, 0\]=\+?inf"),
    (lambda: reference_solve(np.eye(2) * 1j, np.ones(2)), TypeError, "dtype=complex128"),
    (lambda: reference_solve(np.array([["a"]]), np.ones(1)), TypeError, "dtype=<U1"),
    (lambda: reference_solve(np.array([[1.0, "x"], [0, 1]], dtype=object), np.ones(2)),
     TypeError, r"A\[0, 1\]='x'"),
    (lambda: reference_solve(np.eye(3), np.ones(2)), ValueError, r"b\.shape=\(2,\)"),
    (lambda: reference_solve(np.eye(2), np.ones((2, 1, 1))), ValueError, r"b\.shape=\(2, 1, 1\)"),
    (lambda: reference_solve(np.eye(2), np.array([1.0, np.inf])), ValueError, "finite.*b"),
    (lambda: reference_solve(np.eye(2), np.ones(2), digits=0), ValueError, "digits=0"),
    (lambda: reference_solve(np.eye(2), np.ones(2), digits=2.5), TypeError, "digits=2.5"),
    (lambda: reference_solve(np.eye(2), np.ones(2), spd="yes"), TypeError, "spd='yes'"),
    (lambda: reference_solve(np.triu(np.ones((2, 2))), np.ones(2), spd=True), ValueError,
     "symmetric"),
    (lambda: reference_solve(np.eye(2), np.ones(2), max_bits=10), ValueError, "max_bits"),
    (lambda: forward_error(np.ones(3), np.ones(2)), ValueError, r"x\.shape=\(3,\)"),
    (lambda: forward_error(np.ones(2), np.array([1.0, np.nan])), ValueError, "ref"),
    (lambda: backward_error(np.eye(2), np.ones(3), np.ones(2)), ValueError, r"x\.shape=\(3,\)"),
    (lambda: kkt_residual(np.eye(3), np.ones(2), 0.0, np.ones(2)), ValueError, r"rhs\.shape"),
    (lambda: kkt_residual(np.eye(3), np.ones(3), np.ones(2), np.ones(2)), ValueError,
     r"bias\.shape=\(2,\)"),
    (lambda: kkt_residual(np.eye(3), np.ones(3), 0.0, np.ones(3)), ValueError, r"coef\.shape"),
]


@pytest.mark.parametrize("call, exc, match", _BAD, ids=[f"bad{i}" for i in range(len(_BAD))])
def test_bad_input(call, exc, match):
    with pytest.raises(exc, match=match):
        call()


@pytest.mark.parametrize("name", ["float64", "longdouble", "mp50"])
def test_inputs_unmodified(rbf_system, rng, name):
    p = la.get_precision(name)
    S = rbf_system(12, 1e3)
    A, b = p.asarray(S.A), p.asarray(rng.standard_normal(12))
    K = _kkt(A)
    rhs = np.concatenate([p.zeros(1), b])
    saved = [arr.copy() for arr in (A, b, K, rhs)]
    for arr in (A, b, K, rhs):
        arr.flags.writeable = False  # any in-place write would raise
    ref = reference_solve(A, b)
    x = ref.x_float64()
    forward_error(x, ref), backward_error(A, x, b), kkt_residual(K, rhs, b[0], b)
    condition_number(A), condition_number(A, p=np.inf)
    for arr, old in zip((A, b, K, rhs), saved):
        assert np.array_equal(arr, old)
    assert not np.shares_memory(ref.x, A) and not np.shares_memory(ref.x, b)


@pytest.mark.parametrize("cond", [1e2, 1e9, 1e14])
def test_mp_system_certified_against_the_exact_solution(rng, cond):
    """An object (mp50) system is refined with its residual in ball arithmetic (A held in arb):
    the certified bound holds against the exact rational solution, the digits are >= those
    requested, and each residual split hi + lo +- rad encloses the exact b - A x."""
    from lssvm_analysis.exact.arb import exact_system, residual_arb
    from lssvm_analysis.exact.ozaki import FixedPoint

    p = la.get_precision("mp50")
    n = 25
    A = p.asarray(logspaced_spd(rng, n, cond)) * p.exp(p.asarray(rng.standard_normal((n, n)) * 1e-3))
    A = (A + A.T) / 2   # mp50 entries of 169 bits: four float64 pieces each
    b = p.asarray(rng.standard_normal(n))
    ref = la.reference_solve(A, b, digits=60)
    assert ref.digits >= 60
    x_star = Exact.mat(A).solve(Exact.mat(b))
    err = max(abs(Exact.q(ref.x[i]) - x_star[i, 0]) for i in range(n))
    assert Exact.to_float(err) <= ref.error_bound
    # the residual of an iterate: hi + lo - rad <= b - A x <= hi + lo + rad, entry by entry
    s = exact_system(A, b)
    X = FixedPoint(np.linalg.solve(s.A64, s.B64), 20, 12)
    hi, lo, rad = residual_arb(s, X)
    xs = flint.fmpq_mat(n, 1, [flint.fmpq(m) * flint.fmpq(2) ** e if e >= 0 else flint.fmpq(m, 2 ** -e)
                               for m, e in X.exact()])
    r = Exact.mat(b) - Exact.mat(A) * xs
    for i in range(n):
        assert abs(r[i, 0] - Exact.q(hi[i, 0]) - Exact.q(lo[i, 0])) <= Exact.q(rad[i, 0])
