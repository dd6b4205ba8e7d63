"""Dense kernels written once in NumPy for any dtype (longdouble, mpmath objects).

These are the "generic code" half of the precision layer: the LAPACK
precisions call LAPACK, everything else calls these.  Every operation runs in
the dtype of its inputs; nothing is sent to SciPy (which silently turns
longdouble into float64).

Object arrays of ``mpmath`` numbers work because every mpf carries its own
context; callers must not mix NumPy float scalars into them (NumPy would coerce
the mpf to float64).
"""
from __future__ import annotations

import numpy as np

from .base import Precision
from ..core.exceptions import CholeskyBreakdownError, LUBreakdownError
from ..core.records import CholeskyBreakdown, LUBreakdown

__all__ = ["cholesky", "solve_triangular", "lu_factor", "lu_solve", "GenericPrecision"]


def cholesky(A: np.ndarray, *, sqrt, zero, precision: str) -> np.ndarray:
    """Left-looking (jik, "Cholesky-Crout") factorization A = L L^T.

    Column j is ``v = A[j:, j] - L[j:, :j] @ L[j, :j]``; its head is the pivot
    a_jj - ||l_j||^2.  Cost n^3/3 multiply-adds, all inside matrix-vector
    products, so NumPy's loops do the work.

    Raises
    ------
    CholeskyBreakdownError
        At the first column whose pivot is <= 0 or not finite.
    """
    n = A.shape[0]
    L = np.full((n, n), zero, dtype=A.dtype)
    for j in range(n):
        v = A[j:, j] - L[j:, :j] @ L[j, :j] if j else A[j:, j].copy()
        d = v[0]
        if not (d > 0) or not _finite(d):  # catches NaN too
            raise CholeskyBreakdownError(CholeskyBreakdown(j, float(d), n, precision))
        r = sqrt(d)
        L[j, j] = r
        L[j + 1:, j] = v[1:] / r
    return L


def _finite(x) -> bool:
    return abs(x) < float("inf")


def solve_triangular(T: np.ndarray, b: np.ndarray, *, lower: bool, trans: bool, unit: bool = False):
    """Substitution for ``op(T) x = b``, op = identity or transpose; b may be 2-D."""
    if trans:
        T, lower = T.T, not lower
    n = T.shape[0]
    x = np.array(b, dtype=T.dtype, copy=True)
    order = range(n) if lower else range(n - 1, -1, -1)
    for i in order:
        s = x[i]
        if lower and i:
            s = s - T[i, :i] @ x[:i]
        elif not lower and i < n - 1:
            s = s - T[i, i + 1:] @ x[i + 1:]
        x[i] = s if unit else s / T[i, i]
    return x


def lu_factor(A: np.ndarray, *, precision: str):
    """LU with partial pivoting, PA = LU, right-looking (Doolittle).

    Returns the packed factors and the row permutation.  Raises
    :class:`LUBreakdownError` (step, pivot 0 or non-finite) on an exactly zero
    or non-finite pivot column.
    """
    LU = np.array(A, copy=True)
    n = LU.shape[0]
    perm = np.arange(n)
    for k in range(n):
        col = np.abs(LU[k:, k])
        p = k + int(np.argmax(col))
        if not (col[p - k] > 0 and _finite(col[p - k])):
            raise LUBreakdownError(LUBreakdown(k, float(LU[p, k]), n, precision))
        if p != k:
            LU[[k, p]] = LU[[p, k]]
            perm[[k, p]] = perm[[p, k]]
        LU[k + 1:, k] = LU[k + 1:, k] / LU[k, k]
        if k + 1 < n:
            LU[k + 1:, k + 1:] = LU[k + 1:, k + 1:] - np.outer(LU[k + 1:, k], LU[k, k + 1:])
    return LU, perm


def lu_solve(LU: np.ndarray, perm: np.ndarray, b: np.ndarray):
    y = solve_triangular(LU, np.asarray(b)[perm], lower=True, trans=False, unit=True)
    return solve_triangular(LU, y, lower=False, trans=False)


class GenericPrecision(Precision):
    """Shared code of the precisions that run NumPy's generic loops."""

    def _sqrt1(self, x):
        """sqrt of one scalar of this precision (Cholesky's pivots): :meth:`sqrt` of a 1-entry array."""
        return self.sqrt(np.array([x], dtype=self.dtype))[0]

    def _cholesky(self, A, *, overwrite=False):  # no BLAS: always a new factor
        return cholesky(A, sqrt=self._sqrt1, zero=self.scalar(0), precision=self.name)

    def solve_triangular(self, T, b, *, lower=True, trans=False):
        return solve_triangular(self.asarray(T), self.asarray(b), lower=lower, trans=trans)

    def lu_factor(self, A, *, overwrite=False):
        """(packed LU, row permutation) of the prepared square A; LUBreakdownError on a zero pivot."""
        return lu_factor(A, precision=self.name)

    def lu_solve(self, LU, perm, b, *, trans=False):
        """x with A x = b (``trans``: A^T x = b) from ``lu_factor``'s (LU, perm), A[perm] = L U."""
        b = self.asarray(b)
        if not trans:
            return lu_solve(LU, perm, b)
        w = solve_triangular(LU, b, lower=False, trans=True)
        v = solve_triangular(LU, w, lower=True, trans=True, unit=True)
        x = np.empty_like(v)
        x[perm] = v
        return x

    def solve(self, A, b, *, overwrite=False):
        A = self._prepare(A, "A", check=True, symmetric=False)
        b = self._prepare_rhs(b, A.shape[0])
        LU, perm = self.lu_factor(A)
        return self.lu_solve(LU, perm, b)

