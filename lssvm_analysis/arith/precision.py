"""The precision registry: one object per arithmetic.

``float32`` and ``float64`` call LAPACK (potrf, potrs, trtrs, getrf/getrs,
syevd: :mod:`.lapack`); ``mpN`` (mpmath numbers at N significant decimal digits)
calls FLINT at N digits' bits for the same primitives (products, Cholesky,
triangular and LU solves, exp: :mod:`.mp_flint` over :mod:`.flint_engine`, which
says where mpmath stays); ``longdouble`` (80-bit x87 on x86-64 Linux) runs the
generic NumPy algorithms of :mod:`._generic` (:mod:`.longdouble`), which are
also the mpN engine when FLINT cannot be loaded (and on request,
``MPPrecision(N, engine="mpmath")``, the reference the FLINT engine is tested
against: :mod:`.mp`).  Every solver algorithm exists once and is compared with
itself across arithmetics.  The conventions of every precision are in
:mod:`.base`.

Importing this module registers the precisions; it has no other effect.
"""
from __future__ import annotations

import re

import numpy as np

from .base import Precision, get_precision, precisions, register, register_family
from .lapack import LapackPrecision
from .longdouble import LONGDOUBLE_EIG_DIGITS, LongDoublePrecision
from .mp import DEFAULT_MP_DIGITS, MAX_MP_DIGITS, MIN_MP_DIGITS, MP_ENGINES, MPPrecision
from .mp_flint import FlintPrecision
from ..core.exceptions import UnknownPrecisionError

__all__ = ["Precision", "MPPrecision", "FlintPrecision", "LapackPrecision", "LongDoublePrecision", "precisions",
           "get_precision", "precision_of", "DEFAULT_MP_DIGITS", "MIN_MP_DIGITS", "MAX_MP_DIGITS", "MP_ENGINES",
           "LONGDOUBLE_EIG_DIGITS"]

_MP_NAME = re.compile(r"^mp(\d+)$")


def _mp_of_name(m) -> MPPrecision | None:
    """mpN for N in [MIN_MP_DIGITS, MAX_MP_DIGITS], else None."""
    return MPPrecision(int(m.group(1))) if MIN_MP_DIGITS <= int(m.group(1)) <= MAX_MP_DIGITS else None


register("float32", lambda: LapackPrecision(np.float32))
register("float64", lambda: LapackPrecision(np.float64))
register("longdouble", LongDoublePrecision)
register(f"mp{DEFAULT_MP_DIGITS}", lambda: MPPrecision(DEFAULT_MP_DIGITS))
register_family(_MP_NAME, _mp_of_name, f"'mpN' with {MIN_MP_DIGITS} <= N <= {MAX_MP_DIGITS}")


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

