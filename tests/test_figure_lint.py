"""Figure lint: every figure the report draws is readable at the size the page shows it.

Every registered section is planned and rendered on the "quick" profile into
a store under ``tmp_path`` (the ``render_section`` fixture), with
``Figure.savefig`` wrapped so that each figure is checked, through
matplotlib's own text and artist extents, right after it is written:

* **no overlapping text**: the tight extents of titles, axis labels, tick
  labels, figure legends and the suptitle do not intersect, within an axes
  (title, x label, y label; neighbouring tick labels) or across axes (a
  text of one axes against the texts and the plotting area of another);
* **nothing clipped**: every such extent lies inside the canvas;
* **readable at the displayed size**: the PNG is at most ``MAX_WIDE`` times
  wider than tall, and its smallest text, scaled to the page's figure column
  (``html.FIGURE_WIDTH_PX``), is at least ``MIN_TEXT_PX`` CSS pixels high;
* **distinguishable legends**: no two entries of one legend are drawn alike
  (same colour, marker and line style; same face colour and hatch for bars);
* **no hidden series**: no series lies entirely under one drawn later
  (every marker of it inside a marker of the other, or every vertex of a
  line on the other's line at least as wide);
* **one marker, one meaning** (issue 34): across one figure, two legend entries
  with different labels never share a marker (shape, edge and face colour)
  unless their lines tell them apart; an axes legend is read together with the
  figure's legends (the precision key of ``precision-breakdown-maps-*`` gave
  float32 and mp50 the same open circle);
* **fill is never the only difference**: no two legend entries, and no two
  series of one panel, differ only in one marker being unfilled (an open and a
  filled circle of one colour are one symbol at printed size);
* **one key for the report**: a legend entry naming one precision is drawn in
  that precision's colour and marker (``figures.precision_style``), a breakdown
  as the reserved filled cross (``figures.breakdown_style``), so a red circle
  means float32 in every figure;
* **one key for the solvers**: a legend entry naming registered solvers of one
  family is drawn in that family's colour and marker (``figures.solver_style``,
  the family read from the registry); and an entry that names no precision is not
  drawn in a precision's colour (``cz-fig3`` drew class +1 in float64's blue,
  matplotlib's default cycle gave other series float64's blue and longdouble's
  green).  Since every figure's entries follow the one key, across the report one
  precision never gets two colours and one solver family never gets two
  (``test_one_colour_and_marker_per_family_across_the_report`` checks the key itself);
* **no legend over data**: an axes legend's frame covers no marker, line, scatter
  point or bar its axes shows, nor its axes' title, axis labels or tick labels;
* **at most** ``MAX_SERIES`` **overlaid series of one kind per panel**: the curves
  (series drawn with a line, in data coordinates) of one colour differ in at most that many (line style, marker) styles, and
  those of one style in at most that many colours.

* **a line style shows at legend size** (issue 41): two entries of one legend with the
  same colour and marker that differ only in line style show at least one whole dash
  period on each side of the marker (``abe-crossover``'s "as-described", dashed, and
  "blas3" were one handle at handlelength 2 and 7 pt);
* **no curve under a figure legend** (issue 41): a figure legend placed over an axes
  covers none of its markers or lines (``legend over data`` for axes legends);
* **a breakdown is drawn** (issue 41): a digits figure (its data have a ``*digits``
  column) whose data hold fits that returned no model draws the breakdown cross
  (``figures.mark_failures``); a curve that stops reads as "not run".

The lint itself is checked first on figures built to fail each rule, so a
rule that stopped detecting anything would fail here rather than pass
silently.
"""
from __future__ import annotations

import itertools
import re

import matplotlib.colors as mcolors
import matplotlib.pyplot as plt
import matplotlib.image as mimage
import matplotlib.transforms as mtransforms
import numpy as np
import pandas as pd
import pytest
from matplotlib.collections import PathCollection
from matplotlib.figure import Figure
from matplotlib.lines import Line2D
from matplotlib.patches import Patch
from matplotlib.text import Text

from lssvm_analysis.arith.precision import precisions
from lssvm_analysis.report import report_sections, sections_appendix, sections_digits, sections_precision
from lssvm_analysis.report.figures import (ATTRIBUTE_COLORS, BREAKDOWN_MARKER, FAMILY_COLORS, breakdown_style,
                                           family_style, new_figure, panel_grid, place_legends, precision_color,
                                           precision_marker, precision_style, save_figure, series_style,
                                           solver_families, solver_family, solver_style)
from lssvm_analysis.report.html import FIGURE_WIDTH_PX, Section
from lssvm_analysis.solvers import get_solver, solvers

#: Smallest text height on screen, in CSS pixels, after the PNG (saved at SAVE_DPI) is scaled
#: to the figure column.  9 px is about 7 pt on a 96-dpi screen: below it the strokes that tell
#: 3 from 8, 1 from 7 and a subscript from its base merge at 1x pixel density (8 px and less
#: is what browsers' "minimum font size" settings exist to prevent).
MIN_TEXT_PX = 9.0
#: The report's PNG resolution (figures.save_figure writes 150 dpi).
SAVE_DPI = 150
#: Widest PNG, width / height.  Three panels of the report's usual 4.3 x 3.6 in side by side
#: are 3.6: a wider strip is one row too many squeezed into the column (the 11220 x 900 px
#: breakdown maps were 12.5 and showed 83 px tall); such figures must wrap into rows.
MAX_WIDE = 3.6
#: Overlap allowed between two text extents, in points: matplotlib's extents include the
#: glyphs' ascent/descent boxes, so boxes of adjacent lines of text may touch by a fraction of
#: a point without any ink overlapping.
OVERLAP_TOL_PT = 0.5
#: A text may stick out of the canvas by this much (antialiasing of the outermost glyph).
CLIP_TOL_PT = 0.5
#: Most curves of one kind (one colour, or one line style and marker) overlaid in one panel: four
#: line styles (solid, dashed, dotted, dash-dot) are what a reader tells apart at a glance.
MAX_SERIES = 4
#: A mark must reach this far into a legend's frame to count as covered, in pixels (the frame's
#: antialiased edge, and a line passing along it).
LEGEND_TOL_PX = 1.0


# --------------------------------------------------------------------------- the lint
def _visible_text(t) -> bool:
    return isinstance(t, Text) and t.get_visible() and bool(t.get_text().strip())


def _axes_texts(ax):
    """(name, Text) of an axes' titles, axis labels and visible tick labels."""
    titles = (ax.title, getattr(ax, "_left_title", None), getattr(ax, "_right_title", None))
    out = [("title", t) for t in titles if t is not None]
    out += [("x label", ax.xaxis.label), ("y label", ax.yaxis.label)]
    for name, axis in (("x tick label", ax.xaxis), ("y tick label", ax.yaxis)):
        scale = axis.get_transform()  # compare positions on the axis' scale (log axes)
        lo, hi = sorted(scale.transform(np.asarray(axis.get_view_interval(), float)))
        eps = 1e-9 * (hi - lo)
        for tick in axis.get_major_ticks():
            if tick.label1.get_visible() and lo - eps <= scale.transform([tick.get_loc()])[0] <= hi + eps:
                out.append((name, tick.label1))  # matplotlib does not draw ticks outside the view
    return [(n, t) for n, t in out if _visible_text(t)]


def _overlap(a, b, tol_px) -> bool:
    return (min(a.x1, b.x1) - max(a.x0, b.x0) > tol_px) and (min(a.y1, b.y1) - max(a.y0, b.y0) > tol_px)


def _text_problems(fig, renderer) -> list[str]:
    pt = fig.dpi / 72
    tol = OVERLAP_TOL_PT * pt
    axes = [a for a in fig.axes if a.get_visible()]
    boxes = {id(a): [(n, t.get_text(), t.get_window_extent(renderer)) for n, t in _axes_texts(a)]
             for a in axes}
    problems = []
    canvas = fig.bbox
    legends = [("legend", "figure legend", leg.get_window_extent(renderer)) for leg in fig.legends]
    if fig._suptitle is not None and _visible_text(fig._suptitle):
        legends.append(("suptitle", fig._suptitle.get_text(), fig._suptitle.get_window_extent(renderer)))
    for a in axes:
        if a.get_legend() is not None:
            legends.append(("legend", f"legend of {a.get_title()!r}", a.get_legend().get_window_extent(renderer)))
    everything = [b for a in axes for b in boxes[id(a)]] + legends
    for n, text, bb in everything:
        if (bb.x0 < canvas.x0 - CLIP_TOL_PT * pt or bb.y0 < canvas.y0 - CLIP_TOL_PT * pt
                or bb.x1 > canvas.x1 + CLIP_TOL_PT * pt or bb.y1 > canvas.y1 + CLIP_TOL_PT * pt):
            problems.append(f"{n} {text!r} is clipped by the canvas")
    for a in axes:  # within one axes: title / labels, and neighbouring tick labels
        own = boxes[id(a)]
        big = [b for b in own if "tick" not in b[0]]
        for (n1, t1, b1), (n2, t2, b2) in itertools.combinations(big, 2):
            if _overlap(b1, b2, tol):
                problems.append(f"{n1} {t1!r} overlaps {n2} {t2!r}")
        for kind in ("x tick label", "y tick label"):
            ticks = sorted((b for b in own if b[0] == kind), key=lambda b: (b[2].x0, b[2].y0))
            for (_, t1, b1), (_, t2, b2) in zip(ticks, ticks[1:]):
                if _overlap(b1, b2, tol):
                    problems.append(f"{kind}s {t1!r} and {t2!r} overlap (title {a.get_title()!r})")
    for a1, a2 in itertools.permutations(axes, 2):  # across axes (twins share their area)
        if np.allclose(a1.get_position().bounds, a2.get_position().bounds):
            continue
        area = a2.get_window_extent(renderer)
        for n1, t1, b1 in boxes[id(a1)]:
            if _overlap(b1, area, tol):
                problems.append(f"{n1} {t1!r} of {a1.get_title()!r} runs into the panel {a2.get_title()!r}")
            for n2, t2, b2 in boxes[id(a2)]:
                if id(a1) < id(a2) and _overlap(b1, b2, tol):
                    problems.append(f"{n1} {t1!r} of {a1.get_title()!r} overlaps {n2} {t2!r} "
                                    f"of {a2.get_title()!r}")
    for n1, t1, b1 in legends:  # figure legends and the suptitle against every axes
        for a in axes:
            if n1 == "legend" and a.get_legend() is not None and t1 == f"legend of {a.get_title()!r}":
                continue
            for n2, t2, b2 in boxes[id(a)] + [("panel", a.get_title(), a.get_window_extent(renderer))]:
                if _overlap(b1, b2, tol):
                    problems.append(f"{t1} overlaps {n2} {t2!r}")
    return problems


def _style(h) -> tuple:
    """What tells a legend entry from another: colours, marker, line style (bars: face and hatch)."""
    if isinstance(h, Line2D):
        ls = h.get_linestyle() if h.get_linewidth() > 0 else "None"
        marker = str(h.get_marker()) if h.get_marker() not in (None, "None", "", " ") else "None"
        return ("line", mcolors.to_hex(h.get_color()), marker,
                mcolors.to_hex(h.get_markerfacecolor()) if marker != "None" else "",
                "None" if ls in ("None", "none", "", " ") else ls)
    if isinstance(h, Patch):
        return ("patch", mcolors.to_hex(h.get_facecolor()), str(h.get_hatch()))
    if isinstance(h, PathCollection):
        fc = h.get_facecolor()
        return ("collection", mcolors.to_hex(fc[0]) if len(fc) else "none",
                str([p.vertices.round(2).tolist() for p in h.get_paths()[:1]]))
    return (type(h).__name__, id(h))


def _legend_problems(fig) -> list[str]:
    problems = []
    legends = list(fig.legends) + [a.get_legend() for a in fig.axes if a.get_legend() is not None]
    for leg in legends:
        labels = [t.get_text() for t in leg.get_texts()]
        seen = {}
        for h, lab in zip(leg.legend_handles, labels):
            key = _style(h)
            if key in seen:
                problems.append(f"legend entries {seen[key]!r} and {lab!r} are drawn alike {key}")
            seen.setdefault(key, lab)
    return problems


def _series(ax):
    """(label, display points, marker radius px or None, line width px or None, filled) in draw order."""
    pt = ax.figure.dpi / 72
    out = []
    artists = sorted([(l.get_zorder(), i, l) for i, l in enumerate(ax.get_lines())]
                     + [(c.get_zorder(), len(ax.lines) + i, c) for i, c in enumerate(ax.collections)
                        if isinstance(c, PathCollection)], key=lambda t: (t[0], t[1]))
    for _, _, art in artists:
        if not art.get_visible() or (art.get_alpha() is not None and art.get_alpha() < 1):
            continue
        if isinstance(art, Line2D):
            xy = np.column_stack([np.asarray(art.get_xdata(), float), np.asarray(art.get_ydata(), float)])
            has_marker = art.get_marker() not in (None, "None", "", " ")
            r = art.get_markersize() * pt / 2 if has_marker else None
            lw = art.get_linewidth() * pt if art.get_linestyle() not in ("None", "none", "", " ") else None
            filled = has_marker and art.get_fillstyle() == "full" and art.get_markerfacecolor() != "none" \
                and str(art.get_marker()) not in ("x", "+", "|", "_", "1", "2", "3", "4", ".", ",")
            trans = art.get_transform()
        else:
            xy, trans = np.asarray(art.get_offsets(), float), art.get_offset_transform()
            sizes = art.get_sizes()
            r = float(np.sqrt(sizes.min()) * pt / 2) if len(sizes) else None
            lw, filled = None, len(art.get_facecolor()) > 0
        xy = xy[np.isfinite(xy).all(axis=1)] if len(xy) else xy
        if not len(xy) or (r is None and lw is None):
            continue
        out.append((art.get_label(), trans.transform(xy), r, lw, filled))
    return out


def _hidden_problems(fig) -> list[str]:
    problems = []
    for ax in fig.axes:
        series = _series(ax)
        for i, (lab, pts, r, lw, _) in enumerate(series):
            for lab2, pts2, r2, lw2, filled2 in series[i + 1:]:
                d = np.linalg.norm(pts[:, None, :] - pts2[None, :, :], axis=2).min(axis=1)
                covered_markers = r is None or (r2 is not None and filled2 and np.all(d + r <= r2 + 0.5))
                covered_line = lw is None or (lw2 is not None and lw2 >= lw and np.all(d <= 0.5))
                if covered_markers and covered_line and (r is not None or lw is not None):
                    problems.append(f"series {lab!r} is hidden under {lab2!r} in panel {ax.get_title()!r}")
                    break
    return problems


_NO_MARKER = (None, "None", "none", "", " ")
_NO_LINE = ("None", "none", "", " ")
_UNFILLED_MARKERS = ("x", "+", "|", "_", "1", "2", "3", "4", ".", ",")


def _marker_key(h):
    """(shape, edge colour, face colour or 'open') of a handle's marker; None without one."""
    if isinstance(h, Line2D):
        if h.get_marker() in _NO_MARKER:
            return None
        face = h.get_markerfacecolor()
        shape = str(h.get_marker())
        open_ = h.get_fillstyle() == "none" or shape in _UNFILLED_MARKERS or mcolors.to_rgba(face)[3] == 0
        return (shape, mcolors.to_hex(h.get_markeredgecolor()), "open" if open_ else mcolors.to_hex(face))
    if isinstance(h, PathCollection):
        fc, ec = h.get_facecolor(), h.get_edgecolor()
        return (str([p.vertices.round(2).tolist() for p in h.get_paths()[:1]]),
                mcolors.to_hex(ec[0]) if len(ec) else "none",
                mcolors.to_hex(fc[0]) if len(fc) and fc[0][3] > 0 else "open")
    return None


def _line_key(h):
    """(line style, colour) of a handle's line; None when it draws no line."""
    if isinstance(h, Line2D) and h.get_linewidth() > 0 and h.get_linestyle() not in _NO_LINE:
        return (str(h.get_linestyle()), mcolors.to_hex(h.get_color()))
    return None


def _legend_scopes(fig):
    """Lists of (label, handle) read together: each axes legend with the figure's legends."""
    figure = [(t.get_text(), h) for leg in fig.legends for h, t in zip(leg.legend_handles, leg.get_texts())]
    scopes = [[(t.get_text(), h) for h, t in zip(a.get_legend().legend_handles, a.get_legend().get_texts())]
              + figure for a in fig.axes if a.get_legend() is not None]
    return scopes or [figure]


def _marker_problems(fig) -> list[str]:
    """Equal markers for different labels, and fill as the only difference (legends and panels)."""
    problems = set()
    for scope in _legend_scopes(fig):
        for (l1, h1), (l2, h2) in itertools.combinations(scope, 2):
            m1, m2 = _marker_key(h1), _marker_key(h2)
            if l1 == l2 or m1 is None or m2 is None:
                continue
            k1, k2 = _line_key(h1), _line_key(h2)
            lines_differ = k1 is not None and k2 is not None and k1 != k2
            if m1 == m2 and not lines_differ:
                problems.add(f"legend entries {l1!r} and {l2!r} have the same marker {m1}")
            elif m1[:2] == m2[:2] and k1 == k2 and ("open" in (m1[2], m2[2])) and m1[2] != m2[2]:
                problems.add(f"legend entries {l1!r} and {l2!r} differ only in an unfilled marker {m1[:2]}")
    for ax in fig.axes:
        lines = [ln for ln in ax.get_lines() if ln.get_visible() and _marker_key(ln) is not None]
        for a, b in itertools.combinations(lines, 2):
            m1, m2 = _marker_key(a), _marker_key(b)
            if m1[:2] == m2[:2] and _line_key(a) == _line_key(b) and "open" in (m1[2], m2[2]) and m1[2] != m2[2]:
                problems.add(f"series {a.get_label()!r} and {b.get_label()!r} differ only in an unfilled "
                             f"marker {m1[:2]} (panel {ax.get_title()!r})")
    return sorted(problems)


def _solver_key_problems(fig) -> list[str]:
    """Legend entries naming registered solvers of one family but not drawn in its colour and marker;
    entries naming no precision (and no breakdown) drawn in a precision's colour."""
    names = solvers()
    prec_colours = {mcolors.to_hex(precision_color(p)): p for p in precisions()}
    problems = set()
    for scope in _legend_scopes(fig):
        for label, h in scope:
            if not isinstance(h, (Line2D, Patch)):
                continue
            color = mcolors.to_hex(h.get_color() if isinstance(h, Line2D) else h.get_facecolor())
            named = [n for n in names if re.search(rf"(?<![\w-]){re.escape(n)}(?![\w-])", label)]
            families = {solver_family(n) for n in named}
            if len(families) == 1:
                style = family_style(families.pop())
                marker = _marker_key(h)
                if color != mcolors.to_hex(style["color"]):
                    problems.add(f"entry {label!r} names solver {named[0]} but is drawn in {color}, not its "
                                 f"family's colour {style['color']}")
                if marker is not None and marker[0] != str(style["marker"]):
                    problems.add(f"entry {label!r} names solver {named[0]} but its marker is {marker[0]!r}, "
                                 f"not its family's {style['marker']!r}")
            mentioned = any(re.search(rf"(?<![\w.]){re.escape(p)}(?![\w.])", label) for p in precisions())
            if color in prec_colours and not mentioned and "breakdown" not in label.lower():
                problems.add(f"entry {label!r} names no precision but is drawn in {prec_colours[color]}'s "
                             f"colour {color}")
    return sorted(problems)


def _precision_key_problems(fig) -> list[str]:
    """Legend entries naming one precision but not drawn in its colour and marker (or, for a
    breakdown, the reserved filled cross in its colour); breakdown entries drawn otherwise."""
    names = precisions()
    problems = set()
    for scope in _legend_scopes(fig):
        for label, h in scope:
            # a precision named as the series' own (not as an adjective: "float64 SVD" is a method)
            named = [p for p in names if re.search(rf"(?<![\w.]){re.escape(p)}(?![\w.]|\s+\w)", label)]
            is_breakdown = "breakdown" in label.lower()
            marker = _marker_key(h)
            if is_breakdown and marker is not None and (marker[0] != BREAKDOWN_MARKER or marker[2] == "open"):
                problems.add(f"breakdown entry {label!r} is drawn with {marker}, not the filled {BREAKDOWN_MARKER!r}")
            if len(named) != 1 or not isinstance(h, (Line2D, Patch)):
                continue
            style = precision_style(named[0])
            color = h.get_color() if isinstance(h, Line2D) else h.get_facecolor()
            if mcolors.to_hex(color) != mcolors.to_hex(style["color"]):
                problems.add(f"entry {label!r} names {named[0]} but is drawn in {mcolors.to_hex(color)}, "
                             f"not its colour {style['color']}")
            if marker is not None and marker[0] != (BREAKDOWN_MARKER if is_breakdown else style["marker"]):
                problems.add(f"entry {label!r} names {named[0]} but its marker is {marker[0]!r}, "
                             f"not {style['marker']!r}")
    return sorted(problems)


def _segments_hit(xy, box) -> bool:
    """Whether a polyline (display points) crosses the box (Liang-Barsky clipping of each segment)."""
    for (x0, y0), (x1, y1) in zip(xy[:-1], xy[1:]):
        if not np.isfinite([x0, y0, x1, y1]).all():
            continue
        t0, t1, dx, dy = 0.0, 1.0, x1 - x0, y1 - y0
        for p, q in ((-dx, x0 - box.x0), (dx, box.x1 - x0), (-dy, y0 - box.y0), (dy, box.y1 - y0)):
            if p == 0:
                if q < 0:
                    break
            else:
                r = q / p
                if p < 0:
                    t0 = max(t0, r)
                else:
                    t1 = min(t1, r)
        else:
            if t0 <= t1:
                return True
    return False


def _legend_over_data(fig, renderer) -> list[str]:
    """Axes legends whose frame covers a marker, a line, a scatter point or a bar of their axes."""
    problems = []
    for ax in fig.axes:
        leg = ax.get_legend()
        if leg is None or not leg.get_visible():
            continue
        lb, frame = leg.get_window_extent(renderer), ax.get_window_extent(renderer)
        for n, t in _axes_texts(ax):  # a legend outside its axes must not sit on the axes' own labels
            if _overlap(lb, t.get_window_extent(renderer), OVERLAP_TOL_PT * fig.dpi / 72):
                problems.append(f"the legend of {ax.get_title()!r} covers its {n} {t.get_text()!r}")
        x0, y0 = max(lb.x0, frame.x0) + LEGEND_TOL_PX, max(lb.y0, frame.y0) + LEGEND_TOL_PX
        x1, y1 = min(lb.x1, frame.x1) - LEGEND_TOL_PX, min(lb.y1, frame.y1) - LEGEND_TOL_PX
        if x0 >= x1 or y0 >= y1:
            continue
        box = mtransforms.Bbox([[x0, y0], [x1, y1]])
        pt = fig.dpi / 72
        covered = []
        for ln in ax.get_lines():
            if not ln.get_visible():
                continue
            xy = ln.get_transform().transform(np.asarray(ln.get_xydata(), float))
            fin = xy[np.isfinite(xy).all(axis=1)]
            if _marker_key(ln) is not None:
                r = ln.get_markersize() * pt / 2
                if np.any((fin[:, 0] > x0 - r) & (fin[:, 0] < x1 + r) & (fin[:, 1] > y0 - r) & (fin[:, 1] < y1 + r)):
                    covered.append(ln.get_label())
                    continue
            if _line_key(ln) is not None and _segments_hit(xy, box):
                covered.append(ln.get_label())
        for c in ax.collections:
            if isinstance(c, PathCollection) and c.get_visible() and len(c.get_offsets()):
                xy = c.get_offset_transform().transform(np.asarray(c.get_offsets(), float))
                if np.any((xy[:, 0] > x0) & (xy[:, 0] < x1) & (xy[:, 1] > y0) & (xy[:, 1] < y1)):
                    covered.append(c.get_label())
        for patch in ax.patches:
            bb = patch.get_window_extent(renderer)
            if patch.get_visible() and bb.x0 < x1 and bb.x1 > x0 and bb.y0 < y1 and bb.y1 > y0:
                covered.append(patch.get_label() or "a bar")
        if covered:
            problems.append(f"the legend of {ax.get_title()!r} covers data: {', '.join(map(repr, covered[:3]))}"
                            + (f" and {len(covered) - 3} more" if len(covered) > 3 else ""))
    return problems


def _crowded_panels(fig) -> list[str]:
    """Panels with more than MAX_SERIES curves of one colour, or of one line style and marker."""
    problems = []
    for ax in fig.axes:
        curves = []
        for ln in ax.get_lines():  # data curves: two points or more, in data coordinates (no axhline)
            xy = np.asarray(ln.get_xydata(), float)
            if (ln.get_visible() and ln.get_transform() is ax.transData and _line_key(ln) is not None
                    and np.isfinite(xy).all(axis=1).sum() >= 2):  # markers alone sit side by side
                curves.append((mcolors.to_hex(ln.get_color()), (str(ln.get_linestyle()), str(ln.get_marker()))))
        for name, key, other in (("colour", 0, 1), ("line style and marker", 1, 0)):
            groups = {}
            for c in curves:
                groups.setdefault(c[key], set()).add(c[other])
            for value, styles in groups.items():
                if len(styles) > MAX_SERIES:
                    problems.append(f"{len(styles)} overlaid series of one {name} {value} in panel "
                                    f"{ax.get_title()!r} (> {MAX_SERIES}): split the panel")
    return problems


def _dash_problems(fig) -> list[str]:
    """Legend entries told apart only by a line style the handle is too short to show."""
    problems = []
    legends = list(fig.legends) + [a.get_legend() for a in fig.axes if a.get_legend() is not None]
    for leg in legends:
        entries = [(t.get_text(), h) for t, h in zip(leg.get_texts(), leg.legend_handles) if isinstance(h, Line2D)]
        length = leg.handlelength * leg._fontsize  # points
        for (l1, h1), (l2, h2) in itertools.combinations(entries, 2):
            k1, k2 = _line_key(h1), _line_key(h2)
            if k1 is None or k2 is None or k1 == k2 or k1[1] != k2[1] or _marker_key(h1) != _marker_key(h2):
                continue
            side = (length - h1.get_markersize()) / 2 if _marker_key(h1) else length  # a marker splits the line
            period = max(sum(h._dash_pattern[1] or ()) for h in (h1, h2))
            if side < period:
                problems.append(f"legend entries {l1!r} and {l2!r} differ only in line style, and the handle shows "
                                f"{side:.1f} pt of line beside the marker, less than one dash period ({period:.1f} pt)")
    return problems


def _figure_legend_over_data(fig, renderer) -> list[str]:
    """Figure legends whose frame lies over an axes and covers its markers or lines."""
    problems = []
    for leg in fig.legends:
        lb = leg.get_window_extent(renderer)
        for ax in fig.axes:
            frame = ax.get_window_extent(renderer)
            x0, y0 = max(lb.x0, frame.x0) + LEGEND_TOL_PX, max(lb.y0, frame.y0) + LEGEND_TOL_PX
            x1, y1 = min(lb.x1, frame.x1) - LEGEND_TOL_PX, min(lb.y1, frame.y1) - LEGEND_TOL_PX
            if x0 >= x1 or y0 >= y1:
                continue
            box = mtransforms.Bbox([[x0, y0], [x1, y1]])
            hit = [ln.get_label() for ln in ax.get_lines() if ln.get_visible() and _segments_hit(
                ln.get_transform().transform(np.asarray(ln.get_xydata(), float)), box)]
            if hit:
                problems.append(f"a figure legend covers data of panel {ax.get_title()!r}: {hit[0]!r}")
    return problems


def breakdown_problems(fig, data: pd.DataFrame) -> list[str]:
    """A digits figure whose data hold fits without a model (status other than ok, no digits) and that
    draws no breakdown cross."""
    digits = [c for c in data.columns if str(c).endswith("digits")]
    if not digits or "status" not in data.columns:
        return []
    failed = (data["status"].astype(str) != "ok") & ~np.isfinite(pd.to_numeric(data[digits[0]], errors="coerce"))
    failed &= data["status"].astype(str) != "error"
    if not failed.any():
        return []
    drawn = any(str(ln.get_marker()) == BREAKDOWN_MARKER and len(ln.get_xdata()) for ax in fig.axes
                for ln in ax.get_lines())
    return [] if drawn else [f"{int(failed.sum())} fits without a model in the data, none drawn with the "
                             f"breakdown marker {BREAKDOWN_MARKER!r}"]


def lint(fig, png_path) -> list[str]:
    """Every rule of the module docstring broken by ``fig``, just saved as ``png_path`` at ``fig.dpi``."""
    renderer = fig.canvas.get_renderer()  # the layout savefig just drew, at fig.dpi (see `linted`)
    h, w = mimage.imread(png_path).shape[:2]
    problems = []
    if w / h > MAX_WIDE:
        problems.append(f"PNG {w}x{h} px is {w / h:.1f} times wider than tall (> {MAX_WIDE})")
    scale = min(1.0, FIGURE_WIDTH_PX / w)
    sizes = [t.get_fontsize() for a in fig.axes if a.get_visible() for _, t in _axes_texts(a)]
    sizes += [t.get_fontsize() for leg in list(fig.legends) + [a.get_legend() for a in fig.axes
              if a.get_legend() is not None] for t in leg.get_texts()]
    if sizes:
        px = min(sizes) * SAVE_DPI / 72 * scale
        if px < MIN_TEXT_PX:
            problems.append(f"smallest text {min(sizes):g} pt shows {px:.1f} CSS px high at the "
                            f"displayed width {min(w, FIGURE_WIDTH_PX)} px (< {MIN_TEXT_PX})")
    return (problems + _text_problems(fig, renderer) + _legend_problems(fig) + _hidden_problems(fig)
            + _marker_problems(fig) + _precision_key_problems(fig) + _solver_key_problems(fig)
            + _legend_over_data(fig, renderer)
            + _crowded_panels(fig) + _dash_problems(fig) + _figure_legend_over_data(fig, renderer))


@pytest.fixture
def linted(monkeypatch):
    """``{png name: problems}`` of every figure saved while the fixture is active."""
    found = {}
    original = Figure.savefig

    def savefig(self, fname, *args, **kwargs):
        # Draw at the resolution of the file, and keep it: matplotlib places axis labels in
        # pixels during the draw, so extents read afterwards are consistent only at that dpi
        # (and no second draw is needed).
        self.set_dpi(kwargs.get("dpi", self.dpi))
        original(self, fname, *args, **kwargs)
        found[str(fname).rsplit("/", 1)[-1]] = lint(self, fname)

    monkeypatch.setattr(Figure, "savefig", savefig)
    # the data CSV is written right after its PNG (figures.save_figure): the breakdown rule reads it
    last = {}
    original_csv = pd.DataFrame.to_csv

    def savefig_and_keep(self, fname, *args, **kwargs):
        savefig(self, fname, *args, **kwargs)
        last["fig"], last["png"] = self, str(fname).rsplit("/", 1)[-1]

    def to_csv(self, path=None, *args, **kwargs):
        name = str(path).rsplit("/", 1)[-1]
        if last and name == last["png"].removesuffix(".png") + ".csv":
            found[last["png"]] = found[last["png"]] + breakdown_problems(last["fig"], self)
            last.clear()
        return original_csv(self, path, *args, **kwargs)

    monkeypatch.setattr(Figure, "savefig", savefig_and_keep)
    monkeypatch.setattr(pd.DataFrame, "to_csv", to_csv)
    return found


# --------------------------------------------------------------------------- the lint catches
def _labelled(ax, title="", legend=True):
    ax.set_xlabel("x [–]")
    ax.set_ylabel("y [–]")
    if title:
        ax.set_title(title)
    if legend:
        ax.legend()


def _save(fig, tmp_path, name="f"):
    save_figure(fig, pd.DataFrame({"a": [1]}), tmp_path, name, "c")


def test_lint_accepts_a_plain_figure(tmp_path, linted):
    fig, axs = panel_grid(2, 2)
    for a in axs:
        a.plot([1, 2, 3], [1, 4, 9], "o-", label="a")
        a.plot([1, 2, 3], [2, 3, 4], "s--", label="b")
        _labelled(a, "short title")
    _save(fig, tmp_path)
    assert linted == {"f.png": []}


def test_lint_catches_overlapping_titles_and_wide_strips(tmp_path, linted):
    fig, axs = new_figure(6, 1, width=2.0, height=2.0)
    for a in axs.ravel():
        a.plot([1, 2], [1, 2], label="a")
        _labelled(a, "a rather long subplot title that runs over its neighbour")
    _save(fig, tmp_path)
    problems = linted["f.png"]
    assert any("wider than tall" in p for p in problems)
    assert any("title" in p and ("overlaps" in p or "runs into" in p) for p in problems)


def test_lint_catches_alike_legend_entries_and_hidden_series(tmp_path, linted):
    fig, axs = new_figure()
    a = axs[0, 0]
    a.plot([1, 2, 3], [1, 2, 3], "o", ms=4, color="tab:red", label="float32")
    a.plot([1, 2, 3], [1, 2, 3], "o", ms=6, color="tab:blue", label="longdouble")
    a.plot([1, 2, 3], [3, 2, 1], "--", color="k", label="η=0.001")
    a.plot([1, 2, 3], [3, 1, 2], "--", color="k", label="η=0.1")
    _labelled(a)
    _save(fig, tmp_path)
    problems = linted["f.png"]
    assert any("'η=0.001' and 'η=0.1' are drawn alike" in p for p in problems)
    assert any("'float32' is hidden under 'longdouble'" in p for p in problems)


def test_timing_figure_keeps_coinciding_measurements_visible(tmp_path, linted):
    """Chen & Zhou's scaling figure plots measured wall times: two methods can take the same time
    (it happened: pcp-lssvm under sr-lssvm), so no series may hide another when they coincide."""
    from lssvm_analysis.papers.chen_zhou import section as sections_chen_zhou
    from lssvm_analysis.report.html import Section
    ms = [100, 200, 400]
    ran = pd.DataFrame([{"family": "sparse", "solver": s, "m": m, "time_fit": 1e-3 * m}
                        for s in ("pcp-lssvm", "sr-lssvm", "fs-lssvm") for m in ms])
    sections_chen_zhou._scale_figure(Section("t", "t"), tmp_path, ran, ran, ran.iloc[:0])
    assert linted == {"cz-scale.png": []}


def test_lint_catches_clipped_and_tiny_text(tmp_path, linted):
    fig, axs = new_figure(3, 1, width=4.3, height=3.6)
    for a in axs.ravel():
        a.plot([1, 2], [1, 2], label="a")
        _labelled(a, legend=False)
        a.legend(fontsize=4)
    fig.set_layout_engine("none")
    axs[0, 0].set_position([0.0, 0.1, 0.3, 0.8])  # its y label and tick labels left of the canvas
    _save(fig, tmp_path)
    problems = linted["f.png"]
    assert any("CSS px high" in p for p in problems)
    assert any("clipped" in p for p in problems)


def test_lint_catches_one_marker_for_two_labels_across_a_figure(tmp_path, linted):
    """The old breakdown maps' key: float32 and mp50 both an open grey circle in the figure legend;
    and a panel legend whose marker is the figure legend's marker for another label."""
    fig, axs = panel_grid(2, 2)
    for i, a in enumerate(axs):
        a.plot([1, 2, 3], [1, 2, 3], "s", color="tab:blue", label="default")
        _labelled(a, f"panel {i}", legend=False)
    axs[0].legend()
    handles = [Line2D([], [], marker="o", color="gray", ls="none", mfc=mfc, label=lab)
               for lab, mfc in (("float32: open", "none"), ("float64: filled", "gray"), ("mp50: open", "none"))]
    handles.append(Line2D([], [], marker="s", color="tab:blue", ls="none", label="float64"))
    fig.legend(handles=handles, loc="outside lower center", ncol=4)
    _save(fig, tmp_path)
    problems = linted["f.png"]
    assert any("'float32: open' and 'mp50: open' have the same marker" in p for p in problems)
    assert any("'default' and 'float64' have the same marker" in p for p in problems)


def test_lint_catches_a_dash_the_legend_handle_cannot_show(tmp_path, linted):
    """abe-crossover: 'o-' and 'o--' of one colour at handlelength 2, 7 pt: one dash beside the marker."""
    fig, ax = new_figure()
    a = ax[0, 0]
    a.plot([1, 2, 3], [1, 2, 3], "o-", color="C0", label="blas3")
    a.plot([1, 2, 3], [3, 2, 1], "o--", color="C0", label="as-described")
    _labelled(a, legend=False)
    a.legend(fontsize=7, loc="upper center")
    _save(fig, tmp_path)
    assert any("differ only in line style" in p for p in linted["f.png"])
    fig, ax = new_figure()
    a = ax[0, 0]
    a.plot([1, 2, 3], [1, 2, 3], "o-", color="C0", label="blas3")
    a.plot([1, 2, 3], [3, 2, 1], "o--", color="C0", label="as-described")
    _labelled(a, legend=False)
    a.legend(fontsize=7, handlelength=5, loc="upper center")
    _save(fig, tmp_path, "g")
    assert not any("differ only in line style" in p for p in linted["g.png"])


def test_lint_catches_a_figure_legend_over_a_curve(tmp_path, linted):
    fig = plt.figure(figsize=(6.4, 4.2))
    a = fig.add_subplot()
    a.plot(np.linspace(0, 1, 50), np.full(50, 0.5), "-", label="curve")
    _labelled(a, legend=False)
    fig.legend(loc="center")
    _save(fig, tmp_path)
    assert any("a figure legend covers data" in p for p in linted["f.png"])


def test_lint_catches_a_breakdown_that_is_not_drawn(tmp_path, linted):
    """A digits figure whose data hold a fit without a model must draw the breakdown cross."""
    data = pd.DataFrame({"status": ["ok", "breakdown"], "model_digits": [12.0, np.nan], "kappa": [1e2, 1e9]})
    for name, mark in (("f", False), ("g", True)):
        fig, ax = new_figure()
        a = ax[0, 0]
        a.plot([1e2], [12.0], "o", color=precision_color("float64"), label="float64")
        if mark:
            a.plot([1e9], [0.0], **breakdown_style("float64"), label="no model, float64")
        _labelled(a)
        save_figure(fig, data, tmp_path, name, "c")
    assert any("none drawn with the breakdown marker" in p for p in linted["f.png"])
    assert not any("breakdown marker" in p for p in linted["g.png"])


def test_lint_catches_fill_as_the_only_difference(tmp_path, linted):
    """An open and a filled circle of one colour: one symbol at printed size (in a legend, in a panel)."""
    fig, axs = new_figure()
    a = axs[0, 0]
    a.plot([1, 2, 3], [1, 2, 3], "o", color="tab:green", mfc="none", ms=7, label="ok, float32")
    a.plot([1.2, 2.2, 3.2], [1, 2, 3], "o", color="tab:green", ms=7, label="ok, float64")
    _labelled(a, legend=False)
    a.legend(loc="upper left", bbox_to_anchor=(1.02, 1.0))
    _save(fig, tmp_path)
    problems = linted["f.png"]
    assert any("legend entries 'ok, float32' and 'ok, float64' differ only in an unfilled marker" in p
               for p in problems)
    assert any("series 'ok, float32' and 'ok, float64' differ only in an unfilled marker" in p for p in problems)


def test_lint_catches_a_precision_off_its_key(tmp_path, linted):
    """abe-condition: η = 0.1 in red (float32's colour) beside float32; an open breakdown marker."""
    fig, axs = new_figure()
    a = axs[0, 0]
    a.plot([1, 2, 3], [1, 2, 3], "s-", color="tab:red", label="float32, η=0.1")
    a.plot([2], [2.5], "x", color="tab:blue", label="DuLS breakdown, float64")
    a.plot([1, 2, 3], [3, 2, 1], "-", color=precision_color("float64"), label="1/u of float64")
    _labelled(a, legend=False)
    a.legend(loc="upper left", bbox_to_anchor=(1.02, 1.0))
    _save(fig, tmp_path)
    problems = linted["f.png"]
    assert any("'float32, η=0.1' names float32 but its marker is 's'" in p for p in problems)
    assert any("breakdown entry 'DuLS breakdown, float64' is drawn with" in p for p in problems)
    assert not any("1/u of float64" in p for p in problems)


def test_lint_catches_a_legend_over_data(tmp_path, linted):
    """abe-condition's legend sat on the η = 0.1 plateau: a line under the frame, no vertex inside it."""
    fig, axs = new_figure()
    a = axs[0, 0]
    a.plot([0, 10], [9.5, 9.5], "-", label="plateau")  # crosses the upper right corner, no vertex there
    a.plot([0, 10], [0, 1], "-", label="low")
    a.set_ylim(0, 10)
    _labelled(a, legend=False)
    a.legend(loc="upper right")
    _save(fig, tmp_path, "over")
    assert any("covers data: 'plateau'" in p for p in linted["over.png"])
    fig, axs = new_figure()  # a legend put under the axes, on the x label
    a = axs[0, 0]
    a.plot([0, 10], [9.5, 9.5], "-", label="plateau")
    _labelled(a, legend=False)
    a.legend(loc="upper center", bbox_to_anchor=(0.5, -0.05))
    _save(fig, tmp_path, "label")
    assert any("covers its x label" in p for p in linted["label.png"])
    fig, axs = new_figure()  # the same legend in the free lower right corner passes
    a = axs[0, 0]
    a.plot([0, 10], [9.5, 9.5], "-", label="plateau")
    a.plot([0, 5], [5, 6], "-", label="low")
    a.set_ylim(0, 10)
    _labelled(a, legend=False)
    a.legend(loc="lower right")
    _save(fig, tmp_path, "free")
    assert linted["free.png"] == []


def test_place_legends_moves_a_legend_off_the_data(tmp_path, linted):
    """figures.place_legends finds the free corner, or goes outside when none is free."""
    for name, lows in (("corner", [0, 1]), ("outside", [0, 9.5])):
        fig, axs = new_figure()
        a = axs[0, 0]
        a.plot([0, 10], [9.5, 9.5], "-", label="plateau")
        a.plot([0, 10], lows, "-", label="other")
        a.plot([0, 10], [5, 5], "-", label="middle")
        a.set_ylim(0, 10)
        _labelled(a)
        place_legends(fig)
        _save(fig, tmp_path, name)
    assert linted == {"corner.png": [], "outside.png": []}


def test_place_legends_skips_the_gaps_of_a_line_silently():
    """A line with a NaN and an infinite point (0 on a log axis) has gaps matplotlib does not draw:
    placing the legend samples only the drawn segments and raises no RuntimeWarning (the full Vieira
    report printed three)."""
    import warnings

    fig, axs = new_figure()
    a = axs[0, 0]
    a.plot([1, 2, np.nan, 4, 5], [1, np.inf, 3, 0, 5], "-o", label="gaps")
    a.plot([1, 2, 3], [2, 2, 2], "-", label="flat")
    a.set_yscale("log")
    a.legend()
    try:
        with warnings.catch_warnings():
            warnings.simplefilter("error", RuntimeWarning)
            place_legends(fig)
        assert a.get_legend() is not None or fig.legends
    finally:
        plt.close(fig)  # pyplot's registry is per process: a figure left open fails test_figure_contract


def test_lint_catches_crowded_panels(tmp_path, linted):
    """digits-ladder's sr-lssvm panel: seven variants of one precision overlaid in one panel."""
    fig, axs = new_figure()
    a = axs[0, 0]
    for i, (ls, mk) in enumerate(itertools.product(("-", "--", ":"), ("o", "s", "^"))):
        if i < 7:
            a.plot([1, 2, 3], [i, i + 1, i + 3], ls=ls, marker=mk, color="tab:red", label=f"variant {i}")
    _labelled(a, legend=False)
    a.legend(loc="upper left", bbox_to_anchor=(1.02, 1.0), fontsize=8)
    _save(fig, tmp_path)
    assert any("7 overlaid series of one colour #d62728" in p for p in linted["f.png"])


def test_every_precision_has_its_own_colour_and_marker():
    """One key for the whole report: no two precisions share a colour or a marker, and no other
    attribute's colour (η, ...) or marker (series_style), nor the breakdown's, is a precision's."""
    names = precisions()
    styles = [precision_style(p) for p in names]
    assert len({s["color"] for s in styles}) == len({s["marker"] for s in styles}) == len(names)
    assert not {s["color"] for s in styles} & {mcolors.to_hex(c) for c in ATTRIBUTE_COLORS} \
        and not {s["color"] for s in styles} & set(ATTRIBUTE_COLORS)
    series_markers = {series_style(i)[1] for i in range(12)}
    assert not {s["marker"] for s in styles} & (series_markers | {BREAKDOWN_MARKER})
    bd = breakdown_style(names[0])
    assert bd["marker"] == BREAKDOWN_MARKER and bd["mfc"] == precision_color(names[0]) and bd["mec"] == "black"


def test_one_colour_and_marker_per_family_across_the_report():
    """Every registered solver's family is its module, read from the registry; each family has one
    colour and one marker, its own among the families, and neither is a precision's (nor the
    breakdown's marker; nor an attribute's or the default cycle's colour): so with the lint's
    ``_solver_key_problems`` / ``_precision_key_problems`` on every figure, one family and one
    precision never get two colours across the report, and no colour names both."""
    fams = solver_families()
    assert fams == list(dict.fromkeys(get_solver(n).func.__module__.rsplit(".", 1)[-1] for n in solvers()))
    styles = [family_style(f) for f in fams]
    colours = [mcolors.to_hex(s["color"]) for s in styles]
    markers = [str(s["marker"]) for s in styles]
    assert len(set(colours)) == len(set(markers)) == len(fams)
    reserved = {mcolors.to_hex(precision_color(p)) for p in precisions()}
    assert not set(colours) & (reserved | {mcolors.to_hex(c) for c in ATTRIBUTE_COLORS})
    assert not set(markers) & ({precision_marker(p)[0] for p in precisions()} | {BREAKDOWN_MARKER})
    assert not reserved & {mcolors.to_hex(c) for c in plt.rcParams["axes.prop_cycle"].by_key()["color"]}
    for n in solvers():  # a solver's style is its family's colour and marker
        st, fam = solver_style(n), family_style(solver_family(n))
        assert (st["color"], st["marker"]) == (fam["color"], fam["marker"])
    members = [n for n in solvers() if solver_family(n) == solver_family("lssvm-kkt")]
    assert len({str(solver_style(n)["ls"]) for n in members[:4]}) == min(4, len(members))  # told apart
    assert len(FAMILY_COLORS) >= len(fams)


def test_lint_catches_a_solver_off_its_family_key(tmp_path, linted):
    fig, axs = new_figure(1, 1)
    a = axs[0, 0]
    a.plot([1, 2, 3], [1, 2, 3], "o-", color="tab:orange", label="lssvm-kkt")
    a.plot([1, 2, 3], [2, 3, 5], **solver_style("sr-lssvm"), label="sr-lssvm")
    a.plot([1, 2, 3], [3, 5, 7], "--", color=precision_color("longdouble"), label="CG on H")
    _labelled(a)
    _save(fig, tmp_path)
    problems = linted["f.png"]
    assert any("'lssvm-kkt' names solver lssvm-kkt but is drawn in" in p for p in problems)
    assert any("'lssvm-kkt' names solver lssvm-kkt but its marker is 'o'" in p for p in problems)
    assert any("'CG on H' names no precision but is drawn in longdouble's colour" in p for p in problems)
    assert not any("sr-lssvm" in p for p in problems)


def test_breakdown_maps_decode_every_precision_and_outcome(tmp_path, linted):
    """The maps with every registered precision (the quick report draws two) and every outcome:
    the key names each precision by its own colour and marker, each outcome by its own filled marker."""
    outcomes = ["ok", "large-error", "breakdown", "not-converged", "not-measured", "error"]
    rows = pd.DataFrame([{"solver": "els-dual", "_paper": "abe", "_config": conf, "precision": p, "C": C,
                          "sigma2": s2, "outcome": outcomes[(i + j + k + m) % len(outcomes)], "status": "ok"}
                         for k, conf in enumerate(("els-dual", "els-primal"))
                         for i, p in enumerate(precisions())
                         for j, C in enumerate((1.0, 1e8, 1e16)) for m, s2 in enumerate((0.1, 1.0, 10.0))])
    sections_precision._map_figure(Section("t", "t"), tmp_path, "abe", rows, sections_precision.SETTINGS["quick"])
    assert linted == {"precision-breakdown-maps-abe.png": []}


def test_ladder_splits_many_variants_and_keys_precisions_on_top(tmp_path, linted):
    """sr-lssvm's seven configurations: panels of its default and at most three others, each legible."""
    info = get_solver("sr-lssvm")
    default = info.default_variant()
    confs = [info.configuration_label(default)] + [
        info.configuration_label({**default, opt: v.value})
        for opt, vs in info.variant_options().items() for v in vs if v.value != default[opt]]
    assert len(confs) > 4
    rows = pd.DataFrame([{"solver": "sr-lssvm", "configuration": c, "precision": p, "problem_condition": k,
                          "model_digits": 15.0 - np.log10(k) - 0.3 * i - 6 * (p == "float32")}
                         for i, c in enumerate(confs) for p in ("float32", "float64") for k in (1e2, 1e6, 1e10)])
    sections_digits._ladder_figure(Section("t", "t"), tmp_path, rows)
    assert linted == {"digits-ladder.png": []}
    panels = sections_digits._ladder_panels(rows.assign(_config=rows.configuration))
    assert [t for t, _ in panels] == [f"sr-lssvm ({i} of {len(panels)})" for i in range(1, len(panels) + 1)]
    assert all(len(c) <= MAX_SERIES and c[0] == confs[0] for _, c in panels)
    assert sorted(c for _, cs in panels for c in cs[1:]) == sorted(confs[1:])


# --------------------------------------------------------------------------- every report figure
#: Smaller sweeps for the two generic sections, whose "quick" profile runs every registered solver
#: configuration in every precision (about 200 s and 50 s on one core).  Every solver and variant
#: stays (the figures keep one panel per configuration, as in the default report); only the problem
#: sizes and the C grids shrink (two C values still give the maps their offsets and the digits
#: panels two points per precision).
SMALL = {sections_precision: sections_precision.with_settings(
             "quick", sinc_n=10, ripley_n=12, accuracy_C=(1.0, 1e6), map_M=30, map_C=(1e0, 1e16)),
         sections_appendix: sections_appendix.with_settings("quick", C=(1.0, 1e8))}


@pytest.mark.parametrize("key", [s.key for s in report_sections()])
def test_report_figures_pass_the_lint(key, render_section, linted, monkeypatch):
    for module, settings in SMALL.items():
        monkeypatch.setitem(module.SETTINGS, "quick", settings)
    render_section(key)
    if not linted:
        pytest.skip(f"section {key!r} draws no figure on the quick profile")
    bad = {name: problems for name, problems in linted.items() if problems}
    assert not bad, "\n".join(f"{n}: {p}" for n, ps in bad.items() for p in ps)
