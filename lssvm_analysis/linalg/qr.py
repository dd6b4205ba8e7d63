"""Householder QR: LAPACK's for float32 / float64, every operation in the precision for the others.

:func:`householder_qr` returns R of A = QR (and Q^T b) with every operation
in the precision, for the precisions LAPACK does not have; :func:`qr_r` is the
one choice between it and LAPACK's geqrf that the solvers make.
"""
from __future__ import annotations

import numpy as np
import scipy.linalg

from ._qr_flint import householder_qr as householder_qr_flint

__all__ = ["householder_qr", "qr_r"]


def qr_r(A, p, b=None, *, overwrite: bool = False):
    """R of A = Q R (and Q^T b): LAPACK's geqrf for the hardware precisions, else :func:`householder_qr`.

    Parameters
    ----------
    A : (m, n) array in p, m >= n
    p : Precision
    b : (m,) array in p, optional
    overwrite : bool
        float32 / float64 without ``b``: LAPACK may factor A in place (a
        Fortran-ordered scratch copy the caller built; peak memory one copy).

    Returns
    -------
    R : (n, n) array, upper triangular
    y : (n,) array, the first n entries of Q^T b, or None without b

    Notes
    -----
    Both are Householder QR, backward stable (Higham, *Accuracy and
    Stability*, Thm 19.4); float32 / float64 at BLAS-3 speed (Q formed by
    orgqr only when ``b`` is given).
    """
    if not p.hardware:
        return householder_qr(A, p, b)
    if b is None:
        return scipy.linalg.qr(A, mode="r", overwrite_a=overwrite, check_finite=False)[0][:A.shape[1]], None
    Q, R = scipy.linalg.qr(A, mode="economic", check_finite=False)
    return R, Q.T @ b


def householder_qr(A, p, b=None):
    """R of A = Q R by Householder reflections, every operation in precision p (Golub & Van Loan 5.2.1).

    Parameters
    ----------
    A : (m, n) array in p, m >= n
        Not modified.
    p : Precision
    b : (m,) array in p, optional
        Reflected along with A's columns.

    Returns
    -------
    R : (n, n) array, upper triangular (its strict lower part exactly 0)
    y : (n,) array, the first n entries of Q^T b, or None without b

    Notes
    -----
    For longdouble and mpN, which LAPACK does not have (float32/float64 callers
    use geqrf); mpN runs these reflections on FLINT matrices
    (:func:`._qr_flint.householder_qr`, chosen by ``p.engine == "flint"``: each rank-1 update
    two products and a subtraction in C, at the precision's bits).  2 m n^2 - 2 n^3/3 flops.  Backward stable: R is the exact
    factor of A + dA with ||dA_j|| <= c m n u ||A_j|| (Higham, *Accuracy and
    Stability*, Thm 19.4).  The reflection sends each column to -sign(a_0) ||a||
    e_1 (no cancellation in v_0 = a_0 - alpha).
    """
    if p.engine == "flint":   # mpN: the same reflections on FLINT matrices
        return householder_qr_flint(p.asarray(A), None if b is None else p.asarray(b), zero=p.scalar(0),
                                    prec=p.ctx.prec, ctx=p.ctx)
    A = np.array(A, copy=True)
    y = None if b is None else np.array(b, copy=True)
    n = A.shape[1]
    two, zero = p.scalar(2), p.scalar(0)
    for k in range(n):
        a = A[k:, k]
        alpha = p.sqrt(np.array([a @ a], dtype=A.dtype))[0]
        if not (alpha > zero):
            continue
        if a[0] > zero:
            alpha = -alpha
        v = a.copy()
        v[0] = v[0] - alpha
        beta = two / (v @ v)
        A[k:, k:] = A[k:, k:] - np.outer(v, beta * p.matmul(v, A[k:, k:]))  # v @ A: FLINT for mpN
        if y is not None:
            y[k:] = y[k:] - v * (beta * (v @ y[k:]))
        A[k + 1:, k] = zero
    return A[:n, :n], (None if y is None else y[:n])
