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

import numpy as np
import pandas as pd

from ..arith.precision import get_precision
from ..solvers import get_solver, solvers
from .model_error import MEASURED_DIGITS

__all__ = ["DEFAULT_PRECISIONS", "TIDY_COLUMNS", "default_solvers", "tidy", "answers", "precision_order"]

#: The precisions ``compare`` runs by default.
DEFAULT_PRECISIONS = ("float32", "float64", "longdouble", "mp50")

#: The columns of the tidy frame, in order (those a sweep did not record are left out).
TIDY_COLUMNS = ("solver", "configuration", "literal", "precision", "C", "sigma2", "status", "model_digits",
                "model_digits_capped", "prediction_digits", "problem_condition", "exact_digits",
                "choices_agree", "test_rmse", "test_mae", "test_error_rate", "time_fit", "exact_method",
                "exact_note", "message")


def default_solvers(task: str) -> list[str]:
    """Every registered solver of ``task`` with an exact model and no keyword a grid cannot give."""
    return [n for n in solvers(task) if get_solver(n).exact_model is not None and not get_solver(n).required]


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


def answers(frame: pd.DataFrame) -> pd.DataFrame:
    """One verdict per solver of a tidy frame (module docstring): ``solver``, ``form``,
    ``precision`` (empty when nothing holds), ``min_digits``, ``kappa_max``, ``sure``, ``sentence``."""
    out = []
    if not len(frame):
        return pd.DataFrame(columns=["solver", "form", "precision", "min_digits", "kappa_max", "sure", "sentence"])
    for solver, rows in frame.groupby("solver", sort=False):
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
            out.append({"solver": solver, "form": best["form"], "precision": best["precision"],
                        "min_digits": best["min_digits"], "kappa_max": best["kappa_max"],
                        "sure": sure.split(":")[0], "sentence": sentence})
        else:
            measured = [c for c in cells if c["measured"]]
            top = max(measured, key=lambda c: c["min_digits"]) if measured else None
            best_text = (f"best: {top['form']} in {top['precision']}, {top['min_digits']:.1f} digits at its weakest "
                         f"measured C, {top['measured']} of {top['rungs']} C measured" if top else "no fit was measured")
            out.append({"solver": solver, "form": "", "precision": "", "min_digits": math.nan,
                        "kappa_max": math.nan, "sure": "none",
                        "sentence": f"{solver}: no form keeps {MEASURED_DIGITS:.0f} correct digits on every {ladder} "
                                    f"in {', '.join(dict.fromkeys(c['precision'] for c in cells))} on these data "
                                    f"({best_text})."})
    return pd.DataFrame(out)
