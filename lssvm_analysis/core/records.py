"""Records of numerical outcomes the core returns as data: factorization breakdowns.

A breakdown is not a crash: :class:`CholeskyBreakdown` and :class:`LUBreakdown`
say where and how a factorization failed, in which precision, and travel in
the exceptions of :mod:`lssvm_analysis.core.exceptions` and in ``Fit.breakdown``.
:class:`ReadOnlyDict` is the picklable read-only mapping the frozen records use.
"""
from __future__ import annotations

from dataclasses import dataclass

__all__ = ["Breakdown", "CholeskyBreakdown", "LUBreakdown", "QRBreakdown", "ReadOnlyDict"]


class ReadOnlyDict(dict):
    """A dict that refuses mutation and still pickles (unlike MappingProxyType).

    Fits travel between worker processes and into scikit-learn's pickling
    checks, so their mappings must pickle.
    """

    def _refuse(self, *args, **kwargs):
        raise TypeError("this mapping is read-only (it belongs to a frozen record)")

    __setitem__ = __delitem__ = clear = pop = popitem = setdefault = update = _refuse
    __ior__ = _refuse

    def __reduce__(self):
        return (ReadOnlyDict, (dict(self),))


@dataclass(frozen=True)
class Breakdown:
    """Where and how a factorization failed (base of the two record types).

    Attributes
    ----------
    step : int
        0-based column at which the factorization stopped.
    pivot : float
        The offending pivot value, converted to float (it is computed in ``precision``).
    n : int
        Order of the matrix.
    precision : str
        Name of the precision the factorization ran in.
    """

    step: int
    pivot: float
    n: int
    precision: str

    #: The factorization, for messages and the records' ``kind`` column.
    factorization = "factorization"

    def as_dict(self) -> dict:
        return {"kind": self.factorization, "step": self.step, "pivot": self.pivot, "n": self.n,
                "precision": self.precision}

    def describe(self) -> str:
        return (f"{self.factorization} breakdown in {self.precision} at step {self.step} of "
                f"{self.n}: pivot {self.pivot!r}")


@dataclass(frozen=True)
class CholeskyBreakdown(Breakdown):
    """Cholesky met a pivot a_kk - ||l_k||^2 that is not positive and finite at ``step``."""

    factorization = "cholesky"


@dataclass(frozen=True)
class LUBreakdown(Breakdown):
    """LU with partial pivoting met an exactly zero (or non-finite) pivot u_kk at ``step``.

    ``pivot`` is that u_kk (0.0, or inf/NaN after overflow).
    """

    factorization = "lu"


@dataclass(frozen=True)
class QRBreakdown(Breakdown):
    """A column QR (least squares over kept columns) met a numerically dependent column at ``step``.

    ``pivot`` is |r_kk| (the norm of the column left after projecting out the earlier ones),
    ``n`` the number of columns factored.  Raised when |r_kk| <= m u max|R| (Householder) or
    ||v|| <= tol ||x|| (CGS2): the least-squares solution is then not determined in this
    arithmetic.
    """

    factorization = "qr"
