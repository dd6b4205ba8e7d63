"""The answer grid from fit records: the largest problem kappa at which each formulation keeps its digits.

Pure functions of the stored fit rows (no solver runs here), shared by the
report section :mod:`.sections_digits` and its tests.  They read the fit
rows' exact-model contract:

* ``model_digits`` (the headline: -log10 of the model error against the
  exact model the data define) and ``problem_condition`` (the condition of
  the problem, one number per data set and hyper-parameters, independent of
  the formulation);
* ``configuration`` (``solver[option=value]``), ``solver``, ``precision``,
  ``status``.

Records without ``model_digits`` (fits made before the exact model existed)
give "not measured": the grid never falls back to the solve error
(``solve_digits``, formerly ``correct_digits``), which cannot see what a
printed formula loses in forming its system.

A cell is read along the kappa ladder of one (configuration, precision):
sorted by problem kappa, a rung *holds* when the fit is "ok" with at least
:data:`DIGITS_OK` model digits.  A fit that returned no model (breakdown,
overflow, no convergence) has no exact model and so no problem kappa of its
own: it is placed at its rung's problem kappa, the median over the solver's
other fits on that rung (same dataset, seed, C, sigma2 and ladder knobs;
:func:`rung_conditions`), so that a breakdown at the top of the ladder ends
the cell instead of dropping out of it.  A fit that agrees with its exact
model to every digit the exact model is certified to, when those are fewer
than :data:`DIGITS_OK` (``model_digits_capped`` with ``exact_digits`` < 3:
the exact model of a nearly singular least-squares problem, formed as
normal equations, certifies ~ 29 - 2 log10 kappa digits), is not measured
(:func:`uncertified`): nothing says whether it keeps 3 digits.  A fit that
differs from it by more than those digits is a measured failure.  The cell gives the largest kappa up to which
every rung holds; if the first rung already fails, it says "breaks down at
kappa ~ <that kappa>".  A cell whose fits made other discrete choices (support,
columns, k*, pivots) than a run in the wide precision adds "choices differ
from the mp30 run's from kappa ~ ..." (:func:`choices_differ_from`): the
model digits are measured for the fit's own choices, so a formulation that
keeps its digits by choosing differently is visible as such.

The page prints a cell as its bracket, last κ passed and first κ failed, with
the digits at both ends (:func:`kappa_bracket` gives the two ends enough
significant digits to differ), and the digits lost per decade of κ where the
ladder shows a slope (:func:`digits_slope`).  Its colour class
(:func:`colour_rank`) is the decade of the κ it reached, one scale for the
whole table: a ladder that ends before its cell fails is coloured by its last
rung like any other, so the best class of a column never holds a cell that
reached less κ than a cell of a worse class.
"""
from __future__ import annotations

import math

import numpy as np
import pandas as pd

from ..arith.precision import get_precision
from ..experiments.fit_kind import DEFAULT_CHOICES_PRECISION
from ..solvers import get_solver, solvers
from .util import config_label, num
from .figures import fmt_num, precision_rank

__all__ = ["HEADLINE", "CONDITION", "DIGITS_OK", "UNCERTIFIED_TAIL", "CELL_COLUMNS", "ladder_configurations",
           "literal_pairs", "grid_cells", "same_cell_notes", "choices_differ_from", "rung_conditions", "uncertified", "grid_table", "pair_losses", "ladder_keywords",
           "loss_sentence", "config_order", "chosen_counts", "row_ranges", "range_sentences", "kappa_text", "kappa_bracket", "KAPPA_EDGES", "colour_rank",
           "digits_slope"]

#: The headline column (model digits against the exact model) and the problem's condition.
HEADLINE, CONDITION = "model_digits", "problem_condition"
#: A rung holds with at least this many correct digits of the model.
DIGITS_OK = 3.0
#: The end of a cell's text when every measured rung holds and the rungs above are not measured
#: (their exact model is certified to fewer than DIGITS_OK digits).
UNCERTIFIED_TAIL = "not certified beyond"


def ladder_configurations(name: str) -> list[dict]:
    """The default configuration, then each option's other values one at a time (not their product).

    The pairs the grid compares differ in one option; the product of every
    option (24 configurations of sr-lssvm) would cost the sweep without
    adding a pair.
    """
    info = get_solver(name)
    default = info.default_variant()
    out = [dict(default)]
    for opt, vs in info.variant_options().items():
        out += [{**default, opt: v.value} for v in vs[1:]]
    return out


def literal_pairs(names=None) -> list[dict]:
    """Every printed (``literal``) variant with its stable partner: the option's first non-literal value.

    Returns dicts with ``solver``, ``option``, ``literal`` and ``stable``
    (values), ``printed`` and ``reference`` (configuration labels) and the
    printed form's ``description``.
    """
    out = []
    for name in names or solvers():
        info = get_solver(name)
        default = info.default_variant()
        for opt, vs in info.variant_options().items():
            stable = next((v for v in vs if not v.literal), None)
            for v in vs:
                if v.literal and stable is not None:
                    out.append({"solver": name, "option": opt, "literal": v.value, "stable": stable.value,
                                "printed": info.configuration_label({**default, opt: v.value}),
                                "reference": info.configuration_label({**default, opt: stable.value}),
                                "description": v.description})
    return out


def config_order(names=None) -> list[str]:
    """Configuration labels in grid order: per solver the default, then each stable value beside its printed one.

    An option whose default is the printed form (e.g. ``coef``) comes first,
    so that its stable partner sits right under the default row.
    """
    out = []
    for name in names or solvers():
        info = get_solver(name)
        default = info.default_variant()
        out.append(info.configuration_label(default))
        options = sorted(info.variant_options().items(), key=lambda kv: not kv[1][0].literal)
        for opt, vs in options:
            ordered = sorted(vs[1:] if vs else (), key=lambda v: v.literal)  # stable first, printed next
            out += [info.configuration_label({**default, opt: v.value}) for v in ordered]
    return list(dict.fromkeys(out))


def ladder_keywords(name: str) -> list[str]:
    """The row columns a solver's ladder knobs set (``SolverInfo.ladder``: the knob and its fixed ones).

    A data knob's rungs differ in the data set's keywords: its column is
    ``dataset_kw`` (the task's canonical JSON of them).
    """
    return list(dict.fromkeys(k for knob in get_solver(name).ladder
                              for k in ("dataset_kw" if knob.dataset else knob.param, *knob.fixed)))


def _rung_keys(rows: pd.DataFrame, name: str, base=("dataset", "seed", "C", "sigma2")) -> list[str]:
    """The columns that name one rung of ``name``'s ladder (``base`` and its knobs' keywords, each once:
    a knob on ``C`` itself adds none), those of ``rows``."""
    return [k for k in dict.fromkeys((*base, *ladder_keywords(name))) if k in rows.columns]


def kappa_text(k: float) -> str:
    """'1e+07'-style order of magnitude of a condition number."""
    return "—" if not (isinstance(k, float) and math.isfinite(k) and k > 0) else f"{k:.0e}"


def kappa_bracket(lo: float, hi: float) -> tuple[str, str]:
    """The two ends of a bracket (last κ passed, first κ failed) with as many significant digits as make
    them differ (9.97e4 and 1.07e5 are '1.0e+05' and '1.1e+05', never '1e+05' twice)."""
    a, b = kappa_text(lo), kappa_text(hi)
    for sig in (2, 3):
        if a != b or a == "—":
            break
        a, b = f"{lo:.{sig - 1}e}", f"{hi:.{sig - 1}e}"
    return a, b


#: Decades of κ that separate the grid's colour classes: one scale for the whole table.  Class 0:
#: the first rung fails (no κ reached); class i (1..6): the κ reached lies below 10**KAPPA_EDGES[i-1]
#: (class 6: at or above 1e15).
KAPPA_EDGES = (3, 6, 9, 12, 15)


def colour_rank(kappa_reached: float) -> int:
    """The colour class of a cell (0: no rung passed, 6: κ ≥ 1e15 reached), from the κ it reached only:
    a ladder that ends before the cell fails is coloured by its last rung like any other cell."""
    if not (isinstance(kappa_reached, float) and math.isfinite(kappa_reached) and kappa_reached > 0):
        return 0
    return 1 + sum(math.log10(kappa_reached) >= e for e in KAPPA_EDGES)


def digits_slope(ks, ds) -> float:
    """Digits lost per decade of κ, Higham-style: minus the least-squares slope of the model digits
    against log10 κ over the rungs that hold, where they show one (>= 3 rungs over >= 2 decades and a
    loss of at least 0.2 digit per decade; a flat ladder gives NaN)."""
    ks, ds = np.asarray(ks, float), np.asarray(ds, float)
    ok = np.isfinite(ks) & (ks > 0) & np.isfinite(ds)
    if ok.sum() < 3 or np.ptp(np.log10(ks[ok])) < 2:
        return math.nan
    loss = -float(np.polyfit(np.log10(ks[ok]), ds[ok], 1)[0])
    return loss if loss >= 0.2 else math.nan


def rung_conditions(rows: pd.DataFrame) -> pd.Series:
    """The problem kappa of every row, a failed fit's taken from its rung (module docstring).

    A fit without a model (breakdown, overflow, no convergence) has no exact
    model and so no ``problem_condition`` of its own; the problem kappa is a
    property of the rung, not of the formulation, so such a row takes the
    median over the rows of the same solver on the same rung (dataset, seed,
    C, sigma2 and the solver's ladder knobs) that have one.  A failed fit on
    the solver's top C whose rung has no problem kappa at all (every fit of
    it failed) gets +inf: it sits above every measured rung, so the ladder
    ends there and the cell does not claim the whole ladder.
    """
    kappa = num(rows, CONDITION)
    if not len(rows) or not kappa.isna().any():
        return kappa
    out = kappa.copy()
    for name, g in rows.groupby("solver", sort=False):
        keys = _rung_keys(g, name)
        filled = kappa[g.index].groupby([g[k] for k in keys], dropna=False).transform("median")
        out[g.index] = kappa[g.index].fillna(filled)
        if "C" in g.columns:
            c = num(g, "C")
            top = out[g.index].isna() & ~g["status"].isin(["ok", "error"]) & (c == c.max())
            out[top[top].index] = np.inf
    return out


def uncertified(rows: pd.DataFrame) -> pd.Series:
    """Rows whose exact model is certified to fewer than :data:`DIGITS_OK` digits and that agree with it
    to all of them (``model_digits_capped``): whether the fit keeps DIGITS_OK digits is not known."""
    if "model_digits_capped" not in rows.columns or "exact_digits" not in rows.columns:
        return pd.Series(False, index=rows.index)
    capped = rows["model_digits_capped"].fillna(False).astype(bool)
    return capped & ~(num(rows, "exact_digits") >= DIGITS_OK)


#: The columns of a grid cell (:func:`grid_cells`).
CELL_COLUMNS = ("kappa_ok", "digits_ok", "fails_at", "fail_status", "fail_digits", "breaks_at", "whole",
                "rungs", "choices_differ_from", "loss_per_decade", "colour_rank", "kappa_top", "rungs_no_kappa", "text")
#: A row whose ladder tops out more than this many decades of κ below the widest row's says so in its
#: cells (:func:`row_ranges`): one and a half decades, the default profile's C step (κ ~ 10 C on sinc),
#: so a row one rung short of the widest is not flagged.
RANGE_SLACK_DECADES = 1.5


def _failure_text(status: str, kappa: float, digits: float, shown: str = "") -> str:
    """How the first failing rung fails: a breakdown, another status without a model, or too few digits
    (``shown``: the κ as the bracket prints it, :func:`kappa_bracket`)."""
    at = f"κ ≈ {shown or kappa_text(kappa)}" if np.isfinite(kappa) else "the top of the ladder"
    if status == "breakdown":
        return f"breaks down at {at}"
    if status != "ok":
        return f"{status} at {at}"
    return f"< {DIGITS_OK:.0f} digits at {at} ({fmt_num(digits, 2)})"


def _cell(g: pd.DataFrame) -> dict:
    """One (configuration, precision) ladder -> the cell (see the module docstring).

    ``kappa_ok``: the largest problem κ up to which every rung holds (NaN when the first fails),
    ``digits_ok`` the model digits there; ``fails_at``, ``fail_status``, ``fail_digits``: the first
    rung that does not hold and how (NaN / '' when every rung holds); ``breaks_at``: ``fails_at``
    only when that rung is a factorization breakdown; ``whole``: every rung of the ladder holds (not
    when the rungs above the last one measured have an uncertified exact model).
    """
    digits, kappa = num(g, HEADLINE), num(g, "_kappa")
    top = float(kappa[np.isfinite(kappa)].max()) if np.isfinite(kappa).any() else np.nan  # the rungs' reach
    blind = int((~np.isfinite(kappa)).sum())  # rungs with no κ: every fit of the rung failed (rung_conditions)
    # a fit without a model is a measured failure; a fit that agrees with its exact model to every
    # digit that model is certified to, fewer than DIGITS_OK, is not measured (module docstring)
    unknown = uncertified(g)
    measured = kappa.notna() & (~np.isnan(digits) | (g["status"] != "ok")) & ~unknown
    beyond = kappa[unknown & np.isfinite(kappa)]
    g, digits, kappa = g[measured], digits[measured], kappa[measured]
    empty = dict.fromkeys(CELL_COLUMNS, np.nan) | {"fail_status": "", "whole": False, "rungs": int(len(g)),
                                                   "colour_rank": 0, "kappa_top": top, "rungs_no_kappa": blind}
    if HEADLINE not in g.columns or not len(g):
        return empty | {"text": "not measured"}
    order = np.argsort(kappa.to_numpy(), kind="stable")
    status = g["status"].to_numpy()[order]
    ds, ks = digits.to_numpy()[order], kappa.to_numpy()[order]
    holds = (status == "ok") & (ds >= DIGITS_OK)
    fail = int(np.argmin(holds)) if not holds.all() else len(holds)
    failed = {}
    if fail < len(ks):
        failed = {"fails_at": float(ks[fail]), "fail_status": str(status[fail]), "fail_digits": float(ds[fail]),
                  "breaks_at": float(ks[fail]) if status[fail] == "breakdown" else np.nan}
    if fail == 0:
        return empty | failed | {"rungs": len(ks), "text": _failure_text(str(status[0]), float(ks[0]), float(ds[0]))}
    k_ok = float(ks[fail - 1])
    lo, hi = kappa_bracket(k_ok, float(ks[fail]) if fail < len(ks) else math.nan)
    uncert = fail == len(ks) and bool((beyond > k_ok).any())
    whole = fail == len(ks) and not uncert
    if whole:
        text = f"whole ladder: ≥ 3 digits to κ ≈ {lo}"
    elif uncert:
        text = f"≥ 3 digits to κ ≈ {lo}; {UNCERTIFIED_TAIL}"
    else:
        text = f"≥ 3 digits to κ ≈ {lo}; " + _failure_text(str(status[fail]), float(ks[fail]), float(ds[fail]), hi)
    differ = choices_differ_from(g, kappa)
    note = ("" if np.isnan(differ) else
            f"; choices differ from the {DEFAULT_CHOICES_PRECISION} run's from κ ≈ {kappa_text(differ)}")
    held = holds[:fail]
    return empty | failed | {"kappa_ok": k_ok, "digits_ok": float(ds[fail - 1]), "whole": whole, "rungs": len(ks),
                             "loss_per_decade": digits_slope(ks[:fail][held], ds[:fail][held]),
                             "colour_rank": colour_rank(k_ok),
                             "choices_differ_from": differ, "text": text + note}


def same_cell_notes(cells: pd.DataFrame) -> pd.Series:
    """Why a cell equals the cell of the next coarser precision of its configuration ('' otherwise).

    Two precisions give the same cell when the ladder cannot separate them: both hold the whole
    ladder, both break down (or fail) on the same rung, or both hold to the same rung and fail on
    the next one (the rungs are coarser than the gap theory puts between the precisions).
    """
    out = pd.Series("", index=cells.index, dtype=object)
    for _, g in cells.groupby("configuration", sort=False):
        g = g.iloc[np.argsort([precision_rank(p) for p in g.precision], kind="stable")]
        for (_, a), (j, b) in zip(g.iterrows(), list(g.iterrows())[1:]):
            same_ok = (np.isnan(a.kappa_ok) and np.isnan(b.kappa_ok)) or a.kappa_ok == b.kappa_ok
            same_fail = (np.isnan(a.fails_at) and np.isnan(b.fails_at)) or a.fails_at == b.fails_at
            if not (same_ok and same_fail) or a.text == "not measured":
                continue
            if b.whole and a.whole:
                out[j] = f"as {a.precision}: both hold every rung of the ladder"
            elif b.fail_status == "breakdown" and a.fail_status == "breakdown":
                out[j] = f"as {a.precision}: the same breakdown rung (κ ≈ {kappa_text(b.fails_at)})"
            else:
                out[j] = (f"as {a.precision}: same rung, both fail at the next (κ ≈ {kappa_text(b.fails_at)}); "
                          "the rungs are too coarse to separate them")
    return out


def choices_differ_from(g: pd.DataFrame, kappa: pd.Series) -> float:
    """The smallest problem kappa at which a fit's discrete choices (support, columns, k*, pivots)
    differ from those of the run in the wide precision (``choices_agree`` False), NaN when none does.

    Model digits are measured against the exact model *for the choices the fit made*: a formulation
    that keeps its digits by choosing differently (op-lssvm's printed MRSR ranking stops at fewer
    columns in float64) holds in the cell, and this says from where its choices are not the wide
    run's.  Rows without a comparison (None / NaN: no choices, or none compared) do not count, nor
    do fits in a precision at least as fine as the wide run's (an mp50 fit is not judged by mp30).
    """
    if "choices_agree" not in g.columns:
        return math.nan
    wide = get_precision(DEFAULT_CHOICES_PRECISION).unit_roundoff
    coarser = g["precision"].map(lambda p: get_precision(p).unit_roundoff > wide).to_numpy(bool)
    differ = g["choices_agree"].map(lambda v: v is False or v is np.False_ or v in ("False", "false"))
    differ = differ.to_numpy(bool) & coarser
    ks = kappa[differ]
    ks = ks[np.isfinite(ks)]
    return float(ks.min()) if len(ks) else math.nan


def grid_cells(rows: pd.DataFrame) -> pd.DataFrame:
    """One row per (configuration, precision): the columns of :data:`CELL_COLUMNS` (:func:`_cell`;
    ``choices_differ_from``: :func:`choices_differ_from`) and ``same_as`` (:func:`same_cell_notes`).

    ``rows`` are fit records (engine "error" rows are left out).  Without a
    ``model_digits`` column every cell is "not measured".
    """
    if not len(rows):
        return pd.DataFrame(columns=["configuration", "solver", "precision", *CELL_COLUMNS, "same_as"])
    rows = rows[rows["status"] != "error"]
    rows = rows.assign(_config=config_label, _kappa=rung_conditions(rows))
    out = []
    for (config, prec), g in rows.groupby(["_config", "precision"], sort=False):
        out.append({"configuration": config, "solver": str(g["solver"].iloc[0]), "precision": prec,
                    **_cell(g)})
    cells = pd.DataFrame(out)
    cells = cells.assign(same_as=same_cell_notes(cells))
    return cells.assign(**row_ranges(cells, chosen=chosen_counts(rows), tops=top_rungs(rows)))


def top_rungs(rows: pd.DataFrame) -> dict[str, str]:
    """Per configuration, the rung where its ladder reached its largest problem κ, from the records:
    'dataset = sinc, C = 1e+16, n_support = 15' (the keywords that name a rung, :func:`_rung_keys`)."""
    out: dict[str, str] = {}
    if not len(rows) or "_kappa" not in rows.columns:
        return out
    k = num(rows, "_kappa").where(lambda v: np.isfinite(v))
    for config, g in rows.assign(_k=k).groupby("_config", sort=False):
        if not g._k.notna().any():
            continue
        top = g.loc[g._k.idxmax()]
        keys = [c for c in _rung_keys(g, str(top.solver)) if c != "seed"]
        out[config] = ", ".join(f"{c} = {top[c] if isinstance(top[c], str) else fmt_num(float(top[c]))}"
                                for c in keys if not (isinstance(top[c], float) and np.isnan(top[c])))
    return out


def chosen_counts(rows: pd.DataFrame) -> dict[str, str]:
    """Per configuration, what its fits took on their knob's top rung, where the knob names the record
    column of it (``LadderKnob.chosen``) and the fits of every precision took less than asked: 'at
    k_max = 27 its fits keep 16 (float64), 24 (mp50) (diag_k_star)', the largest count per precision,
    from the records.  A configuration that one precision's fits run to the full count is left out:
    what it chooses is then not what bounds its row."""
    out: dict[str, str] = {}
    if not len(rows):
        return out
    conf = rows["_config"] if "_config" in rows.columns else config_label(rows)
    for name in dict.fromkeys(rows["solver"]):
        knobs = get_solver(name).ladder if name in solvers() else ()
        for knob in knobs:
            if not knob.chosen or knob.dataset or not {knob.chosen, knob.param} <= set(rows.columns):
                continue
            mine = rows[(rows["solver"] == name) & np.isfinite(num(rows, knob.param))]
            if not len(mine):
                continue
            asked = float(num(mine, knob.param).max())
            top = mine[num(mine, knob.param) == asked]
            for c, g in top.groupby(conf[top.index], sort=False):
                took = num(g, knob.chosen).groupby(g["precision"]).max().dropna()
                if len(took) and took.max() < asked:
                    per = ", ".join(f"{v:.0f} ({p})" for p, v in
                                    sorted(took.items(), key=lambda kv: precision_rank(kv[0])))
                    out[c] = f"at {knob.param} = {asked:.0f} its fits keep {per} ({knob.chosen})"
    return out


def row_ranges(cells: pd.DataFrame, chosen: dict | None = None, tops: dict | None = None) -> dict[str, pd.Series]:
    """Each row's κ range, stated: ``row_kappa_top`` (the largest problem κ any rung of the
    configuration's ladder reached, in any precision), ``widest_kappa_top`` (the largest over the grid)
    and ``range_note``: for a row that tops out more than :data:`RANGE_SLACK_DECADES` below the widest,
    the sentence that says so and why, which is also appended to each of its cells' ``text``.

    Every rung of the ladder is on the same data and C ladder for every formulation (and on the
    solver's declared knobs, ``SolverInfo.ladder``); the problem κ is the exact model's, the same for
    each formulation that makes the same discrete choices.  A row that stays low is one whose own
    choices (a support, pivots, the k* its PRESS picks) keep its reduced problem better conditioned
    than the ladder's top: the ladder cannot drive it further without a knob that overrides those
    choices, which the solver does not declare.  Where its knob records what the fits took
    (``chosen``, from :func:`chosen_counts`), the note says how much, from the records: the
    formulation chooses less than the knob asks.  Otherwise it names what the ladder moved for it (C
    and its knobs) and the rung where it reached its top κ (``tops``, from :func:`top_rungs`).
    """
    top = cells.groupby("configuration").kappa_top.transform("max")
    widest = float(top.max()) if top.notna().any() else np.nan
    knobs = cells.solver.map(lambda n: [k.param for k in get_solver(n).ladder] if n in solvers() else [])
    short = top.notna() & (np.log10(widest) - np.log10(top) > RANGE_SLACK_DECADES)
    note = pd.Series("", index=cells.index, dtype=object)
    blind = cells.groupby("configuration").rungs_no_kappa.transform("max").fillna(0)
    for i in cells.index[short]:
        drives = list(dict.fromkeys(["C", *knobs[i]]))  # a knob on C itself is C
        drives = (", ".join(drives[:-1]) + f" and {drives[-1]} are") if len(drives) > 1 else "C is"
        where = (tops or {}).get(cells.configuration[i], "")
        took = (chosen or {}).get(cells.configuration[i], "")
        if blind[i]:
            why = (f"its higher rungs have no κ (no fit there returned a model to measure it on: {int(blind[i])} "
                   "rungs)")
        elif took:
            why = f"it chooses less than its knob asks: {took}"
        else:
            why = (f"{drives} what its ladder moves, and its highest rung"
                   + (f" ({where})" if where else "") + f" reaches κ ≈ {kappa_text(top[i])}")
        note[i] = (f"ladder cannot reach κ > {kappa_text(top[i])} for this formulation (widest row: "
                   f"{kappa_text(widest)}): {why}")
    text = cells.text.where(~short, cells.text + "; " + note)
    return {"row_kappa_top": top, "widest_kappa_top": pd.Series(widest, index=cells.index), "range_note": note,
            "text": text}


def range_sentences(cells: pd.DataFrame) -> list[str]:
    """One sentence per distinct ``range_note`` (:func:`row_ranges`), with the rows that carry it: the
    '‡' of the grid, spelt out under it rather than only in a cell's title."""
    if not len(cells) or "range_note" not in cells.columns:
        return []
    notes = cells[cells.range_note.fillna("").astype(str) != ""]
    groups: dict[str, list[str]] = {}
    for config, note in zip(notes.configuration, notes.range_note):
        groups.setdefault(note, [])
        if config not in groups[note]:
            groups[note].append(config)
    return [f"‡ {', '.join(configs)}: {note}." for note, configs in groups.items()]


def grid_table(cells: pd.DataFrame, names=None) -> pd.DataFrame:
    """The grid: rows solver[variant] (printed beside stable), columns precisions, cell texts."""
    if not len(cells):
        return pd.DataFrame()
    precs = sorted(cells.precision.unique(), key=precision_rank)
    order = [c for c in config_order(names) if c in set(cells.configuration)]
    order += [c for c in dict.fromkeys(cells.configuration) if c not in order]
    wide = cells.pivot(index="configuration", columns="precision", values="text").reindex(order)[precs]
    literal = {p["printed"] for p in literal_pairs(names)}
    label = [f"{c} (printed)" if c in literal else c for c in wide.index]
    return wide.fillna("—").reset_index(drop=True).assign(**{"solver [variant]": label})[
        ["solver [variant]", *precs]]


def pair_losses(rows: pd.DataFrame, names=None) -> pd.DataFrame:
    """Per printed/stable pair and precision: the digits the printed form loses and from which kappa.

    Printed and stable fits are matched on (dataset, seed, C, sigma2, precision)
    and the solver's ladder knobs (:func:`ladder_keywords`);
    ``loss`` is the largest ``stable - printed`` model-digit difference,
    ``from_kappa`` the smallest problem kappa where it is >= 1 digit (NaN
    when it never is), ``matched`` the number of matched fits.  Where the
    fits record the rank their factor reached (``diag_rank``: the pivoted
    Cholesky of Chen & Zhou), ``rank_stable`` / ``rank_printed`` are its
    largest value per precision (NaN otherwise).
    """
    if not len(rows) or HEADLINE not in rows.columns:
        return pd.DataFrame(columns=["printed", "reference", "precision", "loss", "from_kappa", "matched"])
    rows = rows[rows["status"] != "error"].assign(_config=config_label,
                                                 _digits=lambda r: num(r, HEADLINE),
                                                 _kappa=lambda r: num(r, CONDITION))
    base = [k for k in ("dataset", "seed", "C", "sigma2", "precision") if k in rows.columns]
    out = []
    for pair in literal_pairs(names):
        lit, ref = rows[rows._config == pair["printed"]], rows[rows._config == pair["reference"]]
        keys = _rung_keys(rows, pair["solver"], base=base)
        m = lit.merge(ref, on=keys, suffixes=("_p", "_s"))
        # a printed fit without a model (breakdown, overflow) has lost every digit: 0
        m = m.assign(dp=np.where(m.status_p == "ok", m._digits_p, 0.0),
                     ds=np.where(m.status_s == "ok", m._digits_s, np.nan))
        for prec, g in m.groupby("precision"):
            d = (g.ds - g.dp).to_numpy(float)
            ok = np.isfinite(d)
            if not ok.any():
                continue
            big = ok & (d >= 1.0)
            out.append({"printed": pair["printed"], "reference": pair["reference"], "precision": prec,
                        "loss": float(np.nanmax(d)), "matched": int(ok.sum()),
                        "from_kappa": float(np.nanmin(g._kappa_s.to_numpy(float)[big])) if big.any()
                        else np.nan, "rank_stable": _largest(g, "diag_rank_s"),
                        "rank_printed": _largest(g, "diag_rank_p")})
    return pd.DataFrame(out)


def _largest(g: pd.DataFrame, column: str) -> float:
    values = num(g, column) if column in g.columns else pd.Series(np.nan, index=g.index)
    return float(np.nanmax(values)) if np.isfinite(values).any() else np.nan


def loss_sentence(pair: dict, losses: pd.DataFrame) -> str:
    """One sentence: how many digits the printed form loses against its stable partner, from which kappa."""
    head = f"{pair['printed']} ({pair['description']}) against {pair['reference']}: "
    g = losses[(losses.printed == pair["printed"])] if len(losses) else losses
    if not len(g):
        return head + "not measured (no matched fits with model digits)."
    g = g.sort_values("precision", key=lambda s: s.map(precision_rank))
    ranks = g[[c for c in ("rank_stable", "rank_printed") if c in g.columns]].to_numpy(float)
    ranks = ranks[np.isfinite(ranks)]
    per_precision = ranks.size and np.unique(ranks).size > 1
    parts = []
    for _, r in g.iterrows():
        if np.isfinite(r.from_kappa):
            part = f"{r.precision}: loses up to {fmt_num(r.loss, 2)} digits from κ ≈ {kappa_text(r.from_kappa)}"
        else:
            part = f"{r.precision}: loses no digit (at most {fmt_num(max(r.loss, 0.0), 2)})"
        pair_ranks = [r.get("rank_stable", np.nan), r.get("rank_printed", np.nan)]
        if per_precision and all(np.isfinite(pair_ranks)):
            part += f", rank reached {pair_ranks[0]:.0f} (stable) and {pair_ranks[1]:.0f} (printed)"
        parts.append(part)
    tail = f" (rank reached: {ranks[0]:.0f} in every precision, both forms)" if ranks.size and not per_precision \
        else ""
    return head + "; ".join(parts) + tail + "."
