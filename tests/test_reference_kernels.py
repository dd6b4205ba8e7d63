"""The error-free float64 kernels of the certified reference (``exact.ozaki``).

Against exact rational arithmetic (FLINT ``fmpq``, conftest ``Exact``): the
residual enclosure hi + lo +- rad contains the exact b - A x, for rows of wide
dynamic range, zero rows, tiny entries and a capped splitting (the float64
"rest" path), and rad is ~2^-90 of |A||x| (not vacuous); TwoSum distillation
is exact under massive cancellation; the fixed-point iterate is exact; the
float64 pieces of longdouble, mpmath and huge-int data sum exactly; Ozaki's
R F is accurate to u; the I - R A defect encloses the exact one and is within
1e-9 of it where the float64 a-priori bound cannot certify (n u kappa >> 1).
"""
from __future__ import annotations

import flint
import numpy as np
import pytest
from conftest import Exact, U64, logspaced_nonsymmetric, logspaced_spd

from lssvm_analysis.exact import inverse_bounds as ib
from lssvm_analysis.exact import ozaki as oz
from lssvm_analysis.exact.pieces import float64_pieces


def _exact_defect(R, A) -> flint.fmpq:
    """||I - R A||_inf exactly (R a float array, A an fmpq_mat)."""
    P = Exact.mat(R) * A
    n = P.nrows()
    return max(sum((abs((1 if i == j else 0) - P[i, j]) for j in range(n)), flint.fmpq(0))
               for i in range(n))


def _wide_matrix(rng, n):
    """Entries N(0,1) 2^k, k uniform in [-40, 40]; a zero row, zeros and a 2^-300 entry."""
    A = rng.standard_normal((n, n)) * np.ldexp(1.0, rng.integers(-40, 41, (n, n)))
    A[0] = 0.0
    A[2, ::3] = 0.0
    A[1, 1] = 2.0 ** -300
    return A


def test_split_rows_is_exact(rng):
    A = _wide_matrix(rng, 25)
    for levels in (2, 12):
        sp = oz.split_rows(A, 22, levels)
        assert (sp.rest is not None) and len(sp.ints) == levels  # 2^-300 needs > 12 slices
        for s, K in enumerate(sp.ints):
            assert np.array_equal(K, np.rint(K))
            assert np.abs(K).max() <= 2.0 ** (22 - (s > 0))
        for i in range(A.shape[0]):
            for j in range(A.shape[1]):
                total = Exact.q(sp.rest[i, j]) + sum(
                    (Exact.q(sp.ints[s][i, j]) * Exact.q(2.0 ** int(sp.units[s][i]))
                     for s in range(levels)), flint.fmpq(0))
                assert total == Exact.q(A[i, j])


@pytest.mark.parametrize("levels", [2, 12])
def test_residual_encloses_the_exact_residual(rng, levels):
    n, k = 25, 2
    A = _wide_matrix(rng, n)
    a_bits, c_bits = oz.slice_bits(n)
    x = rng.standard_normal((n, k)) * 2.0 ** 30
    X = oz.FixedPoint(x, c_bits, 10)
    X.add(rng.standard_normal((n, k)) * 1e-12)
    B = [A @ x, rng.standard_normal((n, k)) * 1e-9]        # b = B[0] + B[1] exactly
    hi, lo, rad = oz.residual([oz.split_rows(A, a_bits, levels)], B, X)
    Xq = Exact.mat(np.zeros((n, k)))
    for idx, (m, e) in enumerate(X.exact()):
        Xq[idx // k, idx % k] = Exact.q(float(m)) if e == 0 else flint.fmpq(m) * Exact.q(2.0 ** e)
    r = Exact.mat(B[0]) + Exact.mat(B[1]) - Exact.mat(A) * Xq
    scale = np.abs(A) @ np.abs(x) + np.abs(B[0]) + np.abs(B[1])
    for i in range(n):
        for j in range(k):
            assert abs(r[i, j] - Exact.q(hi[i, j]) - Exact.q(lo[i, j])) <= Exact.q(rad[i, j])
            # not vacuous: ~2^-90 of the scale (the exact products leave only the final rounding)
            assert rad[i, j] <= 2.0 ** -80 * scale[i, j]


def test_distill_is_exact_under_cancellation(rng):
    big = rng.standard_normal(6) * 2.0 ** 500
    small = rng.standard_normal(6) * 2.0 ** -500
    P = np.array([big, small, -big, rng.standard_normal(6), small * 2.0 ** -40, -small])
    hi, lo, rad = oz.distill(P)
    for j in range(6):
        exact = sum((Exact.q(v) for v in P[:, j]), flint.fmpq(0))
        assert abs(exact - Exact.q(hi[j]) - Exact.q(lo[j])) <= Exact.q(rad[j])
        assert rad[j] <= 2.0 ** -80 * abs(hi[j])


def test_fixed_point_iterate_is_exact(rng):
    x0 = rng.standard_normal((20, 2))
    X = oz.FixedPoint(x0, 13, 10)

    def value():
        return [flint.fmpq(m) * Exact.q(2.0 ** e) for m, e in X.exact()]

    assert value() == [Exact.q(v) for v in x0.flat]   # 53 bits fit in 10 limbs of 13 bits
    D = rng.standard_normal((20, 2)) * 1e-25
    before = value()
    X.add(D)
    for idx, (old, new, d) in enumerate(zip(before, value(), D.flat)):
        grid = Exact.q(2.0 ** int(X.v[-1, idx % 2]))        # D rounded to the last limb's grid
        assert abs(new - old - Exact.q(d)) <= grid / 2
    X.add(x0 * 1e6)                                          # grows limbs on top, still exact
    assert X.Y.shape[0] > 10
    assert np.allclose(X.approx(), x0 * (1 + 1e6), rtol=4 * U64)


def test_dot_is_accurate(rng):
    """R F by Ozaki products: error ~ gamma_n 2^-43 |R||F| + u |R F|, far below fl(R F)'s."""
    n = 30
    R = np.linalg.inv(logspaced_spd(rng, n, 1e12))
    F = rng.standard_normal((n, 2))
    D = oz.dot([oz.split_rows(R, oz.slice_bits(n)[1], 2)], F)
    exact = Exact.mat(R) * Exact.mat(F)
    bound = np.abs(R) @ np.abs(F)
    for i in range(n):
        for j in range(2):
            err = Exact.to_float(abs(Exact.q(D[i, j]) - exact[i, j]))
            assert err <= 4 * U64 * abs(D[i, j]) + 2.0 ** -80 * bound[i, j]


def test_float64_pieces_are_exact():
    mp = pytest.importorskip("mpmath")
    with mp.workprec(200):
        third = mp.mpf(1) / 3
    cases = [np.array([[1, 2 ** 80 + 1]], dtype=object), np.array([[third, -third * 2 ** 40]], dtype=object)]
    if np.finfo(np.longdouble).nmant > 52:
        cases.append(np.array([[1 + np.longdouble(2.0) ** -60, np.longdouble(1) / 3]]))
    for a in cases:
        pieces = float64_pieces(a)
        assert pieces is not None and all(p.dtype == np.float64 for p in pieces)
        for idx in np.ndindex(a.shape):
            assert sum((Exact.q(p[idx]) for p in pieces), flint.fmpq(0)) == Exact.q(a[idx])
    with mp.workdps(30):
        assert float64_pieces(np.array([[mp.mpf("1e-400")]], dtype=object)) is None


@pytest.mark.parametrize("kind", ["spd", "nonsymmetric", "longdouble"])
def test_inverse_defect_encloses_the_exact_defect(rng, kind):
    """n u kappa >> 1: float64 cannot certify; the Ozaki defect does, within 1e-9 of the truth."""
    n = 30
    A = logspaced_nonsymmetric(rng, n, 1e15) if kind == "nonsymmetric" else logspaced_spd(rng, n, 1e15)
    Aq = Exact.mat(A)
    extras = []
    if kind == "longdouble":
        if np.finfo(np.longdouble).nmant <= 52:
            pytest.skip("longdouble is float64 here")
        lo = (rng.standard_normal((n, n)) * 2.0 ** -60) * np.abs(A)   # exact A = A64 + lo
        lo = (lo + lo.T) / 2
        extras = [lo]
        Aq = Aq + Exact.mat(lo)
    R = np.linalg.inv(A)
    assert ib.inverse_bound_float64(A, R) is None
    a_bits, c_bits = oz.slice_bits(n)
    A_cols = oz.split_rows(np.ascontiguousarray(A.T), a_bits, 2)
    d = oz.inverse_defect(A_cols, extras, [oz.split_rows(R, c_bits, 2)], block=7)
    delta, E = d.delta, d.E
    true = Exact.to_float(_exact_defect(R, Aq))
    assert true <= delta <= true + 1e-9, (true, delta)
    # E itself (the refinement's Neumann corrections use it): within u |E| + n u 2^-48 |R||A|,
    # ~1e-16 + 30 * 1.1e-16 * 3.6e-15 * 1e15 * n ~ 1e-13 here (plain summation: ~1e-7)
    P = Exact.mat(R) * Aq
    diff = [[abs((1 if i == j else 0) - P[i, j] - Exact.q(E[i, j])) for j in range(n)]
            for i in range(n)]
    assert max(Exact.to_float(v) for row in diff for v in row) <= 1e-12
    # and its rigorous row-sum bound holds, and is not vacuous either
    err = Exact.to_float(max(sum(row, flint.fmpq(0)) for row in diff))
    assert err <= d.err <= 1e-9, (err, d.err)


@pytest.mark.parametrize("digits", [50, 200])
def test_float64_pieces_of_mpf_arrays_are_those_of_the_entry_loop(rng, digits):
    """An object array of mpf is split by NumPy loops over all entries at once; the pieces are
    those of the entry-by-entry rule (the array with one Python int appended takes that rule),
    bit for bit, and they sum exactly to the entries."""
    from lssvm_analysis.arith.precision import get_precision
    p = get_precision(f"mp{digits}")
    a = p.exp(p.asarray(rng.standard_normal((7, 5)) * 5)) * p.asarray(np.sign(rng.standard_normal((7, 5))))
    a[0, 0] = p.scalar(0)
    fast = float64_pieces(a, count=40)
    loop = float64_pieces(np.append(a.ravel(), 0).astype(object), count=40)
    assert fast is not None and loop is not None and len(fast) == len(loop)
    assert all(np.array_equal(f.ravel(), g[:-1]) for f, g in zip(fast, loop))
    assert np.array_equal(fast[0], p.to_float64(a))            # the first piece is the rounding
    for idx in np.ndindex(a.shape):
        assert sum((Exact.q(f[idx]) for f in fast), flint.fmpq(0)) == Exact.q(a[idx])
    # too many pieces asked of too few, or an entry outside float64's range: None, as the loop
    assert float64_pieces(a, count=1) is None
    assert float64_pieces(a * p.scalar(2) ** -1100, count=40) is None
