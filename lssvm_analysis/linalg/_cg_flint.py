"""The mpN engine of CG (:mod:`.cg`): the vectors and scalars of the Krylov recurrence kept in FLINT
between the steps, A converted once (chosen by ``p.engine == "flint"``)."""
from __future__ import annotations

import flint
import numpy as np
from flint import arb, arb_mat

from ..arith.flint_engine import LIB, Window, address, set_block, to_arb_mat, to_objects

__all__ = ['Krylov']


class _Scalar:
    """A number of the Krylov recurrences kept as an exact ``arb`` (radius 0) between operations:
    each operation rounds once to the precision's bits (python-flint at ``flint.ctx.prec``,
    set by :meth:`Krylov.context`) and keeps the midpoint, as an mpf operation rounds once."""

    __slots__ = ("v",)

    def __init__(self, v: arb):
        self.v = v

    @staticmethod
    def _of(x):
        return x.v if isinstance(x, _Scalar) else arb(x)   # float / int: exact

    def __truediv__(self, o):
        return _Scalar((self.v / self._of(o)).mid())

    def __mul__(self, o):
        if isinstance(o, _Vector):
            return o * self
        return _Scalar((self.v * self._of(o)).mid())

    __rmul__ = __mul__

    def __add__(self, o):
        return _Scalar((self.v + self._of(o)).mid())

    def __sub__(self, o):
        return _Scalar((self.v - self._of(o)).mid())

    def __neg__(self):
        return _Scalar(-self.v)

    def __abs__(self):
        return _Scalar(abs(self.v))

    def __float__(self):
        return float(self.v)

    # exact points: the comparisons are exact
    def __gt__(self, o):
        return bool(self.v > self._of(o))

    def __le__(self, o):
        return bool(self.v <= self._of(o))

    def __eq__(self, o):
        return bool(self.v == self._of(o))

    __hash__ = None


class _Vector:
    """A column vector of the Krylov recurrences kept as an exact n x 1 ``arb_mat`` (immutable:
    every operation returns a new one, rounded once per entry to the precision's bits)."""

    __slots__ = ("M",)

    def __init__(self, M: arb_mat):
        self.M = M

    def copy(self):
        return self

    def __add__(self, o):
        return _Vector((self.M + o.M).mid())

    def __sub__(self, o):
        return _Vector((self.M - o.M).mid())

    def __mul__(self, s):
        return _Vector((self.M * s.v).mid())

    __rmul__ = __mul__

    def __matmul__(self, o):
        """The dot product, one rounding (an exact dot product rounded once by ``arb_mat_mul``)."""
        return _Scalar((self.M.transpose() * o.M)[0, 0].mid())


class Krylov:
    """The vectors and scalars of a Krylov recurrence (CG) kept in FLINT, and A applied to them.

    :func:`~lssvm_analysis.linalg.cg.simultaneous_cg` writes its recurrences once, with NumPy's
    operators; given this space they run on :class:`_Vector` / :class:`_Scalar` (each
    operation one rounding to ``prec`` bits, as an mpf operation; a dot product is rounded
    once instead of once per term), and each iteration's product converts nothing: the
    directions are copied into one n x k ``arb_mat`` and multiplied by A (converted once,
    here) with ``arb_mat_approx_mul``.  Only the final iterate is converted back
    (:meth:`array`).  At n = 60 an mp50 CG step costs ~0.1 ms where the mpf loops took ~4.
    """

    def __init__(self, A: np.ndarray, *, prec: int, ctx):
        self.MA, self.prec, self.ctx = to_arb_mat(A), prec, ctx
        self.n = self.MA.nrows()

    def context(self):
        """Where the recurrences run: python-flint's arithmetic at ``prec`` bits."""
        return flint.ctx.workprec(self.prec)

    def vector(self, b: np.ndarray) -> _Vector:
        return _Vector(to_arb_mat(np.asarray(b).reshape(-1, 1)))

    def zeros(self, n: int) -> _Vector:
        return _Vector(arb_mat(n, 1))

    def scalar(self, x) -> _Scalar:
        return _Scalar(arb(x))

    def apply(self, vectors: list) -> list:
        """[A v for v in vectors], one ``arb_mat_approx_mul`` of A by their n x k block."""
        k = len(vectors)
        P, out = arb_mat(self.n, k), arb_mat(self.n, k)
        for j, v in enumerate(vectors):
            set_block(P, 0, j, v.M)
        LIB.arb_mat_approx_mul(address(out), address(self.MA), address(P), self.prec)
        cols = []
        for j in range(k):
            c = arb_mat(self.n, 1)
            with Window(out, 0, j, self.n, j + 1) as w:
                LIB.arb_mat_set(address(c), w)
            cols.append(_Vector(c))
        return cols

    def array(self, v: _Vector) -> np.ndarray:
        """The vector as an object array of the precision's mpf (exact)."""
        return to_objects(v.M, self.ctx, shape=(v.M.nrows(),))
