"""Suykens ch. 3: KKT against Schur against CG, the KKT condition, CG iterations, pruning.

The section's settings per profile (:data:`SETTINGS`), its sweeps
(:func:`plan`) and its page (:func:`render`).  The accuracy figure compares
the registered solvers of the chapter that solve the same KKT system
(``SolverInfo.system`` is :func:`~lssvm_analysis.solvers.suykens.kkt_system`);
its sweep is the generic precision sweep restricted to them, so the two
sections share their stored rows.
"""
from __future__ import annotations

from dataclasses import dataclass, field, replace

import numpy as np
import pandas as pd
from matplotlib.lines import Line2D

from ...report.util import no_records, num, ok, span
from ...report.figures import (breakdown_style, empty_panel, fmt_num, log_axes, new_figure, panel_grid,
                               place_legends, precision_color, precision_rank, precision_style, save_figure,
                               solver_style)
from ...report.html import Section
from ...arith.precision import precisions
from ...experiments import SweepSpec
from ...experiments.arrays import loads
from ...solvers import get_solver, solvers
from ...solvers.suykens import kkt_system
from ...report.plan import decades, options
from ...report.registry import register_section
from ...report.sections_precision import SETTINGS as PRECISION_SETTINGS
from ...report.sections_precision import accuracy_spec

__all__ = ["SuykensSettings", "SETTINGS", "kkt_solvers", "plan", "render"]


def kkt_solvers() -> list:
    """The chapter's registered solvers of the one KKT system (3.5)/(3.32): LU, Schur, CG, ..."""
    return [n for n in solvers(paper="suykens") if get_solver(n).system is kkt_system]


@dataclass(frozen=True)
class SuykensSettings:
    """Sizes and grids of the Suykens section for one profile (the accuracy study's are the
    generic precision section's: :mod:`.sections_precision`)."""

    kkt_n: int = 60
    kkt_C: tuple = decades(1e-2, 1e12)
    sinc_sigma2: float = 1.0
    cg_n: int = 100
    cg_C: tuple = decades(1e-2, 1e8)
    cg_precisions: tuple = field(default_factory=lambda: tuple(precisions()))
    prune_n: int = 500
    prune_C: float = 1e4
    prune_sigma2: float = 1.0
    prune_min_support: int = 20


SETTINGS = {
    "default": SuykensSettings(),
    "quick": SuykensSettings(kkt_n=30, kkt_C=decades(1e-2, 1e12, 2), cg_n=40, cg_C=decades(1e-2, 1e8, 2),
                             prune_n=100),
    "full": SuykensSettings(kkt_n=100, cg_n=300, prune_n=1000),
}


def _sinc(n, noise_std=0.0):
    kw = {"n_train": n, "n_test": max(n, 100)}
    return ("sinc", {**kw, "noise_std": noise_std} if noise_std else kw)


def plan(profile: str, run) -> dict:
    """The accuracy sweep of the KKT solvers, the KKT condition, CG iterations and the pruning path."""
    P = SETTINGS[profile]
    name = f"{profile}-suykens"
    specs = {
        "accuracy": accuracy_spec(profile, kkt_solvers()),
        "kkt": SweepSpec(f"{name}-kkt", kind="kkt-condition", precisions=["float64"],
                         datasets=[_sinc(P.kkt_n)], grid={"C": list(P.kkt_C), "sigma2": [P.sinc_sigma2]},
                         options=options()),
        "cg": SweepSpec(f"{name}-cg", kind="cg-iterations", precisions=list(P.cg_precisions),
                        datasets=[_sinc(P.cg_n)], grid={"C": list(P.cg_C), "sigma2": [P.sinc_sigma2]},
                        options=options()),
        "pruning": SweepSpec(f"{name}-pruning", kind="pruning-path", precisions=["float64"],
                             datasets=[_sinc(P.prune_n)],
                             grid={"C": [P.prune_C], "sigma2": [P.prune_sigma2], "rtol": [1e12],
                                   "min_support": [P.prune_min_support]}, options=options()),
        # §3.7 "noisy data allow less pruning": the same path on targets with N(0, 0.1²) noise (the
        # index stays the test MSE against the noiseless sinc)
        "pruning-noisy": SweepSpec(f"{name}-pruning-noisy", kind="pruning-path", precisions=["float64"],
                                   datasets=[_sinc(P.prune_n, 0.1)],
                                   grid={"C": [P.prune_C], "sigma2": [P.prune_sigma2], "rtol": [1e12],
                                         "min_support": [P.prune_min_support]}, options=options()),
    }
    specs.update(_check_specs(profile))
    return specs


#: The ledger's numerical checks of the chapter (kind ``suykens-check``, :mod:`..papers.suykens.kinds_numerics`)
#: per profile: key -> (datasets, grid, precisions, seeds, options).  "default" holds what fits its
#: budget (about 3 CPU-s, with the reference classifiers of the tables' section about 4.5); "full" runs the chapter's sizes (N = 500 pruning, 1000-point NARX, 10-fold CV,
#: 20 holdout draws on every binary set).  "quick" runs none (the claims say "not run").
_GAMMAS = [1e-2, 1.0, 1e2, 1e4]
_NONE = [("sinc", {"n_train": 2, "n_test": 1})]  # checks that generate their own data: a placeholder
#: The LAPACK-backed precisions (float32, float64), asked of the registry: CG's bound is checked there.
_HARDWARE = precisions(hardware=True)
CHECKS = {
    "default": {
        "kkt": ([("ripley-mixture", {"n_train": 100, "n_test": 100})], {"C": _GAMMAS, "sigma2": [0.1, 1.0, 10.0]},
                ["float64"], [0], {}),
        "cg": ([_sinc(100)], {"C": [1.0, 1e2, 1e4, 1e6], "sigma2": [0.1, 1.0]}, _HARDWARE, [0], {}),
        "direct": ([_sinc(200), _sinc(400)], {"C": [1e2], "sigma2": [1.0]}, ["float64"], [0], {"repeats": 3}),
        "linear": ([("ripley-mixture", {"n_train": 100, "n_test": 100})],
                   {"C": list(decades(1e2, 1e12)), "sigma2": [1.0]}, ["float64"], [0], {}),
        "rank": (_NONE, {"kernel": ["poly"], "N": [5, 20], "n_inputs": [2], "degree": [2, 3]}, ["float64"], [0], {}),
        "rank-rbf": (_NONE, {"kernel": ["rbf"], "N": [10, 20], "n_inputs": [2], "sigma2": [1.0]}, ["float64"], [0], {}),
        "dual-time": (_NONE, {"N": [100], "n_inputs": [50, 100, 200, 400, 800], "C": [1.0]}, ["float64"], [0],
                      {"repeats": 5, "resolution": 0.004}),
        "multiclass": (["iris"], {"C": [10.0], "sigma2": [1.0]}, ["float64"], [0], {"repeats": 5,
                                                                                    "resolution": 0.002}),
        "spiral": (["two-spirals"], {}, ["float64"], [0], {"folds": 5}),
        "prune": ([_sinc(200, 0.1)], {"C": [1e2], "sigma2": [1.0]}, ["float64"], [0, 1, 2], {}),
        "noisy-prune": (_NONE, {"N": [100], "C": [1e4], "sigma2": [1.0], "noise": [0.1]}, ["float64"], [0, 1, 2],
                        {}),
        "prune-location": (_NONE, {"N": [250], "C": [1.0, 1e4], "sigma2": [1.0]}, ["float64"], [0],
                           {"keep": [125, 25]}),
        "narx": (_NONE, {"q": [50], "n_train": [300], "horizon": [100]}, ["float64"], [0], {"folds": 3}),
    },
    "full": {
        "kkt": ([("ripley-mixture", {"n_train": 250, "n_test": 1000}), ("suykens-ion", {}), ("suykens-hea", {})],
                {"C": _GAMMAS + [1e6], "sigma2": [0.1, 1.0, 10.0, 100.0]}, ["float64"], [0], {}),
        "cg": ([_sinc(300)], {"C": [1.0, 1e2, 1e4, 1e6, 1e8], "sigma2": [0.1, 1.0, 10.0]}, _HARDWARE,
               [0], {}),
        "direct": ([_sinc(n) for n in (250, 500, 1000, 2000, 4000)], {"C": [1e2], "sigma2": [1.0]}, ["float64"],
                   [0], {"repeats": 5}),
        "linear": ([("ripley-mixture", {"n_train": 250, "n_test": 1000})],
                   {"C": list(decades(1e2, 1e12)), "sigma2": [1.0]}, ["float64"], [0], {}),
        "rank": (_NONE, {"kernel": ["poly"], "N": [5, 20, 40], "n_inputs": [2, 3], "degree": [2, 3]}, ["float64"],
                 [0], {}),
        "rank-rbf": (_NONE, {"kernel": ["rbf"], "N": [10, 20, 40], "n_inputs": [2], "sigma2": [1.0]}, ["float64"],
                     [0], {}),
        "dual-time": (_NONE, {"N": [200], "n_inputs": [50, 100, 200, 400, 800, 1600, 3200], "C": [1.0]},
                      ["float64"], [0], {"repeats": 7}),
        "multiclass": (["iris", "wine"], {"C": [10.0], "sigma2": [1.0]}, ["float64"], [0], {"repeats": 7}),
        "spiral": (["two-spirals"], {}, ["float64"], [0], {"folds": 10}),
        "prune": ([_sinc(500, 0.1)], {"C": [1e2], "sigma2": [1.0]}, ["float64"], list(range(10)), {}),
        "noisy-prune": (_NONE, {"N": [500], "C": [1e4], "sigma2": [1.0], "noise": [0.1]}, ["float64"],
                        list(range(10)), {}),
        "prune-location": (_NONE, {"N": [500], "C": [1.0, 1e2, 1e4], "sigma2": [1.0]}, ["float64"], [0],
                           {"keep": [250, 50]}),
        "narx": (_NONE, {"q": [50], "n_train": [1000], "horizon": [100]}, ["float64"], [0], {"folds": 10}),
        "holdout": ([(f"suykens-{c}", {}) for c in ("acr", "bld", "gcr", "hea", "ion", "pid", "snr", "ttt", "wbc")],
                    {}, ["float64"], list(range(20)), {"folds": 10}),
    },
}


def _check_specs(profile: str) -> dict:
    """The sweeps of the ledger's numerical checks (key ``check-<name>``); none in "quick"."""
    out = {}
    for key, (sets, grid, precs, seeds, opts) in CHECKS.get(profile, {}).items():
        check = "rank" if key.startswith("rank") else key
        out[f"check-{key}"] = SweepSpec(f"{profile}-suykens-check-{key}", kind="suykens-check", precisions=precs,
                                        datasets=sets, seeds=seeds, grid={"check": [check], **grid},
                                        options=options(**opts))
    return out


def with_settings(profile: str, **kw) -> SuykensSettings:
    """A copy of a profile's settings with some fields replaced (tests use tiny settings)."""
    return replace(SETTINGS[profile], **kw)


def _accuracy(sec, out, acc):
    names = kkt_solvers()
    rows = ok(acc)
    rows = rows[rows.solver.isin(names)] if len(rows) else rows
    if "configuration" in rows.columns:  # the default configuration of each (the generic section has all)
        rows = rows[rows.configuration.fillna(rows.solver) == rows.solver]
    if no_records(sec, rows, acc, "the accuracy sweep", "No accuracy records."):
        return "no accuracy records"
    precs = sorted(rows.precision.unique(), key=precision_rank)
    fig, axs = panel_grid(len(precs), 2, width=4.6, height=3.6)
    for a, prec in zip(axs, precs):
        g = rows[rows.precision == prec]
        for i, s in enumerate(names):
            d = g[g.solver == s].sort_values("C")
            if len(d):  # a solver: its family's colour and marker, its own line style (figures.solver_style)
                y = num(d, "solve_error").clip(lower=1e-80)
                a.plot(d.C, y, **solver_style(s), label=s)
        failed = g[(g.status != "ok") & ~np.isfinite(num(g, "solve_error"))]
        if len(failed):  # no solution to measure: the breakdown cross at error 1 (no digit), not a gap
            a.plot(failed.C.drop_duplicates(), np.ones(failed.C.nunique()), **breakdown_style(prec),
                   label="no model (breakdown …): at 1")
        u = float(num(g, "unit_roundoff").iloc[0])
        d = g.sort_values("C").drop_duplicates("C")
        a.plot(d.C, num(d, "system_condition") * u, color="gray", lw=0.8, label="κ·u (KKT matrix)")
        log_axes(a)
        a.set_title(prec, fontsize=10)
        a.set_xlabel("C (Suykens' γ) [–]")
        a.set_ylabel("solve error vs certified reference [–]")
        a.legend(fontsize=7, handlelength=4)
    sec.figure(save_figure(fig, rows, out, "suykens-accuracy",
                           "Solve error of the model (b, α) against the certified solution of the KKT "
                           "system as formed, per "
                           "precision, for the full KKT solve (LU), the Schur-complement form (3.25) "
                           "(Cholesky) and CG, against γ; grey: κ·u; a cross at 1: a fit that returned no "
                           "model (breakdown, no convergence) at that γ."))
    r = rows.assign(ratio=num(rows, "solve_error") / (num(rows, "system_condition")
                                                      * num(rows, "unit_roundoff")))
    med = r.groupby("solver").ratio.median()
    brk = rows[rows.status != "ok"].groupby(["solver", "precision"]).size()
    s = ("median solve error / (κ·u): " + ", ".join(f"{k} {fmt_num(v)}" for k, v in med.items()))
    if len(brk):
        s += "; failures (breakdown / not converged): " + ", ".join(
            f"{a} in {b}: {n}" for (a, b), n in brk.items())
    return s


def _kkt(sec, out, kkt):
    rows = ok(kkt)
    if no_records(sec, rows, kkt, "the KKT conditioning", "No KKT records."):
        return "no KKT conditioning records"
    rows = rows.sort_values("C")
    fig, axs = new_figure(1, 1, width=7.0)
    a = axs[0, 0]
    a.plot(rows.C, num(rows, "cond_kkt"), "o-", label="KKT matrix (3.32), indefinite")
    a.plot(rows.C, num(rows, "cond_H"), "s--", label="H = Ω + I/γ (Schur solves, CG)")
    a.plot(rows.C, num(rows, "cond_schur"), "^:", label="diag(s, H) of (3.25)")
    log_axes(a)
    a.set_xlabel("C (Suykens' γ) [–]")
    a.set_ylabel("2-norm condition number κ₂ [–]")
    a.legend(fontsize=8)
    sec.figure(save_figure(fig, rows, out, "suykens-kkt-condition",
                           "κ₂ of the KKT matrix against κ₂ of H and of the block-diagonal form (3.25) "
                           f"on sinc (n={int(rows.n.iloc[0])}); the KKT eigenvalues lie in the "
                           "Rusten–Winther intervals (CSV columns rw_*)."))
    ratio = num(rows, "cond_kkt") / num(rows, "cond_H")
    inside = ((num(rows, "kkt_neg") >= num(rows, "rw_neg_lo") * (1 + 1e-12))
              & (num(rows, "kkt_neg") <= num(rows, "rw_neg_hi") * (1 - 1e-12))
              & (num(rows, "kkt_max") <= num(rows, "rw_pos_hi") * (1 + 1e-12)))
    return (f"κ(KKT)/κ(H) = {span(ratio)} over γ ∈ [{fmt_num(rows.C.min())}, {fmt_num(rows.C.max())}], "
            f"with the KKT eigenvalues inside the Rusten–Winther bounds at {int(inside.sum())} of "
            f"{len(rows)} γ")


def _cg(sec, out, cg):
    rows = ok(cg)
    if no_records(sec, rows, cg, "the CG iterations", "No CG records."):
        return "no CG records"
    fig, axs = new_figure(1, 1, width=7.0)
    a = axs[0, 0]
    long, key = [], []
    for prec, g in sorted(rows.groupby("precision"), key=lambda kv: precision_rank(kv[0])):
        g = g.sort_values("sqrt_cond")
        c = precision_color(prec)
        for tag, ls, lw in (("y", ":", 2.0), ("1", "-.", 1.0)):  # system by line style, the first wider
            st = precision_style(prec)  # markers at 0.6 size: the line style shows in the key
            a.plot(g.sqrt_cond, num(g, f"iterations_{tag}"), ls=ls, lw=lw, **{**st, "ms": 0.6 * st["ms"]},
                   label="_nolegend_")
            long.append(g.assign(system=tag, iterations=num(g, f"iterations_{tag}"),
                                 bound=num(g, f"bound_{tag}"), eps=num(g, f"eps_{tag}")))
        a.plot(g.sqrt_cond, num(g, "bound_y"), "-", color=c, lw=0.9, label="_nolegend_")
        key.append(Line2D([], [], ls="none", **precision_style(prec), label=prec))
    # the key groups its attributes (issue 41: 13 entries, one per precision × series): the precisions
    # by colour and marker, the series by line style
    key += [Line2D([], [], color="0.3", ls=":", lw=2.0, label="CG on H·η = y"),
            Line2D([], [], color="0.3", ls="-.", lw=1.0, label="CG on H·ν = 1"),
            Line2D([], [], color="0.3", ls="-", lw=0.9, label="bound (3.27) at the ε achieved")]
    a.axhline(int(rows.n.iloc[0]), color="gray", ls="--", lw=0.8, label="n (exact-arithmetic limit)")
    key.append(Line2D([], [], color="gray", ls="--", lw=0.8, label="n (exact-arithmetic limit)"))
    log_axes(a)
    a.set_xlabel("√κ(H) [–]")
    a.set_ylabel("CG iterations [–]")
    a.legend(handles=key, fontsize=7, handlelength=4)
    place_legends(fig)  # the bounds run through every corner on some runs: then beside the axes
    data = pd.concat(long, ignore_index=True)
    sec.figure(save_figure(fig, data, out, "suykens-cg-iterations",
                           "Hestenes–Stiefel CG iterations to a relative residual √u against √κ(H) (the "
                           "precision's colour and marker; dotted: H·η = y, dash-dot: H·ν = 1), with "
                           "the (3.27) bound evaluated at the A-norm error reduction ε each run reached."))
    frac = data.iterations / data.bound
    over = data[frac > 1]
    s = f"CG used {span(100 * frac, '%')} of the (3.27) bound"
    s += (f"; it exceeded the bound in {len(over)} of {len(data)} runs (precisions "
          f"{sorted(set(over.precision))}: finite-precision CG loses orthogonality)" if len(over)
          else ", never more")
    return s


def _pruning(sec, out, pr):
    rows = ok(pr)
    rows = rows[rows.status == "ok"] if len(rows) else rows
    if no_records(sec, rows, pr, "the pruning path", "No pruning records."):
        return "no pruning path"
    r = rows.iloc[0]
    n, e = loads(r["path_n_support"]), loads(r["path_mse"])
    data = pd.DataFrame({"n_support": n, "validation_mse": e})
    fig, axs = new_figure(1, 1, width=7.0)
    a = axs[0, 0]
    if len(n):
        a.plot(n, e, "o-", ms=3, label="pruning path (5% per step)")
        stop = int(r["suykens_stop_n_support"])
        if stop in set(n.astype(int)):
            a.plot([stop], [e[list(n.astype(int)).index(stop)]], "r*", ms=12,
                   label=f"first rise of the index (Suykens' stop): {stop} SV")
        a.invert_xaxis()
        log_axes(a, x=False)
    else:
        empty_panel(a, "no path")
    a.set_xlabel("number of support vectors [–]")
    a.set_ylabel("test-set MSE [(target units)²]")
    a.legend(fontsize=8)
    sec.figure(save_figure(fig, data, out, "suykens-pruning",
                           f"Pruning path on the noiseless sinc (N={int(r['M'])}, γ={fmt_num(r['C'])}, "
                           f"σ²={fmt_num(r['sigma2'])}); step 4's index is the test MSE."))
    if not len(n):
        return "the pruning path is empty"
    k50 = int(np.argmin(np.abs(n - 50)))
    stop = int(r["suykens_stop_n_support"])
    s = (f"pruning from {int(n[0])} to {int(n[-1])} support vectors moved the test MSE from "
         f"{fmt_num(e[0])} to {fmt_num(e[-1])} ({fmt_num(e[k50])} at {int(n[k50])} SV, Fig. 3.9's 50)")
    if stop == int(n[0]):
        return s + ("; Suykens' rule (stop when the index degrades) stops before the first step here: "
                    "reaching 50 SV needs a tolerance on the degradation")
    return s + f"; Suykens' rule (stop at the first rise) stops at {stop} SV"


def render(sec: Section, out, records, profile: str) -> str:
    """The section from the records "accuracy", "kkt", "cg" and "pruning"; returns the verdict."""
    A = PRECISION_SETTINGS[profile]
    sec.p(f"Noiseless sinc on [−10, 10] with n = {A.sinc_n} (accuracy; mp included), σ² = {A.sinc_sigma2}. "
          "lssvm-kkt solves the full indefinite KKT system by LU; lssvm-schur factors H = Ω + I/γ by "
          "Cholesky and makes the two solves of (3.25) with it; lssvm-cg runs Hestenes–Stiefel CG "
          "on the same two systems. Errors are measured on the model (b, α) against a certified "
          "extended-precision reference of the system each solver formed.")
    clauses = [_accuracy(sec, out, records.get("accuracy", pd.DataFrame()))]
    sec.h3("Condition of the KKT matrix against its Schur complement")
    clauses.append(_kkt(sec, out, records.get("kkt", pd.DataFrame())))
    sec.h3("CG iterations against the (3.27) bound")
    clauses.append(_cg(sec, out, records.get("cg", pd.DataFrame())))
    sec.h3("Pruning path (§3.7)")
    clauses.append(_pruning(sec, out, records.get("pruning", pd.DataFrame())))
    return "; ".join(c for c in clauses if c) + "."


register_section("suykens", title="Suykens: KKT, Schur complement and CG", order=20, plan=plan,
                 render=render)
