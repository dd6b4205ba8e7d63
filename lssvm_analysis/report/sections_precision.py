"""Precisions side by side, generated from the registries: model digits and breakdown maps.

Every registered solver that forms a single linear system (``SolverInfo.system``)
runs, in every precision it declares and every variant configuration, on the
same small problems over C; every registered solver runs in the hardware
precisions over the (C, sigma2) plane.  Nothing here names a solver or a
precision: a newly registered one appears without any edit.
"""
from __future__ import annotations

from dataclasses import dataclass, replace

import numpy as np
import pandas as pd
from matplotlib.lines import Line2D

from ..analysis import conditioning as cond
from ..arith.precision import precisions
from ..experiments import SweepSpec
from ..solvers import get_solver, solvers
from .util import config_label, errors_note, no_records, num, ok, span
from .figures import (BREAKDOWN_MARKER, breakdown_style, fmt_num, log_axes, panel_grid, panel_title,
                      mark_failures, precision_color, precision_marker, precision_rank, precision_style, save_figure,
                      save_table)
from .digits_grid import rung_conditions
from .html import Section
from .plan import decades
from .registry import register_section
from .sections_digits import SETTINGS as LADDER, records_of, variant_specs

__all__ = ["PrecisionSettings", "SETTINGS", "EXTENDED", "MAP_ERRORS", "extended_precisions", "accuracy_spec", "grid_for", "variant_grid", "plan",
           "render", "outcomes", "map_error"]


@dataclass(frozen=True)
class PrecisionSettings:
    """Sizes and grids of the generic precision study for one profile.

    ``sinc_*``/``ripley_n``: the regression and classification problems of the
    accuracy sweep (each solver on its first task); ``accuracy_C``: its C grid;
    ``map_*``: the breakdown maps (Mackey-Glass / Ripley, M points, the C and
    sigma2 grids), always in the hardware precisions; ``map_extended``: which
    further precisions the maps carry, a key of :data:`EXTENDED` ("none",
    "mp": the mpN columns, "every": longdouble too), on the sub-grid
    ``map_extended_C`` x ``map_extended_sigma2`` (None: the whole grid);
    ``solvers``: None for every registered solver (tests may restrict it).
    """

    sinc_n: int = 30
    sinc_sigma2: float = 1.0
    ripley_n: int = 30
    accuracy_C: tuple = decades(1e-2, 1e10, 2)
    map_M: int = 60
    map_C: tuple = decades(1e0, 1e16, 4)
    map_sigma2: tuple = (0.1, 1.0, 10.0)
    map_extended: str = "none"
    map_extended_C: tuple | None = None
    map_extended_sigma2: tuple | None = None
    solvers: tuple | None = None

    def __post_init__(self):
        if self.map_extended not in EXTENDED:
            raise ValueError(f"expected map_extended in {sorted(EXTENDED)}, got map_extended={self.map_extended!r}")


#: The precisions beyond the hardware ones a map may carry, as filters of :func:`precisions`.
EXTENDED = {"none": None, "mp": {"native": False}, "every": {"hardware": False}}


SETTINGS = {
    # the kappa ladder's problems (sections_digits), so the store computes these fits once and the
    # grid, the ladder and this section read one model-digits sweep
    # the maps' mp50 column at the float columns' M on the plane's corners and centre column
    # (C = 1, 1e8, 1e16 x the smallest and largest sigma2; 246 tasks): the whole plane (615 tasks)
    # took 75 CPU-s of a cold report on 2 cores (290 s wall), the sub-grid ~30
    "default": PrecisionSettings(sinc_n=LADDER["default"].n, ripley_n=LADDER["default"].n,
                                 sinc_sigma2=LADDER["default"].sigma2, accuracy_C=LADDER["default"].C,
                                 map_extended="mp", map_extended_C=(1e0, 1e8, 1e16),
                                 map_extended_sigma2=(0.1, 10.0)),
    "quick": PrecisionSettings(sinc_n=20, ripley_n=20, accuracy_C=decades(1e-2, 1e10, 4), map_M=40,
                               map_C=decades(1e0, 1e16, 8), map_sigma2=(1.0,)),
    # the papers' protocols have no time budget: their maps carry the longdouble and mp50 columns
    "full": PrecisionSettings(sinc_n=60, ripley_n=60, accuracy_C=decades(1e-2, 1e12),
                              map_M=100, map_C=decades(1e0, 1e16, 2), map_sigma2=(0.03, 0.1, 0.3, 1.0, 3.0),
                              map_extended="every"),
}


def variant_grid(names) -> dict:
    """Every variant keyword of the solvers ``names`` with all its values (a sweep grid).

    The fit kind keeps, per solver, only its own keywords and values, so each
    solver runs each of its configurations once.
    """
    grid: dict[str, list] = {}
    for name in names:
        for opt, vs in get_solver(name).variant_options().items():
            grid.setdefault(opt, [])
            grid[opt] += [v.value for v in vs if v.value not in grid[opt]]
    return grid


def grid_for(names, **values) -> dict:
    """A sweep grid for the solvers ``names``: ``values`` that one of them takes, plus every variant."""
    taken = {k for n in names for k in get_solver(n).params}
    return {**{k: list(v) for k, v in values.items() if k in taken}, **variant_grid(names)}


def _datasets(P: PrecisionSettings) -> list:
    return [("sinc", {"n_train": P.sinc_n, "n_test": max(P.sinc_n, 100)}),
            ("ripley-mixture", {"n_train": P.ripley_n, "n_test": 100})]


def _digit_solvers(P: PrecisionSettings) -> list:
    """Every solver (of the profile) with a system or an exact model: the ones with digits to measure."""
    return [n for n in (P.solvers or solvers())
            if get_solver(n).system is not None or get_solver(n).exact_model is not None]


def _support(P: PrecisionSettings) -> list:
    """The support budget of the accuracy sweep's sparse solvers: half the training set (see
    :func:`accuracy_spec`)."""
    return [max(2, min(P.sinc_n, P.ripley_n) // 2)]


def accuracy_spec(profile: str, names=None, *, key: str = "accuracy") -> SweepSpec:
    """The accuracy sweep: ``names`` (default every solver with a system or an exact model) x
    precisions x variants x C.

    A solver with a support budget (``n_support``: Chen & Zhou's pivots, fixed-size prototypes) gets
    half the training set: its default, the paper's r = floor(0.05 m), is 1 at the profiles' m of
    20-60, and a one-column model has a problem κ ≈ 3 whatever C is (issue 41: 16 of 22 panels of
    precision-digits-chen-zhou stacked every C at κ ≈ 3.2, while the grid took the same solvers to 7e12).
    """
    P = SETTINGS[profile]
    names = _digit_solvers(P) if names is None else names
    support = _support(P)
    return SweepSpec(f"{profile}-{key}", kind="fit", solvers=list(names), precisions=precisions(),
                     datasets=_datasets(P),
                     grid=grid_for(names, C=P.accuracy_C, sigma2=[P.sinc_sigma2], eta=[1e-3],
                                   n_support=support),
                     options={"first_task_only": True})


def plan(profile: str, run) -> dict:
    """The accuracy sweep and the breakdown maps over every registered solver.

    Both run each solver's variants one option at a time
    (:func:`~.sections_digits.variant_specs`: ``maps`` / ``accuracy`` the
    defaults, ``maps-<option>`` / ``accuracy-<option>`` the other values), not
    their product (976 accuracy tasks, 95 s of the default report's 590 CPU-s,
    for configurations that add no printed/stable pair).
    """
    P = SETTINGS[profile]
    names = list(P.solvers or solvers())
    datasets = [("mackey-glass", {"n_train": P.map_M, "n_test": P.map_M}),
                ("ripley-mixture", {"n_train": P.map_M, "n_test": 100})]
    maps = variant_specs("maps", f"{profile}-maps", names,
                         {"C": P.map_C, "sigma2": P.map_sigma2, "eta": [0.1]},
                         precisions=precisions(hardware=True), datasets=datasets,
                         options={"first_task_only": True})
    extended = extended_precisions(P)
    if extended:  # the same fits, in the further precisions, on their (sub-)grid
        maps.update(variant_specs("maps-extended", f"{profile}-maps-extended", names,
                                  {"C": P.map_extended_C or P.map_C,
                                   "sigma2": P.map_extended_sigma2 or P.map_sigma2, "eta": [0.1]},
                                  precisions=extended, datasets=datasets,
                                  options={"first_task_only": True}))
    accuracy = variant_specs("accuracy", f"{profile}-accuracy", _digit_solvers(P),
                             {"C": P.accuracy_C, "sigma2": [P.sinc_sigma2], "eta": [1e-3],
                              "n_support": _support(P)},
                             precisions=precisions(), datasets=_datasets(P),
                             options={"first_task_only": True})
    return {**accuracy, **maps}


def extended_precisions(P: PrecisionSettings) -> list[str]:
    """The precisions beyond the hardware ones that the maps of ``P`` carry (``P.map_extended``)."""
    flt = EXTENDED[P.map_extended]
    return [] if flt is None else precisions(**flt)


def _map_precisions_text(P: PrecisionSettings) -> str:
    """What the maps' precisions and grids are, for the section's text."""
    text = " and ".join(precisions(hardware=True))
    extended = extended_precisions(P)
    if not extended:
        return text
    C, s2 = P.map_extended_C or P.map_C, P.map_extended_sigma2 or P.map_sigma2
    where = ("the whole plane" if (tuple(C), tuple(s2)) == (tuple(P.map_C), tuple(P.map_sigma2)) else
             "C ∈ {" + ", ".join(fmt_num(c) for c in C) + "} × σ² ∈ {" + ", ".join(fmt_num(v) for v in s2) + "}")
    return f"{text} over the whole plane, and in {' and '.join(extended)} on {where}"


def with_settings(profile: str, **kw) -> PrecisionSettings:
    """A copy of a profile's settings with some fields replaced (tests use tiny settings)."""
    return replace(SETTINGS[profile], **kw)


#: How a map draws each outcome in a precision's colour: the precision's own marker (filled) when
#: the fit is ok, else a filled marker reserved for the outcome (black edge); "not measured" is
#: the precision's marker with a light grey face.  No outcome is told apart by fill alone.
_OUTCOME_MARKERS = {"large-error": "*", "breakdown": BREAKDOWN_MARKER, "not-converged": "P", "error": "H"}
_OUTCOME_TEXT = {"ok": "ok: the precision's marker", "large-error": "large error", "breakdown": "breakdown",
                 "not-converged": "not converged", "not-measured": "not measured: light face",
                 "error": "error (another status)"}
_NOT_MEASURED_FACE = "0.88"


def _outcome_style(outcome: str, prec: str | None) -> dict:
    """``Line2D`` keywords of one outcome in precision ``prec`` (None: the legend's grey key)."""
    color = "0.45" if prec is None else precision_color(prec)
    if outcome == "breakdown":
        return {**breakdown_style(prec or "", ms=9.0), "color": color, "mfc": color}
    if outcome in ("ok", "not-measured"):
        return {"marker": "o" if prec is None else precision_marker(prec)[0], "ms": 7.0, "color": color,
                "mfc": color if outcome == "ok" else _NOT_MEASURED_FACE, "mec": color, "mew": 1.5, "ls": "none"}
    return {"marker": _OUTCOME_MARKERS.get(outcome, "H"), "ms": 9.0, "color": color, "mfc": color,
            "mec": "black", "mew": 0.8, "ls": "none"}


#: The error the maps classify by, first present: the model error against the exact model, else the
#: error against the certified solution of the system as the solver formed it (older records:
#: "forward_error").  A fit without it is "not measured", never "ok".
MAP_ERRORS = (("model_error", "model error against the exact model"),
              ("solve_error", "solve error against the system as formed"),
              ("forward_error", "solve error against the system as formed"))

def _by_paper(rows: pd.DataFrame):
    """(paper, its rows) in order of first appearance (records without a paper: 'other')."""
    paper = rows["paper"] if "paper" in rows.columns else pd.Series("other", index=rows.index)
    rows = rows.assign(_paper=paper.fillna("other"), _config=config_label(rows))
    for name in dict.fromkeys(rows._paper):
        yield name, rows[rows._paper == name]


#: A model digit count capped at the exact model's certified digits is a lower bound: an up arrow.
_LOWER_BOUND = r"$\uparrow$"


def _digits_figure(sec, out, paper, rows, failed=None):
    """One panel per configuration: model digits against κ per precision; ``failed``: the fits of the
    paper that returned no model (with their rung's κ, ``_kappa``), drawn as breakdown crosses at 0."""
    failed = failed if failed is not None else rows.iloc[0:0].assign(_kappa=[])
    configs = list(dict.fromkeys(rows._config))
    fig, axs = panel_grid(len(configs), 3, width=4.0, height=3.6)
    any_capped = any_failed = False
    for a, c in zip(axs, configs):
        g = rows[rows._config == c]
        for prec in sorted(g.precision.unique(), key=precision_rank):
            d = g[g.precision == prec].sort_values("problem_condition")
            style = precision_style(prec)
            capped = _capped(d)
            a.plot(num(d, "problem_condition")[~capped], num(d, "model_digits")[~capped], ls="none",
                   **style, label=prec)
            if capped.any():  # at least this many digits: the exact model's certified digits
                any_capped = True
                a.plot(num(d, "problem_condition")[capped], num(d, "model_digits")[capped], ls="none",
                       marker=_LOWER_BOUND, ms=10, color=style["color"])
            any_failed |= bool(mark_failures(a, failed[(failed._config == c) & (failed.precision == prec)]._kappa,
                                             prec))
            u = float(num(d, "unit_roundoff").iloc[0])
            k = np.logspace(0, 20, 50)
            a.plot(k, np.clip(-np.log10(k * u), 0, None), "-", lw=0.7, color=style["color"])
        log_axes(a, y=False)
        a.minorticks_off()  # 20 decades: minor ticks are not readable, and cost layout time
        panel_title(a, c)
        a.set_xlabel("condition number of the problem κ [–]")
        a.set_ylabel("model digits −log₁₀(model error) [–]")
    # one key above the panels (the same in every panel): each precision's colour and marker
    precs = sorted(rows.precision.unique(), key=precision_rank)
    handles = [Line2D([], [], ls="none", **precision_style(p), label=p) for p in precs]
    handles.append(Line2D([], [], ls="-", lw=0.7, color="0.3", label="−log₁₀(κu), in its colour"))
    if any_capped:
        handles.append(Line2D([], [], marker=_LOWER_BOUND, ms=10, color="0.3", ls="none",
                              label="at least (exact model's digits)"))
    if any_failed:
        handles.append(Line2D([], [], **{**breakdown_style(precs[0]), "color": "0.45", "mfc": "0.45"},
                              label="no model (breakdown …), at 0"))
    fig.legend(handles=handles, loc="outside upper center", ncol=min(len(handles), 3), fontsize=9)
    sec.figure(save_figure(fig, rows.drop(columns=["_paper", "_config"]), out, f"precision-digits-{paper}",
                           f"{paper}: correct digits of the model against the exact model the data "
                           "define, against the condition number of the problem (independent of the "
                           "formulation, so the variants of one solver share the axis), per precision "
                           "(its colour and marker; an up arrow is a lower bound: the fit agrees with the "
                           "exact model to all the digits that model is certified to), with the rule of "
                           "thumb −log₁₀(κ·u) (lines); a cross at 0 digits: the fit returned no model "
                           "(breakdown, overflow, no convergence) at that rung's κ."))


def _capped(rows: pd.DataFrame) -> np.ndarray:
    """Rows whose model digits were capped at the exact model's certified digits (older rows: none)."""
    if "model_digits_capped" not in rows.columns:
        return np.zeros(len(rows), dtype=bool)
    return rows["model_digits_capped"].fillna(False).astype(bool).to_numpy()


def _digits(sec, out, acc):
    rows = ok(acc)
    rows = rows[np.isfinite(num(rows, "model_digits"))] if len(rows) else rows
    if no_records(sec, rows, acc, "the accuracy sweep", "No accuracy records with an exact model."):
        return "no model-digit measurements"
    note = errors_note(acc, "the accuracy sweep")
    if note:
        sec.note(note)
    every = ok(acc)
    every = every.assign(_kappa=rung_conditions(every))
    failed = every[(every["status"] != "ok") & ~np.isfinite(num(every, "model_digits"))]
    paper = failed["paper"].fillna("other") if "paper" in failed.columns else "other"
    failed = failed.assign(_config=config_label(failed), _paper=paper)
    for paper, g in _by_paper(rows):
        _digits_figure(sec, out, paper, g, failed[failed._paper == paper])
    ku = num(rows, "problem_condition") * num(rows, "unit_roundoff")
    r = rows.assign(excess=num(rows, "model_digits") + np.log10(ku), config=config_label(rows),
                    model_digits=num(rows, "model_digits"))
    med = r.groupby("precision").model_digits.median().sort_index(key=lambda s: s.map(precision_rank))
    worst = r.loc[r.excess.idxmin()]
    return ("median model digits " + ", ".join(f"{p} {fmt_num(v, 3)}" for p, v in med.items())
            + f"; measured digits minus −log₁₀(κu) span {span(r.excess)} (positive: better than the rule;"
            f" the worst is {worst.config} in {worst.precision})")


def map_error(rows: pd.DataFrame) -> tuple[str, str]:
    """(column, what it is) of the error the maps classify by (see :data:`MAP_ERRORS`)."""
    return next(((c, what) for c, what in MAP_ERRORS if c in rows.columns), MAP_ERRORS[-1])


def outcomes(rows: pd.DataFrame) -> pd.Series:
    """The map outcome of each row; "not-measured" where the row has no error (no reference).

    A capped model error (the fit agrees with the exact model to every digit that model is
    certified to) is the exact model's bound, not the fit's error: above sqrt(u) it says
    nothing about the fit (an mp50 fit at kappa ~ 1e18 against an exact model certified to
    12 digits), so such a row is "not-measured", never "large-error".
    """
    column = map_error(rows)[0]
    err = num(rows, column)
    if column == "model_error":
        unknown = _capped(rows) & (err.to_numpy() > np.sqrt(num(rows, "unit_roundoff").to_numpy()))
        err = err.mask(unknown)
    return pd.Series([cond.classify_outcome(s, fe, u) for s, fe, u in
                      zip(rows.status, err, num(rows, "unit_roundoff"))], index=rows.index)


def _offsets(values, k: int) -> np.ndarray:
    """Multiplicative offsets that spread k precisions around a point of a log grid of ``values``.

    A third of the grid step (in decades) is shared among the k markers, so
    the groups of neighbouring grid points stay apart.
    """
    v = np.log10(np.unique(np.asarray(values, dtype=float)))
    step = float(np.min(np.diff(v))) if len(v) > 1 else 1.0
    return 10.0 ** (step / 3 * (np.arange(k) - (k - 1) / 2) / max(k - 1, 1))


def _map_figure(sec, out, paper, rows, P):
    configs = list(dict.fromkeys(rows._config))
    precs = sorted(rows.precision.unique(), key=precision_rank)
    fig, axs = panel_grid(len(configs), 3, width=4.0, height=3.6)  # one panel per configuration
    shift = _offsets(rows.C, len(precs))
    for a, c in zip(axs, configs):
        for i, prec in enumerate(precs):  # precisions side by side around each (C, σ²) point
            g = rows[(rows._config == c) & (rows.precision == prec)]
            for oc in _OUTCOME_TEXT:
                d = g[g.outcome == oc]
                if len(d):
                    a.plot(d.C * shift[i], d.sigma2, **_outcome_style(oc, prec), label=f"{oc}, {prec}")
        log_axes(a)
        a.minorticks_off()  # a grid of a few decades: minor ticks add nothing but layout time
        panel_title(a, c)
        a.set_xlabel("C [–]")
        a.set_ylabel("σ² [(input units)²]")
        a.margins(0.15)
    # the key above the panels: each precision's colour and marker (its ok fits), then the outcomes
    # drawn in grey here and in the precision's colour on the map
    handles = [Line2D([], [], **_outcome_style("ok", p), label=f"{p}, ok") for p in precs]
    handles += [Line2D([], [], **_outcome_style(oc, None), label=_OUTCOME_TEXT[oc])
                for oc in _OUTCOME_TEXT if oc != "ok" and oc in set(rows.outcome)]
    fig.legend(handles=handles, loc="outside upper center", ncol=min(len(handles), 4), fontsize=9)
    sec.figure(save_figure(fig, rows.drop(columns=["_paper", "_config"]), out,
                           f"precision-breakdown-maps-{paper}",
                           f"{paper}: outcome over the (C, σ²) plane, one panel per solver "
                           f"configuration (Mackey-Glass, M={P.map_M}, for regression solvers; Ripley's "
                           "mixture for classification-only ones; η = 0.1 where a solver takes it). Colour "
                           "names the precision everywhere in the report, and the precisions sit side by "
                           f"side around each grid point ({', '.join(precs)} from left to right). An ok fit "
                           "is the precision's own filled marker; any other outcome is a marker reserved "
                           "for it in the precision's colour: breakdown (filled cross, black edge), not "
                           "converged (filled plus), large error (star; "
                           f"{map_error(rows)[1]} > √u, fewer than half the precision's digits "
                           "correct), error (hexagon), or not measured (the precision's marker with a light "
                           "face: no certified reference, or one certified to fewer than half the "
                           "precision's digits that the fit matches throughout: nothing says the model is "
                           "right, so it is not counted ok)."))


def _maps(sec, out, maps, P):
    rows = ok(maps)
    if not len(rows) or not {"solver", "precision", "C", "sigma2"} <= set(rows.columns):
        sec.note(errors_note(maps, "the breakdown maps") or "No map records.")
        return "no breakdown maps"
    note = errors_note(maps, "the breakdown maps")
    if note:
        sec.note(note)
    rows = rows.copy()
    rows["outcome"] = outcomes(rows)
    for paper, g in _by_paper(rows):
        _map_figure(sec, out, paper, g, P)
    rows["config"] = config_label(rows)
    counts = rows.groupby(["config", "precision", "outcome"]).size().unstack(fill_value=0).reset_index()
    sec.table(save_table(counts.rename(columns={"config": "solver [variant]"}), out,
                         "precision-breakdown-counts",
                         "Number of (C, σ²) points per outcome, solver configuration and precision."))
    unmeasured = int((rows.outcome == "not-measured").sum())
    tail = f" ({unmeasured} of {len(rows)} map points not measured: no certified reference)"
    bd = rows[rows.outcome == "breakdown"]
    if not len(bd):
        return "no solver broke down on the (C, σ²) grid" + tail
    first = bd.groupby(["config", "precision"]).C.min()
    return ("smallest C with a breakdown: " + ", ".join(f"{s} {p} {fmt_num(c)}" for (s, p), c in first.items())
            + tail)


def render(sec: Section, out, records, profile: str) -> str:
    """Solve digits and breakdown maps from the records "accuracy" and "maps"; returns the verdict."""
    P = SETTINGS[profile]
    sec.p(f"Every registered solver that forms a single linear system, in every precision it declares "
          f"and every variant, on the same problems over C: sinc (n = {P.sinc_n}, σ² = {P.sinc_sigma2}) "
          f"for solvers whose first task is regression, Ripley's mixture (n = {P.ripley_n}) for the "
          "others. The number of correct digits of the model (bias and coefficients) is measured "
          "against the exact model the data define (the paper's problem with the data as given, "
          "kernel and system formed in extended precision, the fit's support and k* frozen, "
          "certified), and plotted against the condition number of the problem, which does not "
          "depend on the formulation: the literal and stable variants of a solver share the axis. "
          "Solvers without an exact-model hook are left out of the digits. Below: the outcome of every registered solver over the (C, σ²) "
          f"plane in {_map_precisions_text(P)}, in its "
          "default configuration and with each other variant "
          "value one option at a time. Solvers that declare fewer precisions (the LIBSVM "
          "baselines: float64 only) appear only in those.")
    clauses = [_digits(sec, out, records_of(records, "accuracy"))]
    sec.h3("Breakdown maps")
    clauses.append(_maps(sec, out, records_of(records, "maps"), P))
    return "; ".join(clauses) + "."


register_section("precisions", title="Precisions side by side", order=90, plan=plan, render=render)
