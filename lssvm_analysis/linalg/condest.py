"""Cheap condition estimates from a factorization the solver already has, in every precision.

A fit that factored its matrix knows enough to estimate ``kappa_1(A) =
||A||_1 ||A^-1||_1`` in O(n^2): ``||A||_1`` is a column sum and
``||A^-1||_1`` is estimated from a handful of solves with the factor.

* float32 / float64: LAPACK's estimators through SciPy, ``xPOCON`` on the
  Cholesky factor and ``xGECON`` on the LU factors (Higham's 1-norm
  estimator, Hager's method with Higham's refinements; a lower bound that
  is within a factor 3 of the truth in practice).
* longdouble / mpN: the same estimator written over the precision's own
  triangular solves (:func:`hager_inverse_norm1`), so that the estimate
  resolves condition numbers up to ~1/u of *that* precision; rounding the
  factor to float64 for LAPACK would blur everything beyond 1/u64.

:func:`check_conditioning` raises :class:`IllConditionedWarning` when
``kappa u >= 1/2`` (derivation in that class's docstring).  The result of
each estimate is a :class:`Conditioning`; solvers pass it to ``make_fit``,
which records it in ``Fit.diagnostics`` and warns.

References
----------
N.J. Higham, *Accuracy and Stability of Numerical Algorithms*, 2nd ed.,
SIAM 2002, §15.3 (Algorithm 15.4, the LAPACK estimator) and Thm. 6.5
(Gastinel-Kahan).
"""
from __future__ import annotations

import contextlib
import contextvars
import warnings
from dataclasses import dataclass

import numpy as np
import scipy.linalg
from scipy.linalg import lapack

from ..core.validation import as_matrix, check_square
from ..core.exceptions import IllConditionedWarning, LUBreakdownError
from ..arith.precision import get_precision

__all__ = ["Conditioning", "cholesky_conditioning", "LUFactor", "lu_factor", "hager_inverse_norm1",
           "matrix_conditioning", "norm1", "check_conditioning", "ILL_CONDITIONED_THRESHOLD", "NOT_ESTIMATED",
           "conditioning_unread", "conditioning_wanted"]

#: kappa * u at and beyond which a fit warns (IllConditionedWarning's docstring).
ILL_CONDITIONED_THRESHOLD = 0.5


@dataclass(frozen=True)
class Conditioning:
    """A condition estimate of the matrix a fit factored.

    Attributes
    ----------
    kappa : float
        Estimate of kappa in the ``norm`` (NaN when not estimated, inf for a
        singular factor).
    method : str
        E.g. "LAPACK dpocon", "Higham 1-norm estimator in mp50", "not estimated".
    matrix : str
        Which matrix (the solver's name for it, e.g. "H = Omega + I/C").
    norm : int
        1 for the LAPACK and Higham estimators, 2 for a kappa from a spectrum
        or singular values.
    """

    kappa: float
    method: str
    matrix: str = ""
    norm: int = 1

    def as_diagnostics(self) -> dict:
        return {"kappa_estimate": float(self.kappa), "kappa_method": self.method,
                "kappa_matrix": self.matrix}


NOT_ESTIMATED = Conditioning(float("nan"), "not estimated", "")

_UNREAD = contextvars.ContextVar("lssvm_analysis_conditioning_unread", default=False)


@contextlib.contextmanager
def conditioning_unread():
    """Within: the fits skip their condition estimates (``NOT_ESTIMATED``, hence no
    ``IllConditionedWarning``), for a caller that reads only the models: a grid search's fold fits
    (``la.tune``'s direct path), whose estimates nobody reads.  The models are the same bit for
    bit: the estimate (``xPOCON`` / ``xGECON`` after the factorization, ``norm1`` before it) only
    reads the matrices."""
    token = _UNREAD.set(True)
    try:
        yield
    finally:
        _UNREAD.reset(token)


def conditioning_wanted() -> bool:
    """False inside :func:`conditioning_unread`: the solvers skip ``norm1`` and the estimate."""
    return not _UNREAD.get()


def _norm1(A, p) -> float:
    """||A||_1 (max column sum of |a_ij|), rounded to float64 (enough for an estimate).

    float32/float64: LAPACK ``xLANGE`` on the Fortran view (no n x n temporary:
    the dense fits' working memory stays one matrix); otherwise column sums in
    the precision, rounded.
    """
    if A.size == 0:
        return 0.0
    if isinstance(A, np.ndarray) and A.dtype in (np.float32, np.float64) and A.ndim == 2:
        lange, = lapack.get_lapack_funcs(("lange",), dtype=A.dtype)
        if A.flags.c_contiguous:  # A^T is Fortran-ordered: ||A||_1 = ||A^T||_inf
            return float(lange("I", A.T))
        return float(lange("1", np.asfortranarray(A)))
    a = p.to_float64(A) if A.dtype == object or A.dtype == np.longdouble else np.asarray(A, float)
    return float(np.max(np.sum(np.abs(a), axis=0)))


def hager_inverse_norm1(solve, n: int, p, *, solve_t=None, max_iter: int = 5) -> float:
    """Estimate ||A^-1||_1 from solves ``solve(b) = A^-1 b`` in the precision ``p``.

    Higham's Algorithm 15.4 (Hager's method: a lower bound from at most
    ``max_iter`` pairs of solves, then the alternating-sign vector of
    Higham's refinement).  ``solve_t`` solves with A^T (default: A is
    symmetric, so ``solve``).  Cost 2 max_iter + 1 solves, O(n^2) each.
    """
    solve_t = solve_t or solve
    x = np.full(n, 1.0 / n)
    est, j_old = 0.0, -1
    for k in range(max_iter):
        y = p.to_float64(solve(p.asarray(x)))
        if not np.isfinite(y).all():
            return float("inf")
        est_new = float(np.sum(np.abs(y)))
        if k > 0 and est_new <= est:
            break
        est = est_new
        xi = np.where(y >= 0, 1.0, -1.0)
        z = p.to_float64(solve_t(p.asarray(xi)))
        j = int(np.argmax(np.abs(z)))
        if k > 0 and (j == j_old or np.abs(z[j]) <= z @ x):
            break
        x, j_old = np.zeros(n), j
        x[j] = 1.0
    alt = np.array([(-1.0) ** i * (1 + i / max(n - 1, 1)) for i in range(n)])
    t = p.to_float64(solve(p.asarray(alt)))
    return max(est, 2 * float(np.sum(np.abs(t))) / (3 * n))


def _kappa(anorm, inv_norm):
    if anorm == 0 or not np.isfinite(inv_norm):
        return float("inf")
    return float(anorm * inv_norm)


def cholesky_conditioning(A, L, precision, *, matrix="", anorm=None) -> Conditioning:
    """kappa_1 estimate of the SPD ``A`` from its lower Cholesky factor ``L`` (A = L L^T).

    Parameters
    ----------
    A : (n, n) array or None
        The matrix that was factored (for ||A||_1); None when it was factored
        in place, with ``anorm`` = ||A||_1 taken before (:func:`norm1`).
    L : (n, n) array
        Its lower Cholesky factor, in the precision.
    precision : str or Precision
    matrix : str
        Name of the matrix, recorded.

    Returns
    -------
    Conditioning

    Notes
    -----
    float32/float64: ``xPOCON`` (O(n^2)); otherwise :func:`hager_inverse_norm1`
    with ``p.cho_solve`` in the precision.
    """
    if _UNREAD.get():
        return NOT_ESTIMATED
    p = get_precision(precision)
    anorm = _norm1(A, p) if anorm is None else float(anorm)
    n = L.shape[0]
    if p.hardware:
        pocon, = lapack.get_lapack_funcs(("pocon",), dtype=p.dtype)
        # pocon reads one triangle; hand it a Fortran-ordered array so that f2py makes no
        # n x n copy: L itself (lower) when it is Fortran-ordered, else L^T = U (upper).
        L = np.asarray(L)
        rcond, info = (pocon(L, anorm, uplo="L") if L.flags.f_contiguous
                       else pocon(L.T, anorm, uplo="U"))
        kappa = float("inf") if rcond == 0 else 1.0 / float(rcond)
        return Conditioning(kappa, f"LAPACK {pocon.typecode}pocon", matrix)
    with p.context():
        inv = hager_inverse_norm1(lambda b: p.cho_solve(L, b), n, p)
    return Conditioning(_kappa(anorm, inv), f"Higham 1-norm estimator in {p.name}", matrix)


class LUFactor:
    """LU with partial pivoting kept for solves and a condition estimate (any precision).

    ``lu_factor`` builds it; ``solve(b)`` and ``conditioning(matrix=...)``
    reuse the factors, so an LU solve costs no second factorization.
    """

    def __init__(self, A, p, *, overwrite=False):
        self.p = p
        self.anorm = _norm1(A, p)
        self.n = A.shape[0]
        self._trans = False
        if overwrite and p.hardware and A.flags.c_contiguous:
            # LU in place of the Fortran view F = A^T (no copy); A x = b is F^T x = b
            getrf, = lapack.get_lapack_funcs(("getrf",), dtype=p.dtype)
            self._lu, self._piv, _ = getrf(A.T, overwrite_a=1)
            p._check_lu(self._lu, self.n)  # LUBreakdownError with the record
            self._trans = True
        else:
            self._lu, self._piv = p.lu_factor(A, overwrite=overwrite)

    def solve(self, b, *, trans: bool = False):
        p = self.p
        if p.hardware:
            return scipy.linalg.lu_solve((self._lu, self._piv), p.asarray(b),
                                         trans=int(trans != self._trans), check_finite=False)
        return p.lu_solve(self._lu, self._piv, b, trans=trans)  # FLINT for mpN

    def conditioning(self, *, matrix="") -> Conditioning:
        if _UNREAD.get():
            return NOT_ESTIMATED
        p = self.p
        if p.hardware:
            gecon, = lapack.get_lapack_funcs(("gecon",), dtype=p.dtype)
            # factors of A^T: kappa_1(A) = kappa_inf(A^T), and ||A^T||_inf = ||A||_1
            rcond, info = gecon(self._lu, self.anorm, norm="I" if self._trans else "1")
            return Conditioning(float("inf") if rcond == 0 else 1.0 / float(rcond),
                                f"LAPACK {gecon.typecode}gecon", matrix)
        with p.context():
            inv = hager_inverse_norm1(self.solve, self.n, p,
                                      solve_t=lambda b: self.solve(b, trans=True))
        return Conditioning(_kappa(self.anorm, inv), f"Higham 1-norm estimator in {p.name}", matrix)


def norm1(A, precision) -> float:
    """||A||_1 rounded to float64, without an n x n temporary for float32/float64 (take it
    before a factorization that overwrites A)."""
    return _norm1(A, get_precision(precision))


def lu_factor(A, precision, *, overwrite=False) -> LUFactor:
    """LU factors of the square ``A`` in the precision (validated as ``Precision.solve`` does).

    Raises
    ------
    ValueError, TypeError
        Not square, NaN/inf, not real (naming A).
    LUBreakdownError
        An exactly zero (or non-finite) pivot; ``.record`` is the LUBreakdown.
    """
    p = get_precision(precision)
    A = as_matrix(A, "A")
    check_square(A, "A")
    Ap = p._prepare(A, "A", check=True, symmetric=False)
    return LUFactor(Ap, p, overwrite=overwrite)


def matrix_conditioning(A, precision, *, matrix="") -> Conditioning:
    """kappa_1 estimate of a square matrix a solver formed but did not LU- or Cholesky-factor itself.

    One LU with partial pivoting in the precision (O(n^3), for the small
    systems of the sparse solvers: reduced sets, kept columns), then
    ``xGECON`` or Higham's estimator as :meth:`LUFactor.conditioning`.  A
    zero pivot gives kappa = inf ("singular in <precision>").
    """
    try:
        return lu_factor(A, precision).conditioning(matrix=matrix)
    except LUBreakdownError:
        return Conditioning(float("inf"), f"LU breakdown in {get_precision(precision).name}", matrix)


def check_conditioning(cond: Conditioning, precision, *, solver: str = "", stacklevel: int = 2) -> bool:
    """Warn (IllConditionedWarning carrying the estimate) when ``kappa u >= 1/2``; return whether it did."""
    p = get_precision(precision)
    u = p.unit_roundoff
    kappa = cond.kappa
    if not (kappa * u >= ILL_CONDITIONED_THRESHOLD):  # NaN (not estimated) does not warn
        return False
    who = f"{solver}: " if solver else ""
    warnings.warn(IllConditionedWarning(
        f"{who}{cond.matrix or 'the matrix'} is ill-conditioned in {p.name}: kappa_{cond.norm} ~ {kappa:.3g} "
        f"({cond.method}), kappa u = {kappa * u:.3g} >= {ILL_CONDITIONED_THRESHOLD}: within the "
        f"rounding of its entries it may be singular, so the solution may have no correct digit",
        kappa=kappa, unit_roundoff=u, precision=p.name, matrix=cond.matrix, method=cond.method),
        stacklevel=stacklevel + 1)
    return True
