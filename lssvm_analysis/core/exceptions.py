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
    "QRBreakdownError",
    "breakdown_error",
    "UnknownPrecisionError",
    "UnsupportedPrecisionError",
    "IncompletePrecisionError",
    "UnknownSolverError",
    "NoExactModelError",
    "ReferenceAccuracyError",
    "UnknownDatasetError",
    "MissingDependencyError",
    "NonFiniteModelError",
    "InsufficientMemoryError",
    "UnexpectedParameterError",
    "StoreError",
    "CorruptRecordError",
    "OutputPathError",
    "UnderflowWarning",
    "KernelAccuracyWarning",
    "EigenConvergenceError",
]


class LSSVMWarning(UserWarning):
    """Base class of every warning raised by lssvm_analysis."""


class FallbackWarning(LSSVMWarning):
    """A solver fell back to another method (the fallback is recorded in the Fit)."""


class UnderflowWarning(LSSVMWarning):
    """An input lost its value in the working precision: non-zero entries that round to zero or to a
    subnormal (fewer significant bits than the format has), e.g. y * 1e-60 in float32.

    Attributes
    ----------
    name : str
        The argument ("X", "y").
    count : int
        How many non-zero entries underflowed.
    precision : str
    """

    def __init__(self, message="", name="", count=0, precision=""):
        super().__init__(message)
        self.name = name
        self.count = count
        self.precision = precision

    def __reduce__(self):
        return (type(self), (str(self), self.name, self.count, self.precision))


class KernelAccuracyWarning(LSSVMWarning):
    """The error bound of a kernel matrix says that its entries carry no correct digit.

    Attributes
    ----------
    bound : float
        The bound on max |K^_ij - K_ij| (absolute, entries in [0, 1] for RBF).
    precision, kernel : str
    """

    def __init__(self, message="", bound=float("nan"), precision="", kernel=""):
        super().__init__(message)
        self.bound = bound
        self.precision = precision
        self.kernel = kernel

    def __reduce__(self):
        return (type(self), (str(self), self.bound, self.precision, self.kernel))


class IllConditionedWarning(LSSVMWarning):
    """A matrix is too ill-conditioned for its arithmetic (kappa u >= 1/2).

    Raised by the fits when their cheap condition estimate says that the
    matrix they factored is, within the rounding of its own entries, not
    distinguishable from a singular one: by Gastinel-Kahan the relative
    distance of A to the nearest singular matrix is 1 / kappa(A), and storing
    A in the precision already perturbs it by a relative u, so once
    ``kappa * u >= 1/2`` no digit of the solution is determined by the data.

    Attributes
    ----------
    kappa : float
        The condition estimate (1-norm, LAPACK ``pocon``/``gecon`` or Higham's
        estimator in the precision; ``inf`` for an exactly singular factor).
    unit_roundoff : float
        u of the precision.
    precision, matrix, method : str
        Where it was measured: the precision name, which matrix (e.g. "H =
        Omega + I/C") and how (e.g. "LAPACK dpocon").
    """

    def __init__(self, message="", kappa=float("nan"), unit_roundoff=float("nan"), precision="",
                 matrix="", method=""):
        super().__init__(message)
        self.kappa = kappa
        self.unit_roundoff = unit_roundoff
        self.precision = precision
        self.matrix = matrix
        self.method = method

    def __reduce__(self):  # picklable across worker processes, attributes included
        return (type(self), (str(self), self.kappa, self.unit_roundoff, self.precision, self.matrix,
                             self.method))


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


class EigenConvergenceError(np.linalg.LinAlgError):
    """A symmetric eigensolver did not converge (mpmath's ``eigsy``: its QL iteration limit), as
    NumPy's "Eigenvalues did not converge".  Attributes ``n`` (order) and ``precision``."""

    def __init__(self, message="", n=0, precision=""):
        super().__init__(message)
        self.n = n
        self.precision = precision

    def __reduce__(self):
        return (type(self), (str(self), self.n, self.precision))


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


class QRBreakdownError(np.linalg.LinAlgError):
    """A column QR met a numerically dependent column (``record``: a :class:`QRBreakdown`)."""

    def __init__(self, record):
        self.record = record
        super().__init__(f"QR breakdown in {record.precision} at column {record.step} of {record.n}: "
                         f"|r_kk| = {record.pivot!r} (the column is numerically dependent on the earlier ones)")

    def __reduce__(self):
        return (type(self), (self.record,))


def breakdown_error(record) -> np.linalg.LinAlgError:
    """The exception that carries a breakdown record (Cholesky or LU), for callers that raise."""
    from_kind = {"cholesky": CholeskyBreakdownError, "lu": LUBreakdownError, "qr": QRBreakdownError}
    return from_kind[record.factorization](record)


class UnknownPrecisionError(ValueError):
    """The precision name is not in the registry."""


class UnsupportedPrecisionError(ValueError):
    """The solver does not run in the requested precision (e.g. LIBSVM outside float64)."""


class IncompletePrecisionError(TypeError):
    """A precision registered without a required primitive (an abstract method of ``Precision``) or
    attribute: raised by ``register`` (or when the registry first makes it), never at a fit.
    Attributes ``precision`` (the name) and ``missing`` (the methods or attributes it lacks)."""

    def __init__(self, message="", precision="", missing=()):
        super().__init__(message)
        self.precision = precision
        self.missing = tuple(missing)

    def __reduce__(self):
        return (type(self), (str(self), self.precision, self.missing))


class UnknownSolverError(ValueError):
    """The solver name is not in the registry."""


class NoExactModelError(ValueError):
    """The solver registers no ``exact_model`` hook, so a fit's model digits cannot be measured.

    The message names the solver and says why (its registry ``exact_note``).
    """


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


class NonFiniteModelError(FloatingPointError):
    """A fit ended with ``status="overflow"``: its coefficients or bias are not finite.

    Raised by the estimators (the solver functions return the outcome as data).

    Attributes
    ----------
    fit : Fit
        The fit, with ``diagnostics["nonfinite"]`` (phase, counts).
    """

    def __init__(self, message="", fit=None):
        super().__init__(message)
        self.fit = fit

    def __reduce__(self):
        return (type(self), (str(self), self.fit))


class InsufficientMemoryError(MemoryError):
    """A fit's estimated peak memory exceeds the memory available, checked before allocating.

    Attributes
    ----------
    n : int
        Problem size (training points).
    precision : str
    bytes_needed, bytes_available : int
    """

    def __init__(self, message="", n=0, precision="", bytes_needed=0, bytes_available=0):
        super().__init__(message)
        self.n = n
        self.precision = precision
        self.bytes_needed = bytes_needed
        self.bytes_available = bytes_available

    def __reduce__(self):
        return (type(self), (str(self), self.n, self.precision, self.bytes_needed, self.bytes_available))


class UnexpectedParameterError(TypeError):
    """A keyword the solver does not take (the message names the solver and its keywords)."""


class StoreError(OSError):
    """A record store that cannot be opened, read or written.

    The message names the path, the reason and what to do (e.g. move the
    file aside); ``path`` and ``reason`` are attributes.
    """

    def __init__(self, message="", path="", reason=""):
        super().__init__(message)
        self.path = path
        self.reason = reason

    def __str__(self):
        return self.args[0] if self.args else ""

    def __reduce__(self):
        return (type(self), (str(self), self.path, self.reason))


class CorruptRecordError(StoreError):
    """A stored record whose content does not match its checksum (changed after it was written)."""


class OutputPathError(OSError):
    """An output directory (``--out``) that cannot be created or written; names the path and why."""

    def __str__(self):
        return self.args[0] if self.args else ""
