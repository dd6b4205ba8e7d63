"""The answer for a user's own data: which form of each solver, in which precision, how sure.

:func:`lssvm_analysis.compare` (:mod:`lssvm_analysis.report.compare`) runs
the fit sweeps -- every solver with an exact model x its variants (printed
and stable) x precisions x a small C ladder -- on the user's data and passes
their records here: :func:`tidy` keeps one row per fit with the columns a
reader needs, :func:`answers` turns them into one verdict per solver.

The rule of a verdict: a (form, precision) *holds* when every rung of the
ladder gave a model with at least :data:`MEASURED_DIGITS` (3) correct digits
against the exact model (the report's grid threshold).  The answer is the
cheapest precision (float32 < float64 < longdouble < mpN) in which some form
holds, and in it the form with the most digits (the stable form on a tie).
How sure: "sure" when the weakest rung keeps at least one digit more than
the threshold, the exact model is certified beyond what was measured and the
discrete choices (support, kept columns) agree with a wide run wherever they
were compared; "borderline" otherwise, saying which.
"""
from __future__ import annotations

import math
from dataclasses import dataclass

import numpy as np
import pandas as pd
import psutil

from ..arith.precision import get_precision
from ..linalg.memory import bytes_per_word
from ..solvers import get_solver, solvers
from .model_error import MEASURED_DIGITS

__all__ = ["DEFAULT_PRECISIONS", "TIDY_COLUMNS", "default_solvers", "form_values", "n_forms", "tidy", "answers", "precision_order",
           "SizePlan", "plan_size", "headline", "model_kind", "REDUCED_NOTE", "task_seconds", "human_time", "number_text", "median_sigma2", "SIGMA2_PAIRS", "TIME_BUDGET"]

#: The precisions ``compare`` runs by default.
DEFAULT_PRECISIONS = ("float32", "float64", "longdouble", "mp50")

#: The columns of the tidy frame, in order (those a sweep did not record are left out).
TIDY_COLUMNS = ("solver", "configuration", "literal", "precision", "C", "sigma2", "status", "model_digits",
                "model_digits_capped", "prediction_digits", "problem_condition", "exact_digits",
                "choices_agree", "n_support", "n_train", "test_rmse", "test_mae", "test_error_rate", "time_fit", "exact_method",
                "exact_note", "message")


def default_solvers(task: str) -> list[str]:
    """Every registered solver of ``task`` with an exact model and no keyword a grid cannot give."""
    return [n for n in solvers(task) if get_solver(n).exact_model is not None and not get_solver(n).required]


def form_values(name: str, *, all_forms: bool = False) -> dict[str, list[str]]:
    """The variant values ``compare`` runs for solver ``name`` besides its default configuration.

    ``{option: [values]}``, one option at a time (as the report's variant sweeps).  By default only
    the *printed* values (``Variant.literal``: the formula as the paper prints it) that are not the
    default: each family's default (its stable form, or the printed one where the default is
    printed) and its printed variants.  ``all_forms=True``: every non-default value (the report's
    set: e.g. w-lssvm's four weight functions, the eigen solve of r-lssvm-w/-y).
    """
    info = get_solver(name)
    out = {}
    for opt, vs in info.variant_options().items():
        values = [v.value for v in vs[1:] if all_forms or v.literal]
        if values:
            out[opt] = values
    return out


def n_forms(names, *, all_forms: bool = False) -> int:
    """How many configurations (solver forms) ``compare`` runs for the solvers ``names``."""
    return sum(1 + sum(len(v) for v in form_values(n, all_forms=all_forms).values()) for n in names)


def precision_order(name: str) -> float:
    """Cost order of precisions: hardware by unit roundoff (float32 first), then mpN by digits."""
    p = get_precision(name)
    return -math.log10(p.unit_roundoff) + (0 if p.hardware else 100)


def _literal(row) -> bool:
    """The fit ran a printed formula: a variant value marked ``literal``, given or by default."""
    info = get_solver(row["solver"])
    config = {opt: row[opt] if isinstance(row.get(opt), str) else value
              for opt, value in info.default_variant().items()}
    return any(v.literal and config.get(v.option) == v.value for v in info.variants)


def tidy(records: pd.DataFrame) -> pd.DataFrame:
    """One row per fit: solver, configuration (``name[option=value]``), ``literal`` (a printed formula),
    precision, C, sigma2, status and the model-error columns (:data:`TIDY_COLUMNS`)."""
    if not len(records):
        return pd.DataFrame(columns=list(TIDY_COLUMNS))
    df = records.copy()
    df["literal"] = [_literal(r) for r in df.to_dict("records")]
    cols = [c for c in TIDY_COLUMNS if c in df.columns]
    order = sorted(df["precision"].unique(), key=precision_order)
    df["_p"] = df["precision"].map(order.index)
    return df.sort_values(["solver", "configuration", "_p", "C"], kind="stable")[cols].reset_index(drop=True)


def _cell(g: pd.DataFrame) -> dict:
    digits = pd.to_numeric(g["model_digits"], errors="coerce")
    ok = (g["status"] == "ok") & digits.notna()
    choices = g["choices_agree"] if "choices_agree" in g else pd.Series([None] * len(g))
    compared = [bool(v) for v in choices if v is not None and not (isinstance(v, float) and math.isnan(v))]
    return {"rungs": len(g), "measured": int(ok.sum()),
            "min_digits": float(digits[ok].min()) if ok.any() else math.nan,
            "holds": bool(ok.all() and digits.min() >= MEASURED_DIGITS),
            "kappa_max": float(pd.to_numeric(g["problem_condition"], errors="coerce").max()),
            "exact_min": float(pd.to_numeric(g["exact_digits"], errors="coerce").min()),
            "capped": bool(g.get("model_digits_capped", pd.Series([False])).fillna(False).astype(bool).any()),
            "choices": None if not compared else all(compared),
            "statuses": ", ".join(sorted(set(g["status"]) - {"ok"}))}


def _sure(c: dict) -> str:
    doubts = []
    if c["min_digits"] < MEASURED_DIGITS + 1:
        doubts.append(f"the weakest C keeps less than one digit above the {MEASURED_DIGITS:.0f}-digit threshold")
    if not c["capped"] and not c["exact_min"] > c["min_digits"] + 1:
        doubts.append(f"the exact model is certified to only {c['exact_min']:.1f} digits")
    if c["choices"] is False:
        doubts.append("its discrete choices differ from a wide run's (the digits are of its own choices)")
    if not doubts:
        return (f"sure: at least {c['min_digits'] - MEASURED_DIGITS:.1f} digits of margin on every C, "
                f"against an exact model certified to {c['exact_min']:.0f} or more digits")
    return "borderline: " + "; ".join(doubts)


def _precisions_text(cells) -> str:
    names = [str(c["precision"]) for c in cells if isinstance(c["precision"], str) and c["precision"]]
    return ", ".join(dict.fromkeys(names)) or "any precision"


def _failures(rows: pd.DataFrame) -> str:
    """"; every fit ended in error: <first message>" when no fit of the solver finished."""
    bad = rows[rows["status"] != "ok"] if "status" in rows else rows.iloc[:0]
    if not len(bad) or len(bad) < len(rows):
        return ""
    msg = str(bad["message"].iloc[0]).splitlines()[0][:160] if "message" in bad and len(bad) else ""
    statuses = ", ".join(sorted(set(bad["status"].astype(str))))
    return f"; every fit ended with status {statuses}" + (f": {msg}" if msg else "")


#: Said next to a reduced or sparse solver's digits.
REDUCED_NOTE = ("digits against its own reduced problem (the {k} support points / columns it chose of {n}), "
                "not the full LS-SVM")


def model_kind(rows: pd.DataFrame) -> tuple[str, str]:
    """``("full", "")`` when a solver's fits keep every training point in the model, else
    ``("reduced", "; " + REDUCED_NOTE)``: its exact model is the LS-SVM restricted to the support
    points or kernel columns it chose (frozen), so its digits say how well it solves *that* problem.
    Read from the records: the median ``n_support`` of its finished fits below ``n_train``."""
    if "n_support" not in rows or "n_train" not in rows:
        return "full", ""
    ok = rows[rows["status"] == "ok"] if "status" in rows else rows
    k = pd.to_numeric(ok["n_support"], errors="coerce").dropna()
    n = pd.to_numeric(ok["n_train"], errors="coerce").dropna()
    if not len(k) or not len(n) or k.median() >= n.max():
        return "full", ""
    return "reduced", "; " + REDUCED_NOTE.format(k=f"{k.median():.0f}" if k.min() == k.max()
                                                 else f"{k.min():.0f}-{k.max():.0f}", n=f"{n.max():.0f}")


def answers(frame: pd.DataFrame) -> pd.DataFrame:
    """One verdict per solver of a tidy frame (module docstring): ``solver``, ``model`` ("full" or
    "reduced", :func:`model_kind`), ``form``, ``precision`` (empty when nothing holds), ``min_digits``,
    ``kappa_max``, ``sure``, ``sentence`` (a reduced solver's says what its digits are measured against)."""
    out = []
    if not len(frame):
        return pd.DataFrame(columns=["solver", "model", "form", "precision", "min_digits", "kappa_max", "sure",
                                     "sentence"])
    for solver, rows in frame.groupby("solver", sort=False):
        kind, note = model_kind(rows)
        cells = []
        for (config, prec), g in rows.groupby(["configuration", "precision"], sort=False):
            cells.append({"form": config, "precision": prec, "literal": bool(g["literal"].any()), **_cell(g)})
        cells.sort(key=lambda c: (precision_order(c["precision"]), -np.nan_to_num(c["min_digits"], nan=-1e9),
                                  c["literal"]))
        held = [c for c in cells if c["holds"]]
        ladder = f"C in [{rows['C'].min():.3g}, {rows['C'].max():.3g}]" if "C" in rows else "the ladder"
        if held:
            best = held[0]
            printed = [c for c in cells if c["literal"] and c["precision"] == best["precision"]]
            extra = ""
            if printed and not best["literal"]:
                p = printed[0]
                extra = (f"; the printed form {p['form']} keeps {p['min_digits']:.1f} there" if p["measured"] == p["rungs"]
                         else f"; the printed form {p['form']} is not measured on every C there ({p['statuses'] or 'no exact model'})")
            sure = _sure(best)
            sentence = (f"{solver}: use {best['form']}{' (the printed form)' if best['literal'] else ''} in "
                        f"{best['precision']}: it keeps at least {best['min_digits']:.1f} correct digits of the exact "
                        f"model on every {ladder} (problem kappa up to {best['kappa_max']:.2g}){extra}; {sure}.")
            out.append({"solver": solver, "model": kind, "form": best["form"], "precision": best["precision"],
                        "min_digits": best["min_digits"], "kappa_max": best["kappa_max"],
                        "sure": sure.split(":")[0], "sentence": sentence[:-1] + note + "."})
        else:
            measured = [c for c in cells if c["measured"]]
            top = max(measured, key=lambda c: c["min_digits"]) if measured else None
            best_text = (f"best: {top['form']} in {top['precision']}, {top['min_digits']:.1f} digits at its weakest "
                         f"measured C, {top['measured']} of {top['rungs']} C measured" if top else "no fit was measured")
            out.append({"solver": solver, "model": kind, "form": "", "precision": "", "min_digits": math.nan,
                        "kappa_max": math.nan, "sure": "none",
                        "sentence": f"{solver}: no form keeps {MEASURED_DIGITS:.0f} correct digits on every {ladder} "
                                    f"in {_precisions_text(cells)} on these data ({best_text}{_failures(rows)})"
                                    f"{note}."})
    return pd.DataFrame(out)


#: Pairs of distinct points the median heuristic samples (seeded) when there are more pairs than this:
#: the memory is O(n + SIGMA2_PAIRS), never the n x n distance matrix.
SIGMA2_PAIRS = 20_000

#: The seconds ``compare`` plans for by default (on all the workers together, estimated up front).
TIME_BUDGET = 60.0

#: CPU seconds of one fit task of ``compare`` (the fit, its exact model formed in double-double and
#: certified, the model and prediction digits on the test points, the store's row): a + b m^2 + c m^3
#: with m = n_train + 1, by precision.  Measured (``resource.getrusage``, one process, OpenBLAS 1
#: thread) over the default forms of the regression solvers (29) on the ladder 0.01, 10, 1e4, at
#: n_train = 75, 188, 375 (mp50: 30, 60, 90): per fit 0.016, 0.031, 0.070 s in float32; 0.017, 0.039,
#: 0.117 in float64; 0.022, 0.087, 0.330 in longdouble; mp50 0.060, 0.18, 0.46.  a is the fixed
#: cost of a task (validation, the exact model's set-up, the store), b the O(m^2) work (the kernel in
#: double-double, the test predictions in balls), c the factorizations; float32/float64 measured no
#: m^3 term up to 375, c = 1e-10 is a dense factorization's m^3/3 flops at ~3 GFlop/s, for larger m.
_TASK_SECONDS = {"float32": (0.0142, 3.8e-7, 1e-10), "float64": (0.0124, 7.1e-7, 1e-10),
                 "longdouble": (0.0102, 2.04e-6, 5.85e-10), "mp50": (0.030, 1.95e-5, 3.57e-7)}
#: ``all_forms=True`` (every variant): the average task costs this many times a default form's, by
#: precision (measured as above: float32/float64 within noise of 1 at n_train = 75-375; longdouble
#: 0.209 against 0.087 s at n_train = 188, the eigen solve of r-lssvm-w/-y in longdouble; mp50 not
#: measured, taken as longdouble's).  A lower bound at larger n (that eigen solve is m^3).
_ALL_FORMS_FACTOR = {"float32": 1.0, "float64": 1.0, "longdouble": 2.4, "mp50": 2.4}
#: Seconds of a run besides its tasks: worker start-up, the data's registration, the figures and page.
_RUN_SECONDS = 5.0
#: Words of the exact model (double-double n x n and its factor, a few copies): per (n+1)^2.
_EXACT_WORDS = 12.0


def task_seconds(precision: str, n_train: int, *, all_forms: bool = False) -> float:
    """Estimated CPU seconds of one ``compare`` fit task (:data:`_TASK_SECONDS`) at ``n_train``
    training points: mpN scales mp50's by N / 50 (the digits of its arithmetic).

    An aggregate over the solvers of a task, not a per-solver model: it adds what ``compare`` does
    besides the fit (the exact model in double-double and its certificate, the digits, the store) to
    the average fit, for the plan of a whole run.  The per-solver models
    (``SolverInfo.time``, :mod:`lssvm_analysis.linalg.cost`) estimate one fit alone, for
    ``la.fit(..., max_seconds=...)``; ``compare``'s tasks run inside the sweep runner's
    ``protocol_scope``, so that limit never refuses them: this plan decides what runs.
    """
    p = get_precision(precision)
    key = p.name if p.name in _TASK_SECONDS else ("mp50" if not p.hardware and p.name != "longdouble"
                                                  else "float32" if p.unit_roundoff > 1e-10 else "float64")
    a, b, c = _TASK_SECONDS[key]
    m = n_train + 1.0
    scale = max(1.0, p.digits / 50.0) if key == "mp50" else 1.0
    return (a + b * m * m + c * m ** 3) * scale * (_ALL_FORMS_FACTOR[key] if all_forms else 1.0)


def median_sigma2(X: np.ndarray, *, seed: int = 0, pairs: int = SIGMA2_PAIRS) -> float:
    """The median heuristic for the RBF width: the median squared distance between distinct points.

    Every pair when there are at most ``pairs`` of them, else ``pairs`` pairs drawn uniformly (seeded):
    O(n + pairs) memory and time (a 50,000-row set needs no 50,000 x 50,000 matrix).  1.0 when all
    points coincide.
    """
    X = np.asarray(X, dtype=np.float64)
    n = len(X)
    if n < 2:
        return 1.0
    if n * (n - 1) // 2 <= pairs:
        i, j = np.triu_indices(n, 1)
    else:
        rng = np.random.default_rng(seed)
        i = rng.integers(0, n, pairs)
        j = (i + rng.integers(1, n, pairs)) % n          # j != i, uniform over the others
    d2 = ((X[i] - X[j]) ** 2).sum(axis=1)
    med = float(np.median(d2))
    return med if med > 0 else 1.0


@dataclass(frozen=True)
class SizePlan:
    """What ``compare`` will run, decided before any work (:func:`plan_size`).

    ``rows`` of the data to use (all of them unless subsampled), ``precisions`` kept, the estimated
    ``seconds`` and peak ``bytes`` of the largest fit, ``action`` ("run", "subsample" or "refuse")
    and ``line``: the one line that says so (empty for a plain run).
    """

    rows: int
    precisions: tuple
    seconds: float
    bytes: float
    action: str
    line: str


def _estimate(n_train: int, solvers, configs: int, precisions, n_C: int, workers: int,
              all_forms: bool = False) -> tuple[float, float]:
    """(estimated seconds on ``workers`` idle cores, peak bytes of the largest fit) for a compare run."""
    m = n_train + 1
    secs, peak = 0.0, _EXACT_WORDS * m * m * 8
    for p in precisions:
        prec = get_precision(p)
        secs += configs * n_C * task_seconds(prec.name, n_train, all_forms=all_forms)
        for name in solvers:
            info = get_solver(name)
            if info.peak is not None:
                peak = max(peak, info.peak.words(n_train, prec.name, r=n_train) * bytes_per_word(prec.name))
    return _RUN_SECONDS + secs / max(1, workers), peak


def plan_size(n_rows: int, *, train_fraction: float, solvers, configs: int, precisions, n_C: int,
              workers: int = 1, budget: float = TIME_BUDGET, available: float | None = None,
              max_rows="auto", drop_precisions=("mp",), all_forms: bool = False) -> SizePlan:
    """Decide, before any work, what a ``compare`` of ``n_rows`` rows runs (:class:`SizePlan`).

    Within ``budget`` seconds (estimated) and ``available`` bytes: run.  Otherwise first the
    precisions of the kinds in ``drop_precisions`` (mpN by default, when the caller did not ask for
    them) are left out, then the rows are subsampled to the largest number that fits (at least 20);
    with ``max_rows=None`` nothing is subsampled and the plan is "refuse".  An int ``max_rows`` caps the
    rows whatever the estimate.
    """

    available = psutil.virtual_memory().available * 0.5 if available is None else available
    precs = tuple(precisions)

    def cost(rows, ps):
        return _estimate(max(2, int(rows * train_fraction)), solvers, configs, ps, n_C, workers, all_forms)

    secs, peak = cost(n_rows, precs)
    dropped = ()
    if secs > budget and drop_precisions:
        keep = tuple(p for p in precs if not (get_precision(p).name.startswith("mp") and "mp" in drop_precisions))
        if keep and keep != precs:
            dropped = tuple(p for p in precs if p not in keep)
            precs = keep
            secs, peak = cost(n_rows, precs)
    note = f" ({', '.join(dropped)} left out: beyond the time budget at this size)" if dropped else ""
    cap = n_rows if max_rows in ("auto", None) else min(n_rows, int(max_rows))
    fits = secs <= budget and peak <= available and cap == n_rows
    if fits:
        return SizePlan(n_rows, precs, secs, peak, "run", f"compare: {n_rows} rows{note}" if dropped else "")
    est = f"~{human_time(secs)} and ~{peak / 2 ** 30:.3g} GiB per fit estimated for all {n_rows} rows"
    if max_rows is None:
        return SizePlan(n_rows, precs, secs, peak, "refuse",
                        f"compare: refused: {est}, beyond the {human_time(budget)} budget or "
                        f"{available / 2 ** 30:.3g} GiB available; subsample the rows or give a larger budget")
    lo, hi = 20, cap
    while lo < hi:  # the largest row count within budget and memory
        mid = (lo + hi + 1) // 2
        s, b = cost(mid, precs)
        lo, hi = (mid, hi) if s <= budget and b <= available else (lo, mid - 1)
    rows = min(lo, cap)
    s, b = cost(rows, precs)
    return SizePlan(rows, precs, s, b, "subsample",
                    f"compare: subsampled to {rows} of {n_rows} rows (seeded; {est}; "
                    f"~{human_time(s)} for {rows}){note}")


def number_text(c: float) -> str:
    """A C value as a reader writes it: 0.01, 10, 1e4 (not 1e+04)."""
    text = f"{c:.3g}"
    return text.replace("e+0", "e").replace("e+", "e").replace("e-0", "e-")


def human_time(seconds: float) -> str:
    """``"42 s"``, ``"8 min"`` or ``"2.5 h"``."""
    if seconds < 120:
        return f"{seconds:.0f} s"
    if seconds < 7200:
        return f"{seconds / 60:.0f} min"
    return f"{seconds / 3600:.3g} h"


def headline(frame: pd.DataFrame, verdicts: pd.DataFrame) -> str:
    """The one answer for the data: which form to use in which precision, and where the others lose
    digits.  The answer is the cheapest precision in which a form of a full-model solver holds (the
    most digits there; a reduced solver's only when no full one holds, said so); then, for each
    precision run, how many forms keep fewer than :data:`MEASURED_DIGITS` digits on some C (or
    were not measured there), the three weakest named with their digits and C."""
    if not len(verdicts):
        return "No fit was run on these data."
    held = verdicts[verdicts["precision"].astype(str) != ""].copy()
    if len(held):
        held["_p"] = held["precision"].map(precision_order)
        held["_r"] = (held["model"] != "full").astype(int) if "model" in held else 0
        best = held.sort_values(["_r", "_p", "min_digits"], ascending=[True, True, False]).iloc[0]
        reduced = best.get("model", "full") != "full"
        answer = (f"Use {best['form']} in {best['precision']} on these data: it keeps at least "
                  f"{best['min_digits']:.1f} correct digits of its exact model on every C of the ladder (problem "
                  f"kappa up to {best['kappa_max']:.2g})"
                  + (" -- a reduced solver's, measured against its own reduced problem: no full-model solver holds"
                     if reduced else "") + ".")
    else:
        answer = (f"No form keeps {MEASURED_DIGITS:.0f} correct digits on every C in any precision run on "
                  "these data (each solver's best is in its sentence below).")
    return answer + " " + _losses(frame)


def _losses(frame: pd.DataFrame) -> str:
    """Where the forms lose digits, precision by precision (see :func:`headline`)."""
    if not len(frame):
        return ""
    parts = []
    digits = pd.to_numeric(frame["model_digits"], errors="coerce")
    df = frame.assign(_d=digits.where(frame["status"] == "ok"))
    for prec in sorted(df["precision"].unique(), key=precision_order):
        g = df[df["precision"] == prec]
        worst = []
        for config, h in g.groupby("configuration", sort=False):
            if h["_d"].notna().all() and h["_d"].min() >= MEASURED_DIGITS:
                continue
            i = h["_d"].fillna(-1.0).idxmin()
            worst.append((float(h["_d"].fillna(-1.0).min()), config, float(h.loc[i, "C"])))
        n = g["configuration"].nunique()
        if not worst:
            parts.append(f"in {prec} every form keeps {MEASURED_DIGITS:.0f} or more on every C")
            continue
        worst.sort()
        named = ", ".join(f"{c} {'not measured' if d < 0 else f'{d:.1f}'} at C = {number_text(C)}"
                          for d, c, C in worst[:3])
        parts.append(f"in {prec} {len(worst)} of {n} forms keep fewer than {MEASURED_DIGITS:.0f} digits on some C "
                     f"(weakest: {named}{', ...' if len(worst) > 3 else ''})")
    return "Where the others lose digits: " + "; ".join(parts) + "."
