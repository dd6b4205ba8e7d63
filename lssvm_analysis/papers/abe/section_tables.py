"""Section 1 (second half): Abe's Table 1 layout and the primal/dual crossover.

Reads the CV and test-fit records of the Abe section's Table 1 stages and the
"crossover" records (or the asv results, when ``.asv/results`` exists).
"""
from __future__ import annotations

import numpy as np
import pandas as pd

from ...report.util import errors_note, num, ok, span
from ...report.figures import fmt_num, log_axes, new_figure, place_legends, save_figure, save_table
from ...report.html import Section
from ... import datasets as ds
from ...analysis import crossover
from ...experiments.claims.stats import mean_ci
from ...experiments.asv_import import asv_crossover_table

__all__ = ["table1_blocks", "crossover_blocks", "TABLE_METHODS", "choose"]

#: Table 1 columns: (key, solvers, label).  ELS and sparse ELS: PrLS, DuLS in parentheses.
TABLE_METHODS = (("els", ("els-primal", "els-dual"), "ELS"),
                 ("sparse", ("els-primal", "els-dual"), "Sparse ELS"),
                 ("ls", ("lssvm-schur",), "LS SVR"))


def choose(cv: pd.DataFrame, keys=("C", "sigma2", "eta")) -> dict:
    """The grid point with the smallest CV mean absolute error (ties: first in task order).

    Returns ``{}`` when no point has a finite error (every fold broke down).
    """
    if not len(cv) or "cv_mae" not in cv.columns:
        return {}
    ok_ = cv[np.isfinite(pd.to_numeric(cv["cv_mae"], errors="coerce"))]
    if not len(ok_):
        return {}
    best = ok_.loc[ok_["cv_mae"].astype(float).idxmin()]
    return {k: float(best[k]) for k in keys if k in best and pd.notna(best[k])}

_LABELS = {"mackey-glass": "MG.", "boston5": "B. 5", "boston14": "B. 14"}


def _mean_sd(v, digits=3) -> str:
    v = np.asarray(pd.to_numeric(pd.Series(v), errors="coerce"), dtype=float)
    v = v[np.isfinite(v)]
    if not len(v):
        return "—"
    s = fmt_num(v.mean(), digits)
    return s + (f" ± {fmt_num(v.std(ddof=1), 2)}" if len(v) > 1 else "")


def _cell(primal: pd.DataFrame, dual: pd.DataFrame | None, column: str) -> str:
    """'primal (dual)' with '—' for a form that broke down in every split."""
    p_ok = primal[primal.status == "ok"] if len(primal) else primal
    s = _mean_sd(num(p_ok, column)) if len(p_ok) else "—"
    if dual is None:
        return s
    d_ok = dual[dual.status == "ok"] if len(dual) else dual
    d = _mean_sd(num(d_ok, column)) if len(d_ok) else "—"
    failed = len(dual) - len(d_ok)
    if failed and len(d_ok):
        d += f"; {failed}/{len(dual)} —"
    return f"{s} ({d})"


def _method_rows(records, dname, key):
    df = ok(records.get(f"test-{key}-{dname}", pd.DataFrame()))
    if not len(df):
        return None, None
    primal = df[df.solver.isin(["els-primal", "lssvm-schur"])]
    dual = df[df.solver == "els-dual"] if key != "ls" else None
    return primal, dual


def _table1(records, datasets):
    rows, raw = [], []
    for dname, _ in datasets:
        parts = {k: _method_rows(records, dname, k) for k, _, _ in TABLE_METHODS}
        if all(p is None for p, _ in parts.values()):
            continue
        ls_sv = num(parts["ls"][0], "n_support").mean() if parts["ls"][0] is not None else np.nan
        row = {"data": _LABELS.get(dname, dname)}
        for key, _, label in TABLE_METHODS:
            p, d = parts[key]
            if p is None:
                row.update({f"error {label}": "—", f"SVs {label}": "—", f"time {label} [s]": "—"})
                continue
            row[f"error {label}"] = _cell(p, d, "test_mae")
            sv = _mean_sd(num(p, "n_support"), 4)
            if key == "sparse" and np.isfinite(ls_sv):
                sv += f" ({100 * num(p, 'n_support').mean() / ls_sv:.0f}%)"
            row[f"SVs {label}"] = sv
            row[f"time {label} [s]"] = _cell(p, d, "time_fit")
            for _, r in pd.concat([p, d if d is not None else p.iloc[0:0]]).iterrows():
                raw.append({"dataset": dname, "method": key, "solver": r.solver, "seed": r.seed,
                            "status": r.status, "test_mae": r.get("test_mae"),
                            "n_support": r.get("n_support"), "time_fit": r.get("time_fit")})
        rows.append(row)
    return pd.DataFrame(rows), pd.DataFrame(raw)


def _chosen(records, datasets, P):
    rows = []
    for dname, _ in datasets:
        for key, label in (("els", "ELS (PrLS)"), ("sparse", "Sparse (PrLS)"), ("ls", "LS SVR")):
            cv = ok(records.get(f"cv-{key}-{dname}", pd.DataFrame()))
            best = choose(cv) if len(cv) else {}
            best_mae = num(cv, "cv_mae").min() if len(cv) else np.nan
            rows.append({"data": _LABELS.get(dname, dname), "method": label,
                         "C": best.get("C", np.nan), "σ²": best.get("sigma2", np.nan),
                         "η": best.get("eta", np.nan) if key != "ls" else np.nan,
                         "5-fold CV MAE": best_mae, "grid points": len(cv),
                         "folds broken down": int(num(cv, "failed_folds").sum()) if len(cv) else 0})
    return pd.DataFrame(rows)


def _table_verdict(raw: pd.DataFrame) -> str:
    if not len(raw):
        return "Table 1 could not be reproduced (no test records)"
    okr = raw[raw.status == "ok"]
    sv = okr.groupby(["dataset", "method"]).n_support.mean().unstack()
    parts = []
    if {"sparse", "ls"} <= set(sv.columns):
        pct = 100 * sv["sparse"] / sv["ls"]
        parts.append(f"sparse ELS kept {span(pct, '%')} of the LS SVR's support vectors (paper: 43–77%)")
    prim = okr[okr.solver == "els-primal"].set_index(["dataset", "method", "seed"]).test_mae
    dual = okr[okr.solver == "els-dual"].set_index(["dataset", "method", "seed"]).test_mae
    both = pd.concat([prim, dual], axis=1, keys=["p", "d"]).dropna()
    if len(both):
        rel = (both.d - both.p).abs() / both.p
        parts.append(f"DuLS and PrLS test errors differed by {span(rel)} relative where both solved")
    nbd = int(((raw.solver == "els-dual") & (raw.status == "breakdown")).sum())
    parts.append(f"DuLS broke down ('—') in {nbd} of {int((raw.solver == 'els-dual').sum())} test fits")
    t = okr.pivot_table(index=["dataset", "method", "seed"], columns="solver", values="time_fit")
    if {"els-primal", "els-dual"} <= set(t.columns):
        r = (t["els-dual"] / t["els-primal"]).dropna().groupby(level="method").median()
        parts.append("median DuLS/PrLS training-time ratio " + ", ".join(
            f"{m}: {fmt_num(v)}" for m, v in r.items()))
    return "; ".join(parts)


def table1_blocks(sec: Section, out, records, P) -> list[str]:
    """Add Abe's Table 1 (and the chosen hyper-parameters) to ``sec``; return verdict clauses.

    Reads the records of the keys ``cv-<method>-<dataset>`` and ``test-<method>-<dataset>``.
    """

    sec.h3("Abe's Table 1 on the data sets available offline")
    grid = ", ".join(f"{d}: σ² ∈ {list(v)}" for d, v in P.cv_sigma2.items())
    sec.p(f"Protocol as in the paper, with smaller grids to fit the time budget: C and σ² of the ELS "
          f"SVR (PrLS, η = {P.els_eta}) and of the LS SVR by 5-fold cross-validation over C ∈ "
          f"{list(P.cv_C)} and {grid}; C and η of the sparse ELS SVR by 5-fold CV over C and η ∈ "
          f"{list(P.sparse_etas)} with σ² of the ELS SVR; DuLS with the PrLS values. Errors are the "
          f"average absolute test error (Abe's AAAE); Boston uses {P.table_splits} random halves "
          f"(the paper: 100), Mackey-Glass one fixed series. Training time is the wall-clock of one "
          "fit in this run (ratios are meaningful, absolute seconds depend on the machine); DuLS in "
          "parentheses, '—' = Cholesky breakdown.")
    missing = "; ".join(ds.UNAVAILABLE_OFFLINE.values())
    sec.note(f"Not available offline, so not reproduced: {missing}.")
    for key, df in records.items():
        if key.startswith(("cv-", "test-")):
            note = errors_note(df, key)
            if note and "No records" not in note:
                sec.note(note)
    table, raw = _table1(records, P.table_datasets)
    if not len(table):
        sec.note("No Table 1 records.")
        return ["Table 1 could not be reproduced (no records)"]
    sec.table(save_table(table, out, "abe-table1",
                         "Average absolute test error, support vectors and training time (ELS, sparse "
                         "ELS: PrLS, DuLS in parentheses; sparse SVs: % of LS SVR).", data=raw))
    sec.table(save_table(_chosen(records, P.table_datasets, P), out, "abe-table1-parameters",
                         "Hyper-parameters chosen by 5-fold cross-validation."))
    return [_table_verdict(raw)]


# --------------------------------------------------------------------------- #
# crossover
# --------------------------------------------------------------------------- #
def _measured(records):
    asv = asv_crossover_table(records.get("asv"))
    if asv is not None and len(asv):
        return asv, (f"asv results of commit {str(asv['commit_hash'].iloc[0])[:8]} on "
                     f"{asv['machine'].iloc[0]}, imported into the record store")
    df = ok(records.get("crossover", pd.DataFrame()))
    if len(df):
        df = df.rename(columns={"measured_M": "M_measured", "measured_formation": "formation_measured",
                                "time_dual_over_primal": "dual_over_primal"})  # the records' time_* name
        if "formation" not in df.columns and "formation_measured" in df.columns:
            df["formation"] = df["formation_measured"]
    return df, "in-process timing (no asv results found)"


def _curves(df):
    """One float64 curve per (M, formation) when several precisions were measured; the data draws (seeds)
    of a point pooled: the median achieved N/M, the geometric mean of each ratio and, with several
    draws, its 95 % t interval (``dual_over_primal_lo`` / ``_hi``), the interval A-crossover decides on."""
    if "precision" in df.columns and df["precision"].nunique() > 1:
        keep = "float64" if (df["precision"] == "float64").any() else df["precision"].iloc[0]
        df = df[df["precision"] == keep]
    df = df.dropna(subset=["n_over_m", "dual_over_primal"])
    if not len(df) or "target_n_over_m" not in df.columns or df["target_n_over_m"].isna().any():
        return df
    rows = []
    for (M, form, _), g in df.groupby(["M", "formation", "target_n_over_m"]):
        row = {"M": M, "formation": form, "n_over_m": float(g.n_over_m.median()), "draws": len(g)}
        for col in ("dual_over_primal", "time_predicted_dual_over_primal"):
            if col in g.columns and g[col].notna().any():
                m, lo, hi, _ = mean_ci(np.log(pd.to_numeric(g[col], errors="coerce")))
                row.update({col: float(np.exp(m)), f"{col}_lo": float(np.exp(lo)), f"{col}_hi": float(np.exp(hi))})
        rows.append(row)
    return pd.DataFrame(rows)


def crossover_blocks(sec: Section, out, records, P) -> list[str]:
    """Add the primal/dual crossover figure and N*/M table; return verdict clauses.

    The imported asv results (records "asv") are used when they hold the crossover suite, else
    the "crossover" records (in-process timing).  The flop model is evaluated here (arithmetic).
    """

    sec.h3("Primal/dual crossover")
    df, source = _measured(records)
    note = errors_note(records.get("crossover", pd.DataFrame()), "the crossover timing")
    df = _curves(df) if len(df) else df
    if not len(df):
        sec.note(note or "No crossover timings.")
        return ["the crossover could not be measured"]
    sec.p(f"Dual/primal training-time ratio against N/M (source: {source}) beside Abe's §2.4 flop model "
          "(formation + Cholesky + solves; the selection, shared by both forms, is not counted). "
          "N/M is set through η; the achieved N/M is plotted.")
    fig, axs = new_figure(1, 1, width=7.0)
    a = axs[0, 0]
    rows, pts = [], []
    styles = {"blas3": "-", "as-described": "--"}
    for i, M in enumerate(sorted(df["M"].unique())):
        for form, g in df[df["M"] == M].groupby("formation"):
            g = g.sort_values("n_over_m")
            # the formation in the line style *and* the marker's fill (filled: blas3, open: as-described):
            # at legend size a dashed line is one dash beside the marker (issue 41: alike handles)
            a.plot(g.n_over_m, g.dual_over_primal, "o" + styles.get(form, "-."), color=f"C{i}",
                   mfc=f"C{i}" if form == "blas3" else "white", label=f"measured, M={int(M)}, {form}")
            if "dual_over_primal_lo" in g.columns and g.draws.max() > 1:
                a.errorbar(g.n_over_m, g.dual_over_primal, fmt="none", ecolor=f"C{i}", elinewidth=1.0,
                           yerr=[g.dual_over_primal - g.dual_over_primal_lo, g.dual_over_primal_hi - g.dual_over_primal])
            model = crossover.crossover_ratio_model(int(M), np.linspace(0.05, 1.0, 40), formation=form)
            pt = {"M": int(M), "formation": form, "N*/M measured": crossover.crossover_point(g),
                  "N*/M flop model": crossover.crossover_point(model)}
            rate_col = "time_predicted_dual_over_primal"
            if rate_col in g.columns and g[rate_col].notna().any():
                a.plot(g.n_over_m, g.time_predicted_dual_over_primal, "x" + styles.get(form, "-."),
                       color=f"C{i}", alpha=0.6, label=f"rate model, M={int(M)}, {form}")
                pt["N*/M rate model"] = crossover.crossover_point(g, y="time_predicted_dual_over_primal")
            pts.append(pt)
            rows += [g.assign(curve="measured"), model.assign(curve="model")]
    for form in df["formation"].unique():
        model = crossover.crossover_ratio_model(int(df["M"].max()), np.linspace(0.05, 1.0, 40),
                                                formation=form)
        a.plot(model.n_over_m, model.dual_over_primal, styles.get(form, "-."), color="gray", lw=1.2,
               label=f"flop model, {form}")
    a.axhline(1.0, color="black", lw=0.8, label="equal time")
    log_axes(a, x=False)
    a.set_xlabel("N/M (support vectors / training points) [–]")
    a.set_ylabel("dual time / primal time [–]")
    a.legend(fontsize=7, handlelength=4)
    place_legends(fig, outside="right")
    sec.figure(save_figure(fig, pd.concat(rows, ignore_index=True), out, "abe-crossover",
                           "Measured dual/primal time ratio (markers: geometric mean over the data draws, filled for "
                           "the blas3 formation and open for the as-described one; bars: "
                           "its 95 % interval), the flops divided by the kernels' "
                           "rates measured in the same run (crosses) and the flop model alone (grey, "
                           "in the line style of its formation); above 1 the primal form is faster."))
    t = pd.DataFrame(pts)
    sec.table(save_table(t, out, "abe-crossover-points", "Crossover N*/M read off the measurement and "
                                                         "the model (— : the primal form stayed faster)."))
    parts = []
    for form, g in t.groupby("formation"):
        m, f = span(g["N*/M measured"]), span(g["N*/M flop model"])
        r = span(g["N*/M rate model"]) if "N*/M rate model" in g.columns else "—"
        parts.append(f"{form} formation: dual faster from N*/M = {m} measured ({f} flop model, "
                     f"{r} flops / measured rates)"
                     if m != "—" else f"{form} formation: the primal form was faster at every N/M "
                     f"measured (flop model: N*/M = {f}; flops / measured rates: {r})")
    if "N*/M rate model" in t.columns:
        parts.append("where the rate model tracks the measurement and the flop model does not, the "
                     "crossover is set by the kernels' rates (implementation), not by the arithmetic")
    return ["crossover - " + "; ".join(parts)]
