"""Step 1 of Chen & Zhou's Algorithm 1 (and of PCP-LSSVM): the pivoted Cholesky K ~ P P^T.

The greedy pivoted Cholesky (:func:`~lssvm_analysis.linalg.incomplete_cholesky.pivoted_cholesky`,
SEED_NOTES §3.6) stops after ``n_support`` pivots or once the residual trace
falls to a tolerance Chen & Zhou do not give.  Two forms, the values of the
keyword ``residual`` of ``pcp-lssvm`` / ``sr-lssvm`` (SEED_NOTES §6:
"residual-diagonal cancellation; rank depends on tol and dtype"):

``"clamped"`` (stable, default)
    The residual diagonal clamped at 0 after each update d <- d - g^2, an
    exact 0 at each pivot, the default tolerance ``n_support * u``
    *relative* to trace(K).
``"literal"`` (as printed)
    d <- d - g^2 unclamped (rounding leaves negative entries and the pivots'
    residues, and the trace test sums them with their signs), the default
    tolerance ``n_support * u`` *absolute*.

Both record the rank they reached (``diagnostics["rank"]``, why it stopped,
the residual trace and the count of negative residual entries).  d only
decreases, so an entry that went negative (printed) or was clamped to 0
never becomes the argmax again while a positive one remains: the two forms
take the same pivots with bitwise the same columns until one stops.
"""
from __future__ import annotations

import numbers

import numpy as np

from ..linalg.incomplete_cholesky import pivoted_cholesky
from ._registry import variant

__all__ = ["RESIDUALS", "check_trace", "factor", "trace_rule_used"]

#: The ``residual`` variants of pcp-lssvm / sr-lssvm: the stable form first (default).
RESIDUALS = (variant("residual", "clamped", "pivoted Cholesky K ~ P P^T: residual diagonal clamped at 0, "
                     "trace tolerance relative to trace(K), rank reported"),
             variant("residual", "literal", "pivoted Cholesky as printed: d <- d - g^2 unclamped, absolute "
                     "trace tolerance", literal=True))


def check_trace(trace_tol, trace_rule):
    """``trace_tol`` as a float (or None); TypeError / ValueError naming the argument."""
    if trace_rule not in ("relative", "absolute"):
        raise ValueError(f"expected trace_rule in ('relative', 'absolute'), got trace_rule={trace_rule!r}")
    if trace_tol is None:
        return None
    if isinstance(trace_tol, bool) or not isinstance(trace_tol, numbers.Real):
        raise TypeError(f"expected a real number >= 0 for trace_tol, got trace_tol={trace_tol!r}")
    if not (np.isfinite(trace_tol) and trace_tol >= 0):
        raise ValueError(f"expected a finite trace_tol >= 0, got trace_tol={trace_tol!r}")
    return float(trace_tol)


def factor(X, kernel, prec, n_support, trace_tol, trace_rule, *, residual="clamped"):
    """The pivoted Cholesky factor and why it stopped (module docstring).

    ``trace_tol=None`` is the precision's own resolution ``n_support * u``
    (the rounding of the residual diagonal after r updates d <- d - g^2 is
    ~ r u K_ii per entry, so below that the greedy choice picks rounding
    noise), in the unit :func:`trace_rule_used` gives.

    Returns
    -------
    sel : CholeskySelection (G column-major, no kernel columns kept)
    tol_used : float
        The tolerance in the unit of :func:`trace_rule_used`.
    """
    tol = n_support * prec.unit_roundoff if trace_tol is None else trace_tol
    rule = trace_rule_used(trace_tol, trace_rule, residual)
    sel = pivoted_cholesky(X, kernel, rank=n_support, trace_tol=tol, relative=rule == "relative",
                           keep_columns=False, clamp=residual != "literal", precision=prec)
    return sel, tol


def trace_rule_used(trace_tol, trace_rule, residual) -> str:
    """``trace_rule`` when a ``trace_tol`` is given; else relative (clamped) or absolute (literal)."""
    if trace_tol is not None:
        return trace_rule
    return "absolute" if residual == "literal" else "relative"
