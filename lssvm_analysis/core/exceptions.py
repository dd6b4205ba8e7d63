"""Named exceptions and warnings of lssvm_analysis, all in one place.

Bad arguments raise ``ValueError`` / ``TypeError`` subclasses whose message
names the argument and the value it got ("expected ..., got ...").
Numerical failures raise ``numpy.linalg.LinAlgError`` subclasses that carry a
record of what happened; solvers catch them and return them as data in the
``Fit`` (``status="breakdown"``).  Every fallback emits a warning of a named
class and is recorded in the ``Fit``.
"""
from __future__ import annotations

import numpy as np

__all__ = [
    "LSSVMWarning",
    "FallbackWarning",
    "IllConditionedWarning",
    "ConvergenceWarning",
    "CholeskyBreakdownError",
    "LUBreakdownError",
    "breakdown_error",
    "UnknownPrecisionError",
    "UnsupportedPrecisionError",
    "UnknownSolverError",
    "ReferenceAccuracyError",
    "UnknownDatasetError",
    "MissingDependencyError",
]


class LSSVMWarning(UserWarning):
    """Base class of every warning raised by lssvm_analysis."""


class FallbackWarning(LSSVMWarning):
    """A solver fell back to another method (the fallback is recorded in the Fit)."""


class IllConditionedWarning(LSSVMWarning):
    """A matrix is too ill-conditioned for the requested accuracy."""


class ConvergenceWarning(LSSVMWarning):
    """An iterative method stopped before its tolerance was met."""


class CholeskyBreakdownError(np.linalg.LinAlgError):
    """Cholesky factorization met a pivot that is not positive and finite.

    Attributes
    ----------
    record : lssvm_analysis.result.CholeskyBreakdown
        ``step`` (0-based column), ``pivot`` (a_kk - ||l_k||^2 at that step,
        as a float), ``n`` and ``precision``.
    """

    def __init__(self, record):
        self.record = record
        super().__init__(
            f"Cholesky breakdown in {record.precision} at step {record.step} of "
            f"{record.n}: pivot a_kk - ||l_k||^2 = {record.pivot!r} is not positive"
        )

    def __reduce__(self):  # picklable across worker processes
        return (type(self), (self.record,))


class LUBreakdownError(np.linalg.LinAlgError):
    """LU with partial pivoting met an exactly zero (or non-finite) pivot.

    Attributes
    ----------
    record : lssvm_analysis.core.records.LUBreakdown
        ``step`` (0-based column), ``pivot`` (u_kk, as a float), ``n`` and ``precision``.
    """

    def __init__(self, record):
        self.record = record
        super().__init__(f"LU breakdown in {record.precision} at step {record.step} of {record.n}: "
                         f"pivot u_kk = {record.pivot!r} (the matrix is singular in this arithmetic)")

    def __reduce__(self):
        return (type(self), (self.record,))


def breakdown_error(record) -> np.linalg.LinAlgError:
    """The exception that carries a breakdown record (Cholesky or LU), for callers that raise."""
    from_kind = {"cholesky": CholeskyBreakdownError, "lu": LUBreakdownError}
    return from_kind[record.factorization](record)


class UnknownPrecisionError(ValueError):
    """The precision name is not in the registry."""


class UnsupportedPrecisionError(ValueError):
    """The solver does not run in the requested precision (e.g. LIBSVM outside float64)."""


class UnknownSolverError(ValueError):
    """The solver name is not in the registry."""


class ReferenceAccuracyError(ArithmeticError):
    """reference_solve could not certify the requested number of digits.

    Also raised by ``condition_number`` when kappa cannot be resolved.

    Parameters
    ----------
    message : str
    digits_reached : float or None, optional
        See Attributes.

    Attributes
    ----------
    digits_reached : float or None
        Best number of correct digits certified before giving up (``-inf``
        when not even one was); None when the raiser does not count digits
        (``condition_number``).
    """

    def __init__(self, message: str = "", digits_reached: float | None = None):
        self.digits_reached = digits_reached
        super().__init__(message)

    def __reduce__(self):  # picklable across worker processes, digits_reached included
        return (type(self), (str(self), self.digits_reached))


class UnknownDatasetError(ValueError):
    """The dataset name is not in the registry."""


class MissingDependencyError(ImportError):
    """An optional package that ships a data set is not installed (or lacks the item)."""
