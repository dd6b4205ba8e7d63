"""The precision registry: one object per arithmetic.

``float32`` and ``float64`` call LAPACK (potrf, potrs, trtrs, getrf/getrs,
syevd); ``mpN`` (mpmath numbers at N significant decimal digits) calls FLINT
at N digits' bits for the same primitives (products, Cholesky, triangular and
LU solves, exp: :mod:`lssvm_analysis.arith.flint_engine`, which says where mpmath
stays); ``longdouble`` (80-bit x87 on x86-64 Linux) runs the generic NumPy
algorithms of :mod:`lssvm_analysis.arith._generic`, which are also the mpN
engine when FLINT cannot be loaded (and on request, ``MPPrecision(N,
engine="mpmath")``, the reference the FLINT engine is tested against).  Every
solver algorithm exists once and is compared with itself across arithmetics.

Conventions
-----------
* ``asarray`` converts float64 data exactly into longdouble and mp (their
  significands are longer).  Into float32 it rounds to nearest: that is the
  only inexact conversion and it is part of float32's backward error (u32).
* Every primitive returns arrays of the precision's own dtype.  Longdouble
  and object arrays are never sent to SciPy, which silently computes
  longdouble in float64.
* ``mpN`` arrays are NumPy object arrays of ``mpf`` numbers of a private
  mpmath context at N digits; the numbers carry that context, so plain NumPy
  arithmetic on them runs at N digits.  Do not mix NumPy float scalars into
  them (NumPy would coerce the result to float64): use ``p.scalar``.
"""
from __future__ import annotations

import copyreg
import re
import warnings
from abc import ABC, abstractmethod
from contextlib import nullcontext
from functools import lru_cache

import mpmath
import numpy as np
import scipy.linalg
import scipy.special
from scipy.linalg import lapack

from . import flint_engine as _flint, flint_mrsr as _flint_mrsr, _generic
from ..core.validation import as_matrix, check_finite, check_real, check_square, check_symmetric
from ..core.exceptions import (CholeskyBreakdownError, EigenConvergenceError, LUBreakdownError,
                               UnknownPrecisionError)
from ..core.records import CholeskyBreakdown, LUBreakdown

__all__ = ["Precision", "MPPrecision", "precisions", "get_precision", "precision_of", "DEFAULT_MP_DIGITS",
           "MIN_MP_DIGITS", "MAX_MP_DIGITS", "MP_ENGINES", "LONGDOUBLE_EIG_DIGITS"]

DEFAULT_MP_DIGITS = 50
#: Bounds of N in "mpN".  Below 5 digits mpmath's conversions round more than a
#: float32; above 1000 every O(n^3) generic factorization of the package takes
#: hours even at n = 50 (mpmath's cost grows like digits^1.6), so such a request
#: is a typo, not an experiment.
MIN_MP_DIGITS = 5
MAX_MP_DIGITS = 1000
#: Digits of the mpmath eigensolver of longdouble (> the 19.3 of its 64-bit significand).
LONGDOUBLE_EIG_DIGITS = 21
_MP_NAME = re.compile(r"^mp(\d+)$")
#: Engines of the mpN primitives: FLINT (the default when it loads) and mpmath's generic code.
MP_ENGINES = ("flint", "mpmath")


class Precision(ABC):
    """One arithmetic: its dtype, unit roundoff and the primitives that differ.

    Attributes
    ----------
    name : str
    dtype : numpy.dtype
    unit_roundoff : float
        u = 2^-t for a t-bit significand (round to nearest).
    digits : float
        -log10(u), the decimal digits the arithmetic carries.
    """

    name: str
    dtype: np.dtype
    unit_roundoff: float
    #: True for the IEEE precisions LAPACK computes in (timed in benchmarks);
    #: False for the generic NumPy loops (longdouble, mpN).
    hardware: bool = False
    #: True where the arrays have a NumPy floating dtype (float32, float64,
    #: longdouble: NumPy's and SciPy's ufuncs have loops for it); False for the
    #: object arrays of mpN.
    native: bool = False

    @property
    def digits(self) -> float:
        return float(-np.log10(self.unit_roundoff))

    def __repr__(self) -> str:
        return f"<Precision {self.name}: u={self.unit_roundoff:.3g}>"

    def __reduce__(self):  # pickle by name: workers rebuild from the registry
        return (get_precision, (self.name,))

    # -- conversion -------------------------------------------------------
    @abstractmethod
    def asarray(self, a) -> np.ndarray:
        """Convert ``a`` into this precision (exact from float64, except float32)."""

    @abstractmethod
    def to_float64(self, a) -> np.ndarray:
        """Round an array of this precision to float64."""

    def scalar(self, x):
        """A scalar of this precision (use instead of NumPy float scalars)."""
        return self.asarray(np.asarray([x]))[0]

    def zeros(self, shape) -> np.ndarray:
        return self.asarray(np.zeros(shape))

    def eye(self, n: int) -> np.ndarray:
        return self.asarray(np.eye(n))

    def context(self):
        """Context in which library code that uses global state runs (no-op but for mp)."""
        return nullcontext()

    def reciprocal(self, C):
        """1/C in this precision, the one place the regularization weight is inverted.

        Divided in the precision itself (longdouble and mp keep every digit of a
        float64 C); for float32 the float64 quotient is rounded once, so that a C
        beyond float32's range (C > 3.4e38) gives a tiny 1/C instead of 1/inf = 0.
        """
        if self.dtype == np.float32:
            return self.scalar(1.0 / float(C))
        return self.scalar(1.0) / self.scalar(float(C))

    # -- elementwise --------------------------------------------------------
    @abstractmethod
    def exp(self, a) -> np.ndarray: ...

    @abstractmethod
    def sqrt(self, a) -> np.ndarray: ...

    def expit(self, z) -> np.ndarray:
        """1 / (1 + e^-z) elementwise without overflow: 1/(1+e^-z) or e^z/(1+e^z), whichever
        exponent is <= 0 (native dtypes: ``scipy.special.expit``, which has their loops)."""
        zero, one = self.scalar(0), self.scalar(1)
        ez = self.exp(-np.abs(z))
        return np.where(z >= zero, one / (one + ez), ez / (one + ez))

    def nonzero(self, a) -> np.ndarray:
        """Boolean mask of the entries of ``a`` that are not zero."""
        return np.array([v != 0 for v in np.ravel(a)], dtype=bool).reshape(np.shape(a))

    def isinf(self, a) -> np.ndarray:
        """Boolean mask of the infinite entries of ``a``."""
        return np.array([abs(v) == np.inf for v in np.ravel(a)], dtype=bool).reshape(np.shape(a))

    def column_sumsq(self, K) -> np.ndarray:
        """sum_i K_ij^2 for each column j (native dtypes: one einsum pass, no K * K temporary)."""
        return (K * K).sum(axis=0)

    # -- dense linear algebra ---------------------------------------------
    def cholesky(self, A, *, check: bool = True, overwrite: bool = False) -> np.ndarray:
        """Lower Cholesky factor L with A = L L^T, in this precision's dtype.

        Parameters
        ----------
        A : (n, n) array_like
            Symmetric positive definite; converted with ``asarray``.  Only the lower
            triangle is read (LAPACK's ``uplo='L'``, as ``scipy.linalg.cholesky(lower=True)``).
        check : bool
            Validate shape, symmetry and finiteness first (O(n^2)).  Symmetry is
            checked to within n u max|A| (``_validation.check_symmetric``: the
            antisymmetric part a one-triangle read discards is then inside
            Cholesky's own backward error), u the coarser of A's format and this
            precision, so a matrix symmetric up to rounding is factored.  With
            ``check=False`` A is taken as exactly symmetric (either triangle may
            be read).
        overwrite : bool, keyword-only
            Allow float32 / float64 to factor A in place when it is a C- or
            F-contiguous array of this dtype (no n x n copy, no cleaning pass):
            L then shares A's memory and its strict upper triangle still holds
            A's entries, so use it only with ``cho_solve`` / ``solve_triangular(
            lower=True)``, which read the lower triangle.  A is destroyed, also
            on a breakdown.  Ignored by longdouble and mpN (always a new L), and
            by a C-ordered A that is symmetric only to within the tolerance
            (it is copied so that its lower triangle is the one read).

        Raises
        ------
        CholeskyBreakdownError
            ``.record`` has the 0-based step, the pivot a_kk - ||l_k||^2, n
            and the precision name.
        ValueError, TypeError
            Not square, not symmetric, NaN/inf, empty, not real.
        """
        exact = True
        if check:  # the caller's numbers: rounding to float32 must not symmetrize them
            A0 = as_matrix(A, "A")
            check_square(A0, "A")
            exact = check_symmetric(A0, "A", self)  # says NaN when a NaN breaks the symmetry
        A = self._prepare(A, "A", check=check, symmetric=False, finite=not self._factor_checks_finite)
        if not exact and not A.flags.f_contiguous:
            # LAPACK reads the lower triangle of a Fortran array; the fast path of a C-ordered A
            # hands it A.T, i.e. A's upper triangle, which is the same matrix only when A is
            # exactly symmetric.  A copy keeps the factor the one of A's lower triangle.
            A = np.asfortranarray(A)
        return self._cholesky(A, overwrite=overwrite)

    #: True where ``_cholesky`` itself tells non-finite input from a breakdown,
    #: so ``cholesky`` can skip the O(n^2) finiteness pass.
    _factor_checks_finite = False

    def _prepare(self, A, name, *, check, symmetric, finite=True):
        A = as_matrix(A, name)
        if check:
            check_square(A, name)
        Ap = self._convert(A, name)
        if check:
            if symmetric:  # the caller's numbers: rounding to float32 must not symmetrize them
                check_symmetric(A, name, self)  # says NaN when a NaN breaks the symmetry
            if finite:
                check_finite(Ap, name)  # inf == inf passes check_symmetric; float32 may overflow
        return Ap

    def _convert(self, a, name):
        """``asarray`` with a named TypeError for object entries that are not real numbers."""
        try:
            return self.asarray(a)
        except (TypeError, ValueError) as exc:
            raise TypeError(f"expected real numbers in {name}, got a non-real entry in {name}: {exc}") from None

    def _prepare_rhs(self, b, n, name="b"):
        """Right-hand side of an n x n system: shape (n,) or (n, k), real and finite."""
        b = np.asarray(b)
        check_real(b, name)
        if b.ndim not in (1, 2) or b.shape[0] != n or b.size == 0:
            raise ValueError(f"expected {name} of shape ({n},) or ({n}, k), got {name}.shape={b.shape}")
        b = self._convert(b, name)
        check_finite(b, name)
        return b

    @abstractmethod
    def _cholesky(self, A, *, overwrite=False) -> np.ndarray: ...

    @abstractmethod
    def solve_triangular(self, T, b, *, lower: bool = True, trans: bool = False) -> np.ndarray:
        """Solve op(T) x = b with T triangular, op(T) = T or T^T."""

    def cho_solve(self, L, b) -> np.ndarray:
        """Solve (L L^T) x = b given the lower Cholesky factor L."""
        y = self.solve_triangular(L, b, lower=True, trans=False)
        return self.solve_triangular(L, y, lower=True, trans=True)

    @abstractmethod
    def solve(self, A, b, *, overwrite: bool = False) -> np.ndarray:
        """Solve a general (e.g. symmetric indefinite KKT) system by LU with partial pivoting.

        ``b`` has shape (n,) or (n, k).  Raises ValueError / TypeError (naming A or b)
        for a bad A or b, :class:`LUBreakdownError` (a ``LinAlgError`` whose
        ``.record`` is an :class:`LUBreakdown`: step, pivot, n, precision) when a
        pivot u_kk is exactly zero or not finite in this arithmetic.
        ``overwrite=True`` lets float32 / float64 factor a C- or F-contiguous A of
        this dtype in place (its LU factors replace it; no n x n copy); longdouble
        and mpN ignore it.
        """

    @abstractmethod
    def eigvalsh(self, A) -> np.ndarray:
        """Eigenvalues of a symmetric matrix, ascending, in this precision's dtype."""

    def eigh(self, A, *, check: bool = True) -> tuple[np.ndarray, np.ndarray]:
        """Eigenvalues (ascending) and eigenvectors (columns) of a symmetric matrix, in this dtype.

        LAPACK syevd for float32 / float64; FLINT for mpN (:meth:`MPPrecision.eigh`);
        mpmath ``eigsy`` otherwise, at the digits of :meth:`_eig_precision` (21 digits
        for longdouble, as :meth:`eigvalsh`; the mp precision itself for the mpmath engine).  ``check=False`` takes A as symmetric
        and finite (a matrix the caller formed): no O(n^2) validation pass.
        """
        if check:
            A = self._prepare(A, "A", check=True, symmetric=True)
        mp = self._eig_precision()
        with mp.context():
            E, Q = _eigsy(mp.ctx, mp.asarray(A), self.name)
            n = A.shape[0]
            order = sorted(range(n), key=lambda i: E[i])
            w = np.array([E[i] for i in order], dtype=object)
            U = np.array([[Q[r, i] for i in order] for r in range(n)], dtype=object)
        return self.asarray(w), self.asarray(U)

    def _eig_precision(self) -> "MPPrecision":
        """The mp precision whose ``eigsy`` computes this precision's eigenproblems."""
        return self

    def matmul(self, A, B) -> np.ndarray:
        """A @ B in this precision (BLAS for float32/64, FLINT for mpN, NumPy loops otherwise)."""
        return np.matmul(self.asarray(A), self.asarray(B))

    def operator(self, A):
        """The product V -> A @ V for a fixed matrix A of this precision, for repeated use.

        CG applies one matrix to a new block of directions every iteration: the
        engine converts A once (mpN: FLINT's form kept by the closure) instead
        of once per product.  For the LAPACK and NumPy-loop precisions it is
        ``A.__matmul__`` itself, so their products are those of ``A @ V``.
        """
        return self.asarray(A).__matmul__

    def rank_one_sum(self, H) -> np.ndarray:
        """sum_i h_i h_i^T over the rows h_i of H (m x n), as m rank-one updates in row order.

        ``A += numpy.outer(h, h)`` from A = 0: every product and every addition rounded once
        in this precision (Abe's "sum of outer products" formation, deliberately not a
        product H^T H).  mpN on FLINT: the same operations on FLINT matrices
        (:func:`_flint.rank_one_sum`).
        """
        H = self.asarray(H)
        A = self.zeros((H.shape[1], H.shape[1]))
        for h in H:
            A += np.outer(h, h)
        return A

    def krylov(self, A):
        """The space a Krylov recurrence (CG) runs in, for the fixed matrix A of this precision.

        It gives the recurrence its vectors (``vector(b)``, ``zeros(n)``), its scalars
        (``scalar(x)``), the products with A of a list of vectors (``apply``), the final
        vector as an array of this precision (``array``) and the ``context()`` the
        arithmetic runs in; the recurrence itself is written once with NumPy's operators
        (``+``, ``-``, scalar ``*``, ``@`` for dot products, comparisons, ``float``).
        A may be a function V -> A @ V of this precision's (n, k) arrays (then the
        precision's arrays serve, whatever the engine).
        Here: the precision's own arrays, with :meth:`operator`'s product, so the
        operations are those of the arrays themselves.  mpN on FLINT keeps the vectors
        and scalars in FLINT between the steps (:class:`_flint.Krylov`).
        """
        return _ArrayKrylov(self, A if callable(A) else self.operator(A))

    def keep(self, A) -> np.ndarray:
        """A (in this precision) for many products with A or A.T (:meth:`matmul`).

        mpN: a read-only copy whose FLINT form is kept beside it, so each
        product converts only the other operand.  The other precisions return
        ``self.asarray(A)`` itself (their products are unchanged).
        """
        return self.asarray(A)

    def center_columns(self, A, *, overwrite: bool = False):
        """(A_c, mu): the column means mu = A^T e / m and A_c = A - e mu^T, kept (:meth:`keep`).

        The column sums are NumPy's reduction in this precision, divided by m;
        ``overwrite=True`` centres A in place (A_c is A).  mpN (FLINT): each sum
        is one product with a row of ones (one rounding) and each entry of A_c
        one subtraction in FLINT, A_c returned with its FLINT form kept: no pass
        of 2 m r mpmath operations, and A is left as it is.
        """
        m = A.shape[0]
        mu = np.sum(A, axis=0) / self.scalar(m)
        if overwrite:
            A -= mu
        return self.keep(A if overwrite else A - mu), mu

    def diagonal_factorizer(self, G):
        """Cholesky factorizations of matrices that differ from G only on the diagonal.

        Returns ``f(A) -> CholeskyBreakdown | None``: the breakdown record of
        ``self.cholesky(A)``, or None when it succeeds (the factor is not
        returned).  A's strict lower triangle must be G's (a ridge path: G + I/C
        for many C).  mpN: G's FLINT form is made once and A's diagonal written
        into a copy of it, so a call converts n numbers instead of n^2/2 and
        none back; the other precisions call :meth:`cholesky` on A.
        """
        def factor(A):
            try:
                self.cholesky(A)
            except CholeskyBreakdownError as err:
                return err.record
            return None
        return factor

    def panel(self, G):
        """G (an array of this precision) for a recurrence that writes its columns one by one
        and multiplies by its leading ones: ``.set(r, g)`` is ``G[:, r] = g``,
        ``.times_row(r, j)`` is ``self.matmul(G[:, :r], G[j, :r])``.

        mpN: each column is also kept in FLINT when written (:class:`_flint.Panel`), so a
        product converts no column again; the other precisions read G itself.
        """
        return _Panel(G, self)

    def keep_columns(self, A, cols, previous=None) -> np.ndarray:
        """``A[:, cols]`` for many products, as :meth:`keep` (mpN: the FLINT form of each column is
        copied from ``A``'s when ``A`` was kept, nothing converted; ``previous``, an earlier
        ``keep_columns(A, cols[:j])`` of a column set grown by appending, gives the first j
        columns in one copy).  Others: ``A[:, cols]``."""
        return self.asarray(A)[:, cols]

    def keep_prefix(self, A, k: int, previous=None) -> np.ndarray:
        """``A[:, :k]`` for many products, as :meth:`keep`, for a matrix whose columns are filled in
        order (a growing factor).  ``previous``: an earlier ``keep_prefix(A, j)`` whose columns
        have not changed since; mpN reuses its FLINT form and converts only columns j..k-1.
        Others: the view ``A[:, :k]``."""
        return self.asarray(A)[:, :k]

    def bordered_inverse(self, inv, m2, ps) -> np.ndarray:
        """The inverse of a Gram matrix bordered by one column (Orr 1996), as the reference codes
        of MRSR and PRESS update it: with inv = G^{-1}, m2 = G^{-1} g and the Schur scalar
        ps = c - g^T m2 of [[G, g], [g^T, c]],

            [[inv + m2 m2^T / ps, -m2 / ps], [-m2^T / ps, 1 / ps]],

        each entry one product, one quotient and one sum in this precision (mpN: on FLINT
        matrices, the result kept for products as :meth:`keep`).  k = len(m2) may be 0."""
        k = len(m2)
        new = self.zeros((k + 1, k + 1))
        if k:
            new[:k, :k] = inv + np.multiply.outer(m2, m2) / ps
        new[:k, k] = -m2 / ps
        new[k, :k] = -m2 / ps
        new[k, k] = self.scalar(1) / ps
        return new

    def householder_engine(self, A, b=None):
        """(R, (Q^T b)[:n]) of :func:`~lssvm_analysis.linalg.qr.householder_qr` computed by an
        engine of this precision (mpN with FLINT), or None: the generic NumPy code runs."""
        return None

    def keep_leading(self, A, k: int, previous=None) -> np.ndarray:
        """``A[:k, :k]`` for many solves or products, as :meth:`keep`, for a matrix that grows by a
        border (a triangular factor); ``previous`` as in :meth:`keep_prefix` (mpN converts only
        the border).  Others: the view ``A[:k, :k]``."""
        return self.asarray(A)[:k, :k]

    def rbf_kernel_exact(self, Xp, Zp, sigma2):
        """exp(-||x - z||^2 / sigma2) from exactly computed squared distances, by an engine of
        this precision (mpN with FLINT), or None: then :mod:`~lssvm_analysis.linalg.kernels`
        forms the distances itself.  Xp, Zp in this precision (Zp None: K(X, X))."""
        return None

    def pivoted_rbf(self, Xp, sigma2, rank, *, clamp, keep_columns):
        """The state of a greedy pivoted Cholesky of the RBF kernel of Xp kept by an engine of this
        precision (mpN with FLINT: :class:`_flint.PivotedRBF`), or None: then
        :func:`~lssvm_analysis.linalg.incomplete_cholesky.pivoted_cholesky` keeps it in NumPy arrays.
        Xp (m, d) and sigma2 in this precision; ``rank`` columns at most."""
        return None

    def qr_engine(self, n: int, capacity: int):
        """A column-append QR factor kept by an engine of this precision (mpN with FLINT:
        :class:`_flint_mrsr.ColumnQR`), or None: then :func:`~lssvm_analysis.linalg.mrsr.column_qr`
        gives the NumPy :class:`~lssvm_analysis.linalg.mrsr.ColumnQR`."""
        return None

    def mrsr_engine(self, Xp, Tp, scale, capacity: int, variant: str):
        """The per-step state of :func:`~lssvm_analysis.linalg.mrsr.mrsr` kept by an engine of this
        precision (mpN with FLINT: :class:`_flint_mrsr.MRSRState`, which divides the columns of
        Xp by ``scale``, None for none, itself), or None: the NumPy state."""
        return None

    def press_engine(self, D, l, capacity: int, variant: str):
        """The hat diagonal and residuals of :func:`~lssvm_analysis.solvers.press.press_curve`
        kept by an engine of this precision (mpN with FLINT: :class:`_flint_mrsr.PressState`),
        or None: the NumPy state."""
        return None

    def scale_signs(self, H, s, *, block: int = 16) -> None:
        """H_kl <- s_k s_l H_kl in place for labels s = +-1 (exact: sign flips), by blocks of rows
        (no N x N temporary).  mpN: only the entries with s_k != s_l are negated (the products
        by +-1 are those negations, bit for bit, at a fraction of the mpmath calls)."""
        for i0 in range(0, H.shape[0], block):
            H[i0:i0 + block] *= np.multiply.outer(s[i0:i0 + block], s)

    def project_out(self, A, q, *, passes: int = 2) -> np.ndarray:
        """A <- A - q (q^T A), ``passes`` times (q a unit vector; two passes: CGS2, "twice is
        enough"): each pass one product q^T A (:meth:`matmul`) and, per entry, one product and one
        difference in this precision, as ``A - np.multiply.outer(q, q @ A)`` (mpN with FLINT: on
        ``arb_mat`` throughout, the result kept for products as :meth:`keep`)."""
        for _ in range(passes):
            A = A - np.multiply.outer(q, self.matmul(q, A))
        return A

    def column_norms(self, A) -> np.ndarray:
        """sqrt(sum_i A_ij^2) for each column j: ``sqrt((A * A).sum(axis=0))`` (mpN with FLINT: the
        squares rounded once each, each sum one ``arb_mat_approx_mul`` with a row of ones)."""
        return self.sqrt((A * A).sum(axis=0))

    def divide_columns(self, A, s) -> np.ndarray:
        """A / s (column j divided by s_j, each entry one quotient), as NumPy's ``A / s`` (mpN with
        FLINT: on ``arb_mat``, the result kept for products as :meth:`keep`)."""
        return A / s


class _Panel:
    """:meth:`Precision.panel` on the array itself (products by :meth:`Precision.matmul`)."""

    def __init__(self, G, p):
        self.G, self.p = G, p

    def set(self, r, g):
        self.G[:, r] = g

    def times_row(self, r, j):
        return self.p.matmul(self.G[:, :r], self.G[j, :r])


class _ArrayKrylov:
    """:meth:`Precision.krylov` on the precision's arrays (the operations of NumPy's operators
    on them; the product of A with the stacked vectors by ``matvec``)."""

    def __init__(self, p, matvec):
        self.p, self.matvec = p, matvec

    def context(self):
        return nullcontext()

    def vector(self, b):
        return self.p.asarray(b).copy()

    def zeros(self, n):
        return self.p.zeros(n)

    def scalar(self, x):
        return self.p.scalar(x)

    def apply(self, vectors):
        AP = self.matvec(np.stack(vectors, axis=1))
        return [AP[:, j] for j in range(AP.shape[1])]

    def array(self, v):
        return v


class _NativeDtype:
    """NumPy's own loops for the precisions with a native dtype (float32, float64, longdouble)."""

    native = True

    def to_float64(self, a):
        return np.asarray(a, dtype=np.float64)

    def expit(self, z):
        return scipy.special.expit(z)

    def nonzero(self, a):
        return np.asarray(a) != 0

    def isinf(self, a):
        return np.isinf(a)

    def column_sumsq(self, K):
        return np.einsum("ij,ij->j", K, K)

    def exp(self, a):
        return np.exp(self.asarray(a))

    def sqrt(self, a):
        return np.sqrt(self.asarray(a))


class LapackPrecision(_NativeDtype, Precision):
    """IEEE single or double precision, backed by LAPACK through SciPy."""

    hardware = True

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

    def eigvalsh(self, A):
        A = self._prepare(A, "A", check=True, symmetric=True)
        return scipy.linalg.eigvalsh(A, check_finite=False).astype(self.dtype, copy=False)

    def eigh(self, A, *, check=True):
        if check:
            A = self._prepare(A, "A", check=True, symmetric=True)
        w, U = scipy.linalg.eigh(A, check_finite=False)
        return w.astype(self.dtype, copy=False), U.astype(self.dtype, copy=False)


class _GenericPrecision(Precision):
    """Shared code of the precisions that run NumPy's generic loops."""

    def _cholesky(self, A, *, overwrite=False):  # no BLAS: always a new factor
        return _generic.cholesky(A, sqrt=self._sqrt1, zero=self.scalar(0), precision=self.name)

    def solve_triangular(self, T, b, *, lower=True, trans=False):
        return _generic.solve_triangular(self.asarray(T), self.asarray(b), lower=lower, trans=trans)

    def lu_factor(self, A, *, overwrite=False):
        """(packed LU, row permutation) of the prepared square A; LUBreakdownError on a zero pivot."""
        return _generic.lu_factor(A, precision=self.name)

    def lu_solve(self, LU, perm, b, *, trans=False):
        """x with A x = b (``trans``: A^T x = b) from ``lu_factor``'s (LU, perm), A[perm] = L U."""
        b = self.asarray(b)
        if not trans:
            return _generic.lu_solve(LU, perm, b)
        w = _generic.solve_triangular(LU, b, lower=False, trans=True)
        v = _generic.solve_triangular(LU, w, lower=True, trans=True, unit=True)
        x = np.empty_like(v)
        x[perm] = v
        return x

    def solve(self, A, b, *, overwrite=False):
        A = self._prepare(A, "A", check=True, symmetric=False)
        b = self._prepare_rhs(b, A.shape[0])
        LU, perm = self.lu_factor(A)
        return self.lu_solve(LU, perm, b)


class LongDoublePrecision(_NativeDtype, _GenericPrecision):
    """x87 80-bit extended (64-bit significand) through NumPy's longdouble loops."""

    def __init__(self):
        self.dtype = np.dtype(np.longdouble)
        self.name = "longdouble"
        self.unit_roundoff = float(np.finfo(np.longdouble).eps) / 2

    def asarray(self, a):
        a = np.asarray(a)
        if a.dtype == object:
            return np.array([_mpf_to_longdouble(v) for v in a.flat], dtype=self.dtype).reshape(a.shape)
        return a.astype(self.dtype, copy=False)


    def _sqrt1(self, x):
        return np.sqrt(x)

    def eigvalsh(self, A):
        """mpmath ``eigsy`` at 21 digits (> the 19.3 of the 64-bit significand)."""
        A = self._prepare(A, "A", check=True, symmetric=True)
        mp = self._eig_precision()
        return self.asarray(mp.eigvalsh(mp.asarray(A)))

    def _eig_precision(self):
        # mpmath's eigsy itself, not FLINT's: longdouble's eigenvalues stay as they were
        return _mp_engine(LONGDOUBLE_EIG_DIGITS, "mpmath")


def _eigsy(ctx, A, name, **kw):
    """mpmath's ``eigsy`` of the object array A; its RuntimeError (no convergence of the QL
    iteration, e.g. a poly kernel of X ~ 1e114 in longdouble) as an EigenConvergenceError."""
    try:
        return ctx.eigsy(ctx.matrix(A.tolist()), **kw)
    except RuntimeError as err:
        raise EigenConvergenceError(f"symmetric eigensolver did not converge in {name} for an "
                                    f"{A.shape[0]} x {A.shape[0]} matrix: {err}", n=A.shape[0],
                                    precision=name) from err


def _reduce_mpf(v):
    """Pickle an mpf exactly: mpmath's ``__reduce__`` rebuilds it in the global context at its
    current precision (53 bits by default), which rounded an mp50 model to float64 in transit."""
    ctx = v.context
    return _rebuild_mpf, (None if ctx is mpmath.mp else ctx.dps, v._mpf_)


def _rebuild_mpf(dps, mpf_tuple):
    """The mpf of the raw (sign, man, exp, bc) tuple, unrounded, in the context it came from."""
    ctx = mpmath.mp if dps is None else get_precision(f"mp{dps}").ctx
    return ctx.make_mpf(mpf_tuple)


copyreg.pickle(mpmath.mp.mpf, _reduce_mpf)  # values made under ``workdps`` in the global context


def _mpf_to_longdouble(v) -> np.longdouble:
    hi = float(v)
    return np.longdouble(hi) + np.longdouble(float(v - hi)) if np.isfinite(hi) else np.longdouble(hi)


def _npconvert_of(ctx):
    """``ctx.npconvert`` that refuses an array without printing it first.

    ``mpf * ndarray`` asks the context to convert the array; mpmath's
    ``npconvert`` raises TypeError with ``repr(array)`` in the message, and
    only then does NumPy multiply elementwise (``mpf * a_i``, the same
    products).  The repr of an n-vector of mpf costs ~25 us per entry: half
    the CPU of an mp50 CG fit at n = 60 went to messages nobody reads.
    """
    convert = ctx.npconvert

    def npconvert(x):
        if isinstance(x, np.ndarray) and x.ndim:
            raise TypeError(f"cannot create mpf from an array of shape {x.shape}")
        return convert(x)

    return npconvert


class MPPrecision(_GenericPrecision):
    """mpmath numbers at ``dps`` significant decimal digits (object arrays of mpf).

    Parameters
    ----------
    dps : int
    engine : {"flint", "mpmath"}, keyword-only
        Who computes the primitives (module docstring): FLINT at the context's
        bits (default; the generic code when libflint cannot be loaded) or
        mpmath's generic NumPy loops.  The numbers and the arithmetic
        (N-digit rounding of every operation) are the same; the order of the
        roundings inside a product or factorization differs.
    """

    def __init__(self, dps: int, *, engine: str = "flint"):
        if engine not in MP_ENGINES:
            raise ValueError(f"expected engine in {MP_ENGINES}, got engine={engine!r}")
        self.ctx = mpmath.MPContext()
        self.ctx.dps = int(dps)
        self.dps = int(dps)
        self.name = f"mp{self.dps}"
        self.dtype = np.dtype(object)
        self.unit_roundoff = float(mpmath.mpf(2) ** (-self.ctx.prec))
        self.engine = engine if _flint.AVAILABLE else "mpmath"
        self._flint = self.engine == "flint"
        self._exp = np.frompyfunc(self.ctx.exp, 1, 1)
        self._sqrt = np.frompyfunc(self.ctx.sqrt, 1, 1)
        self._conv = np.frompyfunc(self._convert1, 1, 1)
        self.ctx.npconvert = _npconvert_of(self.ctx)
        self._zero = self.ctx.mpf(0)
        copyreg.pickle(self.ctx.mpf, _reduce_mpf)  # pickle every digit (mpmath's own reduce rounds)

    def __repr__(self) -> str:
        return f"<Precision {self.name}: u={self.unit_roundoff:.3g}, engine={self.engine}>"

    def __reduce__(self):  # the registry's object by name; another engine rebuilt as such
        if self.engine == "flint" or not _flint.AVAILABLE:
            return super().__reduce__()
        return (_mp_engine, (self.dps, self.engine))

    # -- primitives served by FLINT (the generic code with engine="mpmath") ----------
    def _fl(self):
        return {"prec": self.ctx.prec, "ctx": self.ctx}

    def _cholesky(self, A, *, overwrite=False):
        if not self._flint:
            return super()._cholesky(A)
        return _flint.cholesky(A, name=self.name, zero=self.scalar(0), **self._fl())

    def solve_triangular(self, T, b, *, lower=True, trans=False):
        if not self._flint:
            return super().solve_triangular(T, b, lower=lower, trans=trans)
        return _flint.solve_triangular(T, self.asarray(b), lower=lower, trans=trans, **self._fl())

    def lu_factor(self, A, *, overwrite=False):
        if not self._flint:
            return super().lu_factor(A)
        return _flint.lu_factor(self.asarray(A), name=self.name, **self._fl())

    def lu_solve(self, LU, perm, b, *, trans=False):
        if not self._flint:
            return super().lu_solve(LU, perm, b, trans=trans)
        return _flint.lu_solve(LU, perm, self.asarray(b), trans=trans, **self._fl())

    def matmul(self, A, B):
        if not self._flint:
            return super().matmul(A, B)
        return _flint.matmul(self.asarray(A), self.asarray(B), **self._fl())

    def operator(self, A):
        """V -> A @ V with A converted to FLINT once (:func:`_flint.operator`); each product
        rounds every entry once, as :meth:`matmul` does."""
        if not self._flint:
            return super().operator(A)
        return _flint.operator(self.asarray(A), **self._fl())

    def column_sumsq(self, K):
        """:func:`_flint.column_sumsq` (each square and each column sum rounded once), or the
        generic (K * K).sum(axis=0) with the mpmath engine."""
        if not self._flint:
            return super().column_sumsq(K)
        return _flint.column_sumsq(self.asarray(K), **self._fl())

    def rank_one_sum(self, H):
        if not self._flint:
            return super().rank_one_sum(H)
        return _flint.rank_one_sum(self.asarray(H), **self._fl())

    def krylov(self, A):
        """:class:`_flint.Krylov` (vectors and scalars kept in FLINT between the steps, A
        converted once), or the generic space with the mpmath engine."""
        if not self._flint or callable(A):
            return super().krylov(A)
        return _flint.Krylov(self.asarray(A), **self._fl())

    def keep(self, A):
        if not self._flint:
            return super().keep(A)
        return _flint.keep(self.asarray(A))

    def center_columns(self, A, *, overwrite=False):
        """:func:`_flint.center_columns` (A is never written), or the generic code with mpmath."""
        if not self._flint:
            return super().center_columns(A, overwrite=overwrite)
        return _flint.center_columns(self.asarray(A), **self._fl())

    def diagonal_factorizer(self, G):
        """:class:`_flint.DiagonalFactorizer` on G, checked once (finite; only its lower triangle,
        the one a factorization reads, is used)."""
        if not self._flint:
            return super().diagonal_factorizer(G)
        G = self._prepare(G, "G", check=True, symmetric=False)
        return _flint.DiagonalFactorizer(G, prec=self.ctx.prec, name=self.name)

    def panel(self, G):
        if not self._flint:
            return super().panel(G)
        return _flint.Panel(G, **self._fl())

    def keep_columns(self, A, cols, previous=None):
        if not self._flint:
            return super().keep_columns(A, cols, previous)
        return _flint.keep_columns(self.asarray(A), cols, previous)

    def keep_prefix(self, A, k, previous=None):
        if not self._flint:
            return super().keep_prefix(A, k, previous)
        return _flint.keep_prefix(self.asarray(A), k, previous)

    def bordered_inverse(self, inv, m2, ps):
        if not self._flint:
            return super().bordered_inverse(inv, m2, ps)
        return _flint.bordered_inverse(inv, self.asarray(m2), ps, **self._fl())

    def householder_engine(self, A, b=None):
        """The same reflections on FLINT matrices (:func:`_flint.householder_qr`), or None with
        the mpmath engine."""
        if not self._flint:
            return None
        return _flint.householder_qr(self.asarray(A), None if b is None else self.asarray(b),
                                     zero=self.scalar(0), **self._fl())

    def keep_leading(self, A, k, previous=None):
        if not self._flint:
            return super().keep_leading(A, k, previous)
        return _flint.keep_leading(self.asarray(A), k, previous)

    def rbf_kernel_exact(self, Xp, Zp, sigma2):
        """:func:`_flint.rbf` (exact squared distances, one rounding in the division, one in
        exp), or None with the mpmath engine."""
        if not self._flint:
            return None
        return _flint.rbf(Xp, Zp, sigma2, **self._fl())

    def pivoted_rbf(self, Xp, sigma2, rank, *, clamp, keep_columns):
        """:class:`_flint.PivotedRBF` (G and the residual diagonal stay in FLINT between the steps;
        the kernel columns are :meth:`rbf_kernel_exact`'s), or None with the mpmath engine."""
        if not self._flint:
            return None
        return _flint.PivotedRBF(Xp, sigma2, rank, clamp=clamp, keep_columns=keep_columns, **self._fl())

    def _engine(self):
        return {**self._fl(), "unit_roundoff": self.unit_roundoff}

    def qr_engine(self, n, capacity):
        return _flint_mrsr.ColumnQR(n, capacity, **self._engine()) if self._flint else None

    def mrsr_engine(self, Xp, Tp, scale, capacity, variant):
        if not self._flint:
            return None
        return _flint_mrsr.MRSRState(Xp, Tp, scale, capacity, variant, **self._engine())

    def press_engine(self, D, l, capacity, variant):
        if not self._flint:
            return None
        return _flint_mrsr.PressState(D, self.asarray(l), capacity, variant, **self._engine())

    def scale_signs(self, H, s, *, block=16):
        neg = self.to_float64(s) < 0
        if not np.all(np.abs(self.to_float64(s)) == 1):   # not labels: the products themselves
            return super().scale_signs(H, s, block=block)
        negate = np.frompyfunc(self._negate1, 1, 1)
        for i0 in range(0, H.shape[0], block):
            rows = H[i0:i0 + block]
            flip = np.not_equal.outer(neg[i0:i0 + block], neg)
            rows[flip] = negate(rows[flip])

    def _negate1(self, v):
        """-v for an mpf of this context: its (sign, man, exp, bc) with the sign flipped (exact, as
        mpmath's negation of a number already at the context's precision; 0 stays 0)."""
        sign, man, exp, bc = v._mpf_
        if not man:
            return -v   # 0, inf, nan: mpmath's own
        out = object.__new__(self.ctx.mpf)
        out._mpf_ = (sign ^ 1, man, exp, bc)
        return out

    def zeros(self, shape):
        """An object array of one shared mpf 0 (mpf are immutable: the array's writes replace it)."""
        return np.full(shape, self._zero, dtype=object)

    def project_out(self, A, q, *, passes=2):
        if not self._flint:
            return super().project_out(A, q, passes=passes)
        return _flint_mrsr.project_out(self.asarray(A), self.asarray(q), passes, **self._fl())

    def column_norms(self, A):
        if not self._flint:
            return super().column_norms(A)
        return _flint_mrsr.column_norms(self.asarray(A), **self._fl())

    def divide_columns(self, A, s):
        if not self._flint:
            return super().divide_columns(A, s)
        return _flint_mrsr.divide_columns(self.asarray(A), self.asarray(s), **self._fl())

    def eye(self, n):
        out = self.zeros((n, n))
        np.fill_diagonal(out, self.ctx.mpf(1))
        return out

    def scalar(self, x):
        """A Python float, or an int below 2^53 in magnitude, converted directly (exactly, as
        :meth:`asarray` converts it); anything else as :meth:`asarray` does."""
        if type(x) is float or (type(x) is int and abs(x) < 2 ** 53):
            return self.ctx.mpf(x)
        return super().scalar(x)

    def _convert1(self, v):
        if isinstance(v, np.longdouble):  # exact: split into two float64
            hi = float(v)
            return self.ctx.mpf(hi) + self.ctx.mpf(float(v - np.longdouble(hi)))
        if isinstance(v, (np.floating, np.integer)):
            v = v.item()
        return self.ctx.mpf(v)

    def asarray(self, a):
        a = np.asarray(a)
        if a.dtype == object and a.size and isinstance(a.flat[0], self.ctx.mpf):
            return a
        if a.dtype.kind in "iu" and a.size and np.abs(a).max() < 2 ** 53 or a.dtype.kind == "f" and \
                a.dtype.itemsize <= 8:
            return _flint.from_float64(a, self.ctx)  # exact, ~1 us per entry
        out = self._conv(a)
        return np.asarray(out, dtype=object) if isinstance(out, np.ndarray) else np.array(out, dtype=object)

    def to_float64(self, a):
        a = np.asarray(a)
        if a.dtype == object and a.size:
            try:
                return _flint.to_float64(a)   # from the mantissas, 0.3 us per entry
            except AttributeError:  # entries that are not mpf (Python floats, ...)
                pass
        return np.array([float(v) for v in a.flat], dtype=np.float64).reshape(a.shape)

    def context(self):
        return mpmath.workdps(self.dps)

    def exp(self, a):
        if self._flint:
            return _flint.exp(self.asarray(a), **self._fl())
        return np.asarray(self._exp(self.asarray(a)), dtype=object)

    def sqrt(self, a):
        return np.asarray(self._sqrt(self.asarray(a)), dtype=object)

    def _sqrt1(self, x):
        return self.ctx.sqrt(x)

    def eigh(self, A, *, check=True):
        """FLINT's QR algorithm, orthonormalised and Rayleigh quotients (:func:`_flint.eigh`);
        mpmath's ``eigsy`` with the mpmath engine or when FLINT returns a non-finite value."""
        if self._flint:
            Ap = self._prepare(A, "A", check=True, symmetric=True) if check else self.asarray(A)
            if Ap.size:
                out = _flint.eigh(Ap, **self._fl())
                if out is not None:
                    return out
        return super().eigh(A, check=check)

    def eigvalsh(self, A):
        A = self._prepare(A, "A", check=True, symmetric=True)
        if self._flint and A.size:
            ev = _flint.eigvalsh(A, **self._fl())
            if ev is not None:
                return ev
        ev = _eigsy(self.ctx, A, self.name, eigvals_only=True)
        return np.array(sorted(ev[i] for i in range(ev.rows)), dtype=object)


_REGISTRY = {
    "float32": lambda: LapackPrecision(np.float32),
    "float64": lambda: LapackPrecision(np.float64),
    "longdouble": LongDoublePrecision,
    f"mp{DEFAULT_MP_DIGITS}": lambda: MPPrecision(DEFAULT_MP_DIGITS),
}


def precisions(*, hardware: bool | None = None, native: bool | None = None) -> list[str]:
    """Registered precision names; any ``mpN`` (5 <= N <= 1000) is also accepted.

    ``hardware=True`` gives only the LAPACK-backed IEEE precisions (what
    benchmarks time), ``False`` only the generic ones.  ``native=True`` gives
    the precisions with a NumPy floating dtype (:attr:`Precision.native`:
    float32, float64, longdouble), ``False`` the mp ones.
    """
    for name, value in (("hardware", hardware), ("native", native)):
        if value is not None and not isinstance(value, (bool, np.bool_)):
            raise TypeError(f"expected None, True or False for {name}, got {name}={value!r:.80}")
    return [n for n in _REGISTRY if (hardware is None or get_precision(n).hardware == hardware)
            and (native is None or get_precision(n).native == native)]


@lru_cache(maxsize=None)
def _mp_engine(dps: int, engine: str) -> MPPrecision:
    return MPPrecision(dps, engine=engine)


@lru_cache(maxsize=None)
def _make(name: str) -> Precision:
    if name in _REGISTRY:
        return _REGISTRY[name]()
    m = _MP_NAME.match(name)
    if m and MIN_MP_DIGITS <= int(m.group(1)) <= MAX_MP_DIGITS:
        return MPPrecision(int(m.group(1)))
    raise UnknownPrecisionError(
        f"expected a precision in {precisions()} or 'mpN' with {MIN_MP_DIGITS} <= N <= "
        f"{MAX_MP_DIGITS}, got precision={name!r}")


def get_precision(precision="float64") -> Precision:
    """Return the Precision object for a name (or pass a Precision through)."""
    if isinstance(precision, Precision):
        return precision
    if not isinstance(precision, str):
        raise UnknownPrecisionError(f"expected a precision name (str), got precision={precision!r}")
    return _make(precision)


def precision_of(a) -> Precision:
    """The precision an array's entries are in: float32, float64, longdouble or mpN.

    mp entries carry their context, so an object array of ``mpf`` names its
    digits.  Anything else (float16, integers, complex, object arrays of other
    things) raises UnknownPrecisionError naming the dtype: no array is
    silently labelled float64.
    """
    a = np.asarray(a)
    if a.dtype == object:
        v = a.flat[0] if a.size else None
        ctx = getattr(v, "context", None)
        if getattr(v, "_mpf_", None) is not None and ctx is not None:
            return get_precision(f"mp{ctx.dps}")
        raise UnknownPrecisionError(
            f"expected an object array of mpmath numbers, got entries of type {type(v).__name__}")
    names = {np.dtype(np.float32): "float32", np.dtype(np.float64): "float64",
             np.dtype(np.longdouble): "longdouble"}
    if a.dtype not in names:
        raise UnknownPrecisionError(
            f"expected an array of float32, float64, longdouble or mp numbers, got dtype={a.dtype}")
    return get_precision(names[a.dtype])
