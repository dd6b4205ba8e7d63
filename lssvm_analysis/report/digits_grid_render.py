"""The answer grid of :mod:`.sections_digits` as the page shows it: an HTML table (:func:`grid_ref`)
and a PNG to download (:func:`grid_figure`), from the cells :mod:`.digits_grid` computes; and which
configurations leave the grid (:func:`unmeasured_rows`).  :func:`lssvm_analysis.compare` draws the same
grid; the names are importable from :mod:`.sections_digits` as well.
"""
from __future__ import annotations

import matplotlib
import numpy as np
import pandas as pd
from matplotlib.patches import Patch, Rectangle

from ..experiments.fit_kind import DEFAULT_CHOICES_PRECISION
from . import digits_grid as dg
from .figures import FigureRef, fmt_num, new_figure, save_figure, save_table
from .html import GridRef

__all__ = ["grid_figure", "grid_ref", "unmeasured_rows"]

_NOT_MEASURED, _BREAKS = "0.85", "#d9534f"


def grid_figure(out, cells, table) -> FigureRef:
    """The grid as a PNG (``digits-grid.png``) to download beside the HTML table the page shows
    (the report's section and :func:`lssvm_analysis.compare`)."""
    precs = [c for c in table.columns if c != "solver [variant]"]
    labels = list(table["solver [variant]"])
    bare = [s.removesuffix(" (printed)") for s in labels]
    fig, axs = new_figure(1, 1, width=3.2 + 2.3 * len(precs), height=1.2 + 0.32 * len(labels))
    a = axs[0, 0]
    cmap = matplotlib.colormaps["viridis"]
    for i, conf in enumerate(bare):
        for j, prec in enumerate(precs):
            c = cells[(cells.configuration == conf) & (cells.precision == prec)]
            if not len(c):
                color, text, c = "white", "—", None
            else:
                c = c.iloc[0]
                text = c.text
                if np.isfinite(c.kappa_ok):
                    color = cmap(min(1.0, np.log10(c.kappa_ok) / 17.0))
                else:
                    color = _BREAKS if c.text != "not measured" else _NOT_MEASURED
            a.add_patch(Rectangle((j, i), 1, 1, color=color))
            # the figure marks a cell whose choices differ from the wide run's with a dagger (the
            # kappa where they start is in the cell's text of the table and of digits-grid.csv)
            text = text.split("; choices differ")[0] + (" †" if "; choices differ" in text else "")
            short = text.split("; ")[0].replace("≥ 3 digits to ", "≤ ")
            if c is not None and len(c) and bool(c.whole):
                short = short.replace("whole ladder: ≤ ", "≤ ") + "+"
            elif dg.UNCERTIFIED_TAIL in text:
                short += "*"
            a.text(j + 0.5, i + 0.5, short,
                   ha="center", va="center", fontsize=7, color="white" if color not in ("white", _NOT_MEASURED)
                   else "black")
    a.set_xlim(0, len(precs))
    a.set_ylim(len(labels), 0)
    a.set_xticks(np.arange(len(precs)) + 0.5, precs)
    a.xaxis.tick_top()
    a.xaxis.set_label_position("top")
    a.set_yticks(np.arange(len(labels)) + 0.5, labels, fontsize=7)
    a.set_xlabel("precision")
    a.set_ylabel("solver [variant]")
    handles = [Patch(color=cmap(0.2), label="≤ κ: ≥ 3 digits up to this problem κ (yellow: larger)"),
               Patch(color=_BREAKS, label="fails on the first rung (breakdown, no model or < 3 digits)"),
               Patch(color=_NOT_MEASURED, label="not measured (no model digits)"),
               Patch(color="white", label=f"†: choices differ from the {DEFAULT_CHOICES_PRECISION} run's from some κ on")]
    a.legend(handles=handles, loc="upper center", bbox_to_anchor=(0.5, -0.02), fontsize=7, ncol=1)
    return save_figure(fig, cells, out, "digits-grid",
                           "Which formulation, in which precision: per solver [variant] (printed forms "
                           "marked and placed after their stable partner) and precision, the largest "
                           "problem κ up to which the model keeps ≥ 3 correct digits against the exact "
                           "model (≤ κ; '+' = the whole ladder; '*' = every rung above is not measured: its "
                           "exact model is certified to fewer than 3 digits), or the κ of the first rung where it "
                           "does not; '†' = the fits' discrete choices (support, columns, k*, pivots) differ "
                           f"from those of the {DEFAULT_CHOICES_PRECISION} run from some κ on (the table gives it): "
                           "their digits are "
                           "measured for the choices they made. Colour: log₁₀ of that κ.")


def _grid_class(c) -> str:
    """The cell's colour class (:data:`~.html.GRID_COLOURS`): how far up the ladder it holds."""
    if c.text == "not measured":
        return "g-na"
    if c.whole:
        return "g-whole"
    k = c.kappa_ok
    if not np.isfinite(k):
        return "g-fail"
    cls = "g-k12" if k >= 1e12 else "g-k8" if k >= 1e8 else "g-k4" if k >= 1e4 else "g-k0"
    return cls + (" uncert" if dg.UNCERTIFIED_TAIL in c.text else "")


def _grid_lines(c) -> str:
    """The cell's text: what holds (first line), how the next rung fails, why it equals its neighbour."""
    text = c.text.split("; choices differ")[0]
    head, _, tail = text.partition("; ")
    if c.whole:
        lines = ["✓ whole ladder", head.removeprefix("whole ladder: ")] + ([tail] if tail else [])
    elif np.isfinite(c.kappa_ok):
        lines = [f"≥ 3 digits to κ ≈ {dg.kappa_text(float(c.kappa_ok))}",
                 tail if tail == dg.UNCERTIFIED_TAIL else f"then {tail}"]
    elif c.text == "not measured":
        lines = ["not measured"]
    else:
        lines = [f"✗ {head}"]
    if isinstance(c.get("same_as", ""), str) and c.same_as:
        lines.append(c.same_as.split(":")[0] + ": " + ("same rung" if "same rung" in c.same_as else
                                                       "same breakdown" if "breakdown" in c.same_as
                                                       else "whole ladder too"))
    if "; choices differ" in c.text:
        lines.append(f"† choices differ from κ ≈ {dg.kappa_text(float(c.choices_differ_from))}")
    return "\n".join(lines)


def _grid_title(c) -> str:
    """Hover text: the full cell text, the digits at the top rung held and at the failing one."""
    parts = [c.text]
    if np.isfinite(c.get("digits_ok", np.nan)):
        parts.append(f"{fmt_num(c.digits_ok, 3)} model digits at κ ≈ {dg.kappa_text(float(c.kappa_ok))}")
    if isinstance(c.get("same_as", ""), str) and c.same_as:
        parts.append(c.same_as)
    return "; ".join(parts) + f" ({int(c.rungs)} rungs)"


def grid_ref(cells: pd.DataFrame, table: pd.DataFrame, out, png: str = "", notes=()) -> GridRef:
    """The answer grid as an HTML table (:class:`~.html.GridRef`), writing its cells to ``digits-grid.csv``."""
    precs = [c for c in table.columns if c != "solver [variant]"]
    labels = list(table["solver [variant]"])
    texts, classes, titles = [], [], []
    for label in labels:
        conf = label.removesuffix(" (printed)")
        row_t, row_c, row_h = [label], [""], [""]
        for prec in precs:
            c = cells[(cells.configuration == conf) & (cells.precision == prec)]
            if not len(c):
                row_t.append("—"), row_c.append("g-na"), row_h.append("not run in this precision")
                continue
            c = c.iloc[0]
            row_t.append(_grid_lines(c)), row_c.append(_grid_class(c)), row_h.append(_grid_title(c))
        texts.append(row_t), classes.append(row_c), titles.append(row_h)
    cols = ["solver [variant]", *precs]
    frame = pd.DataFrame(texts, columns=cols)
    ref = save_table(cells, out, "digits-grid", "the grid's cells")  # the PNG's data CSV too
    return GridRef(frame, pd.DataFrame(classes, columns=cols), pd.DataFrame(titles, columns=cols), ref.csv,
                   "Which formulation, in which precision: per solver [variant] (a printed form right after its "
                   "stable partner) and precision, the largest problem κ up to which the model keeps ≥ 3 "
                   "correct digits against the exact model, then how the next rung fails ('breaks down' only "
                   "for a factorization breakdown); '✓ whole ladder' when no rung fails; a dashed border or "
                   f"'{dg.UNCERTIFIED_TAIL}': the rungs above have an exact model certified to fewer than 3 "
                   f"digits; '†': the fits' discrete choices differ from the {DEFAULT_CHOICES_PRECISION} run's "
                   "(hover a cell for its digits)", png=png, notes=tuple(notes))


def unmeasured_rows(cells: pd.DataFrame) -> tuple[pd.DataFrame, str]:
    """(the cells of the configurations with at least one measured cell, a sentence naming the others).

    A solver without an exact model (LIBSVM's QP: svm-c, svm-eps) has no model digits in any
    precision; its row would carry nothing, so the grid leaves it out and says why.
    """
    if not len(cells):
        return cells, ""
    measured = cells.groupby("configuration")["text"].transform(lambda t: (t != "not measured").any())
    gone = list(dict.fromkeys(cells.configuration[~measured.astype(bool)]))
    if not gone or not measured.astype(bool).any():  # nothing measured at all: the grid says so itself
        return cells, ""
    return cells[measured.astype(bool)], (f"Not in the grid: {', '.join(gone)}: no exact model (no model digits "
                                          "in any precision), so no row of the grid can be measured for them.")
