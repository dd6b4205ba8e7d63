"""Error measures of a computed solution, and condition numbers.

``forward_error`` (normwise relative, inf-norm, against a reference),
``backward_error`` (Rigal-Gaches), ``kkt_residual`` (the two block rows of
Suykens' KKT system (3.32) / (3.5) separately) return an ``ErrorReport`` with
the unit roundoff of the solver's precision and a condition estimate beside
the value; residuals are evaluated in arb from the exact data (see
:mod:`lssvm_analysis.exact.arb`).  ``condition_number`` gives kappa_2 (estimate)
or kappa_inf (certified upper bound, from the certificate of
``reference_solve``).

Every name here is also exported by :mod:`lssvm_analysis.analysis.reference`.  That
module imports this one, so this one imports ``reference`` only inside the
functions that need it (``forward_error``, ``condition_number``).

References
----------
N. J. Higham, *Accuracy and Stability of Numerical Algorithms*, 2nd ed.,
SIAM 2002, ch. 7.  J. L. Rigal and J. Gaches, J. ACM 14 (1967).
J. A. K. Suykens et al., *Least Squares Support Vector Machines*, 2002, ch. 3.
"""
from __future__ import annotations


import math
from dataclasses import dataclass, field
from typing import Mapping

import flint
import numpy as np
from numpy.typing import ArrayLike
from flint import arb, arb_mat

from ..exact.arb import (abs_max, arb_scalar, check_array, col_abs_max, row_sums, square_matrix, to_arb)
from ..core.validation import check_cond, check_real, finite_entries
from ..arith.precision import get_precision, precision_of
from ..core.records import ReadOnlyDict
from ..arith.base import Precision


__all__ = ["ErrorReport", "forward_error", "backward_error", "kkt_residual", "correct_digits"]

_TINY = float(np.finfo(np.float64).tiny)


@dataclass(frozen=True)
class ErrorReport:
    """An error measure with the arithmetic it should be compared with.

    Attributes
    ----------
    kind : {"forward", "backward", "kkt"}
    value : float
        The measure (normwise, inf-norm; the maximum over columns / blocks).
    unit_roundoff : float
        u of the solver precision (inferred from the solution's dtype or given).
    precision : str
        Name of that precision.
    cond : float or None
        Condition estimate of the system (kappa_inf), when known.
    parts : mapping
        Per-block values (``kkt_residual``: "bias_row", "alpha_rows"); a
        read-only dict (``lssvm_analysis.result.ReadOnlyDict``), so the
        report pickles.
    """

    kind: str
    value: float
    unit_roundoff: float
    precision: str
    cond: float | None = None
    parts: Mapping[str, float] = field(default_factory=ReadOnlyDict)

    @property
    def digits(self) -> float:
        """``correct_digits(value)``."""
        return correct_digits(self.value)

    @property
    def ratio(self) -> float:
        """value / (cond u) for "forward" (NaN without cond), value / u otherwise.

        This is the test ratio of LAPACK's test programs (xGET04, xPOT04),
        which flag a ratio above THRESH = 30.
        """
        if self.kind == "forward":
            return self.value / (self.cond * self.unit_roundoff) if self.cond else math.nan
        return self.value / self.unit_roundoff


def correct_digits(rel_err: float | ArrayLike) -> float | np.ndarray:
    """-log10(max(rel_err, tiny)), tiny the smallest normal float64 (so 0 gives 307.7).

    Raises
    ------
    ValueError
        For a negative or NaN ``rel_err``.
    """
    try:
        e = np.asarray(rel_err, dtype=np.float64)
    except (TypeError, ValueError):
        raise TypeError(f"expected a real number or array for rel_err, got rel_err={rel_err!r:.80}") from None
    if np.isnan(e).any() or (e < 0).any():
        raise ValueError(f"expected a non-negative relative error, got rel_err={rel_err!r}")
    d = -np.log10(np.maximum(e, _TINY))
    return float(d) if d.ndim == 0 else d


# ----------------------------------------------------------------------------- helpers
def _arithmetic(x: np.ndarray, precision) -> tuple:
    """(unit roundoff, name) of the precision given, else of the entries of x.

    Integer arrays are exact data (float64 semantics); any other dtype that is
    not a registered precision (float16, complex, ...) raises UnknownPrecisionError.
    """
    p = get_precision(precision) if precision is not None else (
        get_precision("float64") if x.dtype.kind in "iub" else precision_of(x))
    return p.unit_roundoff, p.name


def _solution(x, name: str, shape=None) -> tuple:
    """(array, all entries finite) for a solution vector/matrix (NaN is allowed: it is measured)."""
    arr = np.asarray(x)
    check_real(arr, name)
    if shape is not None and arr.shape != tuple(shape):
        raise ValueError(f"expected {name} of shape {tuple(shape)}, got {name}.shape={arr.shape}")
    if arr.ndim not in (1, 2) or arr.size == 0:
        raise ValueError(f"expected a non-empty 1-D or 2-D {name}, got {name}.shape={arr.shape}")
    return arr, finite_entries(arr)


def _ratio(num: arb, den: arb) -> float:
    if den == 0:
        return 0.0 if num == 0 else math.inf
    return float(num / den)


def _normwise(r, norm_a: arb, zn: arb, d) -> float:
    """Rigal-Gaches max|r| / (norm_a ||z|| + max|d|), r and d lists of arb."""
    with flint.ctx.workprec(128):
        return _ratio(abs_max(r), norm_a * zn + abs_max(d))


def _residual(A: arb_mat, Z: arb_mat, B: arb_mat, u: float) -> arb_mat:
    """b - A z in arb at -log2(u) + 64 bits: its rounding is 2^-64 of the solver's."""
    with flint.ctx.workprec(max(128, math.ceil(-math.log2(u)) + 64)):
        return B - A * Z


# ----------------------------------------------------------------------------- error measures
def forward_error(x: ArrayLike, ref: ArrayLike, *, precision: str | Precision | None = None,
                  cond: float | None = None) -> ErrorReport:
    """Normwise relative forward error max_j ||x_j - x*_j||_inf / ||x*_j||_inf.

    Parameters
    ----------
    x : (n,) or (n, k) array_like
        A computed solution (any precision; a NaN or inf makes the error inf).
    ref : ReferenceSolution or array_like of the same shape
        The reference x* (its ``cond_estimate`` is reported as ``cond``).
    precision : str or Precision, optional
        The solver's precision (default: inferred from the dtype of x).
    cond : float, optional
        Condition estimate to report (default: ``ref.cond_estimate``): a real
        number >= 1, inf for a singular matrix.

    Returns
    -------
    ErrorReport
        kind "forward".  The difference is formed in arb from the exact
        values (128-bit rounding of the difference only), so the measure is
        exact to ~38 digits relative to the reference; its distance to the
        error against the exact x* is at most ``ref.error_bound / ||x*||``.
    """
    cond = check_cond("cond", cond)
    if hasattr(ref, "cond_estimate") and hasattr(ref, "x"):  # a ReferenceSolution
        cond = ref.cond_estimate if cond is None else cond
        ref = ref.x
    ref_arr, ok = _solution(ref, "ref")
    if not ok:
        raise ValueError("expected finite values in ref, got NaN or inf")
    x, finite = _solution(x, "x", ref_arr.shape)
    u, name = _arithmetic(x, precision)
    value = math.inf
    if finite:
        n = x.shape[0]
        Xr = to_arb(ref_arr.reshape(n, -1), "ref")
        with flint.ctx.workprec(128):
            D = to_arb(x.reshape(n, -1), "x") - Xr
            value = max(_ratio(d, r) for d, r in zip(col_abs_max(D), col_abs_max(Xr)))
    return ErrorReport("forward", value, u, name, cond)


def backward_error(A: ArrayLike, x: ArrayLike, b: ArrayLike, *, precision: str | Precision | None = None,
                   cond: float | None = None) -> ErrorReport:
    """Normwise backward error (Rigal-Gaches) max_j ||b_j - A x_j|| / (||A|| ||x_j|| + ||b_j||).

    inf-norms.  The residual is evaluated in arb from the exact A, x, b
    (rounding 2^-64 u), the norms of A in float64.  A NaN in x gives inf.

    Parameters
    ----------
    A : (n, n) array_like
    x, b : (n,) or (n, k) array_like
    precision : str or Precision, optional
        The solver's precision (default: inferred from x).
    cond : float, optional
        Condition estimate to report beside the value: a real number >= 1, inf
        for a singular matrix.

    Returns
    -------
    ErrorReport
        kind "backward"; ``ratio`` = value / u (LAPACK's residual test also
        divides by n: compare ``ratio <= c n``).

    References
    ----------
    J. L. Rigal and J. Gaches, J. ACM 14 (1967); Higham (2002), Thm. 7.1.
    """
    cond = check_cond("cond", cond)
    A = square_matrix(A)
    n = A.shape[0]
    b = check_array(b, "b")
    if b.shape[0] != n:
        raise ValueError(f"expected b with A.shape[0]={n} rows, got b.shape={b.shape}")
    x, finite = _solution(x, "x", b.shape)
    u, name = _arithmetic(x, precision)
    if not finite:
        return ErrorReport("backward", math.inf, u, name, cond)
    k = b.size // n
    B, X = to_arb(b.reshape(n, k), "b"), to_arb(x.reshape(n, k), "x")
    A_arb = to_arb(A, "A")
    norm_a = max(row_sums(A, A_arb))
    r, bb = _residual(A_arb, X, B, u).entries(), B.entries()
    value = max(_normwise(r[j::k], norm_a, xn, bb[j::k]) for j, xn in enumerate(col_abs_max(X)))
    return ErrorReport("backward", value, u, name, cond)


def kkt_residual(A: ArrayLike, rhs: ArrayLike, bias: ArrayLike, coef: ArrayLike, *,
                 precision: str | Precision | None = None, cond: float | None = None) -> ErrorReport:
    """Normwise residuals of the two block rows of an LS-SVM KKT system.

    For Suykens' (3.32), [[0, 1^T], [1, Omega + I/gamma]] [b; alpha] = [0; y]
    (or (3.5) with y in place of 1), with z = [bias; coef]:

    * "bias_row": |0 - [0, 1^T] z| / (||[0, 1^T]|| ||z|| + 0), the condition
      sum(alpha) = 0 (dL/db = 0, eq. 3.31);
    * "alpha_rows": ||y - [1, H] z|| / (||[1, H]|| ||z|| + ||y||), the N
      conditions b + sum_l alpha_l K(x_k, x_l) + alpha_k/gamma = y_k.

    Parameters
    ----------
    A : (N+1, N+1) array_like
        The KKT matrix (any precision, taken exactly).
    rhs : (N+1,) array_like
        [0; y] (or [d1; d2] of 3.24).
    bias : scalar
        b (Suykens' b).
    coef : (N,) array_like
        alpha (Suykens' alpha).
    precision, cond
        As in ``backward_error`` (precision inferred from coef).

    Returns
    -------
    ErrorReport
        kind "kkt", value the larger part, ``parts`` both.
    """
    cond = check_cond("cond", cond)
    A = square_matrix(A)
    N = A.shape[0] - 1
    rhs = check_array(rhs, "rhs", ndims=(1,))
    if rhs.shape != (N + 1,):
        raise ValueError(f"expected rhs of shape ({N + 1},) for A.shape={A.shape}, got rhs.shape={rhs.shape}")
    coef, finite = _solution(coef, "coef", (N,))
    b_arr = np.asarray(bias)
    if b_arr.size != 1:
        raise ValueError(f"expected a scalar bias, got bias.shape={b_arr.shape}")
    check_real(b_arr, "bias")   # text was a bare ufunc error
    bias = b_arr.reshape(-1)[0]
    u, name = _arithmetic(coef, precision)
    parts = dict.fromkeys(("bias_row", "alpha_rows"), math.inf)
    if finite and finite_entries(bias):
        Z = arb_mat(N + 1, 1, [arb_scalar(bias, "bias", ())]
                    + to_arb(coef.reshape(N, 1), "coef").entries())
        Y = to_arb(rhs.reshape(-1, 1), "rhs")
        A_arb = to_arb(A, "A")
        r, y = _residual(A_arb, Z, Y, u).entries(), Y.entries()
        rows, zn = row_sums(A, A_arb), col_abs_max(Z)[0]
        for key, blk in (("bias_row", slice(0, 1)), ("alpha_rows", slice(1, None))):
            parts[key] = _normwise(r[blk], max(rows[blk]), zn, y[blk])
    return ErrorReport("kkt", max(parts.values()), u, name, cond, ReadOnlyDict(parts))


# ----------------------------------------------------------------------------- conditioning
