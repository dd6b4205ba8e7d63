"""Section: Zhao & Sun - reduced LSSVR and the recursive reduced LSSVR (registered, order 40).

Reads the records of the sweeps it plans (kinds of
:mod:`lssvm_analysis.papers.zhao_sun.kinds`): the error growth of the
recursion per step and precision, the conditioning of (7) and the ridge
study, and greedy against random support sets at equal |S|.  The paper's
tables are not in the seed, so no number of the paper is reproduced.
"""
from __future__ import annotations

import numpy as np
import pandas as pd

from ...arith.precision import precisions
from ...experiments import SweepSpec
from . import kinds as kinds_zhao_sun  # noqa: F401  (registers the kinds)
from .claims import margins
from ...experiments.arrays import loads
from ...solvers import get_solver
from ...report.util import no_records, ok, span
from ...report.figures import (attribute_color, fmt_num, log_axes, new_figure, panel_grid, place_legends,
                      precision_color, precision_rank, save_figure, save_table, solver_style)
from ...report.registry import register_section

__all__ = ["plan", "render"]

KEY = "zhao-sun"
_GREEDY_SETS = {  # data set: (loader options, C, sigma2), chosen on seed 0 against the full LS-SVM
    "sinc": ({"n_train": 300, "n_test": 300, "noise_std": 0.1}, 100.0, 4.0),
    "mackey-glass": ({}, 1000.0, 0.5),
    "boston14": ({}, 10.0, 20.0),
}
_SIZES = {"quick": dict(growth=(16, 8), ridge_n=60, ridge_S=[4, 12], ridge_C=[1.0, 1e6], seeds=[0],
                        n_max=20, sets=["sinc"], identity_n=30, identity_S=5),
          "default": dict(growth=(30, 15), ridge_n=150, ridge_S=[5, 20, 40],
                          ridge_C=[1.0, 1e3, 1e6], seeds=list(range(10)), n_max=50,
                          sets=list(_GREEDY_SETS), identity_n=60, identity_S=10),
          "full": dict(growth=(60, 30), ridge_n=500, ridge_S=[5, 10, 20, 40, 80],
                       ridge_C=[1.0, 1e2, 1e4, 1e6, 1e8], seeds=list(range(20)), n_max=100,
                       sets=list(_GREEDY_SETS), identity_n=150, identity_S=20)}


def _variants(solver, option):
    return [c[option] for c in get_solver(solver).configurations()]


def plan(profile, run=None) -> dict:
    """The section's sweeps for ``profile`` ("quick", "default", "full")."""
    P = _SIZES[profile]
    n, m = P["growth"]
    specs = {
        f"{KEY}-growth": SweepSpec(
            f"{profile}-{KEY}-growth", kind="zs-error-growth", solvers=["rr-lssvr"], precisions=precisions(),
            datasets=[("sinc", {"n_train": n, "n_test": 10, "noise_std": 0.1})],
            grid={"update": _variants("rr-lssvr", "update"), "n_support": [m], "C": [100.0],
                  "sigma2": [4.0]}),
        f"{KEY}-ridge": SweepSpec(
            f"{profile}-{KEY}-ridge", kind="zs-ridge", solvers=["reduced-lssvr"],
            precisions=precisions(),
            datasets=[("sinc", {"n_train": P["ridge_n"], "n_test": 10})],
            grid={"ridge": _variants("reduced-lssvr", "ridge"), "n_support": P["ridge_S"],
                  "C": P["ridge_C"], "sigma2": [50.0]}),
        f"{KEY}-identities": SweepSpec(
            f"{profile}-{KEY}-identities", kind="zs-identities", solvers=["rr-lssvr"],
            precisions=precisions(native=True),
            datasets=[("sinc", {"n_train": P["identity_n"], "n_test": 10, "noise_std": 0.1})],
            grid={"n_support": [P["identity_S"]], "C": [100.0], "sigma2": [4.0]}),
    }
    for name in P["sets"]:
        kw, C, s2 = _GREEDY_SETS[name]
        specs[f"{KEY}-greedy-{name}"] = SweepSpec(
            f"{profile}-{KEY}-greedy-{name}", kind="zs-greedy-random", solvers=["rr-lssvr"],
            precisions=["float64"], datasets=[(name, kw)], seeds=P["seeds"],
            grid={"n_max": [P["n_max"]], "C": [C], "sigma2": [s2]},
            options={"extra_seeds": P["extra_seeds"]} if "extra_seeds" in P else {})
    return specs


# --------------------------------------------------------------------------- #
# error growth
# --------------------------------------------------------------------------- #
def _growth(sec, out, df):
    rows = ok(df)
    if no_records(sec, rows, df, "the error-growth sweep", "No error-growth records."):
        return "no error-growth records", None
    precs = sorted(rows.precision.unique(), key=precision_rank)
    fig, axs = panel_grid(len(precs), 2, width=4.6, height=3.4)
    data = []
    for a, prec in zip(axs, precs):
        for _, r in rows[rows.precision == prec].iterrows():
            d, st = loads(r["digits"]), loads(r["stable_digits"])
            k = np.arange(len(d))
            a.plot(k, d, "o-" if r["update"] == "cholesky" else "s--", ms=3, label=f"update={r['update']}")
            data.append(pd.DataFrame({"precision": prec, "update": r["update"], "step": k, "digits": d,
                                      "stable_digits": st, "cond": loads(r["cond"])}))
        a.plot(k, np.minimum(st, float(r["precision_digits"])), color="gray", lw=0.8,
               label="−log10(κ(H_S)·u)")
        a.axhline(float(r["precision_digits"]) / 2, color="gray", ls=":", lw=0.8, label="half the digits")
        a.set_title(prec, fontsize=10)
        a.set_xlabel("step k (|S| after the step) [–]")
        a.set_ylabel("correct digits of θ_S [–]")
        a.legend(fontsize=7)
    data = pd.concat(data, ignore_index=True)
    sec.figure(save_figure(fig, data, out, f"{KEY}-error-growth",
                           "Digits of θ_S = [b; α] after each greedy step against the certified "
                           "reference of the same H_S (noisy sinc), per precision, for the bordered "
                           "Cholesky and the bordered (explicit) inverse; grey: what a backward-stable "
                           "solve of H_S would give, −log10(κ(H_S) u)."))
    t = rows[["precision", "update", "n_selected", "stop_reason", "half_digits_step", "final_digits",
              "n_guard_skips", "nonpositive_schur"]].copy()
    t["half_digits_step"] = t.half_digits_step.where(t.half_digits_step >= 0, np.nan)
    t = t.sort_values(["precision", "update"], key=lambda s: s.map(precision_rank)
                      if s.name == "precision" else s)
    sec.table(save_table(t, out, f"{KEY}-half-digits",
                         "Step at which θ_S first has fewer than half the precision's digits (blank: "
                         "never), digits at the last step, Schur-guard skips, candidates with computed "
                         "s_j ≤ 0."))
    bi = t[t["update"] == "bordered-inverse"]
    ch = t[t["update"] == "cholesky"]
    s = ("the bordered inverse first lost half its digits at step "
         + ", ".join(f"{fmt_num(v)} ({p})" if np.isfinite(v) else f"never ({p})"
                     for p, v in zip(bi.precision, bi.half_digits_step))
         # a relative error above 1 gives -log10 < 0: no digit is kept, which is 0 digits
         + f"; at the last step it kept {span(bi.final_digits.clip(lower=0))} digits against "
           f"{span(ch.final_digits.clip(lower=0))} for the Cholesky update")
    return s, data


# --------------------------------------------------------------------------- #
# conditioning and the ridge study
# --------------------------------------------------------------------------- #
def _conditioning(sec, out, df):
    rows = ok(df)
    rows = rows[rows.precision == "float64"].drop_duplicates(["C", "n_support"]) if len(rows) else rows
    if not len(rows):
        return "no conditioning records"
    fig, axs = new_figure(1, 1, width=6.4)
    a = axs[0, 0]
    for i, (C, g) in enumerate(rows.groupby("C")):
        g = g.sort_values("n_support")
        a.plot(g.n_support, g.cond_H_formed, "o-", color=attribute_color(i), label=f"cond(R+ZZᵀ) as formed, C={fmt_num(C)}")
        a.plot(g.n_support, g.cond_M, "s--", color=attribute_color(i), label=f"cond(M) stacked, C={fmt_num(C)}")
        a.plot(g.n_support, g.cond_M ** 2, ":", color=attribute_color(i), label=f"cond(M)², C={fmt_num(C)}")
    a.axhline(1 / 2.0 ** -53, color=precision_color("float64"), lw=0.8, label="1/u (float64)")
    log_axes(a)
    a.set_xlabel("|S| [–]")
    a.set_ylabel("2-norm condition number [–]")
    a.legend(fontsize=6, ncol=2)
    place_legends(fig)
    sec.figure(save_figure(fig, rows, out, f"{KEY}-condition",
                           "cond₂ of H = R + ZZᵀ (float64 eigenvalues of the formed matrix) and of the "
                           "stacked least-squares matrix M (float64 SVD) against |S| for each C (sinc, "
                           "σ² = 50); cond(H) = cond(M)² in exact arithmetic, so the formed H saturates "
                           "at ~1/u while cond(M)² keeps growing."))
    fine = rows[rows.cond_M ** 2 < 1e14]
    ratio = np.log10(fine.cond_H_formed) / np.log10(fine.cond_M) if len(fine) else []
    return (f"cond(R+ZZᵀ) ranged over {span(rows.cond_H_formed)} and cond(M) over {span(rows.cond_M)}; "
            f"where resolvable log cond(H) / log cond(M) = {span(ratio)} (theory: 2)")


def _ridge(sec, out, df):
    rows = ok(df)
    if no_records(sec, rows, df, "the ridge sweep", "No ridge records."):
        return "no ridge records"
    t = rows[["precision", "ridge", "C", "n_support", "fit_status", "ridge_applied", "ridge_visible",
              "ridge_value", "max_h_ii", "unit_roundoff", "reference_precision", "excess"]].copy()
    t["u·max h_ii"] = t.unit_roundoff * t.max_h_ii
    t = t.sort_values(["C", "n_support", "precision", "ridge"],
                      key=lambda s: s.map(precision_rank) if s.name == "precision" else s)
    sec.table(save_table(t.drop(columns=["unit_roundoff"]), out, f"{KEY}-ridge",
                         "The ridge study (sinc, σ² = 50, random S): outcome, whether the ridge was "
                         "applied (Cholesky of H broke down) and whether it changed a bit of H's diagonal, "
                         "and the excess (J − J*)/J* of objective (6) (evaluated in mp50) over the "
                         "lstsq minimiser J* in the finer of longdouble and the row's precision "
                         "(0 for that reference itself).", data=t))
    applied = t[t.ridge_applied]
    parts = []
    for prec, g in applied.groupby("precision", sort=False):
        lit = g[g.ridge == "literal"]
        if not len(lit):
            continue
        vis = lit.ridge_visible.astype(bool)
        okc = lit.fit_status == "ok"
        parts.append(f"{prec}: the 1e-8 ridge was needed in {len(lit)} literal fits, changed H in "
                     f"{int(vis.sum())} and gave a model in {int(okc.sum())}"
                     + (f" (excess {span(lit.excess[okc])})" if okc.any() else ""))
    lsq = t[t.ridge == "lstsq"]
    s = "; ".join(parts) or "the ridge was never needed"
    s += (f"; lstsq gave a model in {int((lsq.fit_status == 'ok').sum())} of {len(lsq)} fits "
          f"(excess {span(lsq.excess[lsq.precision != lsq.reference_precision])})")
    return s


# --------------------------------------------------------------------------- #
# greedy against random
# --------------------------------------------------------------------------- #
def _greedy(sec, out, records):
    frames = {k[len(f"{KEY}-greedy-"):]: ok(v) for k, v in records.items() if k.startswith(f"{KEY}-greedy-")}
    frames = {k: v for k, v in frames.items() if len(v)}
    if not frames:
        sec.note("No greedy-random records.")
        return
    fig, axs = panel_grid(len(frames), 3, width=4.0, height=3.6)  # rows of three: readable in the page
    table, data = [], []
    for a, (name, g) in zip(axs, frames.items()):
        paths = [loads(p) for p in g.greedy_path_rmse]
        L = min(len(p) for p in paths)
        gp = np.mean([p[:L] for p in paths], axis=0)
        sizes = loads(g.sizes.iloc[0]).astype(int)
        rnd = np.array([loads(r)[:len(sizes)] for r in g.random_rmse if len(loads(r)) >= len(sizes)])
        rm = rnd.mean(axis=0) if len(rnd) else np.full(len(sizes), np.nan)
        full = float(g.full_rmse.mean())
        # each solver in its family's colour, marker and line style (figures.solver_style)
        a.plot(np.arange(L), gp, **{**solver_style("rr-lssvr"), "ms": 4.0}, markevery=max(1, L // 12),
               label="greedy (rr-lssvr), mean over seeds")
        a.plot(sizes, rm, **solver_style("reduced-lssvr"), label="random S (reduced-lssvr), mean")
        a.axhline(full, color="gray", lw=0.8, label=f"full LS-SVM ({int(g.n_train.iloc[0])} SVs)")
        log_axes(a, x=False)
        a.set_xlabel("|S| (number of SVs) [–]")
        a.set_ylabel("test RMSE [target units]")
        a.set_title(name, fontsize=10)
        a.legend(fontsize=8)
        m = margins(g.assign(set=name))[name]  # the claims' margin: the full LSSVR's split sd (Z-fewer-svs)
        target = full + m
        ng = int(np.argmax(gp <= target)) if (gp <= target).any() else None
        nr = int(sizes[np.argmax(rm <= target)]) if (rm <= target).any() else None
        eq = [s for s in sizes if s < L and s >= 1]
        wins = float(np.mean([gp[s] < rm[list(sizes).index(s)] for s in eq])) if eq else np.nan
        table.append({"data set": name, "seeds": len(g), "full RMSE": full,
                      "margin m (split sd of the full RMSE)": m,
                      "#SV greedy mean to ≤ full + m": ng, "#SV random mean to ≤ full + m": nr,
                      "sizes where greedy mean < random mean": wins,
                      "greedy stopped early (guard)": int((g.stop_reason != "n_support").sum()),
                      "min #SV selected": int(g.n_selected.min())})
        data.append(pd.DataFrame({"data set": name, "size": np.arange(L), "greedy_rmse": gp}))
    place_legends(fig, outside="below")  # legend="best" sat on the greedy curve (issue 41)
    sec.figure(save_figure(fig, pd.concat(data, ignore_index=True), out, f"{KEY}-greedy-random",
                           "Test RMSE against |S|: the greedy path of one rr-lssvr run per seed, random "
                           "support sets of the same sizes, and the full LS-SVM."))
    t = pd.DataFrame(table)
    sec.table(save_table(t, out, f"{KEY}-greedy-table",
                         "SVs the mean paths need to come within m (the full LS-SVM's split-to-split sd of its "
                         "test RMSE, the claims' margin) of the full LS-SVM's mean test RMSE, and the "
                         "fraction of sizes where greedy beat random on average."))


def render(sec, out, records, profile) -> str:
    """Fill the section from the records of :func:`plan`; return the verdict."""
    sec.note("The seed text of Zhao & Sun stops after eq. (11): the update formula, the selection "
             "and stopping rules, the convergence proof and every experiment and table are missing. "
             "The recursion here is derived (see lssvm_analysis.solvers.zhao_sun); no number of the "
             "paper is reproduced, because none is available.")
    sec.h3("Error growth of the recursion")
    g, _ = _growth(sec, out, records.get(f"{KEY}-growth", pd.DataFrame()))
    sec.h3("Conditioning of (7) and the 1e-8 ridge")
    c = _conditioning(sec, out, records.get(f"{KEY}-ridge", pd.DataFrame()))
    r = _ridge(sec, out, records.get(f"{KEY}-ridge", pd.DataFrame()))
    sec.h3("Greedy against random support sets at equal |S|")
    _greedy(sec, out, records)
    return f"Error growth: {g}. Conditioning: {c}. Ridge: {r}."


register_section(KEY, title="Zhao & Sun: reduced and recursive reduced LSSVR", order=40, plan=plan,
                 render=render, replace=True)
