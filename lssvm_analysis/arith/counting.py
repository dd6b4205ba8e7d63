"""Operation counts of the generic kernels: a scalar that counts what is done to it.

:func:`count_cholesky` and :func:`count_matmul` run the very code that
longdouble and mpN run (:func:`._generic.cholesky`, ``np.matmul`` on object
arrays) on :class:`Counted` scalars and return how many multiplications,
additions (subtractions included), divisions and square roots it performed.
The counts answer statements about an algorithm's arithmetic (Abe §2.4: "The
Cholesky factorization of Ω_e includes o(M³) multiplications and M square
roots") exactly, which timings cannot: a BLAS runs faster per flop as the
order grows, so a time's log–log slope is below the operation count's.

The counts do not depend on the values (the kernels do not pivot), only on the
orders, as long as the factorization does not break down.
"""
from __future__ import annotations

import math
from collections import Counter

import numpy as np

from . import _generic

__all__ = ["Counted", "count_cholesky", "count_matmul", "OPERATIONS"]

#: The operations counted, in the order of the returned dictionaries.
OPERATIONS = ("mul", "add", "div", "sqrt")


def _v(x):
    return x.v if isinstance(x, Counted) else x


class Counted:
    """A float that counts the arithmetic done with it in ``Counted.tally`` (a shared Counter)."""

    __slots__ = ("v",)
    tally: Counter = Counter()

    def __init__(self, v):
        self.v = float(v)

    def _op(self, kind, value):
        Counted.tally[kind] += 1
        return Counted(value)

    def __mul__(self, o):
        return self._op("mul", self.v * _v(o))

    __rmul__ = __mul__

    def __add__(self, o):
        return self._op("add", self.v + _v(o))

    __radd__ = __add__

    def __sub__(self, o):
        return self._op("add", self.v - _v(o))

    def __rsub__(self, o):
        return self._op("add", _v(o) - self.v)

    def __truediv__(self, o):
        return self._op("div", self.v / _v(o))

    def __rtruediv__(self, o):
        return self._op("div", _v(o) / self.v)

    def __neg__(self):
        return Counted(-self.v)

    def __abs__(self):
        return Counted(abs(self.v))

    def __lt__(self, o):
        return self.v < _v(o)

    def __gt__(self, o):
        return self.v > _v(o)

    def __le__(self, o):
        return self.v <= _v(o)

    def __ge__(self, o):
        return self.v >= _v(o)

    def __float__(self):
        return self.v

    def __repr__(self):
        return f"Counted({self.v!r})"


def _sqrt(x):
    Counted.tally["sqrt"] += 1
    return Counted(math.sqrt(_v(x)))


def _counted(A) -> np.ndarray:
    A = np.asarray(A, dtype=np.float64)
    out = np.empty(A.shape, dtype=object)
    out.ravel()[:] = [Counted(a) for a in A.ravel()]
    return out


def _count(fn) -> dict:
    """The operations ``fn()`` performs on :class:`Counted` scalars."""
    Counted.tally = Counter()
    fn()
    counts = {k: int(Counted.tally[k]) for k in OPERATIONS}
    Counted.tally = Counter()
    return counts


def count_cholesky(A) -> dict:
    """Operations of the generic (left-looking) Cholesky ``A = L Lᵀ`` of a symmetric positive definite A.

    Returns ``{"mul", "add", "div", "sqrt"}``; for order n: (n³ − n)/6 multiplications and n square roots.
    Raises :class:`~lssvm_analysis.core.exceptions.CholeskyBreakdownError` when A is not positive definite.
    """
    C = _counted(A)
    return _count(lambda: _generic.cholesky(C, sqrt=_sqrt, zero=Counted(0.0), precision="counted"))


def count_matmul(A, B) -> dict:
    """Operations of ``A @ B`` on object arrays (the product longdouble and mpN form): m·p·n multiplications."""
    CA, CB = _counted(A), _counted(B)
    return _count(lambda: np.matmul(CA, CB))
