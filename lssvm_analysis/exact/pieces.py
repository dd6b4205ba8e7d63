"""Exact data as float64 pieces: a = a_1 + ... + a_p with every a_k a float64 array.

The exact products of :mod:`lssvm_analysis.exact.ozaki` take float64
operands; data held in a wider arithmetic (longdouble, mpmath ``mpf``, large
integers) enter them as short sums of float64 numbers, each piece exact and
within the scaling range ``EXP_RANGE`` (:func:`float64_pieces`; None when the
entries need more pieces or leave the range).  The reference solve
(:func:`lssvm_analysis.exact.arb.exact_system`) and the Ozaki formation of
the exact models (:mod:`lssvm_analysis.exact.formation`) take their data so.
"""
from __future__ import annotations

import math

import numpy as np

from .ozaki import EXP_RANGE

__all__ = ["float64_pieces"]


def _dyadic(v):
    """(m, e) with v = m 2^e exactly (float, int, numpy scalar, mpmath mpf), or None."""
    mpf = getattr(v, "_mpf_", None)
    if mpf is not None:
        sign, man, exp, _ = mpf
        if not man and exp:       # inf / nan
            return None
        return (-int(man) if sign else int(man)), int(exp)
    if isinstance(v, (int, np.integer)):
        return int(v), 0
    num, den = v.as_integer_ratio()
    return num, 1 - den.bit_length()


def _pieces_of(m: int, e: int, count: int):
    """float64 pieces f_1 + ... (at most count) summing exactly to m 2^e, or None."""
    out = []
    while m:
        if len(out) == count:
            return None
        try:
            f = float(m)                          # nearest, an integer
        except OverflowError:
            return None
        _, fe = math.frexp(f)
        if not (EXP_RANGE[0] + 53 <= fe + e <= EXP_RANGE[1]):
            return None
        out.append(math.ldexp(f, e))              # normal: exact
        m -= int(f)
    return out


_TO_INT = np.frompyfunc(int, 1, 1)


def _mpf_pieces(a: np.ndarray, count: int):
    """:func:`float64_pieces` of an object array of mpf, the greedy rule of :func:`_pieces_of`
    applied to all entries at once (NumPy's C loops over the Python integers: float(m) rounds
    to nearest, m - int(f) is exact), so the pieces are the same, bit for bit; ~3 times faster
    at 169 bits (mp50).  NotImplemented when an entry is not an mpf (the caller's loop names
    a bad one)."""
    try:
        tups = [v._mpf_ for v in a.flat]
    except AttributeError:
        return NotImplemented
    if any(not man and exp for _, man, exp, _ in tups):     # inf / nan
        return None
    m = np.empty(len(tups), dtype=object)
    m[:] = [-int(man) if sign else int(man) for sign, man, _, _ in tups]
    e = np.fromiter((exp for _, _, exp, _ in tups), dtype=np.int64, count=len(tups))
    out = []
    nz = m != 0
    while nz.any():
        if len(out) == count:
            return None
        try:
            f = m.astype(np.float64)                        # nearest, an integer
        except OverflowError:
            return None
        fe = np.frexp(f)[1] + e
        if not np.all(((EXP_RANGE[0] + 53 <= fe) & (fe <= EXP_RANGE[1])) | ~nz):
            return None
        out.append(np.ldexp(f, np.where(nz, e, 0)).reshape(a.shape))   # normal: exact
        m = m - _TO_INT(f)
        nz = m != 0
    return out or [np.zeros(a.shape)]


def float64_pieces(a: np.ndarray, *, count: int = 8):
    """float64 arrays a_1, ..., a_p (p <= count) with a = a_1 + ... + a_p exactly, or None.

    a_1 is the float64 rounding of a.  float16/32/64 and small integers give
    one piece, longdouble usually two; mpmath entries as many as their bits need.
    """
    kind, size = a.dtype.kind, a.dtype.itemsize
    if kind == "f" and size <= 8:
        return [np.asarray(a, dtype=np.float64)]     # no copy for float64: callers only read it
    if kind in "iu" and (a.size == 0 or int(np.abs(a).max()) <= 2 ** 53):
        return [a.astype(np.float64)]
    if kind == "f":
        with np.errstate(all="ignore"):
            hi = a.astype(np.float64)
            lo = (a - hi.astype(a.dtype)).astype(np.float64)
            if np.array_equal(hi.astype(a.dtype) + lo.astype(a.dtype), a) and np.isfinite(hi).all():
                tiny = (lo != 0) & (np.abs(lo) < 2.0 ** (EXP_RANGE[0] + 53))
                if not tiny.any():
                    return [hi, lo] if lo.any() else [hi]
    if a.dtype == object:
        fast = _mpf_pieces(a, count)
        if fast is not NotImplemented:
            return fast
    per = []
    for v in a.flat:
        d = _dyadic(v)
        p = None if d is None else _pieces_of(d[0], d[1], count)
        if p is None:
            return None
        per.append(p)
    depth = max((len(p) for p in per), default=0)
    out = np.zeros((max(depth, 1), a.size))
    for idx, p in enumerate(per):
        out[:len(p), idx] = p
    return [row.reshape(a.shape) for row in out]
