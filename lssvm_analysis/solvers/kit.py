"""The plugin kit: what a solver registered from outside the package uses, so it writes only its algorithm.

A solver function ``f(X, y, *, precision="float64", C=1.0, ...) -> Fit``,
registered with ``lssvm_analysis.register_solver``, typically reads::

    from lssvm_analysis import kit          # la.kit: this module

    def fit_ridge(X, y, *, precision="float64", C=1.0):
        X, y, k, p = kit.validate_xy(X, y, C=C, kernel="linear", precision=precision)
        timer = kit.PhaseTimer()
        with timer("solve"):
            ...                                  # the algorithm, in p's arithmetic
        return kit.make_fit("my-ridge", p, coef=p.zeros(0), bias=p.scalar(0), support=(), X=X,
                            kernel=k, timer=timer, w=w, params={"C": C},
                            conditioning=kit.matrix_conditioning(A, p))

* :func:`validate_xy` raises the errors the conformance battery asserts on
  (the message contract of :mod:`lssvm_analysis.testing`);
* :func:`make_fit` assembles the frozen Fit: a non-finite model becomes
  ``status="overflow"``, a condition estimate is recorded, a primal weight
  vector goes in ``w``;
* :func:`breakdown_fit` records a factorization's breakdown (status "breakdown", no model);
* the hooks of the problems the package models: ``kkt_system`` /
  ``exact_kkt_model`` (the LS-SVM KKT system, Suykens (3.5)) and ``krr_system``
  / ``exact_krr_model`` ((K + I/C) alpha = y), for a plugin that solves one of
  them (``register_solver(..., system=kit.kkt_system, exact_model=kit.exact_kkt_model)``);
* :class:`DeclaredProblem`: the exact model of a problem the package does not
  model, declared rather than written (``exact_model=kit.DeclaredProblem(bias="in-kernel")``
  for (K + 11^T + I/C) alpha = y): the suite forms it in double-double with the
  formation of its own exact models, and certifies it;
* :class:`PeakMemory` / :class:`PeakTerms` for the ``peak`` declaration;
* :class:`TimeModel` / :class:`TimeTerm` for the ``time`` declaration (``la.fit``'s ``max_seconds``).

``from lssvm_analysis import kit`` (``la.kit``) is this module.
"""
from __future__ import annotations

import math
from dataclasses import dataclass

import numpy as np

from ..core.validation import short_repr
from ..exact.double_double import DD, kernel_dd
from ..exact.formation import (ExactProblem, add_to_diagonal, bordered_matrix, dense_wider, lssvm_system_dd,
                               ridge_dd)
from ..linalg.condest import Conditioning, cholesky_conditioning, matrix_conditioning
from ..linalg.cost import TimeModel, TimeTerm
from ..linalg.memory import SOFTWARE, PeakMemory, PeakTerms
from ._common import breakdown_fit, check_binary_labels, check_choice, make_fit, nonfinite_record, validate_xy
from ._registry import fit_params
from .result import Fit, PhaseTimer
from .suykens import exact_kkt_model, exact_krr_model, kkt_system, krr_system

__all__ = ["validate_xy", "check_binary_labels", "check_choice", "make_fit", "breakdown_fit", "nonfinite_record",
           "fit_params", "Fit", "PhaseTimer", "Conditioning", "cholesky_conditioning", "matrix_conditioning",
           "ExactProblem", "DeclaredProblem", "kkt_system", "exact_kkt_model", "krr_system", "exact_krr_model",
           "PeakMemory", "PeakTerms", "SOFTWARE", "TimeModel", "TimeTerm"]


#: ``DeclaredProblem(bias=...)``: where the model's bias comes from.
BIASES = ("kkt", "in-kernel", None)


@dataclass(frozen=True)
class DeclaredProblem:
    """A plugin's exact model, declared: the kernel system with a bias and a ridge, formed by the suite.

    An instance is an ``exact_model`` hook (``register_solver(..., exact_model=
    kit.DeclaredProblem(bias="in-kernel"))``): called as ``hook(X, y, fit, **params)``
    it forms the declared system from X and y as given, with the fit's kernel
    (``Fit.kernel``) and C, in double-double (the kernel by
    :func:`~lssvm_analysis.exact.double_double.kernel_dd`, the ridge and the sums
    with DD operations whose rounding joins the formation bound), as the
    package's own exact models are formed; ``la.model_error`` then certifies it.
    No extended-precision code in the plugin.

    Parameters
    ----------
    bias : {"kkt", "in-kernel", None}
        ``"kkt"``: the LS-SVM KKT system [[0, 1^T], [1, K + R]] [b; alpha] = [0; y]
        (Suykens (3.5); for classification the labels sign the kernel and the
        border, (3.6)).  ``"in-kernel"``: a regularised bias, b = 1^T alpha with
        (K + 1 1^T + R) alpha = y (regression), formed as the equivalent bordered
        system [[1, -1^T], [1, K + R]] [b; alpha] = [0; y], exactly (its Schur
        complement of the corner is K + 1 1^T + R, and the bias is an unknown, so
        the certificate's bound on the unknowns bounds the model).  ``None``:
        (K + R) alpha = y, no bias (kernel ridge, (3.50)).
    ridge : "1/C" or float
        The diagonal R: 1/C of the fit's C (a DD pair, relative error <= 4 u^2),
        or a fixed positive number, taken exactly as the float given.

    Notes
    -----
    ``problem_condition`` is kappa_inf of the formed system (with the bordered
    form of ``"in-kernel"`` it can exceed kappa_inf(K + 1 1^T + R) by the border's
    factors, at most a factor of order n).

    Raises
    ------
    TypeError, ValueError
        At declaration: a ``bias`` outside :data:`BIASES`, a ridge that is neither
        ``"1/C"`` nor a positive finite number.  At the call: the data refused by
        :func:`validate_xy`; ``"in-kernel"`` for a classification fit.
    """

    bias: str | None = "kkt"
    ridge: str | float = "1/C"

    def __post_init__(self):
        if self.bias not in BIASES:
            raise ValueError(f"expected bias in {BIASES}, got bias={short_repr(self.bias)}")
        ridge = self.ridge
        if isinstance(ridge, str) or isinstance(ridge, bool) or not isinstance(ridge, (int, float)):
            if ridge != "1/C":
                raise TypeError(f"expected ridge='1/C' or a positive finite number, got ridge={short_repr(ridge)}")
        elif not (math.isfinite(ridge) and ridge > 0):
            raise ValueError(f"expected ridge='1/C' or a positive finite number, got ridge={ridge!r}")

    def __call__(self, X, y, fit, **params) -> ExactProblem:
        merged = fit_params(fit, params)
        task = merged.get("task", "regression")
        X, y, _, _ = validate_xy(X, y, task=task, C=merged["C"], precision=fit.precision)
        ridge = ridge_dd(merged["C"]) if self.ridge == "1/C" else (np.float64(self.ridge), np.float64(0.0))
        diag = (np.full(len(y), ridge[0]), np.full(len(y), ridge[1]))
        name = f"declared {self.bias or 'no'} bias, ridge {self.ridge}"
        if self.bias == "in-kernel":
            if task != "regression":
                raise ValueError(f"expected a regression fit with bias='in-kernel', got task={task!r}")
            A, rhs = _bias_in_kernel_dd(X, y, fit.kernel, diag)
            return ExactProblem(A, rhs, _unpack_bordered, A_bound=_row_bound(A), rows=A.shape[0],
                                method=f"[[1, -1^T], [1, K + R]] ({name}) in double-double")
        bias = self.bias == "kkt"
        A, rhs = lssvm_system_dd(X, y, fit.kernel, merged["C"], task, bias=bias, ridge=diag)
        unpack = _unpack_bordered if bias else _unpack_plain
        wider = (dense_wider(X, y, fit.kernel, merged["C"], task, rhs, unpack, name, bias=bias)
                 if self.ridge == "1/C" else None)
        return ExactProblem(A, rhs, unpack, A_bound=_row_bound(A), rows=A.shape[0], wider=wider,
                            method=f"{'KKT (3.24)' if bias else 'K + R'} ({name}) in double-double")


def _bias_in_kernel_dd(X, y, kernel, diag) -> tuple:
    """[[1, -1^T], [1, K + R]] and [0; y] in DD (the border exact, K + R as in :func:`lssvm_system_dd`)."""
    idx = np.arange(len(y))
    H = add_to_diagonal(kernel_dd(kernel, X), diag, idx, idx)
    ones, zeros = np.ones_like(y), np.zeros_like(y)
    hi, rhs = bordered_matrix(H.hi, ones, y, "float64")
    hi[0, 0], hi[0, 1:] = 1.0, -1.0
    lo, _ = bordered_matrix(H.lo, zeros, y, "float64")
    bound, _ = bordered_matrix(np.asarray(np.broadcast_to(H.bound, H.shape), dtype=np.float64), zeros, y, "float64")
    return DD(hi, lo, bound), rhs


def _row_bound(A) -> float:
    return float(np.max(np.sum(np.broadcast_to(A.bound, A.shape), axis=1)))


def _unpack_bordered(z) -> dict:
    z = np.asarray(z)
    return {"coef": z[1:], "bias": z[0]}


def _unpack_plain(x) -> dict:
    x = np.asarray(x)
    return {"coef": x, "bias": 0 * x[0]}
