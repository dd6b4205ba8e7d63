"""Up-front memory check: a fit estimates its peak before allocating it.

A dense fit of n points holds a few n x n arrays at its peak; each solver
knows how many (its own count, in words of its precision).
:func:`ensure_memory` turns that count into bytes and compares it with the
memory the system has available now (``psutil.virtual_memory().available``),
so that an impossible problem fails in microseconds with a message naming n,
the precision and the bytes, instead of NumPy's "Unable to allocate" from
deep inside the kernel after minutes of work.
"""
from __future__ import annotations

from dataclasses import dataclass

import numpy as np
import psutil

from .exceptions import InsufficientMemoryError
from .precision import get_precision

__all__ = ["bytes_per_word", "estimate_bytes", "ensure_memory", "PeakMemory"]

#: Bytes of one mpf entry of an object array beyond its 8-byte pointer: the
#: mpf object with its tuple (~ 150 bytes measured with sys.getsizeof on
#: CPython 3.11) plus the mantissa, digits * log2(10) / 8 bytes.
_MP_OBJECT_BYTES = 150


def bytes_per_word(precision) -> int:
    """Bytes one array entry takes in the precision (mpN: pointer + mpf object + mantissa)."""
    p = get_precision(precision)
    if p.dtype == object:
        return 8 + _MP_OBJECT_BYTES + int(np.ceil(getattr(p, "dps", 50) * np.log2(10) / 8))
    return int(p.dtype.itemsize)


def estimate_bytes(words: float, precision) -> int:
    """``words`` entries of the precision, in bytes."""
    return int(np.ceil(float(words) * bytes_per_word(precision)))


def ensure_memory(n: int, words: float, precision, *, what: str = "fit") -> int:
    """Raise InsufficientMemoryError if ``words`` entries of ``precision`` exceed the available memory.

    Parameters
    ----------
    n : int
        Problem size (named in the message).
    words : float
        The peak number of array entries the caller will hold at once
        (e.g. ``3 * n**2`` for a dense fit holding three n x n arrays).
    precision : str or Precision
    what : str
        Who is asking (named in the message).

    Returns
    -------
    int
        The estimated bytes.

    Raises
    ------
    InsufficientMemoryError
        A ``MemoryError`` with ``n``, ``precision``, ``bytes_needed`` and
        ``bytes_available``.
    """
    p = get_precision(precision)
    need = estimate_bytes(words, p)
    avail = int(psutil.virtual_memory().available)
    if need > avail:
        raise InsufficientMemoryError(
            f"{what} with n={n} in {p.name} needs about {need / 2**30:.3g} GiB "
            f"({need} bytes, {words:.3g} words of {bytes_per_word(p)} bytes) at its peak, but only "
            f"{avail / 2**30:.3g} GiB are available: use a smaller n or a lower precision",
            n=int(n), precision=p.name, bytes_needed=need, bytes_available=avail)
    return need


@dataclass(frozen=True)
class PeakMemory:
    """The measured peak of a solver family's fit: ``words_per_entry (n+1)^2`` words plus ``fixed_bytes``.

    Declared once per family, held by the solver registry (``SolverInfo.peak``) and used by the
    family's up-front guard; ``tests/test_fast_paths.py`` measures every declared peak (tracemalloc,
    NumPy's allocations, the quantity the asv ``DenseFloor.track_peak_words_over_m2`` benchmark
    tracks) and requires the declaration to hold it without exceeding it by more than 2% of
    8 (n+1)^2 bytes: a guard that assumed 1.5 words per entry refused n = 45,000 as needing
    22.6 GiB when the fit peaks at 1.01 words (~16 GB).  The process's own memory (interpreter,
    libraries) is not counted: it is already outside ``available``.

    Attributes
    ----------
    words_per_entry : float
        Words of the precision per entry of the (n+1) x (n+1) matrix the fit forms.
    fixed_bytes : int
        Size-independent temporaries (GEMM blocks of the kernel, index arrays).
    measured : str
        Where the figure comes from.
    """

    words_per_entry: float
    fixed_bytes: int = 2 ** 20
    measured: str = ""

    def words(self, n: int, precision) -> float:
        """The peak in words of ``precision`` for n points."""
        return self.words_per_entry * (n + 1) ** 2 + self.fixed_bytes / bytes_per_word(precision)

    def ensure(self, n: int, precision, *, what: str) -> int:
        """:func:`ensure_memory` for this peak."""
        return ensure_memory(n, self.words(n, precision), precision, what=what)
