"""Section 3: precisions side by side - correct digits against condition, breakdown maps."""
from __future__ import annotations

import math

import numpy as np
import pandas as pd

from ..analysis import conditioning as cond
from ._util import errors_note, num, ok, span
from .figures import (fmt_num, log_axes, new_figure, precision_color, precision_rank, save_figure,
                      save_table)
from .html import Section

__all__ = ["precision_section"]


def plt_handle(marker, color, label):
    from matplotlib.lines import Line2D

    return Line2D([], [], marker=marker, color=color, ls="none", label=label)

_OUTCOME_STYLE = {"ok": ("o", "tab:green"), "large-error": ("D", "tab:orange"),
                  "breakdown": ("x", "tab:red"), "not-converged": ("s", "tab:purple"),
                  "error": ("+", "black")}


def _digits(sec, out, acc):
    rows = ok(acc)
    rows = rows[np.isfinite(num(rows, "correct_digits"))] if len(rows) else rows
    if not len(rows):
        sec.note(errors_note(acc, "the accuracy sweep") or "No accuracy records with a reference.")
        return "no correct-digit measurements"
    solvers = list(dict.fromkeys(rows.solver))
    ncol = min(3, len(solvers))
    nrow = math.ceil(len(solvers) / ncol)
    fig, axs = new_figure(ncol, nrow, width=4.3, height=3.6)
    flat = axs.ravel()
    for a, s in zip(flat, solvers):
        g = rows[rows.solver == s]
        for prec in sorted(g.precision.unique(), key=precision_rank):
            d = g[g.precision == prec].sort_values("condition")
            c = precision_color(prec)
            a.plot(num(d, "condition"), num(d, "correct_digits"), "o", ms=4, color=c, label=prec)
            u = float(num(d, "unit_roundoff").iloc[0])
            k = np.logspace(0, 20, 50)
            a.plot(k, np.clip(-np.log10(k * u), 0, None), "-", lw=0.7, color=c)
        log_axes(a, y=False)
        a.set_title(s, fontsize=10)
        a.set_xlabel("condition number of the solved system κ [–]")
        a.set_ylabel("correct digits −log₁₀(forward error) [–]")
        a.legend(fontsize=7)
    for a in flat[len(solvers):]:
        a.set_visible(False)
    sec.figure(save_figure(fig, rows, out, "precision-digits",
                           "Correct digits of the model against the condition number of the system each "
                           "solver formed, per precision (markers), with the rule of thumb "
                           "−log₁₀(κ·u) (lines)."))
    ku = num(rows, "condition") * num(rows, "unit_roundoff")
    r = rows.assign(excess=num(rows, "correct_digits") + np.log10(ku))
    med = r.groupby("precision").correct_digits.median().sort_index(key=lambda s: s.map(precision_rank))
    return ("median correct digits " + ", ".join(f"{p} {fmt_num(v, 3)}" for p, v in med.items())
            + f"; measured digits minus −log₁₀(κu) span {span(r.excess)} (positive: better than the rule)")


def _outcomes(rows: pd.DataFrame) -> pd.Series:
    return pd.Series([cond.classify_outcome(s, fe, u) for s, fe, u in
                      zip(rows.status, num(rows, "forward_error"), num(rows, "unit_roundoff"))],
                     index=rows.index)


def _maps(sec, out, maps, P):
    rows = ok(maps)
    if not len(rows) or not {"solver", "precision", "C", "sigma2"} <= set(rows.columns):
        sec.note(errors_note(maps, "the breakdown maps") or "No map records.")
        return "no breakdown maps"
    note = errors_note(maps, "the breakdown maps")
    if note:
        sec.note(note)
    rows = rows.copy()
    rows["outcome"] = _outcomes(rows)
    solvers = list(dict.fromkeys(rows.solver))
    precs = sorted(rows.precision.unique(), key=precision_rank)
    fig, axs = new_figure(len(solvers), len(precs), width=3.4, height=3.0)
    for i, prec in enumerate(precs):
        for j, s in enumerate(solvers):
            a = axs[i, j]
            g = rows[(rows.solver == s) & (rows.precision == prec)]
            for oc, (mk, c) in _OUTCOME_STYLE.items():
                d = g[g.outcome == oc]
                if len(d):
                    a.plot(d.C, d.sigma2, mk, color=c, ms=6, label=oc)
            log_axes(a)
            a.set_title(f"{s}, {prec}", fontsize=9)
            a.set_xlabel("C [–]")
            a.set_ylabel("σ² [(input units)²]")
            a.margins(0.15)
    handles = [plt_handle(mk, c, oc) for oc, (mk, c) in _OUTCOME_STYLE.items()
               if oc in set(rows.outcome)]
    fig.legend(handles=handles, loc="outside lower center", ncol=len(handles), fontsize=8)
    sec.figure(save_figure(fig, rows, out, "precision-breakdown-maps",
                           f"Outcome over the (C, σ²) plane on Mackey-Glass (M={P.map_M}, η = 0.1 for the "
                           "ELS solvers): ok, breakdown, or large error (forward error > √u, fewer than "
                           "half the precision's digits correct)."))
    counts = rows.groupby(["solver", "precision", "outcome"]).size().unstack(fill_value=0).reset_index()
    sec.table(save_table(counts, out, "precision-breakdown-counts",
                         "Number of (C, σ²) points per outcome, solver and precision."))
    bd = rows[rows.outcome == "breakdown"]
    if not len(bd):
        return "no solver broke down on the (C, σ²) grid"
    first = bd.groupby(["solver", "precision"]).C.min()
    return "smallest C with a breakdown: " + ", ".join(f"{s} {p} {fmt_num(c)}" for (s, p), c in first.items())


def precision_section(out, records, P) -> Section:
    """Section 3 from the records "accuracy" and "maps" (figures written to ``out``)."""
    sec = Section("3. Precisions side by side", "precisions")
    sec.p("Every solver that forms a single linear system, in float32, float64, longdouble (x87, 64-bit "
          "significand) and mpmath, on the same sinc problem over γ; the number of correct digits of the "
          "model against the condition number of the system the solver solved. Below: the outcome of "
          "each fit over the (C, σ²) plane.")
    clauses = [_digits(sec, out, records.get("accuracy", pd.DataFrame()))]
    sec.h3("Breakdown maps")
    clauses.append(_maps(sec, out, records.get("maps", pd.DataFrame()), P))
    sec.verdict = "; ".join(clauses) + "."
    return sec
