"""Up-front memory check: a fit estimates its peak before allocating it.

A fit of n points holds a few n x n (or n x r) arrays at its peak; each
solver family declares how many, measured (:class:`PeakMemory`, words of its
precision as a function of its sizes).
:func:`ensure_memory` turns that count into bytes and compares it with the
memory the system has available now (``psutil.virtual_memory().available``),
so that an impossible problem fails in microseconds with a message naming n,
the precision and the bytes, instead of NumPy's "Unable to allocate" from
deep inside the kernel after minutes of work.

Several processes that check at the same moment would each see the same free memory and together
allocate more than it (the kernel's OOM killer then ends one of them).  So inside a task scope
(:func:`memory_scope`, which the sweep runner enters around every task) a *large* request, more
than :data:`LARGE_FRACTION` of the machine's total memory, first takes a machine-wide lock (an
exclusive ``flock`` on :data:`MEMORY_LOCK_PATH`, held until the scope ends) and is compared with a
fresh reading less a margin; outside a scope nothing changes.
"""
from __future__ import annotations

import contextlib
import math
import os
import re
import tempfile
import threading
import time
from collections.abc import Mapping
from dataclasses import dataclass
from pathlib import Path

import numpy as np
import psutil

try:
    import fcntl
except ImportError:  # Windows: no flock, so large requests are not serialised there (see memory_scope)
    fcntl = None

from ..core.exceptions import InsufficientMemoryError, UnsupportedPrecisionError
from ..arith.precision import get_precision

__all__ = ["bytes_per_word", "estimate_bytes", "ensure_memory", "UNCHECKED_BYTES", "available_bytes",
           "READING_SECONDS", "PeakMemory", "PeakTerms", "SOFTWARE", "memory_key", "traced_peak", "traced_bytes_per_word",
           "memory_scope", "large_bytes", "LARGE_FRACTION", "MEMORY_LOCK_PATH", "second_size",
           "engine_key"]

#: Bytes tracemalloc sees per mpf entry of an object array, its 8-byte pointer included: the mpf,
#: its ``_mpf_`` tuple, the gmpy2 mpz object of the mantissa and the exponent.  Measured with a
#: list of 10,000 distinct mpf (CPython 3.11, mpmath's gmpy backend): 225.7 to 253.7 bytes for
#: dps 15 to 1000, stepping with the allocator's size classes, not with the digits; the largest.
#: (The previous estimate, 8 + 150 + the mantissa bytes, was below it: sys.getsizeof of the mpf
#: alone, 72 bytes, leaves out its tuple and the mpz.)
_MP_TRACED_BYTES = 254
#: Requests up to this size are not compared with the available memory (see :func:`ensure_memory`).
UNCHECKED_BYTES = 2 ** 20
#: GMP allocates an mpz's limbs with its own malloc, which tracemalloc does not see: 8 bytes per
#: 64 bits of the working precision plus malloc's 16-byte chunk header.
_LIMB_BYTES, _MALLOC_HEADER = 8, 16
#: A reading of the available memory is reused for this many seconds (see :func:`available_bytes`).
READING_SECONDS = 1.0
#: (the psutil function that read it, monotonic time, bytes available) of the last reading.
_last_reading: list = [None, -float("inf"), 0]
#: A request of more than this fraction of the machine's total memory is large: inside a task scope
#: it waits for the machine-wide memory lock (:func:`memory_scope`).  1/8: ~2.9 GiB of this 23.5 GiB
#: machine.  It is also the margin a lock holder leaves for other processes' requests (:func:`ensure_memory`).
LARGE_FRACTION = 1 / 8
#: The lock file of the large requests, one per user (POSIX; ``None`` where there is no ``flock``).
MEMORY_LOCK_PATH = (Path(tempfile.gettempdir()) / f"lssvm_analysis-{os.getuid()}.memlock"
                    if fcntl is not None else None)
#: (the psutil function that read it, bytes of total memory): the total does not change, read once.
_total_reading: list = [None, 0]
#: Per thread: ``depth`` of nested task scopes, ``fd`` of the lock file while this scope holds the lock.
_scope = threading.local()


def traced_bytes_per_word(precision) -> int:
    """The bytes of one array entry that tracemalloc sees (mpN: all but the mantissa's GMP limbs)."""
    p = get_precision(precision)
    return _MP_TRACED_BYTES if p.dtype == object else int(p.dtype.itemsize)


def bytes_per_word(precision) -> int:
    """Bytes one array entry takes in the precision (mpN: pointer, mpf, tuple, mpz, and its limbs)."""
    p = get_precision(precision)
    if p.dtype == object:
        ctx = getattr(p, "ctx", None)   # mpN: its context's bits (u = 2^-bits underflows a float past 1074)
        bits = ctx.prec if ctx is not None else round(-math.log2(p.unit_roundoff))
        return _MP_TRACED_BYTES + _LIMB_BYTES * -(-bits // 64) + _MALLOC_HEADER
    return int(p.dtype.itemsize)


def estimate_bytes(words: float, precision) -> int:
    """``words`` entries of the precision, in bytes."""
    return int(np.ceil(float(words) * bytes_per_word(precision)))


def available_bytes(need: int = 0, *, fresh: bool = False) -> int:
    """The memory available now, in bytes (``psutil.virtual_memory().available``), read at most
    once per :data:`READING_SECONDS` for requests far below it.

    The last reading is reused when it is younger than ``READING_SECONDS``, came from the same
    ``psutil.virtual_memory`` (a test that replaces it gets its own figure at once) and ``need``
    is at most half of it; otherwise the memory is read again.  So a request that the last
    reading would refuse, or nearly, is always compared with a fresh one, and an accepted one
    had, a moment ago, twice what it asks.  Why: psutil parses /proc/meminfo (~50 us), which was
    8 % of an lssvm-schur fit at N = 100 (615 us), and the report's CV grids and pruning paths
    make tens of thousands of such fits.  ``fresh=True`` always reads again (a large request
    that has just taken the memory lock: the memory may have been freed while it waited).
    """
    query = psutil.virtual_memory
    source, when, avail = _last_reading
    now = time.monotonic()
    if fresh or source is not query or now - when > READING_SECONDS or 2 * need > avail:
        avail = int(query().available)
        _last_reading[:] = [query, now, avail]
    return avail


def _total_bytes() -> int:
    """The machine's total memory, in bytes: ``psutil.virtual_memory().total``, read once per
    ``psutil.virtual_memory`` function (a test that replaces it gets its own figure at once); the total
    does not change while a process runs."""
    query = psutil.virtual_memory
    if _total_reading[0] is not query:
        _total_reading[:] = [query, int(query().total)]
    return _total_reading[1]


def large_bytes() -> int:
    """The threshold of a large request: :data:`LARGE_FRACTION` of the machine's total memory, in bytes."""
    return int(_total_bytes() * LARGE_FRACTION)


@contextlib.contextmanager
def memory_scope():
    """A task's scope: its large requests (:func:`ensure_memory`) hold the machine-wide memory lock.

    The sweep runner (``experiments.execute.execute_task``) enters it around every task's
    computation.  Inside it, the first request of more than :func:`large_bytes` takes an exclusive
    ``fcntl.flock`` on :data:`MEMORY_LOCK_PATH`, waiting while another process (or another thread's
    scope) holds it, and keeps it until the scope ends, error or not; later large requests of the
    scope do not lock again.  Scopes nest (the outermost releases).  Requests of at most
    :func:`large_bytes` never touch the lock or its file.

    The kernel releases a ``flock`` when the last descriptor of the open file closes, so a worker
    that crashes or is killed (SIGKILL, the OOM killer) while holding the lock never leaves it held.
    Each thread's scope opens its own descriptor, so scopes of two threads exclude each other too.
    A process forked inside the scope inherits the descriptor: the lock is released at the scope's
    end all the same (``LOCK_UN`` acts on the shared open file), but should this process die first,
    only when the child exits too.  A lock file that cannot be opened raises ``OSError`` (a task's
    "error" row): the request is never made unserialised.  Where ``fcntl`` does not exist (Windows)
    the scope only counts its depth: large requests are not serialised there.

    Yields
    ------
    None
    """
    depth = getattr(_scope, "depth", 0)
    _scope.depth = depth + 1
    try:
        yield
    finally:
        _scope.depth = depth
        fd = getattr(_scope, "fd", None) if depth == 0 else None
        if fd is not None:
            _scope.fd = None
            try:
                fcntl.flock(fd, fcntl.LOCK_UN)
            finally:
                os.close(fd)


def _hold_memory_lock() -> None:
    """Take the memory lock for this thread's scope (waiting for it), unless the scope holds it."""
    if getattr(_scope, "fd", None) is not None:
        return
    # O_NOFOLLOW: a link planted under the lock's name in the shared temporary directory is refused
    fd = os.open(MEMORY_LOCK_PATH, os.O_RDWR | os.O_CREAT | getattr(os, "O_NOFOLLOW", 0), 0o600)
    try:
        fcntl.flock(fd, fcntl.LOCK_EX)  # blocks until no other descriptor holds it
    except BaseException:
        os.close(fd)
        raise
    _scope.fd = fd


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

    Notes
    -----
    A request of at most :data:`UNCHECKED_BYTES` (1 MiB, the size-independent
    temporaries every :class:`PeakMemory` already carries as ``fixed_bytes``)
    is not compared: the query of the available memory (psutil reads
    /proc/meminfo, ~70 us) was a quarter of an fs-lssvm fit whose entropy swaps
    evaluate thousands of one-row kernels (measured: 0.78 s of 3.1 s).  Larger
    requests are compared with :func:`available_bytes`, which reads again
    whenever the last reading is old or the request is not far below it: a
    refusal is always decided on a fresh reading.

    Inside a task scope (:func:`memory_scope`), a request of more than :func:`large_bytes` (1/8 of
    the machine's total memory) first takes the machine-wide memory lock, waiting while another
    process's scope holds it, then is compared with a fresh reading less a margin: ``need >
    available - large_bytes()`` is refused, and ``bytes_available`` is that difference.  The margin
    is the most a concurrent *small* request of another process may still allocate after its own
    check (anything larger waits for the lock this process holds), so two processes never commit
    the same memory twice.  Outside a scope (a user's own ``fit``) there is no lock and no margin.
    """
    p = get_precision(precision)
    need = estimate_bytes(words, p)
    if need <= UNCHECKED_BYTES:
        return need
    if getattr(_scope, "depth", 0) and fcntl is not None and need > large_bytes():
        margin = large_bytes()
        # a request beyond the machine's whole memory less the margin can never fit: refused at once, not
        # after waiting for the lock behind another process's fit (the same decision the lock would give,
        # since the available memory never exceeds the total)
        if need <= _total_bytes() - margin:
            _hold_memory_lock()
        avail = available_bytes(need, fresh=True)
        if need > avail - margin:
            _refuse(n, words, p, need, avail, what,
                    f" ({avail} bytes) less a margin of {margin / 2**30:.3g} GiB ({margin} bytes, kept for "
                    f"other processes' smaller requests while this one holds the memory lock): "
                    f"{(avail - margin) / 2**30:.3g} GiB ({avail - margin} bytes)", avail - margin)
        return need
    avail = available_bytes(need)
    if need > avail:
        _refuse(n, words, p, need, avail, what, "", avail)
    return need


def _refuse(n, words, p, need, avail, what, less, budget):
    """Raise the InsufficientMemoryError of :func:`ensure_memory` (``less``: the margin's words)."""
    raise InsufficientMemoryError(
        f"{what} with n={n} in {p.name} needs about {need / 2**30:.3g} GiB "
        f"({need} bytes, {words:.3g} words of {bytes_per_word(p)} bytes) at its peak, but only "
        f"{avail / 2**30:.3g} GiB are available{less}: use a smaller n or a lower precision",
        n=int(n), precision=p.name, bytes_needed=need, bytes_available=budget)


@dataclass(frozen=True)
class PeakTerms:
    """Words of one precision a fit holds at its peak, as a polynomial in its sizes.

    ``n2 (n+1)^2 + nr (n+1) r + r2 r^2 + n1 (n+1)`` words, with n the training
    points and r the family's second size (support size, rank, selected
    features; 0 for the dense families).  The coefficients are measured
    (:class:`PeakMemory`), not counted from the code: temporaries in another
    dtype (a float64 kernel under a float32 fit, a float64 copy of a
    longdouble matrix) make the word count of one precision differ from
    another's.
    """

    n2: float = 0.0
    nr: float = 0.0
    r2: float = 0.0
    n1: float = 0.0

    def words(self, n: int, r: int = 0) -> float:
        """The peak in words for n points and second size r."""
        m = n + 1
        return self.n2 * m * m + self.nr * m * r + self.r2 * r * r + self.n1 * m


#: The key of :attr:`PeakMemory.terms` that holds for every precision whose numbers are Python objects
#: (mpN: an entry is a pointer, the mpf, its tuple and mpz, and the mantissa's limbs).
SOFTWARE = "mp"
#: A memory key: ``hw<bytes>`` (a hardware precision: LAPACK's IEEE words of that many bytes),
#: ``sw<bytes>`` (software arithmetic, NumPy's generic loops, on a NumPy dtype of that many bytes) or
#: :data:`SOFTWARE`.
_KEY = re.compile(r"^(?:(hw|sw)(\d+)|mp)$")


def memory_key(precision) -> str:
    """The key of ``precision``'s peak terms, by capability: its engine and its word size.

    ``"hw8"`` and ``"hw4"`` (float64, float32: :attr:`Precision.hardware`, LAPACK), ``"sw16"``
    (longdouble on x86-64: NumPy's loops on a native dtype of 16 bytes), ``"mp"`` (:data:`SOFTWARE`:
    object entries, any digits).  A precision registered later gets the key of what it is, never
    of its name: another hardware float64 shares float64's measured peaks, a software precision of
    object entries the mp ones.
    """
    p = get_precision(precision)
    if p.dtype == object:
        return SOFTWARE
    return f"{'hw' if p.hardware else 'sw'}{p.dtype.itemsize}"


def engine_key(key: str) -> str:
    """An engine key (``hw<bytes>``, ``sw<bytes>``, ``mp``) as it is, or a registered precision's name as
    its key (a plugin's declaration may say "float64"; an unknown name is UnknownPrecisionError): the
    keys of the peak and the time models alike."""
    return key if _KEY.match(key) else memory_key(key)


def _bound_from(terms: Mapping, key: str):
    """Terms that bound the peak of a precision of ``key`` from the measured terms of its engine.

    Two precisions on the same engine run the same code, so their fits hold the same arrays; only
    the entries of their own dtype differ in size, the temporaries of other dtypes (float64 copies,
    mp eigenproblems) do not.  With w and w' their word bytes, the bytes satisfy
    B(w) <= B(w') for w <= w' and B(w) <= (w / w') B(w') for w > w', so its words are at most
    max(1, w' / w) times the measured precision's.  That needs both to convert the float64 input
    (neither of 8 bytes: float64 itself holds no converted copy, float32 does: 3.0 words per
    entry of a bordered KKT matrix against 1.13), so a word size of 8 is never bounded from
    another, nor another from it.  The smallest bound is taken; None when no measured key qualifies.
    """
    m = _KEY.match(key)
    if not m or not m.group(1) or int(m.group(2)) == 8:
        return None
    engine, w = m.group(1), int(m.group(2))
    best = None
    for other, t in terms.items():
        mo = _KEY.match(other)
        if mo and mo.group(1) == engine and int(mo.group(2)) != 8:
            factor = max(1.0, int(mo.group(2)) / w)
            if best is None or factor < best[0]:
                best = (factor, t)
    if best is None:
        return None
    factor, t = best
    phases = t if isinstance(t, tuple) else (t,)
    return tuple(PeakTerms(n2=factor * q.n2, nr=factor * q.nr, r2=factor * q.r2, n1=factor * q.n1) for q in phases)


@dataclass(frozen=True)
class PeakMemory:
    """The measured peak memory of a solver family's fit, per precision.

    Declared once per family, held by the solver registry (``SolverInfo.peak``)
    and used by the family's up-front guard (:meth:`ensure`, before the fit
    allocates).  The bytes are ``bytes_per_word(p) * terms[p].words(n, r) +
    fixed_bytes + untraced_bytes``.  ``tests/test_peak_memory.py`` measures every
    declared peak at two sizes in each precision (tracemalloc of
    NumPy's allocations, the quantity the asv ``SolverFit.peakmem_fit`` and
    ``PeakOverDeclared.track_peak_over_declared`` benchmarks track) and requires
    the declaration to hold the measurement without exceeding it by more than
    a stated margin: a guard that assumed 1.5 words per entry refused n = 45,000
    as needing 22.6 GiB when the fit peaks at 1.01 words (~16 GB).  The
    process's own memory (interpreter, libraries) is not counted: it is
    already outside ``available``.

    Attributes
    ----------
    terms : mapping of str to PeakTerms or tuple of PeakTerms
        By :func:`memory_key`, the precision's engine and word size (``hw8``: float64, ``hw4``:
        float32, ``sw16``: longdouble; a registered precision's name is accepted and stored under its
        key); the key :data:`SOFTWARE` holds for every precision of object entries (mpN), in its
        words (entries: :func:`bytes_per_word`, pointer, mpf, tuple, mpz and limbs).  A precision
        whose key has no terms gets a bound from a measured word size of its engine
        (:func:`_bound_from`), else its fit is refused (``UnsupportedPrecisionError``).  A tuple
        is one PeakTerms per phase of the fit whose peak depends on the sizes
        differently (e.g. a selection holding 2 n^2 + 2 n r, then a
        formation holding 2.5 n^2): the peak is the largest.
    fixed_bytes : int
        Size-independent temporaries (GEMM blocks of the kernel, index arrays).
    untraced_bytes : int
        Memory the fit holds outside NumPy, which tracemalloc does not see
        (LIBSVM's kernel cache): counted by the guard, not by the test.
    r : str
        What r is for this family: the key of the fit's ``params`` (else its
        ``diagnostics``) that holds it, e.g. "n_support" or "N"; "" when the
        peak depends on n alone (:meth:`r_of`).
    measured : str
        Where the figures come from.
    """

    terms: Mapping[str, PeakTerms]
    fixed_bytes: int = 2 ** 20
    untraced_bytes: int = 0
    r: str = ""
    measured: str = ""

    def __post_init__(self):
        keyed = {}
        for key, t in self.terms.items():
            keyed[engine_key(key)] = t
        object.__setattr__(self, "terms", keyed)

    def terms_for(self, precision) -> tuple:
        """The phases' terms of ``precision``, by its :func:`memory_key` (measured, else bounded).

        Raises
        ------
        UnsupportedPrecisionError
            A ``ValueError``: no terms measured for the precision's engine and word size, and none
            that bound them (:func:`_bound_from`): its fit is refused before it allocates.
        """
        p = get_precision(precision)
        key = memory_key(p)
        terms = self.terms.get(key)
        if terms is None:
            terms = _bound_from(self.terms, key)
        if terms is None:
            raise UnsupportedPrecisionError(
                f"expected a precision whose engine and word size ({key}) this peak measured "
                f"({', '.join(sorted(self.terms))}) or bounds, got precision={p.name!r}")
        return terms if isinstance(terms, tuple) else (terms,)

    def size_words(self, n: int, precision, *, r: int = 0) -> float:
        """The size-dependent part of the peak: the largest phase's words, without the fixed bytes."""
        return max(t.words(n, r) for t in self.terms_for(precision))

    def words(self, n: int, precision, *, r: int = 0) -> float:
        """The peak in words of ``precision`` for n points (and second size r)."""
        extra = (self.fixed_bytes + self.untraced_bytes) / bytes_per_word(precision)
        return self.size_words(n, precision, r=r) + extra

    def traced_bytes(self, n: int, precision, *, r: int = 0) -> float:
        """The part of the peak tracemalloc sees: no ``untraced_bytes``, no mpN mantissa limbs."""
        return self.size_words(n, precision, r=r) * traced_bytes_per_word(precision) + self.fixed_bytes

    def largest_n(self, budget_bytes: float, precision, *, r: int = 0) -> int:
        """The largest n whose declared peak fits in ``budget_bytes`` (0 if none does).

        Bisection on n (the peak grows with n): e.g. the m at which a dense
        baseline reaches Chen & Zhou's 8 GiB.
        """
        fits = lambda n: estimate_bytes(self.words(n, precision, r=r), precision) <= budget_bytes  # noqa: E731
        if not fits(1):
            return 0
        lo, hi = 1, 2
        while fits(hi):
            lo, hi = hi, 2 * hi
        while hi - lo > 1:
            mid = (lo + hi) // 2
            lo, hi = (mid, hi) if fits(mid) else (lo, mid)
        return lo

    def r_of(self, fit) -> int:
        """The second size r of a finished fit (:func:`second_size`)."""
        return second_size(fit, self.r)

    def ensure(self, n: int, precision, *, what: str, r: int = 0) -> int:
        """:func:`ensure_memory` for this peak: InsufficientMemoryError naming n and the precision."""
        sizes = f" ({self.r} = {r})" if self.r and r else ""
        return ensure_memory(n, self.words(n, precision, r=r), precision, what=what + sizes)


def second_size(fit, r: str) -> int:
    """The second size of a finished fit that a model names ``r`` (support size, kept points): ``params[r]``,
    else ``diagnostics[r]``, else its support size; 0 when the model has none (``r`` empty)."""
    if not r:
        return 0
    for source in (fit.params, fit.diagnostics):
        if source.get(r) is not None:
            return int(source[r])
    return 0 if fit.support_ is None else len(fit.support_)


def traced_peak(func, *args, **kwargs) -> tuple:
    """``(func(*args, **kwargs), peak bytes)``: the peak of the allocations tracemalloc sees during the call.

    NumPy reports its array allocations to tracemalloc, so this is the peak
    of the arrays (and Python objects, mpf entries included) the call holds
    at once, above what was allocated before it; memory allocated outside
    Python's and NumPy's allocators (LIBSVM's cache, BLAS buffers) is not
    seen.  The quantity :class:`PeakMemory` declares and the asv
    ``track_peak_*`` benchmarks report.  tracemalloc slows allocation-heavy
    code (mpN) by a few times while it runs.
    """
    import tracemalloc

    if tracemalloc.is_tracing():
        raise RuntimeError("expected tracemalloc not tracing already (a peak inside another trace is "
                           "not reset), got tracemalloc.is_tracing() = True")
    tracemalloc.start()
    try:
        out = func(*args, **kwargs)
        _, peak = tracemalloc.get_traced_memory()
    finally:
        tracemalloc.stop()
    return out, int(peak)
