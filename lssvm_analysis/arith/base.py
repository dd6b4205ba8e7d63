"""The ``Precision`` base class and the precision registry (names -> one object each).

A ``Precision`` knows its dtype, unit roundoff and conversions and gives a small set of
primitives every arithmetic provides (products, Cholesky with a breakdown record, triangular and
LU solves, eigenvalues, exp, sqrt).  One subclass per arithmetic: :mod:`.lapack` (float32,
float64), :mod:`.longdouble`, :mod:`.mp` (mpN on mpmath's generic code) and :mod:`.mp_flint`
(mpN on FLINT).  :mod:`.precision` registers them.

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

import math
from abc import ABC, abstractmethod
from contextlib import nullcontext
from functools import lru_cache, partial

import numpy as np
import scipy.special

from ..core.validation import as_matrix, check_finite, check_real, check_square, check_symmetric, is_symmetric
from ..core.exceptions import (CholeskyBreakdownError, EigenConvergenceError, IncompletePrecisionError,
                               UnknownPrecisionError)

__all__ = ["Precision", "NativeDtype", "register", "unregister", "register_extended", "register_family", "precisions", "get_precision", "eigsy",
           "find_precision", "REQUIRED_ATTRIBUTES"]


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
    engine : str
        Who computes the primitives ("lapack", "numpy", "mpmath", "flint"): the one capability an
        algorithm with a faster engine in some arithmetic asks about (``p.engine == "flint"``);
        the engines of the algorithms live beside them in ``linalg/``, never here.
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
    #: Who computes the primitives: "lapack", "numpy" (the generic loops), "mpmath" or "flint".
    #: The capability an algorithm with a faster engine in one arithmetic asks about.
    engine: str = "numpy"

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
    def cholesky(self, A, *, check: bool = True, overwrite: bool = False, lower: bool = False) -> np.ndarray:
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
        lower : bool, keyword-only
            For internal calls on a matrix the caller formed itself
            (``check=False, lower=True``): no validation pass, and A's lower
            triangle is always the one factored: a C-ordered A that is not
            exactly symmetric (a blocked equality scan, no n x n temporary) is
            copied to Fortran order, as ``check=True`` does for a matrix
            symmetric only up to rounding, and an exactly symmetric one is not
            copied.  On valid input this gives the factor and the peak memory of
            ``check=True`` without its validation (shape, tolerance, finiteness).
            Implied by ``check=True``.

        Raises
        ------
        CholeskyBreakdownError
            ``.record`` has the 0-based step, the pivot a_kk - ||l_k||^2, n
            and the precision name.
        ValueError, TypeError
            Not square, not symmetric, NaN/inf, empty, not real.
        """
        exact = True
        A0 = as_matrix(A, "A")
        if check:  # one pass of each check; the caller's numbers: rounding to float32 must not symmetrize them
            check_square(A0, "A")
            exact = check_symmetric(A0, "A", self)  # says NaN when a NaN breaks the symmetry
        A = self._convert(A0, "A")
        if check and not self._factor_checks_finite:
            check_finite(A, "A")  # inf == inf passes check_symmetric; float32 may overflow
        if lower and not check and not A.flags.f_contiguous:
            exact = is_symmetric(A)  # the triangle decision of check=True, without its checks
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
    def eigvalsh(self, A, *, check: bool = True) -> np.ndarray:
        """Eigenvalues of a symmetric matrix, ascending, in this precision's dtype.

        ``check=False`` takes A as square, symmetric and finite (a matrix the caller formed or
        checked): no O(n^2) validation pass."""

    def eigh(self, A, *, check: bool = True) -> tuple[np.ndarray, np.ndarray]:
        """Eigenvalues (ascending) and eigenvectors (columns) of a symmetric matrix, in this dtype.

        LAPACK syevd for float32 / float64; FLINT for mpN (:meth:`MPPrecision.eigh`); this default:
        the eigenproblem solved in the mp precision of :meth:`_eig_precision` (more digits than this
        one) and rounded to this precision, as longdouble does at 21 digits.  ``check=False`` takes
        A as symmetric and finite (a matrix the caller formed): no O(n^2) validation pass.
        """
        A = self._prepare(A, "A", check=check, symmetric=True)
        mp = self._eig_precision()
        w, U = mp.eigh(mp.asarray(A), check=False)   # checked here, once
        return self.asarray(w), self.asarray(U)

    #: Decimal digits the default eigensolver carries beyond this precision's own (:meth:`_eig_precision`).
    EIG_GUARD_DIGITS = 2

    def _eig_precision(self) -> Precision:
        """The mp precision whose eigensolver computes this precision's eigenproblems: ceil(digits)
        + :attr:`EIG_GUARD_DIGITS` digits, made by the extended-precision factory :mod:`.mp`
        registers (:func:`register_extended`: FLINT when libflint loads, else mpmath's ``eigsy``)."""
        return _EXTENDED[0](math.ceil(self.digits) + self.EIG_GUARD_DIGITS)

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
        (:func:`~lssvm_analysis.arith.flint_engine.rank_one_sum`).
        """
        H = self.asarray(H)
        A = self.zeros((H.shape[1], H.shape[1]))
        for h in H:
            A += np.outer(h, h)
        return A

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

    def keep_leading(self, A, k: int, previous=None) -> np.ndarray:
        """``A[:k, :k]`` for many solves or products, as :meth:`keep`, for a matrix that grows by a
        border (a triangular factor); ``previous`` as in :meth:`keep_prefix` (mpN converts only
        the border).  Others: the view ``A[:k, :k]``."""
        return self.asarray(A)[:k, :k]

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


class NativeDtype:
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


# ----------------------------------------------------------------------------- the registry
#: The factory ``digits -> Precision`` of the extended precision the default eigensolver computes in
#: (:meth:`Precision._eig_precision`); :mod:`.mp`, which imports this module, registers it.
_EXTENDED: list = []


def register_extended(factory) -> None:
    """Make ``factory(digits)`` the extended precision of the default eigensolvers."""
    _EXTENDED[:] = [factory]

_REGISTRY: dict = {}
#: Families of names with a parameter ("mpN"): (compiled pattern, factory of the match, description).
_FAMILIES: list = []


#: Attributes every Precision instance sets (checked when the registry first makes it).
REQUIRED_ATTRIBUTES = ("name", "dtype", "unit_roundoff")


def _incomplete(cls, name: str) -> IncompletePrecisionError:
    """The error for a Precision class that leaves abstract primitives unimplemented."""
    missing = ", ".join(sorted(cls.__abstractmethods__))
    return IncompletePrecisionError(
        f"expected a Precision implementing every required primitive, got precision={name!r} "
        f"({cls.__name__}) without {missing}", precision=name, missing=tuple(sorted(cls.__abstractmethods__)))


def _factory_class(factory):
    """The class a factory makes, when it says so (a class, or a ``functools.partial`` of one)."""
    while isinstance(factory, partial):
        factory = factory.func
    return factory if isinstance(factory, type) else None


def register(name: str, factory) -> None:
    """Register ``factory()`` (a Precision) under ``name``; :func:`precisions` lists it.

    ``factory`` is a Precision subclass, a ``functools.partial`` of one, or any callable returning
    a Precision.  Its required primitives (the abstract methods of :class:`Precision`: ``asarray``,
    ``to_float64``, ``exp``, ``sqrt``, ``_cholesky``, ``solve_triangular``, ``solve``, ``eigvalsh``)
    are checked here: a class is inspected, any other callable is called once.

    Raises
    ------
    IncompletePrecisionError
        A ``TypeError`` naming the precision and the primitives it lacks.
    TypeError
        ``name`` is not a string, or ``factory`` makes something that is not a Precision.
    """
    if not isinstance(name, str) or not name:
        raise TypeError(f"expected a non-empty precision name (str), got name={name!r}")
    cls = _factory_class(factory)
    if cls is None:
        if not callable(factory):
            raise TypeError(f"expected a Precision class or a callable returning one, got factory={factory!r:.80}")
        instance = factory()
        cls = type(instance)
    if not issubclass(cls, Precision):
        raise TypeError(f"expected a factory of a Precision subclass, got factory={factory!r:.80} making {cls.__name__}")
    if cls.__abstractmethods__:
        raise _incomplete(cls, name)
    _REGISTRY[name] = factory
    _clear_caches()


def unregister(name: str) -> None:
    """Remove the precision registered under ``name`` (a test's own precision); KeyError if none is."""
    if name not in _REGISTRY:
        raise KeyError(f"expected a registered precision name, got name={name!r}")
    del _REGISTRY[name]
    _clear_caches()


def register_family(pattern, factory, description: str, *, of_entry=None) -> None:
    """Accept every name ``pattern`` (a compiled regex) matches: ``factory(match)`` is the Precision,
    or None when the match is out of the family's bounds; ``description`` names the family in errors.
    ``of_entry(value)``: the family member's name an entry of an object array belongs to (None when it
    is no number of the family), what :func:`find_precision` asks."""
    _FAMILIES.append((pattern, factory, description, of_entry))
    _clear_caches()


def _clear_caches() -> None:
    _make.cache_clear()
    _native_by_dtype.cache_clear()


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


def eigsy(ctx, A, name, **kw):
    """mpmath's ``eigsy`` of the object array A; its RuntimeError (no convergence of the QL
    iteration, e.g. a poly kernel of X ~ 1e114 in longdouble) as an EigenConvergenceError."""
    try:
        return ctx.eigsy(ctx.matrix(A.tolist()), **kw)
    except RuntimeError as err:
        raise EigenConvergenceError(f"symmetric eigensolver did not converge in {name} for an "
                                    f"{A.shape[0]} x {A.shape[0]} matrix: {err}", n=A.shape[0],
                                    precision=name) from err


@lru_cache(maxsize=None)
def _make(name: str) -> Precision:
    if name in _REGISTRY:
        return _checked(_REGISTRY[name](), name)
    for pattern, factory, _, _ in _FAMILIES:
        m = pattern.match(name)
        p = factory(m) if m else None
        if p is not None:
            return _checked(p, name)
    families = "".join(f" or {d}" for _, _, d, _ in _FAMILIES)
    raise UnknownPrecisionError(f"expected a precision in {precisions()}{families}, got precision={name!r}")


def _checked(p, name: str) -> Precision:
    """``p`` once it is a Precision with the attributes every precision sets (:data:`REQUIRED_ATTRIBUTES`)."""
    if not isinstance(p, Precision):
        raise TypeError(f"expected the factory of precision={name!r} to make a Precision, got {type(p).__name__}")
    missing = tuple(a for a in REQUIRED_ATTRIBUTES if not hasattr(p, a))
    if missing or not isinstance(p.dtype, np.dtype):
        raise IncompletePrecisionError(
            f"expected a Precision setting {', '.join(REQUIRED_ATTRIBUTES)} (dtype a numpy.dtype), got "
            f"precision={name!r} ({type(p).__name__}) without {', '.join(missing) or 'a numpy.dtype dtype'}",
            precision=name, missing=missing or ("dtype",))
    return p


@lru_cache(maxsize=None)
def _native_by_dtype() -> dict:
    """dtype -> the first registered precision of that NumPy floating dtype (registration order)."""
    table: dict = {}
    for name in _REGISTRY:
        p = get_precision(name)
        if p.native:
            table.setdefault(p.dtype, p)
    return table


def find_precision(a) -> Precision:
    """The registered precision an array's entries are in, asked of the registry.

    A NumPy floating dtype is the first registered precision with that dtype (``native``); an object
    array names its family through its first entry (``register_family(of_entry=...)``: mp entries
    carry their context, hence their digits).  Anything else raises UnknownPrecisionError naming
    the dtype: no array is silently labelled float64.
    """
    a = np.asarray(a)
    if a.dtype == object:
        v = a.flat[0] if a.size else None
        for *_, of_entry in _FAMILIES:
            name = of_entry(v) if of_entry is not None else None
            if name is not None:
                return get_precision(name)
        raise UnknownPrecisionError(
            f"expected an object array of a registered precision's numbers, got entries of type {type(v).__name__}")
    table = _native_by_dtype()
    if a.dtype not in table:
        known = ", ".join(str(d) for d in table)
        raise UnknownPrecisionError(
            f"expected an array of a registered precision's dtype ({known}) or of mp numbers, got dtype={a.dtype}")
    return table[a.dtype]


def get_precision(precision: str | Precision = "float64") -> Precision:
    """Return the Precision object for a name (or pass a Precision through)."""
    if isinstance(precision, Precision):
        return precision
    if not isinstance(precision, str):
        raise UnknownPrecisionError(f"expected a precision name (str), got precision={precision!r}")
    return _make(precision)
