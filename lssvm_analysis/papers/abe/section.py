"""Section 1: Abe's primal vs dual ELS SVR - spectra, conditioning, breakdown, Table 1, crossover.

The section's settings per profile (:data:`SETTINGS`), its sweeps
(:func:`plan`: "abe-spectrum", "breakdown", "primal-dual", the Table 1 CV
stages and test fits, the in-process crossover timing and the imported asv
results) and its page (:func:`render`).  Rendering computes nothing
expensive: the spectra for every C follow from the stored singular values by
the exact shift of :mod:`lssvm_analysis.analysis.conditioning`.
"""
from __future__ import annotations

from dataclasses import dataclass, field, replace
from types import SimpleNamespace

import numpy as np
import pandas as pd
from matplotlib.lines import Line2D

from ...analysis import conditioning as cond
from ...report.util import errors_note, no_records, num, ok, span
from ...report.figures import (attribute_color, breakdown_style, fmt_num, log_axes, new_figure, overlay_width,
                      place_legends, precision_color, precision_rank, precision_style, save_figure,
                      save_table, series_style)
from ...report.html import Section
from ...arith.precision import get_precision, precisions
from ...experiments import SweepSpec
from ...experiments.asv_import import ASV_SWEEP
from ...experiments.arrays import loads
from ...solvers import get_solver
from ...report.plan import decades, options
from ...report.protocols import PaperCount, register_paper_counts
from ...report.registry import register_section
from .section_tables import TABLE_METHODS, choose, crossover_blocks, table1_blocks

__all__ = ["AbeSettings", "SETTINGS", "abe_conditioning_blocks", "plan", "render"]


def _formations():
    """Abe's primal formations: the registered variants of els-primal's ``formation``."""
    return tuple(v.value for v in get_solver("els-primal").variant_options().get("formation", ()))


@dataclass(frozen=True)
class AbeSettings:
    """Sizes and grids of Abe's section for one profile.

    ``abe_*``: the Mackey-Glass conditioning study (M points, sigma2, the eta
    and C grids); ``mp_max_n``: largest N checked in mp30; ``breakdown_*``,
    ``bisect``: the breakdown scans; ``pd_*``: primal-dual agreement;
    ``table_*``, ``cv_*``, ``els_eta``, ``sparse_etas``: Table 1 (data sets with
    loader keywords, random splits, CV grids); ``crossover_*``: in-process timing.
    """

    abe_M: int = 200
    abe_sigma2: float = 1.0
    abe_etas: tuple = (1e-4, 1e-3, 1e-2, 0.1)
    abe_C: tuple = decades(1e-2, 1e14)
    mp_max_n: int = 200  # = abe_M: every N the float64 SVD shows is checked in mp30 (FLINT's eig)
    breakdown_etas: tuple = (1e-3, 0.1)
    # every precision, mp50 included: at C <= 1e30 mp50 never breaks down, so its 4 tasks factor
    # at all 65 grid C; on an ElsPath (selection and C-independent matrix once, one Cholesky per
    # C) they take 8.4-10.3 CPU-s together at M = 200, load 7-12 (fresh fits: > 125; issue 24)
    breakdown_precisions: tuple = field(default_factory=lambda: tuple(precisions()))
    bisect: int = 8
    pd_C: tuple = decades(1e-2, 1e14, 2)
    # the hardware precisions and mp50: its 18 tasks (two els fits each at M = 200, one path per
    # (eta, process)) take 7.2-8.2 CPU-s at load 7-12 (fresh fits: 54-56; issue 24)
    pd_precisions: tuple = field(default_factory=lambda: tuple(precisions(hardware=True))
                                 + tuple(precisions(native=False)))
    table_datasets: tuple = (("mackey-glass", (("n_train", 500), ("n_test", 500))),
                             ("boston5", ()), ("boston14", ()))
    table_splits: int = 10
    cv_C: tuple = (1e1, 1e3, 1e5, 1e7)
    cv_sigma2: dict = field(default_factory=lambda: {"mackey-glass": (0.1, 0.3, 1.0),
                                                     "boston5": (5.0, 20.0, 80.0),
                                                     "boston14": (5.0, 20.0, 80.0)})
    els_eta: float = 1e-4
    sparse_etas: tuple = (1e-3, 1e-2, 5e-2)
    crossover_M: int = 600
    crossover_ratios: tuple = (0.1, 0.2, 0.3, 0.5, 0.7, 1.0)
    crossover_formations: tuple = field(default_factory=_formations)
    crossover_repeats: int = 3
    # independent data draws per crossover point (seeds of crossover_data): A-crossover's interval per point;
    # 3 in the default (each draw's 12 points ~4.3 CPU-s at M = 600, the report's budget), 10 in "full"
    crossover_seeds: int = 3
    # Mackey-Glass series in Table 1 (Abe: one); more series (independent stretches of the attractor, one per
    # seed) give the MG comparisons of the ledger an interval (a single series decides nothing)
    mg_series: int = 1
    # A-cost-orders: (M, N) points timed at fixed N = cost_orders_N and at N = M, one spec per M (empty: none)
    cost_orders_M: tuple = ()
    cost_orders_N: int = 200
    # A-cost-orders decided by operation counts (exact, ~0.5 CPU-s): orders over one decade, H of N columns
    op_count_M: tuple = (10, 25, 50, 100)
    op_count_N: int = 10


#: Settings by profile.  "full": Abe's 100 Boston splits, finer CV grids and 10 Mackey-Glass series.
SETTINGS = {
    "default": AbeSettings(),
    "quick": AbeSettings(
        abe_M=100, abe_etas=(1e-3, 1e-2, 0.1), abe_C=decades(1e-2, 1e14, 2), mp_max_n=100,
        breakdown_etas=(0.1,), bisect=4, pd_C=decades(1e-2, 1e14, 4),
        breakdown_precisions=tuple(precisions(native=True)), pd_precisions=tuple(precisions(hardware=True)),
        table_datasets=(("mackey-glass", (("n_train", 150), ("n_test", 150))), ("boston5", ()),
                        ("boston14", ())),
        table_splits=1, cv_C=(1e2, 1e5),
        cv_sigma2={"mackey-glass": (0.1, 1.0), "boston5": (10.0, 50.0), "boston14": (10.0, 50.0)},
        sparse_etas=(1e-2, 5e-2), crossover_M=300, crossover_ratios=(0.1, 0.3, 0.6, 1.0),
        crossover_formations=("blas3",), crossover_repeats=1, crossover_seeds=2),
    # cost orders: M = 200, 600, 2000 at N = M and N = 200 (about 35 CPU-s, 25 of them at M = 2000)
    "full": AbeSettings(table_splits=100, mg_series=1, cost_orders_M=(200, 600, 2000), cv_C=decades(1e0, 1e8),
                        cv_sigma2={"mackey-glass": (0.03, 0.1, 0.3, 1.0, 3.0),
                                   "boston5": (2.0, 5.0, 10.0, 20.0, 40.0, 80.0),
                                   "boston14": (2.0, 5.0, 10.0, 20.0, 40.0, 80.0)},
                        crossover_M=1000, crossover_seeds=10),
}



def _features(row) -> SimpleNamespace:
    """A duck-typed EmpiricalFeatures rebuilt from a stored abe-spectrum row."""
    sv, svc = loads(row["sv"]), loads(row["sv_centred"])
    return SimpleNamespace(M=int(row["M"]), N=int(row["N"]), sv=sv, sv_centred=svc)


def _spectrum_rows(spec: pd.DataFrame):
    rows = ok(spec)
    if not len(rows) or not {"sv", "sv_centred", "eta", "M", "N"} <= set(rows.columns):
        return []
    return [r for _, r in rows.sort_values("eta").iterrows() if isinstance(r.get("sv"), str)]


def _spectra_figure(sec, out, rows, P):
    row = max(rows, key=lambda r: (int(r["N"]) < int(r["M"]), float(r["eta"])))
    f = _features(row)
    Cs = [1e0, 1e6, 1e12]
    data = cond.abe_spectra(f, Cs)
    data["eta"] = float(row["eta"])
    fig, ax = new_figure(2, 1, width=5.6)
    u = get_precision("float64").unit_roundoff
    for k, (name, title) in enumerate((("dual", "Ω_e = H Hᵀ + I/C (M×M), eq. 11"),
                                       ("primal", "H_cᵀH_c + I/C (N×N), eq. 7"))):
        a = ax[0, k]
        for C, style in zip(Cs, ("-", "--", ":")):
            d = data[(data.matrix == name) & (data.C == C)]
            a.plot(d["index"] + 1, d["eigenvalue"], style, label=f"C = {C:.0e}")
        lam_max = data.loc[data.matrix == name, "eigenvalue"].max()
        n = f.M if name == "dual" else f.N
        a.axhline(n * u * lam_max, color="gray", lw=0.8, label="float64 resolution n·u·λ_max")
        log_axes(a, x=False)
        a.set_xlabel("eigenvalue index i (ascending) [–]")
        a.set_ylabel("eigenvalue λ_i [–]")
        a.set_title(title, fontsize=10)
        a.legend(fontsize=8)
    # below the panels: the spectra fill each panel corner to corner, and the inner spot placement
    # depends on the libraries (at the declared minimum versions a curve ran under every inner spot)
    place_legends(fig, outside="below", inside=False)
    sec.figure(save_figure(fig, data, out, "abe-spectra",
                           f"Spectra of the dual and primal coefficient matrices on Mackey-Glass "
                           f"(M={f.M}, σ²={P.abe_sigma2}, η={fmt_num(row['eta'])}, N={f.N}) for three C; "
                           "from one SVD of H_m and of H_c, shifted by 1/C (exact)."))
    return f


def _condition_figure(sec, out, rows, bd, P):
    frames = []
    for r in rows:
        f = _features(r)
        c = cond.abe_condition(f, list(P.abe_C))
        c["eta"], c["N"] = float(r["eta"]), int(r["N"])
        # cond(H_c)^2 from the float64 SVD is meaningful only while sigma_min > N u sigma_max;
        # below that it is replaced by the mp30 value when the mp check ran, else flagged
        svc = f.sv_centred
        c["limit_source"] = "float64 SVD" if svc[-1] > f.N * get_precision("float64").unit_roundoff * svc[0] else "unresolved"
        lam_mp = float(r.get("mp_lambda_min_centred", np.nan))
        if bool(r.get("mp_checked")) and lam_mp > 0:
            c.loc[c.matrix == "primal", "cond_limit"] = svc[0] ** 2 / lam_mp
            c["limit_source"] = "mp30"
        frames.append(c)
    data = pd.concat(frames, ignore_index=True)
    features = {float(r["eta"]): _features(r) for r in rows}
    fig, axs = new_figure(1, 1, width=7.5, height=4.8)
    a = axs[0, 0]
    meas = ok(bd)
    meas = meas[(meas.solver == "els-dual") & (num(meas, "C_star") > 0)] if len(meas) else meas
    etas = sorted(data.eta.unique())
    plotted = [data.assign(on_grid=True)]
    key = []
    for i, eta in enumerate(etas):  # η by colour (none a precision's) and N; matrix by line style
        g = data[data.eta == eta]
        d, p = g[g.matrix == "dual"], g[g.matrix == "primal"]
        N = int(g.N.iloc[0])
        # a measured breakdown past the grid's ends: the curve runs on to it (the same exact shift
        # of the stored spectrum), so no marker floats beyond the end of its curve
        stars = num(meas[num(meas, "eta") == eta], "C_star") if len(meas) else pd.Series(dtype=float)
        beyond = sorted({float(c) for c in stars if c > d.C.max() or c < d.C.min()})
        if beyond:
            ext = cond.abe_condition(features[eta], beyond).assign(eta=eta, N=N, on_grid=False)
            plotted.append(ext)
            d = pd.concat([d, ext[ext.matrix == "dual"]]).sort_values("C")
        a.plot(d.C, d.cond, "-", color=attribute_color(i), label="_nolegend_")
        a.plot(p.C, p.cond, "--", color=attribute_color(i), label="_nolegend_")
        key.append(Line2D([], [], color=attribute_color(i), lw=2.5, label=f"η={fmt_num(eta)} (N={N})"))
    # one legend entry per η (its colour) and per matrix (its line style), not one per (η, matrix): the
    # key was 14 entries (issue 41); 1/u is labelled on its line, in the precision's colour
    key += [Line2D([], [], color="0.3", ls="-", label="Ω_e (dual)"),
            Line2D([], [], color="0.3", ls="--", label="primal (7)")]
    for name, u in ((n, get_precision(n).unit_roundoff) for n in precisions(native=True)):
        a.axhline(1 / u, color=precision_color(name), lw=0.8, ls=":", label="_nolegend_")
        a.text(0.01, 1 / u, f"1/u of {name}", transform=a.get_yaxis_transform(), color=precision_color(name),
               fontsize=8, ha="left", va="bottom")
    seen = set()
    for _, r in meas.sort_values("precision", key=lambda s: s.map(precision_rank)).iterrows():
        eta, prec = float(r["eta"]), str(r["precision"])
        if eta in features:  # on its η's Ω_e curve: κ₂ at the measured C itself (the exact shift)
            k = float(cond.abe_condition(features[eta], [float(r["C_star"])]).query("matrix == 'dual'").cond.iloc[0])
            a.plot([r["C_star"]], [k], **breakdown_style(prec), label="_nolegend_")
            if prec not in seen:
                key.append(Line2D([], [], **breakdown_style(prec), label=f"DuLS breakdown, {prec}"))
            seen.add(prec)
    log_axes(a)
    a.set_xlabel("margin parameter C [–]")
    a.set_ylabel("2-norm condition number κ₂ [–]")
    fig.legend(handles=key, loc="outside right upper", fontsize=8)  # beside the axes: it hides no curve
    sec.figure(save_figure(fig, pd.concat(plotted, ignore_index=True), out, "abe-condition",
                           "κ₂ of Ω_e (solid) and of the primal matrix (dashed) against C, one colour per η, "
                           "with 1/u of each precision (dotted, in the precision's colour) and the measured "
                           "DuLS breakdown points (filled crosses in the precision's colour, on the κ₂ curve "
                           "of Ω_e of their η at the measured C, for the float64 selection; a float32 "
                           "selection may keep other columns). Where a breakdown lies past the C grid, the "
                           "Ω_e curve runs on to it (rows with on_grid = False in the CSV)."), key=True)
    return data


def _breakdown_table(sec, out, bd):
    rows = ok(bd)
    if no_records(sec, rows, bd, "the breakdown scans", "No breakdown scans were recorded."):
        return None
    t = rows.copy()
    t["ratio"] = num(t, "C_star") / num(t, "pred_C_star").replace(np.inf, np.nan)
    t["cn_measured"] = 1.0 / t["ratio"]
    t["ratio_stat"] = num(t, "C_star") / num(t, "pred_C_stat").replace(np.inf, np.nan)
    t = t.sort_values(["solver", "eta", "precision"], key=lambda s: s.map(precision_rank)
                      if s.name == "precision" else s)
    show = pd.DataFrame({
        "solver": t.solver, "precision": t.precision, "η": t.eta, "N": t.N, "M": t.M,
        "predicted C* (κ₂·u = 1)": t.pred_C_star, "C_safe (Thm 10.7)": t.pred_C_safe,
        "measured C*": t.C_star, "measured / predicted": t.ratio,
        "statistical estimate": num(t, "pred_C_stat"), "measured / statistical": t.ratio_stat,
        "step (0-based)": num(t, "step").where(num(t, "step") >= 0, np.nan), "pivot": t["pivot"]})
    sec.table(save_table(show, out, "abe-breakdown",
                         "Predicted against measured Cholesky breakdown C per solver, precision and η "
                         "('—': no breakdown up to C = 1e30).", data=t))
    return t


def _breakdown_verdict(t) -> str:
    if t is None or not len(t):
        return "No breakdown could be measured."
    dual = t[(t.solver == "els-dual") & np.isfinite(t.ratio)]
    primal = t[t.solver == "els-primal"]
    p_found = primal[np.isfinite(num(primal, "C_star"))]
    s = (f"DuLS broke down in {len(dual)} of {len(t[t.solver == 'els-dual'])} scans, at a C within a "
         f"factor {span(dual.ratio)} of the prediction 1/(u‖Ω_e‖₂) (so the effective constant c·n = "
         f"{span(dual.cn_measured)}, not the worst-case n²; within {span(dual.ratio_stat)} of the "
         f"statistical estimate 1/(2√m·u·max Ω_ii)), and never below the guaranteed-safe C of "
         f"Demmel's criterion" if len(dual) else "DuLS did not break down on the grid")
    if len(dual) and (num(dual, "C_star") < num(dual, "pred_C_safe")).any():
        s = s.replace("and never below", "but sometimes below")
    if len(p_found):
        etas = ", ".join(sorted({fmt_num(e) for e in p_found.eta}))
        s += (f"; PrLS broke down only for η ∈ {{{etas}}} (at C ≥ {fmt_num(num(p_found, 'C_star').min())}), "
              "where cond(H_c)² itself exceeds 1/u")
    else:
        s += "; PrLS never broke down up to C = 1e30"
    found = t.groupby("precision")["C_star"].apply(lambda c: bool(np.isfinite(num(pd.DataFrame({"C_star": c}),
                                                                                  "C_star")).any()))
    never = sorted((p for p, hit in found.items() if not hit), key=precision_rank)
    if never:
        s += f"; in {', '.join(never)} neither form broke down up to C = 1e30"
    return s + "."


def _saturation_figure(sec, out, data):
    fig, axs = new_figure(1, 1, width=7.0)
    a = axs[0, 0]
    for i, (eta, g) in enumerate(data[data.matrix == "primal"].groupby("eta")):
        a.plot(g.C, g.cond, "-", color=f"C{i}", label=f"η={fmt_num(eta)}: cond of (7), N={int(g.N.iloc[0])}")
        src = g.limit_source.iloc[0]
        txt = (f"cond(H_c)² = {fmt_num(g.cond_limit.iloc[0])} ({src})" if src != "unresolved" else
               "cond(H_c)² ≥ 1/(N·u)² (below float64 SVD resolution)")
        a.axhline(float(g.cond_limit.iloc[0]), color=f"C{i}", ls="--", lw=0.8,
                  label=f"η={fmt_num(eta)}: {txt}")
    log_axes(a)
    a.set_xlabel("margin parameter C [–]")
    a.set_ylabel("κ₂ of the primal matrix [–]")
    a.legend(fontsize=7)
    sub = data[data.matrix == "primal"]
    sec.figure(save_figure(fig, sub, out, "abe-saturation",
                           "The primal matrix's condition saturates at cond(H_c)² (dashed) as C grows; η "
                           "sets the level through the support vectors it keeps."))


def _saturation_verdict(data) -> str:
    sat = data[data.matrix == "primal"]
    last = sat[sat.C == sat.C.max()]
    good = last[last.cond_limit * get_precision("float64").unit_roundoff < 1]
    bad = last[last.cond_limit * get_precision("float64").unit_roundoff >= 1]
    s = "the primal condition number saturates at cond(H_c)²"
    if len(good):
        s += (f" (reached to a factor {span(good.cond / good.cond_limit)} at C = {fmt_num(sat.C.max())} "
              f"for η ∈ {{{', '.join(fmt_num(e) for e in good.eta)}}}, limit {span(good.cond_limit)})")
    if len(bad):
        known = bad[bad.limit_source != "unresolved"]
        s += (f", but for η ∈ {{{', '.join(fmt_num(e) for e in bad.eta)}}} cond(H_c)² ≥ 1/u of float64"
              + (f" ({span(known.cond_limit)} where resolved)" if len(known) else "")
              + ": there the primal form loses its advantage")
    return s


def _mp_table(sec, out, rows):
    t = pd.DataFrame([{
        "η": float(r["eta"]), "N": int(r["N"]),
        "cond(H_c)² (float64 SVD)": (loads(r["sv_centred"])[0] / loads(r["sv_centred"])[-1]) ** 2,
        "cond(H_c)² (mp30)": (loads(r["sv_centred"])[0] ** 2 / float(r.get("mp_lambda_min_centred")))
        if r.get("mp_checked") else np.nan,
        "small end below float64 resolution": bool(r.get("mp_needed")),
        "checked in mp30": bool(r.get("mp_checked")),
        "max error / SVD bound": r.get("mp_max_ratio", np.nan),
        "eigenvalues below resolution": r.get("mp_below_resolution", np.nan),
        "note": str(r.get("mp_note") or "")} for r in rows])
    sec.table(save_table(t, out, "abe-mp-check",
                         "Check of the float64 (SVD) spectra of H_mᵀH_m and H_cᵀH_c against mp30 "
                         "eigvalsh where their small end lies below float64 resolution."))
    return t


def _primal_dual_figure(sec, out, pdr):
    rows = ok(pdr)
    if no_records(sec, rows, pdr, "primal–dual agreement", "No primal–dual records."):
        return "no primal–dual comparison was recorded"
    fig, axs = new_figure(1, 1, width=7.0)
    a = axs[0, 0]
    etas = sorted(rows.eta.unique())
    zero = set()   # precisions whose every difference is 0 once rounded to float64: off a log axis
    broke = set()
    order = sorted(rows.groupby(["precision", "eta"]), key=lambda kv: (precision_rank(kv[0][0]), kv[0][1]))
    for (prec, eta), g in order:
        g = g.sort_values("C")
        i = etas.index(eta)  # η by line style (each wider than the next), precision by its colour and marker
        if (num(g, "pred_rel_diff") == 0).all():
            zero.add(prec)
            continue
        a.plot(g.C, g.pred_rel_diff.astype(float), ls=series_style(i)[0], lw=overlay_width(i, len(etas)),
               **{**precision_style(prec), "ms": 5}, label=f"{prec}, η={fmt_num(eta)}")
        bd = g[g.status_dual != "ok"]
        if len(bd):  # one key entry per precision: the η of each is in the breakdown table
            a.plot(bd.C, np.full(len(bd), 1.0), **breakdown_style(prec),
                   label="_nolegend_" if prec in broke else f"DuLS breakdown, {prec}")
            broke.add(prec)
    log_axes(a)
    a.set_xlabel("margin parameter C [–]")
    a.set_ylabel("max|f_primal − f_dual| / max|f_primal|\n(test set) [–]")
    a.legend(fontsize=7)
    place_legends(fig)
    sec.figure(save_figure(fig, rows, out, "abe-primal-dual",
                           "Agreement of PrLS and DuLS predictions against C, precision by its colour and "
                           "marker, η by line style (filled crosses at 1: DuLS broke down, no model, at that C "
                           "for one of the η; the breakdown table gives which)."
                           + (f" Not drawn: {', '.join(sorted(zero, key=precision_rank))}, whose "
                              "predictions agree in every float64 digit at every C (difference 0)."
                              if zero else "")))
    both = rows[(rows.status_primal == "ok") & (rows.status_dual == "ok")]
    first_bd = rows[rows.status_dual != "ok"]
    by_prec = [(f"{span(g.pred_rel_diff)} in {prec}" if num(g, "pred_rel_diff").max() > 0 else
                f"every float64 digit in {prec} (difference 0 once rounded, off the log axis)")
               for prec, g in sorted(both.groupby("precision"), key=lambda kv: precision_rank(kv[0]))]
    s = "where both forms solved, their test predictions agreed (relative, worst at the largest C) to " \
        + "; ".join(by_prec)
    if len(first_bd):
        s += f"; DuLS gave no model from C = {fmt_num(first_bd.C.min())} on in some precision"
    return s


def abe_conditioning_blocks(sec: Section, out, records, P) -> list[str]:
    """Add the conditioning part of Section 1; return verdict clauses."""
    verdict = []
    spec = records.get("abe-spectrum", pd.DataFrame())
    bd = records.get("breakdown", pd.DataFrame())
    sec.h3("Spectra and condition numbers against C")
    sec.p("Ω_e has rank N at C = ∞ (Abe §2.4); for N < M its M − N smallest eigenvalues are exactly "
          "1/C, so κ₂(Ω_e) ≈ C‖Ω_e‖₂ grows without bound, while the primal matrix of (7) is "
          "H_cᵀH_c + I/C and its condition number saturates at cond(H_c)². Both spectra come from one "
          "SVD of H_m and of H_c (the shift by 1/C is exact); the mp check below covers the cases "
          "whose small end lies below float64 resolution.")
    rows = _spectrum_rows(spec)
    note = errors_note(spec, "the spectra")
    if note:
        sec.note(note)
    if not rows:
        return ["no spectra were recorded"]
    f = _spectra_figure(sec, out, rows, P)
    data = _condition_figure(sec, out, rows, bd, P)
    verdict.append(f"λ_min(Ω_e) = 1/C exactly for N < M (here N={f.N} of M={f.M} at the plotted η)")
    sec.h3("Predicted against measured breakdown")
    sec.p("A Cholesky of Ω_e must fail once its trailing pivots, 1/C in exact arithmetic, drown in the "
          "rounding error of the factorization, whose size is the backward error c·n·u‖Ω_e‖₂. We predict "
          "C* = 1/(u‖Ω_e‖₂) (c·n = 1: the rule κ₂·u = 1; the worst-case bound has c·n ≈ n²) and scan C "
          "on a log grid (2 points per decade) refined by bisection in log C. The statistical estimate "
          "1/(2√m·u·max_i Ω_ii) models the m eigenvalues lost in the noise as a trailing block perturbed "
          "by rounding errors of the size of the entries with random signs (semicircle law): it explains "
          "why the measured c·n is below 1 and varies with ‖Ω_e‖₂/max Ω_ii. C_safe is where Demmel's "
          "criterion (Higham, Thm 10.7) guarantees success. The recorded pivot is the value the "
          "factorization rejected (for LAPACK precisions, the one potrf leaves on the diagonal).")
    t = _breakdown_table(sec, out, bd)
    verdict.append(_breakdown_verdict(t).rstrip("."))
    sec.h3("Saturation of the primal matrix's condition number")
    _saturation_figure(sec, out, data)
    mp = _mp_table(sec, out, rows)
    verdict.append(_saturation_verdict(data))
    checked = mp[mp["checked in mp30"]]
    if len(checked):
        verdict.append(f"the SVD spectra matched mp30 within {span(checked['max error / SVD bound'])} of "
                       "their error bound")
    sec.h3("Primal–dual agreement against C")
    verdict.append(_primal_dual_figure(sec, out, records.get("primal-dual", pd.DataFrame())))
    return verdict


# --------------------------------------------------------------------------- #
# the section's sweeps and page
# --------------------------------------------------------------------------- #
def _mg(n):
    return ("mackey-glass", {"n_train": n, "n_test": n})


def _independent(P: AbeSettings, profile: str) -> dict:
    mg = [_mg(P.abe_M)]
    name = f"{profile}-abe"
    return {
        "abe-spectrum": SweepSpec(f"{name}-spectrum", kind="abe-spectrum", datasets=mg,
                                  grid={"sigma2": [P.abe_sigma2], "eta": list(P.abe_etas)},
                                  options=options(mp_max_n=P.mp_max_n)),
        "breakdown": SweepSpec(f"{name}-breakdown", kind="breakdown-scan",
                               solvers=["els-dual", "els-primal"],
                               precisions=list(P.breakdown_precisions), datasets=mg,
                               grid={"sigma2": [P.abe_sigma2], "eta": list(P.breakdown_etas)},
                               options=options(bisect=P.bisect, C_max=1e30)),
        "primal-dual": SweepSpec(f"{name}-primal-dual", kind="primal-dual",
                                 precisions=list(P.pd_precisions), datasets=mg,
                                 grid={"C": list(P.pd_C), "sigma2": [P.abe_sigma2],
                                       "eta": list(P.breakdown_etas)}, options=options()),
        "crossover": SweepSpec(f"{name}-crossover", kind="crossover-timing", precisions=["float64"],
                               seeds=list(range(P.crossover_seeds)),
                               grid={"M": [P.crossover_M], "ratio": list(P.crossover_ratios),
                                     "formation": list(P.crossover_formations)},
                               options=options(repeats=P.crossover_repeats)),
        "asv": ASV_SWEEP,
        "op-counts": SweepSpec(f"{name}-op-counts", kind="op-count", grid={"M": list(P.op_count_M)},
                               options=options(N=P.op_count_N)),
        **{f"cost-orders-{M}": SweepSpec(f"{name}-cost-orders-{M}", kind="crossover-timing", precisions=["float64"],
                                         grid={"M": [M], "ratio": sorted({1.0, P.cost_orders_N / M}),
                                               "formation": ["blas3"]},
                                         options=options(repeats=P.crossover_repeats))
           for M in P.cost_orders_M},
    }


def _cv_spec(P, profile, name, dname, dkw, solver, grid):
    return SweepSpec(f"{profile}-abe-cv-{name}-{dname}", kind="cv", solvers=[solver],
                     precisions=["float64"], datasets=[(dname, dict(dkw))], grid=grid, seeds=[0],
                     options=options(folds=5))


def _table1(P: AbeSettings, profile: str, run) -> dict:
    """The two CV stages (run here: the second depends on the first) and the test-fit specs."""
    out = {}
    for dname, dkw in P.table_datasets:
        s2 = list(P.cv_sigma2[dname])
        els = _cv_spec(P, profile, "els", dname, dkw, "els-primal",
                       {"C": list(P.cv_C), "sigma2": s2, "eta": [P.els_eta]})
        ls = _cv_spec(P, profile, "ls", dname, dkw, "lssvm-schur", {"C": list(P.cv_C), "sigma2": s2})
        best_els = choose(run(els)) or {"C": P.cv_C[0], "sigma2": s2[0], "eta": P.els_eta}
        best_ls = choose(run(ls)) or {"C": P.cv_C[0], "sigma2": s2[0]}
        sparse = _cv_spec(P, profile, "sparse", dname, dkw, "els-primal",
                          {"C": list(P.cv_C), "sigma2": [best_els["sigma2"]], "eta": list(P.sparse_etas)})
        best_sp = choose(run(sparse)) or {"C": P.cv_C[0], "sigma2": best_els["sigma2"],
                                          "eta": P.sparse_etas[0]}
        out.update({f"cv-els-{dname}": els, f"cv-ls-{dname}": ls, f"cv-sparse-{dname}": sparse})
        seeds = list(range(P.mg_series)) if dname == "mackey-glass" else list(range(P.table_splits))
        for key, solvers_, _ in TABLE_METHODS:
            best = {"els": best_els, "sparse": best_sp, "ls": best_ls}[key]
            out[f"test-{key}-{dname}"] = SweepSpec(
                f"{profile}-abe-test-{key}-{dname}", kind="fit", solvers=list(solvers_),
                precisions=["float64"], datasets=[(dname, dict(dkw))],
                grid={k: [v] for k, v in best.items()}, seeds=seeds, options={"reference": False})
    return out


def plan(profile: str, run) -> dict:
    """Abe's sweeps for ``profile`` (the Table 1 CV stages are run here, in order)."""
    P = SETTINGS[profile]
    return {**_independent(P, profile), **_table1(P, profile, run)}


def render(sec: Section, out, records, profile: str) -> str:
    """Conditioning, Table 1 and the crossover from the stored records; returns the verdict."""
    P = SETTINGS[profile]
    sec.p(f"Mackey-Glass (τ = 17, inputs x(t−18), x(t−12), x(t−6), x(t), target x(t+6)); conditioning "
          f"studies on the first M = {P.abe_M} training points with σ² = {P.abe_sigma2}. Support vectors "
          "by Abe's thresholded Cholesky (a column is dropped when its pivot root is below η); h(x) of "
          "eq. (2) is the kernel map.")
    clauses = abe_conditioning_blocks(sec, out, records, P)
    clauses += table1_blocks(sec, out, records, P)
    clauses += crossover_blocks(sec, out, records, P)
    return "; ".join(c for c in clauses if c) + "."


def with_settings(profile: str, **kw) -> AbeSettings:
    """A copy of a profile's settings with some fields replaced (tests use tiny settings)."""
    return replace(SETTINGS[profile], **kw)


#: The paper's repetition counts, which the full profile follows (tests/test_protocols.py checks the plans).
register_paper_counts(
    PaperCount("abe", "test-*-boston*", "seeds", 100, "Abe Table 1: 100 random half/half splits of Boston "
               "(SEED_NOTES §5)"),
    PaperCount("abe", "test-*-mackey-glass", "seeds", 1, "Abe Table 1: Mackey-Glass has one fixed 500/500 "
               "split (SEED_NOTES §5)", default_min=1),
    PaperCount("abe", "cv-*", "folds", 5, "Abe §4: C, γ and η by 5-fold CV (SEED_NOTES §5)", default_min=5),
)

register_section("abe", title="Abe: primal against dual ELS SVR", order=10, plan=plan, render=render)
