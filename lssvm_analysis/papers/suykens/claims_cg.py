"""Suykens ch. 3, §3.4.1's solver claims: CG (its bound, its dependence on kappa, V's decrease, the
residual) and the direct solve's size limit against CG (the rules; registered in
:mod:`.claims_numerics`, in the ledger's order)."""
from __future__ import annotations

import math

import numpy as np
import pandas as pd
from scipy import stats as st

from ...solvers import get_solver
from ...experiments.arrays import loads
from ...experiments.claims import Verdict
from ...experiments.claims.stats import fmt_num, loglog_slope, mean_ci

__all__ = ["BOOK_MEMORY", "CG_EPS", "TIME_BUDGET_S", "cg_bound", "cg_kappa", "cg_residual", "cg_v", "direct_2000",
           "direct_2000_cg", "log_ratio_ci"]

#: S-cg-kappa's accuracies (A-norm error reductions) read off every CG run.
CG_EPS = (1e-2, 1e-4, 1e-6)
#: S-direct-2000's time budget for one dense solve: a minute, the interactive budget of the book's
#: setting (fixed before any run).
TIME_BUDGET_S = 60.0
#: The memory of a 2002 workstation (the book's "available computer memory"): records of a machine with no
#: more memory are judged as the book's hardware; a machine with more can only fail to reproduce the limit.
BOOK_MEMORY = 2 ** 28


def log_ratio_ci(a_all, b_all):
    """95 % t interval of mean log(a/b) over repeats paired by index (JSON arrays of times)."""
    a, b = loads(a_all), loads(b_all)
    k = min(len(a), len(b))
    return mean_ci(np.log(a[:k] / b[:k]))


def _num(df, col):
    return pd.to_numeric(df[col], errors="coerce") if col in df.columns else pd.Series(np.nan, index=df.index)


# --------------------------------------------------------------------------- CG
def _cg_runs(rec):
    for _, r in rec["check-cg"].iterrows():
        if isinstance(r.get("err"), str):
            yield r, loads(r["err"]), loads(r["V"]), loads(r["residual"])


def cg_bound(rec):
    out = {}
    for r, err, _, _ in _cg_runs(rec):
        i = np.arange(len(err))
        tol = 10 * float(r["kappa"]) * float(r["u"]) * float(r["anorm_x"])
        printed = float(r["rho"]) ** i * err[0] + tol
        over = err > printed
        within2 = err <= 2 * float(r["rho"]) ** i * err[0] + tol
        o = out.setdefault(r["precision"], [0, 0, 0, 0.0])
        o[0] += 1
        o[1] += int(over.any())
        o[2] += int((over & ~within2).any())
        o[3] = max(o[3], float(np.max(err / printed)))
    measured = "; ".join(f"{p}: {a} of {n} runs have an iterate above (3.26) as printed, {b} above twice it "
                         f"(max {fmt_num(m)} × the bound)" for p, (n, a, b, m) in out.items())
    bd = rec["check-cg"][rec["check-cg"].status == "breakdown"] if "status" in rec["check-cg"] else []
    if len(bd):  # no x* to measure against: reported, not judged
        measured += "; " + ", ".join(f"{n} {p} run(s)" for p, n in bd.groupby("precision").size().items()) \
            + " left out: H as formed not positive definite (1/C below the kernel's rounding)"
    unc = ("every iterate's A-norm error (float64, against x* of H as formed) against ((√κ−1)/(√κ+1))^i ‖x*‖_A "
           "+ 10·κ·u·‖x*‖_A; no sampling")
    n64, a64, b64, _ = out.get("float64", [0, 0, 0, 0])
    if not n64:
        return Verdict("undecided", measured=measured or "no float64 runs", uncertainty=unc)
    if a64 == 0:
        return Verdict("holds", measured=measured, uncertainty=unc,
                       cause="float32 excursions are reported, not judged (the inventory's reading)")
    if b64 == 0:
        return Verdict("holds only when", condition="(3.26) carries the factor 2 of the Chebyshev bound "
                       "(which (3.27)'s log(2/ε) already assumes)", measured=measured, uncertainty=unc)
    return Verdict("does not hold", measured=measured, uncertainty=unc)


def _iters_to(err, eps):
    hit = np.nonzero(err <= eps * err[0])[0]
    return float(hit[0]) if len(hit) else math.nan


def cg_kappa(rec):
    rows = [(math.log(float(r["kappa"])), math.log(1 / e), math.log(max(_iters_to(err, e), 1.0)))
            for r, err, _, _ in _cg_runs(rec) if r["precision"] == "float64" for e in CG_EPS
            if np.isfinite(_iters_to(err, e))]
    censored = sum(1 for r, err, _, _ in _cg_runs(rec) if r["precision"] == "float64" for e in CG_EPS
                   if not np.isfinite(_iters_to(err, e)))
    if len(rows) < 4:
        return Verdict("undecided", measured=f"{len(rows)} (κ, ε) points reached", cause="needs ≥ 4 points")
    a = np.array(rows)
    Z = np.column_stack([np.ones(len(a)), a[:, 0], a[:, 1]])
    coef, res, *_ = np.linalg.lstsq(Z, a[:, 2], rcond=None)
    dof = len(a) - 3
    s2 = float(np.sum((a[:, 2] - Z @ coef) ** 2)) / max(dof, 1)
    se = np.sqrt(np.diag(s2 * np.linalg.pinv(Z.T @ Z)))
    t = float(st.t.ppf(0.975, max(dof, 1)))
    (bk, bkl, bkh), (be, bel, beh) = [(coef[j], coef[j] - t * se[j], coef[j] + t * se[j]) for j in (1, 2)]
    measured = (f"log(iterations) = {fmt_num(coef[0])} + {fmt_num(bk)} log κ [{fmt_num(bkl)}, {fmt_num(bkh)}] + "
                f"{fmt_num(be)} log(1/ε) [{fmt_num(bel)}, {fmt_num(beh)}] over {len(a)} (κ, ε) points, "
                f"κ {fmt_num(math.exp(a[:, 0].min()))}–{fmt_num(math.exp(a[:, 0].max()))}")
    unc = (f"OLS 95 % intervals; {censored} (run, ε) pairs never reached ε within 3N steps are left out "
           "(censoring flattens the κ slope)")
    if bkl > 0 and bkh <= 0.6 and bel > 0:
        return Verdict("holds", measured=measured, uncertainty=unc)
    if bkh <= 0 or bkl > 0.6 or beh <= 0:
        return Verdict("does not hold", measured=measured, uncertainty=unc)
    return Verdict("undecided", measured=measured, uncertainty=unc,
                   cause="an interval straddles its threshold (0, 0.6 or 0): more (γ, σ) points decide")


def cg_v(rec):
    """A rise counts beyond 10·u·|V| (u of the run) plus what V's float64 evaluation can get wrong at both iterates
    (``V_round``, γ_n(½|x|ᵀ|H||x| + |x|ᵀ|y|)): a smaller rise is the evaluation's, not CG's."""
    out, below = {}, 0
    for r, _, V, _ in _cg_runs(rec):
        u = float(r["u"])
        vr = loads(r["V_round"]) if isinstance(r.get("V_round"), str) else np.zeros_like(V)
        d, tol = np.diff(V), 10 * u * np.abs(V[1:])
        tight = d > tol
        rise = d > tol + vr[1:] + vr[:-1]
        below += int((tight & ~rise).sum())
        o = out.setdefault(r["precision"], [0, 0, 0])
        o[0] += 1
        o[1] += int(rise.any())
        o[2] += int(rise.sum())
    measured = "; ".join(f"{p}: V(x_i) rose beyond its rounding in {a} of {n} runs ({s} steps)"
                         for p, (n, a, s) in out.items())
    if below:
        measured += (f"; {below} rise(s) beyond 10·u·|V| lie within the rounding of V's float64 evaluation "
                     "(|x|ᵀ|H||x| ≫ |V| near x* when κ is large)")
    unc = ("V(x_i) = ½xᵢᵀHxᵢ − xᵢᵀy of every iterate, evaluated in float64; a rise counts beyond 10·u·|V| (u of the "
           "run's precision) + γ_n(½|x|ᵀ|H||x| + |x|ᵀ|y|) at both iterates, γ_n = n·u₆₄/(1 − n·u₆₄) (Higham Thm 3.5)")
    good = [p for p, (n, a, _) in out.items() if a == 0]
    if len(good) == len(out):
        return Verdict("holds", measured=measured, uncertainty=unc)
    if good:
        return Verdict("holds only when", condition=f"the arithmetic is {' or '.join(good)}", measured=measured,
                       uncertainty=unc)
    return Verdict("does not hold", measured=measured, uncertainty=unc)


def cg_residual(rec):
    n_runs, n_up = 0, 0
    for r, _, _, res in _cg_runs(rec):
        n_runs += 1
        n_up += int(np.any(res[1:] > res[:-1] * (1 + 10 * float(r["u"]))))
    measured = f"the residual norm rose at some step in {n_up} of {n_runs} CG runs"
    return Verdict("holds" if n_up else "does not hold", measured=measured,
                   uncertainty="existence over the grid: one run with a rise beyond 10·u suffices")


# --------------------------------------------------------------------------- direct solves
def direct_2000(rec):
    """N_max of a dense direct solve by memory, the sentence's limit ("depending on the available computer
    memory"); a time budget is not in the sentence and is only reported.  Measured on a machine with more memory
    than the book's (:data:`BOOK_MEMORY`) a deviation is today's hardware: "not reproduced", never a refutation."""
    d = rec["check-direct"].sort_values("N")
    d = d[np.isfinite(_num(d, "t_dense"))]
    if not len(d):
        return Verdict("undecided", measured="no timed dense solve")
    big = d.iloc[-1]
    c = float(big["t_dense"]) / float(big["N"]) ** 3
    n_time = int((TIME_BUDGET_S / c) ** (1 / 3))
    mem = float(big.get("mem_bytes", math.nan))
    if not np.isfinite(mem):
        return Verdict("undecided", measured="the machine's memory is not in the records", cause="no mem_bytes")
    peak = get_solver("lssvm-schur").peak
    n_mem = peak.largest_n(mem, "float64")
    measured = (f"N_max ≈ {fmt_num(n_mem)} by lssvm-schur's peak in this machine's {fmt_num(mem / 2 ** 30)} GiB "
                f"(8N² at N = 2000 is {fmt_num(8 * 2000 ** 2 / 2 ** 20)} MiB); for context only, a "
                f"{fmt_num(TIME_BUDGET_S)} s budget (not in the sentence) would allow N ≈ {fmt_num(n_time)} "
                f"(t = {fmt_num(float(big['t_dense']))} s at N = {int(big['N'])} scaled as N³)")
    unc = ("deterministic peak-memory model; 'about' = within a factor 2 of 2000; N_max ∝ √memory, so the limit "
           "is a property of the machine, not of the method")
    if 1000 <= n_mem <= 4000:
        return Verdict("holds", measured=measured, uncertainty=unc)
    if mem <= BOOK_MEMORY:
        return Verdict("does not hold", measured=measured, uncertainty=unc,
                       cause=f"on a machine of the book's memory (≤ {fmt_num(BOOK_MEMORY / 2 ** 20)} MiB)")
    n_book = peak.largest_n(float(BOOK_MEMORY), "float64")
    return Verdict("not reproduced", measured=measured, uncertainty=unc,
                   cause=f"today's hardware: {fmt_num(mem / 2 ** 30)} GiB against a 2002 workstation's; the same "
                         f"model at {fmt_num(BOOK_MEMORY / 2 ** 20)} MiB gives N_max ≈ {fmt_num(n_book)}. What "
                         "would decide: the memory of the book's machine, which the chapter does not give")


def direct_2000_cg(rec):
    d = rec["check-direct"].sort_values("N")
    parts, star, last, pts = [], None, None, []
    for _, r in d.iterrows():
        m, lo, hi, n = log_ratio_ci(r["t_dense_all"], r["t_cg_all"])
        parts.append(f"N = {int(r['N'])}: t_dense/t_CG = {fmt_num(math.exp(m))} "
                     f"[{fmt_num(math.exp(lo))}, {fmt_num(math.exp(hi))}] ({int(r['cg_iterations'])} CG steps)")
        if star is None and np.isfinite(lo) and lo > 0:
            star = int(r["N"])
        if np.isfinite(m):
            pts.append((float(r["N"]), math.exp(m)))
        last = r
    measured = "; ".join(parts)
    unc = "95 % interval of the mean log time ratio over repeats paired by order; lssvm-cg forms H (O(N²) memory)"
    if star is not None:
        return Verdict("holds", measured=measured + f"; crossover N* = {star}", uncertainty=unc)
    if last is None:
        return Verdict("undecided", measured="no timed dense solve", uncertainty=unc, cause="no rows")
    # no crossover in time: judge by operation counts, CG ≈ 2N² per step against Cholesky's N³/3
    ops = [(float(r["N"]), 6.0 * float(r["cg_iterations"]) / float(r["N"])) for _, r in d.iterrows()]
    measured += "; CG flops / Cholesky flops (6·steps/N): " + ", ".join(f"N = {int(n)}: {fmt_num(x)}" for n, x in ops)
    why = _no_crossover(pts, last)
    if all(x >= 1 for _, x in ops) and all(b >= a for (_, a), (_, b) in zip(ops, ops[1:])):
        return Verdict("does not hold", measured=measured, uncertainty=unc,
                       cause="by operation counts CG needs at least Cholesky's flops at every N measured, and its "
                             "step count grows at least ∝ N, so no larger N brings a gain; " + why)
    if ops[-1][1] < 1:
        return Verdict("not reproduced", measured=measured, uncertainty=unc,
                       cause="implementation-dependent timing: CG needs fewer flops than Cholesky from "
                             f"N = {int(next(n for n, x in ops if x < 1))} but runs slower here; " + why)
    return Verdict("undecided", measured=measured, uncertainty=unc,
                   cause=f"the flop ratio falls towards 1 (crossover by operation counts near N ≈ "
                         f"{fmt_num(6 * float(last['cg_iterations']))}, beyond the sizes run): larger N decide; " + why)


def _no_crossover(pts, last) -> str:
    """Why no crossover was seen, from the measured ratios (not from a flop count: Cholesky runs at BLAS-3
    speed, CG's product with the formed H at memory speed, so the flop count's crossover at N ≈ 6 × steps does
    not carry over to times)."""
    it, n_last = int(last["cg_iterations"]), int(last["N"])
    text = f"no crossover up to N = {n_last}"
    if len(pts) >= 2:
        (n0, r0), (n1, r1) = pts[0], pts[-1]
        k = loglog_slope([p[0] for p in pts], [p[1] for p in pts])
        text += (f": t_dense/t_CG went from {fmt_num(r0)} at N = {int(n0)} to {fmt_num(r1)} at N = {int(n1)} "
                 f"(log–log slope {fmt_num(k)})")
        if not (len(pts) >= 3 and n1 >= 10 * n0):   # a trend to extrapolate needs a decade and 3 sizes
            text += "; too few sizes for a trend (3 over a decade would give one: the full profile runs them)"
        elif np.isfinite(k) and k > 0:
            text += f", which extrapolates to 1 near N ≈ {fmt_num(n1 * r1 ** (-1 / k))}"
        else:
            text += ": the ratio falls with N over the range measured, away from a crossover"
    return (text + f". A flop count (CG ≈ 2N² per step × {it} steps against Cholesky's N³/3) would put it at "
            f"N ≈ 6 × steps ≈ {6 * it}, but Cholesky runs at BLAS-3 speed and CG's product with the formed H at "
            "memory speed. lssvm-cg stores H as Cholesky does, so CG is never the only method that fits; the "
            "sentence's memory case (N beyond dense memory) needs a matrix-free CG, which the suite does not have")
