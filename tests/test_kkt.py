"""The shared LS-SVM pieces of :mod:`lssvm_analysis.solvers.kkt`, in every precision.

The solvers' own gates (conformance battery, exact models) test these
pieces through the fits; here each piece is checked for what its docstring
promises on its own: which entries it writes, exactly; the float32 rule of
1/C; the elimination's constraint row; the positive-definite reading of the
condition estimate.
"""
from __future__ import annotations

import numpy as np
import pytest

import lssvm_analysis as la
from lssvm_analysis.solvers import kkt

from conftest import LAPACK_THRESHOLD


def _spd(rng, n, p):
    B = rng.standard_normal((n, n))
    return p.asarray(B @ B.T / n + np.eye(n))


def test_ridge_of_a_c_beyond_float32_is_tiny_not_zero():
    """float32: 1/C is the float64 quotient rounded once, so C = 1e39 (> float32's max 3.4e38)
    gives the subnormal float32(1e-39); dividing in float32 would give 1/inf = 0."""
    r = kkt.ridge(1e39, "float32")
    assert r.dtype == np.float32 and r == np.float32(1e-39) and r > 0
    assert kkt.ridge(3.0, "float32") == np.float32(1.0 / 3.0)  # the float64 quotient, rounded once


def test_add_ridge_writes_the_diagonal_only(precision, rng):
    """H + I/C and H + diag(1/(C v)) change the diagonal alone, each entry by one rounded addition."""
    p = precision
    H = _spd(rng, 7, p)
    v = rng.uniform(0.5, 2.0, 7)
    for weights, r in ((None, [p.reciprocal(3.0)] * 7), (v, p.reciprocal(3.0) / p.asarray(v))):
        A = kkt.add_ridge(H.copy(), 3.0, p, weights=weights)
        off = ~np.eye(7, dtype=bool)
        assert A.dtype == H.dtype and np.array_equal(A[off], H[off])
        assert all(A[i, i] == H[i, i] + r[i] for i in range(7))


def test_add_ridge_symmetric_copies_the_lower_triangle(precision, rng):
    p = precision
    A = _spd(rng, 5, p)
    A[0, 3] = A[0, 3] * p.scalar(2)  # an upper entry that disagrees with the lower one
    want_lower = np.tril(A, -1)
    out = kkt.add_ridge_symmetric(A, 2.0, p)
    assert np.array_equal(out, out.T) and np.array_equal(np.tril(out, -1), want_lower)


def test_bordered_matrix_layout(precision, rng):
    """[[0, a^T], [a, H]] and [0; d]: every entry copied, nothing rounded."""
    p = precision
    H, a, d = _spd(rng, 4, p), p.asarray(rng.standard_normal(4)), p.asarray(rng.standard_normal(4))
    A, rhs = kkt.bordered_matrix(H, a, d, p)
    assert A.shape == (5, 5) and A[0, 0] == 0 and rhs[0] == 0
    assert np.array_equal(A[1:, 1:], H) and np.array_equal(A[0, 1:], a) and np.array_equal(A[1:, 0], a)
    assert np.array_equal(rhs[1:], d)


@pytest.mark.parametrize("border", ["vector", "ones"])
def test_two_solve_and_eliminate_solve_the_bordered_system(precision, rng, border):
    """[b; alpha] from the Schur route has a KKT residual <= 2 c n u ||KKT|| ||z||: each of the two
    SPD solves is backward stable (residual <= c n u ||H|| ||x||, c = 30, LAPACK's test ratio) and
    the KKT residual is r_nu - b r_eta (suykens module docstring); the constraint row a^T alpha
    vanishes to c n u ||a|| ||alpha||."""
    p, n = precision, 12
    H = _spd(rng, n, p)
    a = p.asarray(np.ones(n) if border == "ones" else rng.standard_normal(n))
    d = p.asarray(rng.standard_normal(n))
    eta, nu = kkt.two_solve(p.cholesky(H), a, d, p)
    alpha, b, s = kkt.eliminate(eta, nu, None if border == "ones" else a)
    A, rhs = kkt.bordered_matrix(H, a, d, p)
    z = p.to_float64(np.concatenate([np.array([b], dtype=alpha.dtype), alpha]))
    A64, rhs64 = p.to_float64(A), p.to_float64(rhs)
    res = np.linalg.norm(A64 @ z - rhs64)
    bound = 2 * LAPACK_THRESHOLD * n * p.unit_roundoff * np.linalg.norm(A64, 2) * np.linalg.norm(z)
    # the residual is evaluated in float64: |fl(A z) - A z| <= gamma_{n+1} |A| |z| (Higham eq. 3.11),
    # whose 2-norm is <= 1.01 (n+1) u64 ||A||_F ||z|| (it dominates for mp and longdouble)
    check = 1.01 * (n + 1) * 2.0 ** -53 * np.linalg.norm(A64) * np.linalg.norm(z)
    assert res <= bound + check
    assert float(s) > 0  # s = a^T H^-1 a with H positive definite


def test_formed_kappa_reads_definite_matrices_as_such(rng):
    """definite=True: lambda_max / lambda_min, inf when the smallest computed eigenvalue is <= 0
    (or lambda_max / |lambda_min| with indefinite="magnitude"); otherwise kappa2's
    max |lambda| / min |lambda| (singular values for a non-symmetric A).  Eigenvalues of a 3 x 3
    rotated diagonal are exact to ~1e-15 relative, hence rel=1e-12."""
    A = np.diag([4.0, 2.0, 1.0])
    assert kkt.formed_kappa(A, definite=True) == 4.0 == kkt.formed_kappa(A)
    Q, _ = np.linalg.qr(rng.standard_normal((3, 3)))
    M = Q @ np.diag([4.0, 2.0, -1.0]) @ Q.T
    M = (M + M.T) / 2
    assert kkt.formed_kappa(M, definite=True) == np.inf
    assert kkt.formed_kappa(M, definite=True, indefinite="magnitude") == pytest.approx(4.0, rel=1e-12)
    with pytest.raises(ValueError, match="indefinite='abs'"):
        kkt.formed_kappa(M, definite=True, indefinite="abs")
    assert kkt.formed_kappa(M) == pytest.approx(4.0, rel=1e-12)  # |eigenvalues|: 4 / 1
    R = np.triu(rng.standard_normal((4, 4))) + 4 * np.eye(4)
    sv = np.linalg.svd(R, compute_uv=False)
    assert kkt.formed_kappa(R) == sv[0] / sv[-1]
    assert kkt.formed_kappa(np.zeros((2, 2)), definite=True) == np.inf


def test_support_system_is_symmetric_with_the_ridge_block(precision, rng):
    """H = Z Z^T + diag(0, K_SS/C) (Zhao & Sun eq. 7) is exactly symmetric, its bias row is Z's row sums."""
    p = precision
    X = rng.standard_normal((15, 2))
    S = np.array([1, 4, 9])
    H, rhs, Z = kkt.support_system(X, np.ones(15), S, la.make_kernel("rbf", sigma2=1.0), 10.0, p)
    assert H.shape == (4, 4) and Z.shape == (4, 15) and np.array_equal(H, H.T)
    assert H[0, 0] == 15 and np.array_equal(rhs, p.matmul(Z, p.asarray(np.ones(15))))  # the precision's product
