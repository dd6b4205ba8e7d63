"""Conditioning studies shared by every family: log grids, breakdown scans, outcome classes."""
from __future__ import annotations

import math
from dataclasses import dataclass, field

import numpy as np
import pandas as pd

from ...core.validation import check_int, check_positive
from ...arith.precision import get_precision
from ...solvers import fit, get_solver

__all__ = ["OUTCOMES", "log_grid", "BreakdownScan", "scan_breakdown", "classify_outcome"]

OUTCOMES = ("ok", "breakdown", "large-error", "not-converged", "not-measured", "error")


def log_grid(lo: float, hi: float, *, per_decade: int = 1) -> np.ndarray:
    """Points 10^k from ``lo`` to ``hi`` (inclusive), ``per_decade`` per decade."""
    check_positive("lo", lo)
    check_positive("hi", hi)
    per_decade = check_int("per_decade", per_decade, minimum=1)
    a, b = math.log10(lo), math.log10(hi)
    if b < a:
        raise ValueError(f"expected lo <= hi, got lo={lo!r}, hi={hi!r}")
    n = int(round((b - a) * per_decade)) + 1
    return 10.0 ** np.linspace(a, b, n)



@dataclass(frozen=True)
class BreakdownScan:
    """First C on a log grid (refined by bisection) at which a solver breaks down.

    Attributes
    ----------
    solver, precision : str
    C_star : float
        Smallest C found with ``status == "breakdown"`` (NaN if none on the grid).
    C_ok : float
        Largest C below ``C_star`` that was seen to succeed.
    step, pivot, n : int, float, int
        The breakdown record at ``C_star`` (step 0-based; -1/NaN if none).
    grid : DataFrame
        Every fit (with a path: factorization) run: ``C``, ``status``, ``step``, ``pivot``,
        ``stage`` ("grid" | "bisect").
    """

    solver: str
    precision: str
    C_star: float
    C_ok: float
    step: int
    pivot: float
    n: int
    grid: pd.DataFrame = field(repr=False)


def _try(solver, X, y, C, precision, params, path):
    if path is not None:   # the factorization a fit at C runs, on the matrix it forms
        bd = path.factor(float(C))
        status = "breakdown" if bd is not None else "factored"
    else:
        f = fit(solver, X, y, precision=precision, C=float(C), **params)
        bd, status = f.breakdown, f.status
    return {"C": float(C), "status": status, "step": bd.step if bd else -1,
            "pivot": bd.pivot if bd else np.nan, "n": bd.n if bd else -1}


def scan_breakdown(X, y, *, precision, solver="els-dual", C_min=1e-2, C_max=1e30, per_decade=2,
                   bisect=8, path=None, **params) -> BreakdownScan:
    """Scan C upwards until ``solver`` breaks down, then bisect in log C.

    Parameters
    ----------
    X, y : training data
    precision : str
    solver : str, default "els-dual"
    C_min, C_max : float
        The log grid (``per_decade`` points per decade); the scan stops at
        the first breakdown.
    bisect : int
        Bisection steps in log10 C between the last success and the first
        breakdown (final bracket width = grid step / 2^bisect decades).
    path : object, optional
        The solver's registry ``ridge_path`` built on (X, y, params) (built here
        when the solver declares one and ``path`` is None).  With a path each C
        runs only the fit's factorization, of the matrix the fit forms at C
        (the work that does not depend on C done once): its status is
        "factored" or "breakdown".  Without one, each C is a fresh fit (its
        status as the fit's).
    **params
        Passed to the solver (sigma2, eta, feature_map, ...).

    Notes
    -----
    Breakdown need not be monotone in C near the threshold (rounding noise);
    the bisection returns *a* transition point inside the first bracket.
    The breakdown found is the same with or without a path: a fit's status is
    "breakdown" exactly when its factorization fails (``tests/test_abe.py``).
    """
    hook = get_solver(solver).ridge_path
    if path is None and hook is not None:
        path = hook(X, y, precision=precision, **params)
    rows, prev = [], None
    for C in log_grid(C_min, C_max, per_decade=per_decade):
        r = {**_try(solver, X, y, C, precision, params, path), "stage": "grid"}
        rows.append(r)
        if r["status"] == "breakdown":
            break
        prev = r
    else:
        return BreakdownScan(solver, get_precision(precision).name, np.nan, rows[-1]["C"], -1,
                             np.nan, -1, pd.DataFrame(rows))
    hi = rows[-1]
    if prev is not None:
        lo = prev
        for _ in range(check_int("bisect", bisect)):
            mid = {**_try(solver, X, y, math.sqrt(lo["C"] * hi["C"]), precision, params, path),
                   "stage": "bisect"}
            rows.append(mid)
            if mid["status"] == "breakdown":
                hi = mid
            else:
                lo = mid
    C_ok = lo["C"] if prev is not None else np.nan
    return BreakdownScan(solver, get_precision(precision).name, hi["C"], C_ok, int(hi["step"]),
                         float(hi["pivot"]), int(hi["n"]), pd.DataFrame(rows))


def classify_outcome(status, forward_error, unit_roundoff) -> str:
    """Outcome of a fit for the breakdown maps.

    "breakdown" / "not-converged" / "error" pass through; an "ok" fit whose
    forward error against the certified reference exceeds sqrt(u) (fewer
    than half of the precision's digits correct) is "large-error", one within
    it "ok" (an infinite error is a measured "large-error"); a fit without an
    error (NaN: no reference, none certified) is "not-measured": nothing says
    its model is right, so it is never "ok".
    """
    if status != "ok":
        return status if status in OUTCOMES and status != "not-measured" else "error"
    fe = float(forward_error) if forward_error is not None else np.nan
    if np.isnan(fe):
        return "not-measured"
    return "large-error" if fe > math.sqrt(unit_roundoff) else "ok"
