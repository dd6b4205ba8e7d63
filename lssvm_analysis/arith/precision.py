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
from functools import partial

import numpy as np

from ._generic import GenericPrecision
from .base import (NativeDtype, Precision, find_precision, get_precision, precisions, register as register_precision,
                   register_family, unregister as unregister_precision)
from .lapack import LapackPrecision
from .longdouble import LONGDOUBLE_EIG_DIGITS, LongDoublePrecision
from .mp import DEFAULT_MP_DIGITS, MAX_MP_DIGITS, MIN_MP_DIGITS, MP_ENGINES, MPPrecision
from .mp_flint import FlintPrecision

__all__ = ["Precision", "MPPrecision", "FlintPrecision", "LapackPrecision", "LongDoublePrecision", "precisions",
           "get_precision", "precision_of", "register_precision", "unregister_precision", "GenericPrecision",
           "NativeDtype", "DEFAULT_MP_DIGITS", "MIN_MP_DIGITS", "MAX_MP_DIGITS", "MP_ENGINES", "LONGDOUBLE_EIG_DIGITS"]

_MP_NAME = re.compile(r"^mp(\d+)$")


def _mp_of_name(m) -> MPPrecision | None:
    """mpN for N in [MIN_MP_DIGITS, MAX_MP_DIGITS], else None."""
    return MPPrecision(int(m.group(1))) if MIN_MP_DIGITS <= int(m.group(1)) <= MAX_MP_DIGITS else None


def _mp_of_entry(v) -> str | None:
    """mpN of an mpmath number (its context's digits), None for anything else."""
    ctx = getattr(v, "context", None)
    return f"mp{ctx.dps}" if getattr(v, "_mpf_", None) is not None and ctx is not None else None


# partials of the classes: register checks the primitives without making the objects at import
register_precision("float32", partial(LapackPrecision, np.float32))
register_precision("float64", partial(LapackPrecision, np.float64))
register_precision("longdouble", LongDoublePrecision)
register_precision(f"mp{DEFAULT_MP_DIGITS}", partial(MPPrecision, DEFAULT_MP_DIGITS))
register_family(_MP_NAME, _mp_of_name, f"'mpN' with {MIN_MP_DIGITS} <= N <= {MAX_MP_DIGITS}", of_entry=_mp_of_entry)


def precision_of(a) -> Precision:
    """The registered precision an array's entries are in (float32, float64, longdouble, mpN, or
    any precision registered with ``register_precision``): the registry is asked
    (:func:`~lssvm_analysis.arith.base.find_precision`), no dtype table here.

    mp entries carry their context, so an object array of ``mpf`` names its
    digits.  Anything else (a dtype no registered precision has, integers,
    complex, object arrays of other things) raises UnknownPrecisionError naming
    the dtype: no array is silently labelled float64.
    """
    return find_precision(a)
