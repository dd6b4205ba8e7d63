"""Up-front time check: a fit estimates its seconds before any work (issue 42).

The companion of :mod:`.memory`: each solver declares a measured :class:`TimeModel` (seconds as a
sum of terms ``c (n+1)^a r^b d^e`` per engine, n the training points, r the family's second size,
d the features) at registration (``register_solver(..., time=...)``), and ``la.fit(...,
max_seconds=...)`` refuses a fit whose estimate is clearly beyond the limit with a
:class:`FitTooCostlyError`, before it allocates or computes anything.  Without this check
``la.fit("svm-c", X)`` with X of 2e6 x 1 ran for hours (LIBSVM's SMO is quadratic in n there: ~8 hours estimated).

Engines
-------
The terms are keyed like the peak memory's (:func:`~.memory.memory_key`): ``hw8`` (float64 on
LAPACK), ``hw4`` (float32), ``sw16`` (longdouble, NumPy's loops) and ``mp`` (every mpN, measured
at :data:`MP_REFERENCE_DIGITS`; :func:`mp_factor` says why the digits do not scale them).  A precision whose
key has no terms gets no estimate: its fits are never refused.

Margins
-------
An estimate is an order of magnitude: the coefficients are fitted to the CPU seconds of small fits
on one machine (``benchmarks/measure_times.py``), the time of an iterative method depends on its
data (LIBSVM's iterations, CG's), and another machine is faster or slower.  So a fit is refused only
when its estimate exceeds the limit by more than :data:`MARGIN`, and where the second size r is not
known before the fit (a selection that stops by a tolerance) the model takes the smallest (the
terms in n alone): a refusal is then a lower bound that is still beyond the limit.
"""
from __future__ import annotations

import contextlib
import math
import numbers
import threading
from dataclasses import dataclass
from typing import Mapping

from ..arith.precision import get_precision
from ..core.validation import short_repr
from .memory import engine_key, memory_key, second_size

__all__ = ["TimeTerm", "TimeModel", "FitTooCostlyError", "MARGIN", "DEFAULT_MAX_SECONDS", "MP_REFERENCE_DIGITS",
           "MP_MATMUL_SECONDS", "mp_factor", "time_key", "check_max_seconds", "ensure_time", "protocol_scope"]

#: A fit is refused when its estimate exceeds ``max_seconds`` by more than this factor.  The declared
#: models hold their own measurements within 0.6 to 2.5 (``solvers/times.py``; rr-lssvr, whose greedy
#: selection's steps vary with the data, up to 4.4 in float64 and 6.2 in float32; svm-c on easy
#: Gaussian data 0.32), they extrapolate beyond the sizes measured,
#: LIBSVM's time depends on the data (10x between two data sets at n = 16,000), and another machine is
#: faster: 10, an order of magnitude, is what together they leave as certain.
MARGIN = 10.0
#: ``la.fit``'s default limit: ten minutes, so that a fit estimated at more than 100 minutes (10 x, the
#: margin) is refused.  ``la.fit`` is the interactive call (a prompt, a notebook, a user's CI job and
#: the estimators, tuning and cross-validation built on it): a fit estimated at hours there is a size
#: its caller did not mean (LIBSVM on 2e6 x 1 points: ~8 hours, its SMO measured quadratic in n,
#: exponent 2.04 over 2,000-128,000 noisy points), and the issue's user gave up after 400 s.  The
#: report's protocols and ``compare`` are not limited by it (:func:`protocol_scope`): their sizes are
#: fixed by the papers and by ``compare``'s own plan; the quick profile's 2,610 fits are estimated at
#: 0.23 s at most, the full profile's largest dense fit (lssvm-schur, m = 45,000) at 7.8 min (measured:
#: ~10 min, docs/setup.rst; m = 50,000 estimated 10.6 min, measured 19 min).
DEFAULT_MAX_SECONDS = 600.0
#: The digits at which the ``mp`` terms are measured (mp30): :func:`mp_factor` scales from them.
MP_REFERENCE_DIGITS = 30
#: CPU seconds of a 40 x 40 mpN matrix product (64,000 multiply-adds) by digits, measured by
#: ``benchmarks/measure_times.py --engine`` (2026-12-06, x86_64, 2 cores, load ~5): the arithmetic of
#: an mpN fit costs the same from mp15 to mp1000 (Python's per-operation overhead, ~1.2 us, dominates
#: the mantissa's multiplication up to 3,300 bits); only ``exp`` grows, 2.6 us at mp30 to 25 us at
#: mp1000 per entry (the kernel's formation, an n^2 or n r term).
MP_MATMUL_SECONDS = {15: 0.0795, 30: 0.0772, 50: 0.0726, 100: 0.0721, 200: 0.0711, 400: 0.0722, 1000: 0.0729}


class FitTooCostlyError(ValueError):
    """A fit's estimated seconds exceed ``max_seconds`` by more than the model's margin, refused before any work.

    Attributes
    ----------
    solver : str
    n, d : int
        Training points and features.
    precision : str
    estimate_seconds : float
        The time model's estimate.
    limit : float
        The ``max_seconds`` it exceeded (by more than :data:`MARGIN`).
    """

    def __init__(self, message="", *, solver="", n=0, d=0, precision="", estimate_seconds=math.nan,
                 limit=math.nan):
        super().__init__(message)
        self.solver, self.n, self.d, self.precision = solver, n, d, precision
        self.estimate_seconds, self.limit = estimate_seconds, limit


def time_key(precision) -> str:
    """The key of ``precision``'s time terms: its engine and word size (:func:`~.memory.memory_key`)."""
    return memory_key(precision)


def mp_factor(precision) -> float:
    """The time of an mpN operation relative to mp30's, where the ``mp`` terms were measured.

    1 for every precision: :data:`MP_MATMUL_SECONDS` shows the arithmetic flat (within 3 %) from mp15
    to mp1000.  The kernel's ``exp`` grows with the digits (up to 9.6x at mp1000); the estimate
    leaves that out, so at many digits it is a lower bound (a refusal is still beyond the limit).
    """
    get_precision(precision)   # an unknown name is refused here, naming it
    return 1.0


def _real(name, value, *, positive=False, minimum=None) -> float:
    if isinstance(value, bool) or not isinstance(value, numbers.Real):
        raise TypeError(f"expected a real number for {name}, got {name}={short_repr(value)}")
    v = float(value)
    if not math.isfinite(v) or (positive and v <= 0) or (minimum is not None and v < minimum):
        bound = "> 0" if positive else f">= {minimum}"
        raise ValueError(f"expected a finite {name} {bound}, got {name}={short_repr(value)}")
    return v


@dataclass(frozen=True)
class TimeTerm:
    """One term of a time model: ``seconds * (n+1)^n * r^r * d^d`` (exponents real, >= 0).

    Raises
    ------
    TypeError, ValueError
        A field that is not a finite real number (``seconds`` > 0, exponents >= 0), naming it.
    """

    seconds: float
    n: float = 0.0
    r: float = 0.0
    d: float = 0.0

    def __post_init__(self):
        object.__setattr__(self, "seconds", _real("seconds", self.seconds, positive=True))
        for f in ("n", "r", "d"):
            object.__setattr__(self, f, _real(f, getattr(self, f), minimum=0.0))

    def at(self, n: int, r: int = 0, d: int = 1) -> float:
        """The term's seconds at n points, second size r, d features (0**0 = 1: no r, no term)."""
        return self.seconds * float(n + 1) ** self.n * float(r) ** self.r * float(max(d, 1)) ** self.d

    def label(self) -> str:
        """``2.1e-10 n^3`` style."""
        parts = [f"{s}^{e:g}" if e != 1 else s for s, e in (("n", self.n), ("r", self.r), ("d", self.d)) if e]
        return f"{self.seconds:.2g}" + ("".join(" " + p for p in parts))


@dataclass(frozen=True)
class TimeModel:
    """The measured time of a solver's fit, per engine, as a function of n, r and d.

    Declared once per family (``register_solver(..., time=TimeModel(...))``, beside ``peak``), used
    by ``la.fit(..., max_seconds=...)`` before any work.

    Attributes
    ----------
    terms : mapping of str to tuple of TimeTerm
        By engine key (:func:`time_key`: ``hw8``, ``hw4``, ``sw16``, ``mp``; a registered precision's
        name is accepted and stored under its key); the seconds are the sum of the terms (``mp``:
        times :func:`mp_factor`).
    r : str
        The keyword of the fit's params (else its diagnostics) that holds the second size, e.g.
        ``"n_support"``; "" when the time depends on n (and d) alone.
    r_default : float
        r as a fraction of n when the caller does not give ``r`` (the solver's own default, e.g.
        0.1 for reduced-lssvr); 0 where r is chosen by the fit (a tolerance): the estimate then
        has only the terms in n, a lower bound.
    measured : str
        Where the coefficients come from (script, date, machine).

    Raises
    ------
    TypeError, ValueError
        ``terms`` not a non-empty mapping of keys to TimeTerm sequences, ``r`` not a str,
        ``r_default`` outside [0, 1], naming the field.
    """

    terms: Mapping
    r: str = ""
    r_default: float = 0.0
    measured: str = ""

    def __post_init__(self):
        if not isinstance(self.terms, Mapping) or not self.terms:
            raise TypeError(f"expected a non-empty mapping of engine keys to TimeTerm sequences for terms, "
                            f"got terms={short_repr(self.terms)}")
        keyed = {}
        for key, ts in self.terms.items():
            ts = (ts,) if isinstance(ts, TimeTerm) else ts
            if not isinstance(key, str) or not isinstance(ts, (tuple, list)) or not ts \
                    or not all(isinstance(t, TimeTerm) for t in ts):
                raise TypeError(f"expected a non-empty mapping of engine keys to TimeTerm sequences for terms, "
                                f"got terms={short_repr(self.terms)}")
            try:   # an engine key (hw8, hw4, sw16, mp) as it is, a registered precision's name as its key
                keyed[engine_key(key)] = tuple(ts)
            except ValueError:
                raise ValueError(f"expected engine keys (hw8, hw4, sw16, mp) or precision names in terms, "
                                 f"got {key!r} in terms={short_repr(self.terms)}") from None
        object.__setattr__(self, "terms", keyed)
        if not isinstance(self.r, str) or (self.r and not self.r.isidentifier()):
            raise TypeError(f"expected a keyword name or '' for r, got r={short_repr(self.r)}")
        object.__setattr__(self, "r_default", _real("r_default", self.r_default, minimum=0.0))
        if self.r_default > 1:
            raise ValueError(f"expected r_default in [0, 1] (a fraction of n), got r_default={self.r_default!r}")
        if not isinstance(self.measured, str):
            raise TypeError(f"expected a str for measured, got measured={short_repr(self.measured)}")

    def r_for(self, n: int, params: Mapping) -> int:
        """The second size a fit of n points with ``params`` will have (r_default * n if not given)."""
        if not self.r:
            return 0
        v = params.get(self.r)
        if isinstance(v, numbers.Real) and not isinstance(v, bool) and math.isfinite(v) and v >= 0:
            return int(min(v, n))
        return int(math.ceil(self.r_default * n))

    def r_of(self, fit) -> int:
        """The second size of a finished fit (:func:`~.memory.second_size`, as the peak models read it)."""
        return second_size(fit, self.r)

    def seconds(self, n: int, d: int, precision, *, r: int = 0) -> float | None:
        """The estimated seconds of a fit, or None when no terms were measured for the precision's engine."""
        p = get_precision(precision)
        ts = self.terms.get(time_key(p))
        if ts is None:
            return None
        return mp_factor(p) * sum(t.at(n, r, d) for t in ts)

    def formula(self, precision) -> str:
        """The model of ``precision`` as text: ``2.1e-10 n^3 + 3e-08 n^2 (hw8)``."""
        p = get_precision(precision)
        key = time_key(p)
        ts = self.terms.get(key, ())
        scale = f" x {mp_factor(p):.2g}" if key == "mp" and abs(mp_factor(p) - 1) > 1e-3 else ""
        return " + ".join(t.label() for t in ts) + f" s ({key}{scale})"


#: Per thread: the depth of nested :func:`protocol_scope` s.
_protocol = threading.local()


@contextlib.contextmanager
def protocol_scope():
    """A sweep task's scope: its fits run at the sizes its paper's protocol fixes, never refused by time.

    The sweep runner (``experiments.execute.execute_task``) enters it around every task, beside the
    memory scope: the report's plans (quick, default, full) and ``compare``'s tasks are sized by their
    profile and by ``compare``'s own plan (``analysis.compare``), not by ``la.fit``'s interactive
    limit.  Inside it :func:`ensure_time` estimates nothing.  Scopes nest; per thread.
    """
    _protocol.depth = getattr(_protocol, "depth", 0) + 1
    try:
        yield
    finally:
        _protocol.depth -= 1


def check_max_seconds(value):
    """``max_seconds`` as a float, or None (no limit); a typed error naming it otherwise.

    Raises
    ------
    TypeError
        Not a real number (a bool, a str) nor None.
    ValueError
        Not finite, or not > 0.
    """
    if value is None:
        return None
    return _real("max_seconds", value, positive=True)


def ensure_time(model: TimeModel | None, solver: str, n: int, d: int, precision, params: Mapping,
                max_seconds: float | None) -> float | None:
    """Raise FitTooCostlyError if the estimate exceeds ``max_seconds`` by more than :data:`MARGIN`.

    Returns the estimate (None: no model, no terms for the precision's engine, no limit, or inside a
    :func:`protocol_scope`).
    """
    if model is None or max_seconds is None or getattr(_protocol, "depth", 0):
        return None
    p = get_precision(precision)
    r = model.r_for(n, params)
    est = model.seconds(n, d, p, r=r)
    if est is None or est <= MARGIN * max_seconds:
        return est
    sizes = f", {model.r}={r}" if model.r else ""
    raise FitTooCostlyError(
        f"expected a fit that can finish within max_seconds={max_seconds:g}, got solver={solver!r} with n={n}, "
        f"d={d}{sizes} in {p.name}: estimated {est:.3g} s by its time model {model.formula(p)}, more than "
        f"{MARGIN:g} x the limit; pass max_seconds=None to run it anyway, or use a smaller n",
        solver=solver, n=int(n), d=int(d), precision=p.name, estimate_seconds=float(est), limit=float(max_seconds))
