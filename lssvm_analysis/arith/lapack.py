"""float32 and float64: IEEE single and double precision on LAPACK through SciPy (potrf, potrs,
trtrs, getrf/getrs, syevd)."""
from __future__ import annotations

import warnings

import numpy as np
import scipy.linalg
from scipy.linalg import lapack

from .base import NativeDtype, Precision
from ..core.validation import check_finite, check_square
from ..core.exceptions import CholeskyBreakdownError, LUBreakdownError
from ..core.records import CholeskyBreakdown, LUBreakdown

__all__ = ["LapackPrecision"]


class LapackPrecision(NativeDtype, Precision):
    """IEEE single or double precision, backed by LAPACK through SciPy."""

    hardware = True
    engine = "lapack"

    def __init__(self, dtype):
        self.dtype = np.dtype(dtype)
        self.name = self.dtype.name
        self.unit_roundoff = float(np.finfo(self.dtype).eps) / 2
        self._potrf, self._potrs, self._trtrs = lapack.get_lapack_funcs(
            ("potrf", "potrs", "trtrs"), dtype=self.dtype)

    def asarray(self, a):
        a = np.asarray(a)
        if a.dtype == object:
            a = np.array([float(v) for v in a.flat]).reshape(a.shape)
        return a.astype(self.dtype, copy=False)

    # NaN fails check_symmetric; an inf below the diagonal makes a later pivot -inf
    # (potrf reports it) and an inf on the diagonal leaves an inf on L's diagonal.
    _factor_checks_finite = True

    def _cholesky(self, A, *, overwrite=False):
        # A is symmetric, so A.T is the same matrix; for a C-ordered A it is
        # Fortran-ordered and potrf's private copy is a plain copy rather than
        # a transposing one (measured: 65 ms against 69 ms at n = 2000).  In
        # place (overwrite), potrf gets that Fortran view itself: no copy, and
        # the untouched strict upper triangle of the view keeps A's entries.
        F = A.T if A.flags.c_contiguous else A
        inplace = bool(overwrite) and F.flags.f_contiguous and F.dtype == self.dtype
        diag = np.diagonal(A).copy() if inplace else None  # potrf overwrites the diagonal
        c, info = self._potrf(F, lower=1, clean=0 if inplace else 1, overwrite_a=int(inplace))
        if info > 0:
            k = info - 1
            if inplace:  # the original: the saved diagonal and c's untouched strict upper triangle
                n = c.shape[0]
                if not (np.isfinite(diag).all() and all(np.isfinite(c[i, i + 1:]).all() for i in range(n))):
                    raise ValueError("expected finite values in A, got NaN or inf")
                col, akk = c[:k, k], diag[k]
            else:
                check_finite(A, "A")  # a non-finite entry is bad input, not a breakdown
                col, akk = A[:k, k], A[k, k]
            # The pivot potrf rejected: xPOTF2, xPOTRF2 and OpenBLAS's potf2 leave it on the
            # diagonal.  Recomputing it (below) can round it to a positive number.
            d = c[k, k]
            if d > 0:  # an implementation that does not leave it there
                d = self._pivot(c, k, col, akk)
            raise CholeskyBreakdownError(CholeskyBreakdown(k, float(d), A.shape[0], self.name))
        if info < 0:  # pragma: no cover - the arguments are ours
            raise ValueError(f"illegal value in argument {-info} of {self.name} potrf")
        cdiag = np.diagonal(c)
        if not np.isfinite(cdiag).all():
            if inplace:
                if not np.isfinite(diag).all():
                    raise ValueError("expected finite values in A, got NaN or inf on the diagonal")
            else:
                check_finite(A, "A")  # an inf on A's diagonal: bad input
            k = int(np.argmin(np.isfinite(cdiag)))  # else overflow in the factor
            raise CholeskyBreakdownError(CholeskyBreakdown(k, float(cdiag[k]), A.shape[0], self.name))
        return c

    def _pivot(self, c, k, col, akk):
        """a_kk - ||l_k||^2 from the partial factor, l_k = L11^{-1} a_{1:k,k} (in this dtype)."""
        if k == 0:
            return akk
        lk = self.solve_triangular(c[:k, :k], col, lower=True)
        return akk - lk @ lk

    def solve_triangular(self, T, b, *, lower=True, trans=False):
        x, info = self._trtrs(T, self.asarray(b), lower=int(lower), trans=int(trans))
        if info > 0:
            raise np.linalg.LinAlgError(f"triangular matrix is singular: zero diagonal at {info - 1}")
        return x

    def cho_solve(self, L, b):
        x, info = self._potrs(L, self.asarray(b), lower=1)
        return x

    def lu_factor(self, A, *, overwrite=False):
        """(packed LU, pivots) of the prepared square A by getrf; LUBreakdownError on a zero pivot.

        getrf goes on past a zero pivot; the first zero (or non-finite) u_kk is the breakdown.
        ``overwrite=True`` factors a Fortran-ordered A in place.
        """
        with warnings.catch_warnings():  # a zero pivot is reported below, as a record
            warnings.simplefilter("ignore", scipy.linalg.LinAlgWarning)
            lu, piv = scipy.linalg.lu_factor(A, overwrite_a=overwrite, check_finite=False)
        self._check_lu(lu, A.shape[0])
        return lu, piv

    def _check_lu(self, lu, n):
        diag = np.diagonal(lu)
        bad = (diag == 0) | ~np.isfinite(diag)
        if bad.any():
            k = int(np.argmax(bad))
            raise LUBreakdownError(LUBreakdown(k, float(diag[k]), n, self.name))

    def solve(self, A, b, *, overwrite=False):
        native = (overwrite and isinstance(A, np.ndarray) and A.ndim == 2 and A.dtype == self.dtype
                  and (A.flags.c_contiguous or A.flags.f_contiguous))
        if native:  # validate without temporaries: a finite sum means finite entries
            check_square(A, "A")
            if A.size == 0:
                raise ValueError(f"expected a non-empty array for A, got A.shape={A.shape}")
            with np.errstate(all="ignore"):
                total = A.sum()
            if not np.isfinite(total):
                check_finite(A, "A")
        else:
            A = self._prepare(A, "A", check=True, symmetric=False)
        b = self._prepare_rhs(b, A.shape[0])
        if native:
            # LU of the Fortran view F (A.T for a C-ordered A, no copy); A x = b is F^T x = b.
            F, trans = (A.T, 1) if A.flags.c_contiguous else (A, 0)
            getrf, getrs = scipy.linalg.get_lapack_funcs(("getrf", "getrs"), (F,))
            lu, piv, info = getrf(F, overwrite_a=1)
            self._check_lu(lu, A.shape[0])
            x, _ = getrs(lu, piv, b, trans=trans)
            return x
        return scipy.linalg.lu_solve(self.lu_factor(A), b, check_finite=False)

    def eigvalsh(self, A, *, check=True):
        A = self._prepare(A, "A", check=check, symmetric=True)
        return scipy.linalg.eigvalsh(A, check_finite=False).astype(self.dtype, copy=False)

    def eigh(self, A, *, check=True):
        if check:
            A = self._prepare(A, "A", check=True, symmetric=True)
        w, U = scipy.linalg.eigh(A, check_finite=False)
        return w.astype(self.dtype, copy=False), U.astype(self.dtype, copy=False)

