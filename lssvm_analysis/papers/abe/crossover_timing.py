"""Timing of Abe's primal and dual forms: the measurements the crossover model is compared with.

:func:`measure_crossover` times ``els-primal`` against ``els-dual`` at target
N/M ratios (eta found by :func:`~lssvm_analysis.analysis.crossover.eta_for_ratios`);
:func:`measure_rates` times, at the sizes involved, each kernel the formations
run (:data:`~lssvm_analysis.analysis.crossover.KERNELS`: SYRK, the
outer-product accumulation and its vector updates, Cholesky, the condition
estimate, the solves, H^T beta, the symmetrizing pass), in the order and
memory state the solvers run them, so that
:func:`~lssvm_analysis.analysis.crossover.rate_model` predicts each form's
time as flops / rate.  The flop and rate *models* live in
:mod:`lssvm_analysis.analysis.crossover`; wall-clock measurement is an
experiment (layer 6), recorded by the task kind "crossover-timing".
"""
from __future__ import annotations

import time

import numpy as np
import pandas as pd

from ...analysis.crossover import (DATA_C, DATA_SIGMA2, FORMS, SOLVERS, TIMED_PHASES, check_form,
                                  eta_for_ratios, flop_model, kernel_flops)
from ...core.validation import check_int, check_positive
from ...linalg.condest import cholesky_conditioning
from ...arith.precision import get_precision
from ...datasets.crossover import crossover_data
from ...solvers import fit
from ...solvers.kkt import add_ridge_symmetric  # the solvers' own pass, timed as they run it

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
    check_form("primal", formation)
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
#: Sample of loop steps timed for the as-described formation (rank-one updates and vector updates).
_OUTER_SAMPLE = 64


def _as_selected(H0, p):
    """Copies of H0 made as :func:`~lssvm_analysis.linalg.incomplete_cholesky.thresholded_cholesky` makes its output.

    The selection fills the first N columns of two M x M work arrays (G and
    the kernel columns), keeps copies of them and frees the work arrays, so
    the formations' temporaries (the product, the centred H, the factor)
    land on pages the allocator has just been given back, and pay the page
    faults they pay in a fit.  Timed back to back without this, a kernel
    reuses the pages its last call freed.  (The symmetrizing pass, which
    built two n(n-1)/2 index arrays, was the worst case: ~7 ms back to back,
    ~15 ms in ``els-dual`` at M = 1000, N = 160, and 0.17-0.30 s against a
    modelled 0.05-0.07 s at M = 2000, N = 1893; it is now a banded copy,
    :func:`~lssvm_analysis.arith.symmetric.mirror_lower`, with no temporaries.)

    Returns
    -------
    (G, H) : two (M, N) arrays in p; H is the one the kernels read.
    """
    M, N = H0.shape
    G, cols = p.zeros((M, M)), p.zeros((M, M))
    G[:, :N] = H0
    cols[:, :N] = H0
    return G[:, :N].copy(), cols[:, :N].copy()


def _clock(func):
    t0 = time.perf_counter()
    out = func()
    return out, time.perf_counter() - t0


def _factor_and_solve(A, B, p, order):
    """Cholesky (with its symmetry check), the condition estimate and the solve, as the solvers run them."""
    L, t = _clock(lambda: p.cholesky(A))
    yield f"chol_{order}", t
    _, t = _clock(lambda: cholesky_conditioning(A, L, p))
    yield f"cond_{order}", t
    Z, t = _clock(lambda: p.cho_solve(L, B))
    yield f"solve_{order}", t
    return Z


def _blas3_steps(H, y, p):
    """The primal's kernels in ``els-primal``'s order (blas3 formation): (kernel, seconds)."""
    M = H.shape[0]

    def center():  # h_bar, H_c and H_c^T (y - y_bar): the O(M N) part of the centred formation
        Hc = H - H.sum(axis=0) / p.scalar(M)
        return Hc, Hc.T @ (y - y.sum() / p.scalar(M))

    (Hc, rhs), t = _clock(center)
    yield "center", t
    A, t = _clock(lambda: Hc.T @ Hc)
    yield "syrk_primal", t
    _, t = _clock(lambda: add_ridge_symmetric(A, 1.0, p))
    yield "sym_N", t
    yield from _factor_and_solve(A, rhs, p, "N")


def _as_described_steps(H, y, p, k):
    """The as-described loop, split: k rank-one updates, then k steps of its vector updates.

    Each part runs on a warm N x N (or N) accumulator, so the time of k steps
    is k times the per-step cost of the M-step loop (no allocation or first
    touch is scaled up with it).
    """
    N = H.shape[1]
    A, s, r = p.zeros((N, N)), p.zeros(N), p.zeros(N)
    A += np.outer(H[0], H[0])  # warm: A's pages touched, np.outer's temporary size allocated once

    def outer():
        for i in range(k):
            h = H[i]
            A[...] += np.outer(h, h)

    def vectors():
        for i in range(k):
            h = H[i]
            s[...] += h
            r[...] += y[i] * h

    yield "outer", _clock(outer)[1]
    yield "axpy", _clock(vectors)[1]


def _dual_steps(H, y, p):
    """The dual's kernels in ``els-dual``'s order, y in float64 as the solver takes it: (kernel, seconds)."""
    A, t = _clock(lambda: H @ H.T)
    yield "syrk_dual", t
    _, t = _clock(lambda: add_ridge_symmetric(A, 1.0, p))
    yield "sym_M", t
    B = p.asarray(np.stack([y, np.ones(len(y))], axis=1))  # y and 1, as _dual_solve
    Z = yield from _factor_and_solve(A, B, p, "M")
    _, t = _clock(lambda: H.T @ Z[:, 0])
    yield "gemv_M", t


def measure_rates(M, N, *, precision="float64", repeats=3, seed=0) -> dict:
    """Time each kernel the primal and dual formations run, at (M, N), in this process.

    Parameters
    ----------
    M, N : int, 1 <= N <= M
    precision : str, keyword-only
    repeats : int >= 1, keyword-only
        Runs of each form's sequence of kernels; the minimum of each kernel is kept.
    seed : int, keyword-only

    Returns
    -------
    dict
        ``M``, ``N``, ``precision``; ``time_<kernel>`` seconds and
        ``rate_<kernel>`` GFLOP/s (:func:`~lssvm_analysis.analysis.crossover.kernel_flops`
        / time; NaN for the passes, which count no flops) for every kernel of
        :data:`~lssvm_analysis.analysis.crossover.KERNELS`.

    Notes
    -----
    Each form's kernels run in the order its solver runs them, on the
    matrices the previous kernel made (the product, then the symmetrizing
    pass on it, Cholesky and the condition estimate of that matrix, the
    solve), on a copy of H made as the selection makes it (:func:`_as_selected`):
    the temporaries pay the page faults they pay in a fit.  The as-described
    loop is timed on a sample of 64 of its M steps and scaled by M / 64.
    The data are random (the kernels' speed does not depend on the values;
    the formed matrices have the structure of the solvers', a rank-N product
    plus the ridge, so the condition estimator takes the same path).
    Compare the model with timings taken in the same process minutes apart.
    """
    M, N = check_int("M", M, minimum=1), check_int("N", N, minimum=1)
    check_int("repeats", repeats, minimum=1)
    p = get_precision(precision)
    rng = np.random.default_rng([seed, M, N])
    H0 = p.asarray(rng.standard_normal((M, N)))
    y = rng.standard_normal(M)
    k = min(M, _OUTER_SAMPLE)
    scale = {"outer": M / k, "axpy": M / k}
    forms = (lambda H: _blas3_steps(H, p.asarray(y), p), lambda H: _as_described_steps(H, p.asarray(y), p, k),
             lambda H: _dual_steps(H, y, p))
    best = {}
    for _ in range(repeats):
        for steps in forms:
            G, H = _as_selected(H0, p)
            for name, t in steps(H):
                best[name] = min(best.get(name, np.inf), t * scale.get(name, 1.0))
            del G, H
    flops = kernel_flops(M, N)
    out = {"M": M, "N": N, "precision": p.name}
    for name in flops:
        out[f"time_{name}"] = best[name]
        out[f"rate_{name}"] = flops[name] / best[name] / 1e9 if flops[name] else float("nan")
    return out
