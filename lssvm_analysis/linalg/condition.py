"""The 2-norm condition number of a matrix, computed (not estimated) in any precision.

:func:`kappa2` is the one kappa_2 of every caller (solvers' diagnostics, error
measures, reports): float64 eigenvalues (symmetric) or singular values,
escalated to mpmath eigen/singular values when float64 cannot resolve the
small end.  The cheap kappa_1 estimates from a factorization a solver already
has are in ``linalg.condest``.
"""
from __future__ import annotations

from dataclasses import dataclass

import numpy as np

from ..core.validation import is_symmetric
from ..arith.precision import get_precision, precision_of

__all__ = ["Kappa2", "kappa2", "MP_EIG_MAX_N"]


#: Largest n for which kappa2 escalates to mp eigenvalues / singular values (O(n^3) Python operations).
MP_EIG_MAX_N = 200
_U64 = 2.0 ** -53


@dataclass(frozen=True)
class Kappa2:
    """A 2-norm condition number estimate and how it was obtained.

    Attributes
    ----------
    value : float
        max |lambda| / min |lambda| (symmetric) or sigma_max / sigma_min; inf when singular.
    method : str
        "float64 eigvalsh", "float64 svd", or "mpN eigvalsh" / "mpN svd".
    resolved : bool
        True when the smallest eigen/singular value is known to two digits
        (kappa u_q <= 1e-2 in the arithmetic q that computed it).
    """

    value: float
    method: str
    resolved: bool


def kappa2(A, *, escalate: bool = True, max_mp_n: int = MP_EIG_MAX_N) -> Kappa2:
    """kappa_2(A): one estimate for every caller (solvers' diagnostics, error measures, reports).

    Parameters
    ----------
    A : (n, n) array in any registered precision
        Symmetric A gets eigenvalues, any other singular values.
    escalate : bool
        When float64 cannot resolve the small end, recompute in mpmath at 30,
        60, 120, 240 digits (only for n <= ``max_mp_n``).
    max_mp_n : int

    Returns
    -------
    Kappa2

    Notes
    -----
    A backward-stable eigensolver has |lambda^ - lambda| <= p(n) u ||A||_2, so
    the relative error of the smallest eigenvalue is about p(n) u kappa_2
    (Weyl); with p(n) ~ 1 in practice (LAPACK's test ratios), float64 is
    kept when u64 kappa <= 1e-2 (two correct digits of kappa), likewise
    each mp level.  A is first rounded to float64 (exact for float32); the mp
    levels convert it exactly from float64/longdouble (mp inputs round to the
    level's digits, a relative perturbation far below its resolution).
    """
    A = np.asarray(A)
    symmetric = is_symmetric(A)
    if A.dtype == np.float64:
        A64 = A
    elif A.dtype.kind in "iub":  # exact data
        A64 = A.astype(np.float64)
    else:
        A64 = precision_of(A).to_float64(A)
    kind = "eigvalsh" if symmetric else "svd"
    value = np.inf
    if np.isfinite(A64).all():
        w = np.abs(np.linalg.eigvalsh(A64) if symmetric else np.linalg.svd(A64, compute_uv=False))
        value = float(w.max() / w.min()) if w.min() > 0 else np.inf
        if value * _U64 <= 1e-2:
            return Kappa2(value, f"float64 {kind}", True)
    if not escalate or A.shape[0] > max_mp_n:
        return Kappa2(value, f"float64 {kind}", False)
    q = None
    for dps in (30, 60, 120, 240):
        q = get_precision(f"mp{dps}")
        Aq = q.asarray(A)
        if symmetric:
            w = [abs(v) for v in q.eigvalsh(Aq)]
        else:
            sv = q.ctx.svd_r(q.ctx.matrix(Aq.tolist()), compute_uv=False)
            w = [abs(sv[i]) for i in range(sv.rows)]
        lo, hi = min(w), max(w)
        if lo > 0 and hi / lo * q.unit_roundoff <= 1e-2:
            return Kappa2(float(hi / lo), f"{q.name} {kind}", True)
    return Kappa2(float(hi / lo) if lo > 0 else np.inf, f"{q.name} {kind}", False)
