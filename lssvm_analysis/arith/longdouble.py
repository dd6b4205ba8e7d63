"""longdouble: x87 80-bit extended (64-bit significand) on NumPy's longdouble loops and the
generic code of :mod:`._generic` (never SciPy, which would compute it in float64)."""
from __future__ import annotations

import numpy as np

from ._generic import GenericPrecision
from .base import NativeDtype
from ._libflint import AVAILABLE as FLINT_AVAILABLE
from .mp import mp_engine

__all__ = ["LongDoublePrecision", "LONGDOUBLE_EIG_DIGITS"]

#: Digits of longdouble's eigensolver (> the 19.3 of its 64-bit significand).
LONGDOUBLE_EIG_DIGITS = 21


class LongDoublePrecision(NativeDtype, GenericPrecision):
    """x87 80-bit extended (64-bit significand) through NumPy's longdouble loops."""

    engine = "numpy"

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

    def eigvalsh(self, A, *, check=True):
        """The eigenvalues at 21 digits (> the 19.3 of the 64-bit significand), rounded to longdouble."""
        A = self._prepare(A, "A", check=check, symmetric=True)
        mp = self._eig_precision()
        return self.asarray(mp.eigvalsh(mp.asarray(A), check=False))   # checked here, once

    def _eig_precision(self):
        # FLINT's eigensolver at 21 digits when libflint loads (mp21 on FLINT: ~20x faster than mpmath's
        # eigsy at n = 100, eigenvalues within 2e-21 relative of it, below longdouble's u = 5.4e-20);
        # mpmath's eigsy otherwise
        return mp_engine(LONGDOUBLE_EIG_DIGITS, "flint" if FLINT_AVAILABLE else "mpmath")


def _mpf_to_longdouble(v) -> np.longdouble:
    hi = float(v)
    return np.longdouble(hi) + np.longdouble(float(v - hi)) if np.isfinite(hi) else np.longdouble(hi)
