"""Primal against dual ELS SVR cost: Abe's flop model and the rate-calibrated time model.

Abe (§2.4) compares the cost of training the least-squares SVR in the
empirical feature space in the primal form (PrLS, eq. 6-7: an N x N system)
and in the dual form (DuLS, eq. 10-11: an M x M system, M training points, N
support vectors chosen by thresholded Cholesky with threshold eta).  He counts
"the time for setting the coefficient matrix and solving the set of linear
equations by the Cholesky factorization", i.e. the phases after the selection
of the support vectors, which both forms share.  This module gives

* :func:`flop_model` / :func:`crossover_ratio_model` - that count, per phase;
* :func:`crossover_point` - N*/M, where the dual/primal ratio crosses 1;
* :func:`kernel_flops`, :data:`KERNELS` - the kernels each form runs
  (SYRK, the outer-product accumulation and its vector updates, Cholesky,
  the condition estimate, triangular solves, H^T beta, the symmetrizing
  pass) and their flops;
* :func:`rate_model` - those flops divided by the kernels' measured rates:
  a time model that separates arithmetic (flops) from implementation
  (rates);
* :func:`eta_for_ratios` - the eta that gives a target N/M.

What is measured lives elsewhere: the timing of the two forms and of each
kernel (:mod:`lssvm_analysis.papers.abe.crossover_timing`), the asv results
(:mod:`lssvm_analysis.experiments.asv_import`), the data
(:func:`lssvm_analysis.datasets.crossover_data`).

Units
-----
flops
    Floating-point operations; a multiplication and an addition count one
    each (a multiply-add is 2 flops), the LAPACK convention: Cholesky of order
    n costs n^3/3 + n^2/2 + n/6.  Abe counts multiplications, i.e. half of
    these figures; ratios are the same.
seconds
    Wall-clock seconds (``time.perf_counter``), minimum over repeats.
ratios
    ``dual_over_primal`` = dual cost / primal cost (> 1: the primal is
    cheaper).  ``n_over_m`` = N / M.

Notes
-----
The model (flops, the paper's M, N and our M, N are the same symbols):

========== ============================================ ============================
phase      primal, eq. (7), N x N                       dual, eq. (10)-(11), M x M
========== ============================================ ============================
formation  blas3: centre H, H_c^T H_c (SYRK): M N(N+1)  Omega_e = H H^T + I/C (SYRK,
           + 2MN, rhs 2MN; as-described: M outer        or M(M+1)/2 dot products of
           products h h^T, 2 M N^2, + MN + 3N^2, rhs    length N, Abe's count halved
           2MN                                          by symmetry): M(M+1)N + M
factor     N^3/3 + N^2/2 + N/6                          M^3/3 + M^2/2 + M/6
solve      2N^2 (one rhs) + 2N (b_e by (6))             4M^2 (rhs y and 1) + 4M
                                                        (b_e, beta) + 2MN (v = H^T beta)
========== ============================================ ============================

With r = N/M the leading terms give dual/primal = (r + 1/3) / (r^2 + r^3/3)
for the BLAS-3 formation, which exceeds 1 for every r < 1 and equals 1 at
r = 1: counted in flops the primal form is never slower, and the crossover
N*/M is 1 (the lower-order terms leave the dual 2M flops dearer at N = M,
so :func:`crossover_point` of the exact model is NaN: no crossing).
Abe's claim that the dual is faster when N ~ M rests on the primal
formation being "not efficient" (outer products, not dot products):
with the as-described formation, which computes the full N x N outer product
for each of the M points (2 M N^2 flops, no symmetry), the leading terms give
dual/primal = (r + 1/3) / (2 r^2 + r^3/3), which crosses 1 at r ~ 0.67; and
the outer-product loop also runs at a lower rate than a BLAS-3 product,
which flops do not show (the measured ratio does).
"""
from __future__ import annotations

import numpy as np
import pandas as pd

from ..core.validation import check_int
from ..linalg.kernels import make_kernel
from ..linalg.incomplete_cholesky import thresholded_cholesky
from ..arith.precision import get_precision
from ..solvers.abe import FORMATIONS

__all__ = ["FORMS", "FORMATIONS", "SOLVERS", "KERNELS", "check_form", "flop_model", "kernel_flops",
           "crossover_ratio_model",
           "crossover_point", "eta_for_ratios", "rate_model"]

FORMS = ("primal", "dual")
SOLVERS = {"primal": "els-primal", "dual": "els-dual"}
#: Phases of the solvers' PhaseTimer that Abe's comparison counts (not "selection", not "kernel").
TIMED_PHASES = ("formation", "factorization", "solve")

# Hyper-parameters of the crossover study (its data: lssvm_analysis.datasets.crossover_data),
# fixed so that asv, the report and the tests time the same problem.
DATA_SIGMA2 = 1.0
DATA_C = 1.0


def check_form(form, formation):
    """Raise ValueError unless ``form`` is in FORMS and ``formation`` in FORMATIONS (named)."""
    if form not in FORMS:
        raise ValueError(f"expected form in {FORMS}, got form={form!r}")
    if formation not in FORMATIONS:
        raise ValueError(f"expected formation in {FORMATIONS}, got formation={formation!r}")


def flop_model(M, N, form, *, formation="blas3") -> dict:
    """Flops of Abe's PrLS (primal) or DuLS (dual) solve after the SV selection.

    Parameters
    ----------
    M : int >= 1
        Number of training points (Abe's M).
    N : int, 1 <= N <= M
        Number of support vectors, the dimension of the empirical feature
        space (Abe's N).
    form : {"primal", "dual"}
        Eq. (6)-(7) (N x N system) or eq. (10)-(11) (M x M system).
    formation : {"blas3", "as-described"}, keyword-only
        How the primal coefficient matrix is formed: one symmetric product of
        the centred H (``"blas3"``) or the sum of M full outer products h h^T
        (``"as-described"``, Abe §2.2).  The dual has a single formation.

    Returns
    -------
    dict
        ``{"formation", "factorization", "solve", "total"}`` in flops (float).

    Raises
    ------
    ValueError, TypeError
        Bad M, N, form or formation.

    Notes
    -----
    Counts of the module docstring table.  The selection of the support
    vectors (thresholded Cholesky, O(M N^2)) and the kernel columns are common
    to both forms and excluded, as in Abe §2.4.
    """
    M = check_int("M", M, minimum=1)
    N = check_int("N", N, minimum=1)
    if N > M:
        raise ValueError(f"expected N <= M (support vectors are training points), got N={N}, M={M}")
    check_form(form, formation)
    M, N = float(M), float(N)
    if form == "primal":
        if formation == "blas3":
            form_f = M * N * (N + 1) + 2 * M * N + 2 * M * N + N
        else:
            form_f = 2 * M * N * N + M * N + 3 * N * N + 2 * M * N + N
        n = N
        solve_f = 2 * N * N + 2 * N
    else:
        form_f = M * (M + 1) * N + M
        n = M
        solve_f = 4 * M * M + 4 * M + 2 * M * N
    fact_f = n ** 3 / 3 + n ** 2 / 2 + n / 6
    return {"formation": form_f, "factorization": fact_f, "solve": solve_f,
            "total": form_f + fact_f + solve_f}


def _ratios(ratios):
    r = np.atleast_1d(np.asarray(ratios, dtype=float))
    if r.ndim != 1 or r.size == 0 or not np.all((r > 0) & (r <= 1)):
        raise ValueError(f"expected N/M ratios in (0, 1], got ratios={ratios!r}")
    return r


def _n_of(M, r) -> int:
    return int(min(M, max(1, round(r * M))))


def crossover_ratio_model(M, ratios, *, formation="blas3") -> pd.DataFrame:
    """The flop model's dual/primal cost ratio over N/M at fixed M.

    Parameters
    ----------
    M : int >= 1
    ratios : sequence of float in (0, 1]
        N/M values; N = round(ratio * M) (at least 1).
    formation : {"blas3", "as-described"}, keyword-only

    Returns
    -------
    pandas.DataFrame
        One row per ratio: ``M``, ``N``, ``n_over_m`` (achieved N/M),
        ``formation``, ``primal_flops``, ``dual_flops``, ``dual_over_primal``.
    """
    M = check_int("M", M, minimum=1)
    rows = []
    for r in _ratios(ratios):
        N = _n_of(M, r)
        p = flop_model(M, N, "primal", formation=formation)["total"]
        d = flop_model(M, N, "dual", formation=formation)["total"]
        rows.append({"M": M, "N": N, "n_over_m": N / M, "formation": formation,
                     "primal_flops": p, "dual_flops": d, "dual_over_primal": d / p})
    return pd.DataFrame(rows)


def crossover_point(df, *, x="n_over_m", y="dual_over_primal") -> float:
    """N*/M where the dual/primal ratio first falls to 1, for one curve.

    Parameters
    ----------
    df : pandas.DataFrame
        One curve (a single M, formation and precision): columns ``x`` and
        ``y``, e.g. the output of :func:`crossover_ratio_model` or
        :func:`measure_crossover`.  Rows with NaN ``y`` are ignored.
    x, y : str, keyword-only
        Column names of N/M and of the dual/primal ratio.

    Returns
    -------
    float
        The smallest N/M with ratio <= 1, interpolated linearly in
        (N/M, log ratio) between the bracketing grid points; the first grid
        point if the ratio is already <= 1 there; NaN if the ratio stays
        above 1 over the whole grid (the primal form is faster everywhere
        measured).

    Raises
    ------
    ValueError
        Missing columns, repeated N/M values (several curves mixed), or no
        finite point.
    """
    columns = list(getattr(df, "columns", []))
    for col in (x, y):
        if col not in columns:
            raise ValueError(f"expected a DataFrame with a column {col!r}, got columns={columns}")
    d = df[[x, y]].dropna().sort_values(x)
    if d.empty:
        raise ValueError(f"expected at least one finite {y!r} value, got none")
    if d[x].duplicated().any():
        raise ValueError(f"expected one curve (distinct {x!r} values), got repeated values "
                         f"{sorted(set(d[x][d[x].duplicated()]))}: select one M, formation and precision")
    xs, ys = d[x].to_numpy(float), d[y].to_numpy(float)
    below = np.nonzero(ys <= 1)[0]
    if below.size == 0:
        return float("nan")
    i = int(below[0])
    if i == 0:
        return float(xs[0])
    l0, l1 = np.log(ys[i - 1]), np.log(ys[i])
    return float(xs[i - 1] + (xs[i] - xs[i - 1]) * l0 / (l0 - l1))


def _secant(e0, n0, e1, n1, n) -> float:
    """Root of the line through (log n0, log e0), (log n1, log e1) at log n: N(eta) ~ eta^-k."""
    l0, l1 = np.log(n0), np.log(n1)
    return float(np.exp(np.log(e0) + (np.log(n) - l0) * (np.log(e1) - np.log(e0)) / (l1 - l0)))


def _next_eta(evals, n, M, runs=0) -> float:
    """Next eta to try for N = n, from the evaluated {eta: (N, pivot roots)}.

    N = M needs eta below every visit-time pivot root: half the smallest root
    of the selection that kept most columns.  Otherwise a secant step in
    (log eta, log N) (N(eta) is close to a power law), inside the bracket of
    the evaluated etas when there is one (bisection in log eta if the step
    leaves it), and a power law of exponent -1 from a single point.
    """
    if n >= M:
        roots = evals[max(evals, key=lambda e: evals[e][0])][1]
        pos = roots[roots > 0]
        return float(pos.min() / 2) if pos.size else 1e-12
    near = sorted(evals, key=lambda e: (abs(evals[e][0] - n), e))
    e0 = near[0]
    e1 = next((e for e in near[1:] if evals[e][0] != evals[e0][0]), None)
    guess = e0 * evals[e0][0] / n if e1 is None else _secant(e0, evals[e0][0], e1, evals[e1][0], n)
    guess = min(max(guess, e0 / 4), e0 * 4)
    lo = max((e for e in evals if evals[e][0] > n), default=None)  # eta too small
    hi = min((e for e in evals if evals[e][0] < n), default=None)  # eta too large
    if lo is not None and hi is not None and (runs >= 3 or not lo < guess < hi):
        guess = float(np.sqrt(lo * hi))
    return min(max(guess, 1e-12), 1 - 1e-9)


def eta_for_ratios(X, ratios, *, sigma2=DATA_SIGMA2, precision="float64", tol=0.005, max_runs=12,
                   start=0.3) -> pd.DataFrame:
    """Thresholds eta for which Abe's thresholded Cholesky keeps N ~ ratio * M columns.

    Parameters
    ----------
    X : (M, d) array_like
        Training inputs (read only).
    ratios : sequence of float in (0, 1]
        Target N/M values.
    sigma2 : float > 0, keyword-only
        RBF width of the kernel the solvers use.
    precision : str, keyword-only
        The selection runs in the solver's precision, so eta depends on it.
    tol : float >= 0, keyword-only
        Accept |N - round(ratio M)| <= max(1, tol M).
    max_runs : int, keyword-only
        Selections run per target at most; then the closest N found is kept.
    start : float in (0, 1) or sequence of them, keyword-only
        eta(s) of the first selections: a cheap one (few columns kept) by
        default, or the etas found in another precision (usually exact).

    Returns
    -------
    pandas.DataFrame
        One row per ratio: ``target_n_over_m``, ``eta``, ``N``, ``n_over_m``
        (achieved), ``runs`` (selections run for this target).

    Notes
    -----
    N(eta) is non-increasing in practice but not provably so (dropping a
    column raises the later pivots), so the search is a safeguarded secant
    iteration on log N against log eta (see ``_next_eta``), with the
    evaluations shared by all targets.  Each selection costs O(M N^2) (about
    12 s at M = N = 4000 in float64 on one core here).
    """
    X = np.asarray(X, dtype=np.float64)
    M = X.shape[0]
    check_int("max_runs", max_runs, minimum=1)
    starts = [float(e) for e in np.atleast_1d(np.asarray(start, dtype=float))]
    if not starts or not all(0 < e < 1 for e in starts):
        raise ValueError(f"expected start values in the open interval (0, 1), got start={start!r}")
    kernel = make_kernel("rbf", sigma2=sigma2)
    p = get_precision(precision)
    evals = {}

    def run(eta):
        if eta not in evals:
            sel = thresholded_cholesky(X, kernel, eta, precision=p)
            evals[eta] = (len(sel.indices), np.asarray(sel.pivots, dtype=float))
        return evals[eta][0]

    for e in starts:
        run(e)
    rows = []
    for r in _ratios(ratios):
        n, slack, runs = _n_of(M, r), max(1, int(tol * M)), 0
        while runs < max_runs:
            best = min(evals, key=lambda e: (abs(evals[e][0] - n), e))
            if abs(evals[best][0] - n) <= slack:
                break
            run(_next_eta(evals, n, M, runs))
            runs += 1
        best = min(evals, key=lambda e: (abs(evals[e][0] - n), e))
        rows.append({"target_n_over_m": float(r), "eta": best, "N": evals[best][0],
                     "n_over_m": evals[best][0] / M, "runs": runs})
    return pd.DataFrame(rows)


#: The kernels each form runs, in its solver's order (:func:`kernel_flops` counts their
#: flops; ``papers.abe.crossover_timing.measure_rates`` times them): the formation, the
#: symmetrizing pass (ridge and mirrored triangle), Cholesky with its symmetry check, the
#: condition estimate the solvers keep (norm and xPOCON), the solve.
KERNELS = {
    ("primal", "blas3"): ("center", "syrk_primal", "sym_N", "chol_N", "cond_N", "solve_N"),
    ("primal", "as-described"): ("outer", "axpy", "sym_N", "chol_N", "cond_N", "solve_N"),
    ("dual", None): ("syrk_dual", "sym_M", "chol_M", "cond_M", "solve_M", "gemv_M"),
}


def kernel_flops(M, N) -> dict:
    """Flops of each kernel of :data:`KERNELS` at (M, N); 0 for the memory passes.

    ========== =============== ==================================================
    kernel     flops           what
    ========== =============== ==================================================
    center     4 M N           h_bar, H_c = H - 1 h_bar^T, H_c^T (y - y_bar)
    syrk_prim. M N (N + 1)     H_c^T H_c (one triangle, as SYRK)
    outer      2 M N^2         M rank-one updates A += h_i h_i^T (full N x N)
    axpy       3 M N           the loop's s += h_i, r += y_i h_i
    syrk_dual  M (M + 1) N     H H^T
    chol_n     n^3/3 + n^2/2   LAPACK potrf of order n = N, M
               + n/6
    solve_N    2 N^2           two triangular solves, one right-hand side
    solve_M    4 M^2           two triangular solves, two right-hand sides (y, 1)
    gemv_M     2 M N           v = H^T beta (eq. 9)
    sym_n      0               ridge and strict upper triangle copied: memory pass
    cond_n     0               ||A||_1 and xPOCON: a few O(n^2) solves, a number
                               of iterations the estimator chooses; timed only
    ========== =============== ==================================================

    Per form these add up to :func:`flop_model` less its lower-order terms
    that no timed kernel performs: the primal's 2N (b_e, eq. 6) and N
    (blas3) or 3N^2 + N (as-described: the (1/M) s s^T correction and its
    right-hand side), the dual's 5M (ridge and b_e).
    """
    M = check_int("M", M, minimum=1)
    N = check_int("N", N, minimum=1)
    if N > M:
        raise ValueError(f"expected N <= M (support vectors are training points), got N={N}, M={M}")
    M, N = float(M), float(N)

    def chol(n):
        return n ** 3 / 3 + n ** 2 / 2 + n / 6

    return {"center": 4 * M * N, "syrk_primal": M * N * (N + 1), "outer": 2 * M * N * N, "axpy": 3 * M * N,
            "syrk_dual": M * (M + 1) * N, "chol_N": chol(N), "chol_M": chol(M), "solve_N": 2 * N * N,
            "solve_M": 4 * M * M, "gemv_M": 2 * M * N, "sym_N": 0.0, "sym_M": 0.0, "cond_N": 0.0,
            "cond_M": 0.0}


def _kernel_seconds(rates, flops, name):
    """flops / rate for an arithmetic kernel, the measured time for a memory pass (no flops)."""
    if flops[name]:
        return flops[name] / (rates[f"rate_{name}"] * 1e9)
    return rates[f"time_{name}"]


def rate_model(rates: dict, *, formation="blas3") -> dict:
    """Predicted seconds of each form = sum over its kernels of flops / measured rate.

    Parameters
    ----------
    rates : dict
        ``M``, ``N`` and, for every kernel of :data:`KERNELS`, ``rate_<kernel>``
        (GFLOP/s) or, for the passes that count no flops, ``time_<kernel>``
        (seconds): the output of
        :func:`lssvm_analysis.papers.abe.crossover_timing.measure_rates` at (M, N).
    formation : {"blas3", "as-described"}, keyword-only

    Returns
    -------
    dict
        ``predicted_primal_seconds``, ``predicted_dual_seconds``,
        ``predicted_dual_over_primal``, ``flop_dual_over_primal`` (the flop
        model alone, :func:`flop_model`), and ``predicted_<form>_<kernel>``
        seconds of each kernel.

    Notes
    -----
    primal = formation (centring and SYRK of H_c, or the M outer products and
    the loop's vector updates) + symmetrizing pass + Cholesky of order N +
    condition estimate + one solve; dual = SYRK H H^T + symmetrizing pass +
    Cholesky of order M + condition estimate + a two-column solve + H^T beta:
    the kernels of :data:`KERNELS`, i.e. every step inside the solvers'
    formation, factorization and solve phases except their O(N^2) / O(M)
    scalar work (:func:`kernel_flops`).
    """
    check_form("primal", formation)
    M, N = int(rates["M"]), int(rates["N"])
    flops = kernel_flops(M, N)
    parts = {form: {name: _kernel_seconds(rates, flops, name) for name in KERNELS[key]}
             for form, key in (("primal", ("primal", formation)), ("dual", ("dual", None)))}
    primal, dual = sum(parts["primal"].values()), sum(parts["dual"].values())
    flop = (flop_model(M, N, "dual", formation=formation)["total"]
            / flop_model(M, N, "primal", formation=formation)["total"])
    return {"predicted_primal_seconds": primal, "predicted_dual_seconds": dual,
            "predicted_dual_over_primal": dual / primal, "flop_dual_over_primal": flop,
            **{f"predicted_{form}_{name}": t for form, p in parts.items() for name, t in p.items()}}
