"""Timing of Abe's primal and dual forms: the measurements the crossover model is compared with.

:func:`measure_crossover` times ``els-primal`` against ``els-dual`` at target
N/M ratios (eta found by :func:`~lssvm_analysis.analysis.crossover.eta_for_ratios`);
:func:`measure_rates` times, at the sizes involved, each kernel the formations
run (SYRK, the outer-product accumulation, Cholesky, the solves, the
symmetrizing pass), so that :func:`~lssvm_analysis.analysis.crossover.rate_model`
predicts each form's time as flops / rate.  The flop and rate *models* live in
:mod:`lssvm_analysis.analysis.crossover`; wall-clock measurement is an
experiment (layer 6), recorded by the task kind "crossover-timing".
"""
from __future__ import annotations

import time

import numpy as np
import pandas as pd

from ..analysis.crossover import (DATA_C, DATA_SIGMA2, FORMS, SOLVERS, TIMED_PHASES, _check_form,
                                  eta_for_ratios, flop_model)
from ..core._validation import check_int, check_positive
from ..core.precision import get_precision
from ..datasets.crossover import crossover_data
from ..solvers import fit

__all__ = ["measure_crossover", "measure_rates"]


def _timed_fit(form, X, y, *, eta, formation, precision, C, sigma2):

    extra = {"formation": formation} if form == "primal" else {}
    t0 = time.perf_counter()
    f = fit(SOLVERS[form], X, y, precision=precision, C=C, sigma2=sigma2, eta=eta, **extra)
    wall = time.perf_counter() - t0
    phases = sum(f.timings.get(ph, 0.0) for ph in TIMED_PHASES)
    return f, wall, phases


def measure_crossover(M, ratios, *, formation="blas3", precision="float64", repeats=3, seed=0,
                      C=DATA_C, sigma2=DATA_SIGMA2, etas=None) -> pd.DataFrame:
    """Time ``els-primal`` against ``els-dual`` in this process over N/M.

    Parameters
    ----------
    M : int >= 2
        Training points; the data are :func:`crossover_data` (M, seed).
    ratios : sequence of float in (0, 1]
        Target N/M; eta is found by :func:`eta_for_ratios` (or given).
    formation : {"blas3", "as-described"}, keyword-only
        Formation of the primal matrix (the dual has one).
    precision : {"float32", "float64", ...}, keyword-only
    repeats : int >= 1, keyword-only
        Fits of each form per ratio, interleaved (primal, dual, dual,
        primal, ...) so that drifts of a shared machine hit both; the minimum
        is kept.
    seed : int, keyword-only
    C, sigma2 : float > 0, keyword-only
        C = 1 keeps both systems well conditioned in float32 at every N/M
        (cond ~ C ||H||^2), so no breakdown cuts a timing short.
    etas : DataFrame, optional
        A table of :func:`eta_for_ratios` for these data (e.g. cached).

    Returns
    -------
    pandas.DataFrame
        One row per ratio: ``M``, ``target_n_over_m``, ``eta``, ``N``,
        ``n_over_m``, ``formation``, ``precision``, ``repeats``,
        ``primal_seconds`` / ``dual_seconds`` (formation + factorization +
        solve phases of the solvers' own timers: Abe's quantity),
        ``primal_fit_seconds`` / ``dual_fit_seconds`` (whole fit, including
        the common selection), ``dual_over_primal`` (phase ratio),
        ``fit_dual_over_primal``, ``model_dual_over_primal`` (flop model at
        the achieved N), ``primal_status``, ``dual_status``.  Seconds are NaN
        for a fit that did not succeed (a breakdown ends a fit early).

    Notes
    -----
    Wall-clock times on a shared machine: compare the ratios, which are
    measured in the same process minutes apart, not the absolute seconds.
    Set OPENBLAS_NUM_THREADS=1 before NumPy is imported for one-core figures.
    """
    check_int("repeats", repeats, minimum=1)
    check_positive("C", C)
    _check_form("primal", formation)
    get_precision(precision)
    X, y = crossover_data(M, seed=seed)
    if etas is None:
        etas = eta_for_ratios(X, ratios, sigma2=sigma2, precision=precision)
    rows = []
    for _, e in etas.iterrows():
        best = {f: [np.inf, np.inf, None] for f in FORMS}
        for rep in range(repeats):
            for form in (FORMS if rep % 2 == 0 else FORMS[::-1]):
                f, wall, phases = _timed_fit(form, X, y, eta=float(e["eta"]), formation=formation,
                                             precision=precision, C=C, sigma2=sigma2)
                b = best[form]
                b[0], b[1], b[2] = min(b[0], phases), min(b[1], wall), f
        rows.append(_crossover_row(M, e, formation, precision, repeats, best))
    return pd.DataFrame(rows)


def _crossover_row(M, e, formation, precision, repeats, best) -> dict:
    N = best["primal"][2].n_support
    row = {"M": M, "target_n_over_m": float(e["target_n_over_m"]), "eta": float(e["eta"]), "N": N,
           "n_over_m": N / M, "formation": formation, "precision": precision, "repeats": repeats}
    for form in FORMS:
        phases, wall, f = best[form]
        ok = f.status == "ok"
        row[f"{form}_seconds"] = phases if ok else float("nan")
        row[f"{form}_fit_seconds"] = wall if ok else float("nan")
        row[f"{form}_status"] = f.status
    row["dual_over_primal"] = row["dual_seconds"] / row["primal_seconds"]
    row["fit_dual_over_primal"] = row["dual_fit_seconds"] / row["primal_fit_seconds"]
    row["model_dual_over_primal"] = (flop_model(M, N, "dual", formation=formation)["total"]
                                     / flop_model(M, N, "primal", formation=formation)["total"])
    return row


# ---------------------------------------------------------------------------------- rates
#: Sample of rank-one updates timed for the outer-product rate (each costs 2 N^2 flops).
_OUTER_SAMPLE = 64


def _best(func, repeats):
    best = np.inf
    for _ in range(repeats):
        t0 = time.perf_counter()
        func()
        best = min(best, time.perf_counter() - t0)
    return best


def _spd(n, p):
    """A well-conditioned SPD matrix of order n (Cholesky's cost does not depend on the values)."""
    A = p.asarray(np.full((n, n), 1.0 / n))
    A[np.diag_indices(n)] += p.scalar(1.0)
    return A


def measure_rates(M, N, *, precision="float64", repeats=3, seed=0) -> dict:
    """Time each kernel the primal and dual formations run, at (M, N), in this process.

    Parameters
    ----------
    M, N : int, 1 <= N <= M
    precision : str, keyword-only
    repeats : int >= 1, keyword-only
        Minimum over this many calls of each kernel.
    seed : int, keyword-only

    Returns
    -------
    dict
        ``time_<kernel>`` seconds and ``rate_<kernel>`` GFLOP/s (the flops of
        :func:`flop_model` for that step / time) for the kernels
        ``syrk_primal`` (H_c^T H_c, M N (N+1) flops), ``center`` (h_bar, H_c
        and H_c^T (y - y_bar), 4 M N), ``outer`` (M rank-one
        updates h h^T, 2 M N^2; timed on a sample of 64 and scaled),
        ``syrk_dual`` (H H^T, M (M+1) N), ``chol_N`` / ``chol_M``
        (``Precision.cholesky`` as the solvers call it, with its symmetry
        check, N^3/3 and M^3/3), ``solve_N`` / ``solve_M`` (``cho_solve`` with
        1 and 2 right-hand sides), ``sym_N`` / ``sym_M`` (the ridge and the
        triangle copy that make the formed matrix exactly symmetric: memory
        passes, no flops counted).

    Notes
    -----
    The data are random (the kernels' speed does not depend on the values);
    what is measured is the rate of each kernel at these sizes, on this
    machine, under its current load: compare the model with timings taken in
    the same process minutes apart.
    """
    M, N = check_int("M", M, minimum=1), check_int("N", N, minimum=1)
    check_int("repeats", repeats, minimum=1)
    p = get_precision(precision)
    rng = np.random.default_rng([seed, M, N])
    H = p.asarray(rng.standard_normal((M, N)))
    Hc = H - H.sum(axis=0) / p.scalar(M)
    k = min(M, _OUTER_SAMPLE)

    def outer():
        A = p.zeros((N, N))
        for i in range(k):
            A += np.outer(H[i], H[i])

    def sym(n):  # as the solvers do it: ridge on the diagonal, strict upper triangle from the lower
        A = _spd(n, p)

        def run():
            A[np.diag_indices(n)] = A[np.diag_indices(n)] + p.scalar(1.0)
            iu = np.triu_indices(n, 1)
            A[iu] = A.T[iu]
        return run

    r = p.asarray(rng.standard_normal(M))

    def center():  # the O(M N) part of the centred formation: h_bar, H_c, H_c^T (y - y_bar)
        Hc2 = H - H.sum(axis=0) / p.scalar(M)
        return Hc2.T @ (r - r.sum() / p.scalar(M))

    SN, SM = _spd(N, p), _spd(M, p)
    LN, LM = p.cholesky(SN), p.cholesky(SM)
    bN, BM = p.asarray(np.ones(N)), p.asarray(np.ones((M, 2)))
    flops = {"syrk_primal": M * N * (N + 1.0), "center": 4.0 * M * N, "outer": 2.0 * M * N * N,
             "syrk_dual": M * (M + 1.0) * N,
             "chol_N": N ** 3 / 3.0, "chol_M": M ** 3 / 3.0, "solve_N": 2.0 * N * N,
             "solve_M": 4.0 * M * M, "sym_N": 0.0, "sym_M": 0.0}
    funcs = {"syrk_primal": lambda: Hc.T @ Hc, "center": center, "outer": outer, "syrk_dual": lambda: H @ H.T,
             "chol_N": lambda: p.cholesky(SN), "chol_M": lambda: p.cholesky(SM),
             "solve_N": lambda: p.cho_solve(LN, bN), "solve_M": lambda: p.cho_solve(LM, BM),
             "sym_N": sym(N), "sym_M": sym(M)}
    out = {"M": M, "N": N, "precision": p.name}
    for name, f in funcs.items():
        t = _best(f, repeats) * (M / k if name == "outer" else 1.0)
        out[f"time_{name}"] = t
        out[f"rate_{name}"] = flops[name] / t / 1e9 if flops[name] else float("nan")
    return out
