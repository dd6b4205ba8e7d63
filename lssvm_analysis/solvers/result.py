"""Result records: the Cholesky breakdown record, phase timings and the Fit.

A ``Fit`` is a frozen dataclass returned by every solver.  It carries the
model (coefficients on the support vectors, bias, kernel), the outcome
(``status`` with the breakdown record), the timing of each phase and the
diagnostics the solver gives for free (CG history, residuals, fallbacks).
"""
from __future__ import annotations

import hashlib
import time
from contextlib import contextmanager
from dataclasses import dataclass, field
from typing import Any, Mapping

import numpy as np

from ..arith.precision import get_precision
from ..core.records import Breakdown, ReadOnlyDict
from ..core.validation import as_matrix, check_finite

__all__ = ["PhaseTimer", "Fit", "STATUSES", "data_fingerprint"]

#: "overflow": the model came out non-finite (coef, w or bias NaN/inf); see
#: ``solvers._common.make_fit`` for the name and ``diagnostics["nonfinite"]``.
#: "no-model": the solver function returned no Fit (None, or another object): ``la.fit`` records
#: it (``diagnostics["invalid_result"]`` names what it got) instead of handing it on.
STATUSES = ("ok", "breakdown", "not-converged", "overflow", "no-model")
#: Largest X (entries) whose decision values a Fit remembers (:meth:`Fit.decision_function`).
DECISION_MEMO_MAX = 100_000


def data_fingerprint(X, y) -> tuple | None:
    """``(X.shape, y.shape, digest)`` of the training data as float64 (BLAKE2b of their bytes).

    What ``la.fit`` keeps on the Fit (:attr:`Fit.data_fingerprint`) so that
    :func:`lssvm_analysis.model_error` and the gates can refuse data other than the fit's
    (``2 * X``, ``y + 1``, a column dropped).  None for inputs that have no float64 form.
    """
    try:
        Xa = np.ascontiguousarray(np.asarray(X, dtype=np.float64))
        ya = np.ascontiguousarray(np.asarray(y, dtype=np.float64))
    except (TypeError, ValueError):
        return None
    digest = lambda a: hashlib.blake2b(a.tobytes(), digest_size=16).hexdigest()  # noqa: E731
    return (tuple(Xa.shape), tuple(ya.shape), digest(Xa), digest(ya))


class PhaseTimer:
    """Accumulate wall-clock seconds per named phase.

    >>> t = PhaseTimer()
    >>> with t("kernel"):
    ...     pass
    >>> sorted(t.as_dict())
    ['kernel']
    """

    def __init__(self):
        self._t: dict[str, float] = {}
        self.last: str | None = None  # the phase entered last (make_fit names it for an overflow)

    @contextmanager
    def __call__(self, phase: str):
        self.last = phase
        t0 = time.perf_counter()
        try:
            yield
        finally:
            self._t[phase] = self._t.get(phase, 0.0) + time.perf_counter() - t0

    def as_dict(self) -> Mapping[str, float]:
        return ReadOnlyDict(self._t)

    def copy(self) -> "PhaseTimer":
        """A timer holding the seconds accumulated so far (shared phases of several fits)."""
        out = PhaseTimer()
        out._t = dict(self._t)
        return out


@dataclass(frozen=True)
class Fit:
    """The outcome of one solver run.

    The model is ``f(x) = sum_k coef_[k] K(x, X_support_[k]) + bias_`` with the
    kernel ``kernel``; for a classifier ``sign(f)`` is the label (Suykens 3.7,
    where ``coef_ = alpha_k y_k``).

    Attributes
    ----------
    solver, precision : str
        Registry names.
    coef_ : ndarray, shape (n_support,)
        Coefficients on the support vectors, in the precision's dtype
        (``None`` when ``status != "ok"``).
    bias_ : scalar
        Bias b (Suykens' b, Abe's b_e), in the precision's dtype.
    support_ : ndarray of int
        Indices of the support vectors in the training set.
    X_support_ : ndarray, shape (n_support, n_features)
        The support inputs (float64), kept so that ``predict`` needs no training set.
    kernel : lssvm_analysis.kernels.Kernel
    status : {"ok", "breakdown", "not-converged", "overflow"}
    breakdown : CholeskyBreakdown or None
    timings : mapping phase -> seconds
        Phases among "kernel", "formation", "factorization", "solve", "selection".
    iterations : int or None
    history : mapping
        Iteration histories (e.g. CG residuals and V(x)) and paths (pruning).
    diagnostics : mapping
        Anything else the solver measured for free (fallbacks, bounds, ...).
    params : mapping
        The hyper-parameters the solver ran with.
    w : ndarray or None
        A primal weight vector (a linear model solved in the primal): the model is then
        ``f(x) = x^T w + bias_`` (plus the kernel expansion of ``coef_`` if it has support
        vectors), in the precision's dtype; None for a kernel expansion.
    data_fingerprint : tuple or None
        ``data_fingerprint(X, y)`` of the training data, set by ``la.fit`` (None for a Fit
        made otherwise): the model-error API refuses other data.
    """

    solver: str
    precision: str
    coef_: Any
    bias_: Any
    support_: np.ndarray
    X_support_: np.ndarray
    kernel: Any
    status: str = "ok"
    breakdown: Breakdown | None = None
    timings: Mapping[str, float] = field(default_factory=dict)
    iterations: int | None = None
    history: Mapping[str, Any] = field(default_factory=dict)
    diagnostics: Mapping[str, Any] = field(default_factory=dict)
    params: Mapping[str, Any] = field(default_factory=dict)
    w: Any = None
    data_fingerprint: tuple | None = None

    def __post_init__(self):
        if self.status not in STATUSES:
            raise ValueError(f"expected status in {STATUSES}, got status={self.status!r}")

    @property
    def ok(self) -> bool:
        return self.status == "ok"

    @property
    def n_support(self) -> int:
        return int(len(self.support_))

    def decision_function(self, X, *, native: bool = False):
        """Evaluate f(x) at the rows of X.

        Computed in the fit's precision; returned as float64 unless
        ``native=True`` (then in the precision's dtype).

        Raises
        ------
        RuntimeError
            If the fit did not succeed (``status != "ok"``): there is no model.
        """
        if self.status != "ok":
            raise RuntimeError(
                f"expected a successful fit to predict with, got status={self.status!r}"
                + (f" (breakdown {self.breakdown.as_dict()})" if self.breakdown else "")
            )
        p = get_precision(self.precision)
        if self.w is not None:
            return self._primal(X, p, native)
        if self.n_support == 0:   # an empty support (constant y, a wide epsilon-tube): f = b
            return self._bias_only(X, p, native)
        f = self._remembered(X)
        if f is None:
            with p.context():
                Kx = self.kernel(X, self.X_support_, precision=p)
                f = p.matmul(Kx, self.coef_) + self.bias_   # mpN: one FLINT product, not object loops
            self._remember(X, f)
        return f if native else p.to_float64(f)

    def _primal(self, X, p, native):
        """f(x) = x^T w + b (+ the kernel expansion, if any), in the precision."""
        X = as_matrix(X, "X", allow_object=False)
        check_finite(X, "X")
        d = np.shape(self.w)[0]
        if X.shape[1] != d:
            raise ValueError(f"expected X with {d} features (as the training set), got X.shape={X.shape}")
        with p.context():
            f = p.matmul(p.asarray(X), self.w) + self.bias_
            if self.n_support:
                f = f + p.matmul(self.kernel(X, self.X_support_, precision=p), self.coef_)
        return f if native else p.to_float64(f)

    def _bias_only(self, X, p, native):
        """f(x) = b at every row of X (checked as the kernel would: 2-D, finite, the support's
        features), for a model without support vectors."""
        X = as_matrix(X, "X", allow_object=True)
        check_finite(X, "X")
        d = self.X_support_.shape[1] if self.X_support_.ndim == 2 else X.shape[1]
        if X.shape[1] != d:
            raise ValueError(f"expected X with {d} features (as the training set), got X.shape={X.shape}")
        f = p.asarray(np.full(X.shape[0], 0.0)) + self.bias_
        return f if native else p.to_float64(f)

    def _remembered(self, X):
        """A copy of the decision values of the last X (equal entries, same shape), or None."""
        memo = self.__dict__.get("_decision_memo")
        X = np.asarray(X)
        if memo is None or memo[0].shape != X.shape or not np.array_equal(memo[0], X):
            return None
        return memo[1].copy()

    def _remember(self, X, f) -> None:
        """Keep (a copy of X, f) when X has at most DECISION_MEMO_MAX entries: the fit kind's test
        error and its prediction error ask for the same points (in mp50 the kernel of 100 test
        points is ~10 ms of a ~0.15 s map task)."""
        X = np.asarray(X)
        if X.size <= DECISION_MEMO_MAX:
            object.__setattr__(self, "_decision_memo", (np.array(X, copy=True), f.copy()))

    def predict(self, X):
        """Decision values f(x) as float64 (regression output or signed score)."""
        return self.decision_function(X)
