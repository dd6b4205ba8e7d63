"""The answer grid of :mod:`.sections_digits` as the page shows it: an HTML table (:func:`grid_ref`)
and a PNG to download (:func:`grid_figure`), from the cells :mod:`.digits_grid` computes; and which
configurations leave the grid (:func:`unmeasured_rows`).  :func:`lssvm_analysis.compare` draws the same
grid; the names are importable from :mod:`.sections_digits` as well.
"""
from __future__ import annotations

import numpy as np
import pandas as pd
from matplotlib.patches import Patch, Rectangle

from ..arith.precision import get_precision
from ..experiments.fit_kind import DEFAULT_CHOICES_PRECISION
from . import digits_grid as dg
from .figures import FigureRef, new_figure, save_figure, save_table
from .html import GRID_COLOURS, GridRef

__all__ = ["grid_figure", "grid_ref", "unmeasured_rows", "GRID_CAPTION"]



def _class_colour(c) -> str:
    """The cell's background in the PNG: the same class colours as the HTML grid."""
    return GRID_COLOURS[_grid_class(c).split()[0]][0]


def grid_figure(out, cells, table) -> FigureRef:
    """The grid as a PNG (``digits-grid.png``) to download beside the HTML table the page shows
    (the report's section and :func:`lssvm_analysis.compare`), in the same colour classes."""
    precs = [c for c in table.columns if c != "solver [variant]"]
    labels = list(table["solver [variant]"])
    bare = [s.removesuffix(" (printed)") for s in labels]
    fig, axs = new_figure(1, 1, width=3.2 + 2.3 * len(precs), height=1.4 + 0.32 * len(labels))
    a = axs[0, 0]
    for i, conf in enumerate(bare):
        for j, prec in enumerate(precs):
            c = cells[(cells.configuration == conf) & (cells.precision == prec)]
            c = c.iloc[0] if len(c) else None
            bg, fg = (GRID_COLOURS["g-na"][:2] if c is None else GRID_COLOURS[_grid_class(c).split()[0]][:2])
            a.add_patch(Rectangle((j, i), 1, 1, facecolor=bg, edgecolor="white",
                                  hatch="//" if c is not None and bool(c.whole) else None))
            a.text(j + 0.5, i + 0.5, "—" if c is None else _short(c), ha="center", va="center", fontsize=7,
                   color=fg)
    a.set_xlim(0, len(precs))
    a.set_ylim(len(labels), 0)
    a.set_xticks(np.arange(len(precs)) + 0.5, [_head(p) for p in precs])
    a.xaxis.tick_top()
    a.xaxis.set_label_position("top")
    a.set_yticks(np.arange(len(labels)) + 0.5, labels, fontsize=7)
    a.set_xlabel("precision (unit roundoff u)")
    a.set_ylabel("solver [variant]")
    handles = [Patch(facecolor=GRID_COLOURS[k][0], edgecolor="0.5", label=GRID_COLOURS[k][2]) for k in GRID_COLOURS]
    handles.append(Patch(facecolor="white", edgecolor="0.5", hatch="//", label="ladder ends: no rung failed"))
    fig.legend(handles=handles, loc="outside lower center", fontsize=7, ncol=3)
    return save_figure(fig, cells, out, "digits-grid",
                       "Which formulation, in which precision: per solver [variant] and precision, the bracket "
                       "'κ passed → κ failed' (the last problem κ at which the model keeps ≥ 3 correct digits "
                       "against the exact model, then the first rung that does not; '→ end' with hatching: the "
                       "ladder ends before the cell fails, so the limit is above). Colour: the decade of the κ "
                       "reached, one scale for the whole table (viridis, lighter = larger κ).")


def _short(c) -> str:
    """The PNG cell's text: 'κ passed → κ failed' ('→ end' when the ladder ends first, '✗ κ' at rung 1)."""
    if c.text == "not measured":
        return "n/m"
    if not np.isfinite(c.kappa_ok):
        return f"✗ {dg.kappa_text(float(c.fails_at))}"
    lo, hi = dg.kappa_bracket(float(c.kappa_ok), float(c.fails_at))
    return f"{lo} → " + ("end" if c.whole else "?" if dg.UNCERTIFIED_TAIL in c.text else hi)


def _head(prec: str) -> str:
    """A column's head: the precision and its unit roundoff u."""
    try:
        return f"{prec} (u = {get_precision(prec).unit_roundoff:.1e})"
    except (KeyError, ValueError):
        return prec


def _grid_class(c) -> str:
    """The cell's colour class (:data:`~.html.GRID_COLOURS`) from the κ it reached only
    (:func:`~.digits_grid.colour_rank`), plus 'ends' when the ladder ends before the cell fails and
    'uncert' when the rungs above are not certified."""
    if c.text == "not measured":
        return "g-na"
    cls = f"g-c{dg.colour_rank(float(c.kappa_ok))}"
    return cls + (" ends" if bool(c.whole) else "") + (" uncert" if dg.UNCERTIFIED_TAIL in c.text else "")


def _digits(d) -> str:
    return f"{d + 0.0:.1f} digits".replace("-0.0 ", "0.0 ") if np.isfinite(d) else "no model"


def _grid_lines(c) -> str:
    """The cell's text, every number printed (none only in a tooltip): the last rung passed and its
    digits, the first rung failed and how (or that the ladder ends there), the slope, the notes."""
    text = c.text.split("; ladder cannot")[0].split("; choices differ")[0]
    head, _, tail = text.partition("; ")
    if c.text == "not measured":
        return "not measured"
    if not np.isfinite(c.kappa_ok):
        lines = [f"✗ {head}"]
    else:
        lo, hi = dg.kappa_bracket(float(c.kappa_ok), float(c.fails_at))
        lines = [f"to κ ≈ {lo}: {_digits(c.digits_ok)}"]
        if c.whole:
            lines.append("ladder ends there: no rung failed")
        elif tail == dg.UNCERTIFIED_TAIL:
            lines.append(f"above: {dg.UNCERTIFIED_TAIL}")
        else:
            at = f"κ ≈ {hi}" if np.isfinite(c.fails_at) else "the top rung (its κ unknown: every fit failed)"
            how = _digits(c.fail_digits) if c.fail_status == "ok" else (
                "breaks down" if c.fail_status == "breakdown" else c.fail_status)
            lines.append(f"✗ at {at}: {how}")
    slope = c.get("loss_per_decade", np.nan)
    if isinstance(slope, float) and np.isfinite(slope):
        lines[0] += f", −{slope:.1f}/decade"
    if isinstance(c.get("same_as", ""), str) and c.same_as:
        lines.append(c.same_as.split(":")[0] + ": " + ("same rung" if "same rung" in c.same_as else
                                                       "same breakdown" if "breakdown" in c.same_as
                                                       else "whole ladder too"))
    if "; choices differ" in c.text:
        lines.append(f"† choices differ from κ ≈ {dg.kappa_text(float(c.choices_differ_from))}")
    if isinstance(c.get("range_note", ""), str) and c.range_note:  # the row's ladder stays short (row_ranges)
        lines.append(f"‡ ladder cannot reach κ > {dg.kappa_text(float(c.row_kappa_top))} for this formulation")
    return "\n".join(lines)


def _grid_title(c) -> str:
    """Hover text (a repeat of the cell's text, never the only place of a number): the full sentence."""
    parts = [c.text]
    if isinstance(c.get("same_as", ""), str) and c.same_as:
        parts.append(c.same_as)
    return "; ".join(parts) + f" ({int(c.rungs)} rungs)"


#: The grid's caption: what every number and mark in a cell means.
GRID_CAPTION = (
    "Which formulation, in which precision: per solver [variant] (a printed form right after its stable "
    "partner, marked '(printed)') and precision (its unit roundoff u in the head). The first line of a cell "
    "is the last rung of the κ ladder passed: the largest problem κ up to which every rung keeps ≥ 3 correct "
    "digits of the model against the exact model, and the digits there. The second line is the first rung "
    "that fails, with its digits ('breaks down': a factorization breakdown; another status: no model), or "
    "'ladder ends there' (hatched, thick border): no rung failed, so the limit lies above the last rung "
    "and the cell is coloured by that rung like any other. '−x/decade': the digits lost per decade of κ, "
    "the least-squares slope of the digits against log₁₀ κ over the rungs passed (Higham's rule of thumb "
    "−log₁₀(κu) predicts 1), shown where the ladder has a slope. '✗' on the first line: the first rung "
    "already fails. Colour: the decade of the κ reached, one scale for the whole table. Dashed border or '" + dg.UNCERTIFIED_TAIL + "': the "
    "rungs above have an exact model certified to fewer than 3 digits. '†': the fits' discrete choices "
    f"differ from the {DEFAULT_CHOICES_PRECISION} run's. '‡': the row's ladder stops more than "
    f"{dg.RANGE_SLACK_DECADES:g} decades of κ below the widest row's; the sentence under the grid (also in the "
    "cell's title and in digits-grid.csv, column range_note) says, from the records, how much less its fits chose than its knob asked (a rank, a "
    "k*), or else what its ladder moved and the rung where it reached its top.")


def grid_ref(cells: pd.DataFrame, table: pd.DataFrame, out, png: str = "", notes=()) -> GridRef:
    """The answer grid as an HTML table (:class:`~.html.GridRef`), writing its cells to ``digits-grid.csv``
    (with each cell's colour class, ``colour_rank``: 0 no rung passed … 6 κ ≥ 1e15 reached)."""
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
    ranks = [dg.colour_rank(float(k)) if t != "not measured" else -1 for k, t in zip(cells.kappa_ok, cells.text)]
    ref = save_table(cells.assign(colour_rank=ranks), out, "digits-grid", "the grid's cells")
    return GridRef(frame, pd.DataFrame(classes, columns=cols), pd.DataFrame(titles, columns=cols), ref.csv,
                   GRID_CAPTION, png=png, notes=tuple(notes), header=("solver [variant]", *map(_head, precs)))


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
