"""Figures and tables of the report: every one is a PNG or HTML table *and* a CSV.

The plotting backend is matplotlib's Agg (no display).  Each figure is saved
with the tidy DataFrame it was drawn from, so every number in the report can
be read back from ``<name>.csv`` next to ``<name>.png``.

Readability: the page shows a PNG at most ``html.FIGURE_WIDTH_PX`` CSS pixels
wide, so a figure of many panels wraps them into rows (:func:`panel_grid`,
three per row) instead of one long strip; long configuration titles wrap
(:func:`panel_title`); series that can coincide are drawn so that each stays
visible (:func:`precision_marker`, :func:`overlay_width`) and a second
attribute beside colour changes line style *and* marker (:func:`series_style`).

One key for the whole report: a precision is always drawn in its own colour
and marker (:func:`precision_style`), a breakdown always as the reserved
filled cross with a black edge in the precision's colour
(:func:`breakdown_style`), and any other attribute (η, a variant) takes its
colours from :data:`ATTRIBUTE_COLORS` and its markers from
:func:`series_style`, which share nothing with the precisions' (a red curve
is float32, nothing else).  matplotlib's default colour cycle is set to
:data:`ATTRIBUTE_COLORS` too, so a series drawn without a colour never takes a
precision's.

A solver drawn as a series (a curve per solver, not a panel per solver) takes
its *family's* colour and marker (:func:`solver_style`).  The family is the
module that implements the solver (``get_solver(name).func.__module__``, its
last component: ``suykens``, ``pruning``, ``abe``, ``baselines``, ``vieira``,
``zhao_sun_recursive``, ``zhao_sun``, ``chen_zhou``, ``robust``,
``fixed_size``), read from the registry, so a plug-in solver brings its own
family and no list of names is kept here.  Families take colours from
:data:`FAMILY_COLORS` (Paul Tol's colour-blind-safe "muted" tones: none is a
precision's or an attribute's colour) and markers from :data:`FAMILY_MARKERS`
(none is a precision's or the breakdown's), both in the order the families
first appear in the registry; the marker tells the families apart without
colour.  The solvers of one family differ in line style and, drawn in registry
order, each thinner and with a smaller (open) marker than the one before, so one
that coincides with another leaves it visible.  Figures that colour by precision
draw solvers as panels, never as series: the two keys never meet in one panel.
Legends go where they hide no data
(:func:`place_legends`).  ``tests/test_figure_lint.py`` checks every figure of
the report for this.
"""
from __future__ import annotations

import re
import textwrap
from dataclasses import dataclass
from pathlib import Path

import matplotlib

matplotlib.use("Agg", force=True)
import matplotlib.pyplot as plt  # noqa: E402
import matplotlib.transforms as mtransforms  # noqa: E402
import numpy as np  # noqa: E402
import pandas as pd  # noqa: E402

from ..core.exceptions import UnknownPrecisionError, UnknownSolverError  # noqa: E402
from ..experiments.claims.stats import fmt_num  # noqa: E402
from ..arith.precision import get_precision, precisions  # noqa: E402
from ..solvers import get_solver, solvers  # noqa: E402

__all__ = ["FigureRef", "TableRef", "save_figure", "save_table", "new_figure", "slug",
           "fmt_num", "panel_grid", "precision_color", "precision_rank",
           "log_axes", "empty_panel", "series_style", "precision_marker", "panel_title",
           "overlay_width", "precision_style", "breakdown_style", "BREAKDOWN_MARKER", "ATTRIBUTE_COLORS",
           "attribute_color", "place_legends", "mark_failures", "FAMILY_COLORS", "FAMILY_MARKERS",
           "solver_family", "solver_families", "family_style", "solver_style"]

#: Colours of the registered precisions, in registry order; mp at any other number of digits is purple.
_PALETTE = ("tab:red", "tab:blue", "tab:green", "tab:purple", "tab:brown", "tab:olive")
#: Colours of any other series attribute (η, a data set, ...): none is a precision's colour.
ATTRIBUTE_COLORS = ("black", "tab:orange", "tab:cyan", "tab:pink", "0.55", "goldenrod")
#: The default colour cycle of every report figure: the attribute colours, so that a series drawn
#: without an explicit colour never takes a precision's (``C0`` was float64's blue).
matplotlib.rcParams["axes.prop_cycle"] = matplotlib.cycler(color=list(ATTRIBUTE_COLORS))
#: Colours of the solver families, in the order the families first appear in the registry: Paul
#: Tol's "muted" scheme (colour-blind-safe among themselves); none is a precision's or an attribute's.
#: The pale ones (sand, cyan) go to families the report rarely draws as series (pruning, abe), the
#: greenish ones (olive, green), nearest to longdouble's and mp's, last.
FAMILY_COLORS = ("#332288", "#DDCC77", "#88CCEE", "#AA4499", "#CC6677", "#44AA99", "#882255", "#661100",
                 "#999933", "#117733")
#: Markers of the solver families (same order): filled shapes that are neither a precision's nor the
#: breakdown's ((6, 1, 0) and (4, 1, 0) are six- and four-pointed stars).  (The first six are
#: :func:`series_style`'s too: a figure draws solvers or another attribute beside colour, never both.)
#: Ten markers and ten colours: each of the first ten families has its own of both.
FAMILY_MARKERS = ("P", "*", "h", "d", "<", ">", "8", "H", (6, 1, 0), (4, 1, 0))
#: Line styles of the solvers within one family, in registry order.
_SOLVER_LINES = ("-", "--", ":", "-.", (0, (5, 1, 1, 1, 1, 1)), (0, (1, 1)))
#: The marker reserved for a breakdown (filled, with a black edge, in the precision's colour).
BREAKDOWN_MARKER = "X"
#: Markers of the registered precisions, in registry order: filled shapes told apart at a glance,
#: none of them the breakdown's nor one of :func:`series_style`'s.
_PRECISION_MARKERS = ("o", "s", "^", "D", "v", "p")


def precision_color(name: str) -> str:
    """Colour of a precision: by its place in the registry (an unregistered mpN is purple)."""
    names = precisions()
    if name in names:
        return _PALETTE[names.index(name) % len(_PALETTE)]
    try:
        return "tab:gray" if get_precision(str(name)).native else "tab:purple"
    except UnknownPrecisionError:
        return "tab:gray"


#: Line styles and markers told apart at a glance, for a second series attribute beside colour.
_LINESTYLES = ("-", "--", ":", "-.")
#: (None of them a precision's marker nor the breakdown's: in a figure that draws precisions too,
#: a marker names one thing.)
_MARKERS = ("P", "*", "h", "d", "<", ">")


def solver_family(name: str) -> str:
    """The family of a registered solver: the last component of the module that implements it
    (``get_solver(name).func.__module__``), e.g. ``"suykens"`` for lssvm-kkt, lssvm-schur and lssvm-cg,
    ``"robust"`` for r-lssvm-w; ``"unregistered"`` for a name the registry does not know."""
    try:
        return get_solver(str(name)).func.__module__.rsplit(".", 1)[-1]
    except UnknownSolverError:
        return "unregistered"


def solver_families() -> list[str]:
    """The registered solver families, in the order they first appear in the registry's listing."""
    return list(dict.fromkeys(solver_family(n) for n in solvers()))


def family_style(family: str) -> dict:
    """``Line2D`` keywords of a solver family: its colour and marker (grey for an unknown family)."""
    fams = solver_families()
    if family not in fams:
        return {"color": "0.35", "marker": "8"}
    i = fams.index(family)
    return {"color": FAMILY_COLORS[i % len(FAMILY_COLORS)], "marker": FAMILY_MARKERS[i % len(FAMILY_MARKERS)]}


def solver_style(name: str) -> dict:
    """``Line2D`` keywords of a solver drawn as a series: its family's colour and marker
    (:func:`family_style`), and its rank among the family's solvers in registry order giving the line
    style, the line width and the marker size (each later solver thinner and smaller, so one drawn
    over an earlier equal one leaves the earlier one's edges showing).  Markers are open: two
    families' points that coincide show both shapes.  A legend of solvers of one family needs
    ``handlelength=4`` to show a whole dash period beside the marker."""
    fam = solver_family(name)
    members = [n for n in solvers() if solver_family(n) == fam]
    rank = members.index(name) if name in members else 0
    return {**family_style(fam), "ls": _SOLVER_LINES[rank % len(_SOLVER_LINES)],
            "lw": max(1.0, 1.8 - 0.4 * rank), "ms": max(4.0, 8.0 - 1.5 * rank), "mfc": "none", "mew": 1.3}


def attribute_color(i: int) -> str:
    """Colour of the i-th value of a series attribute other than the precision (e.g. η)."""
    return ATTRIBUTE_COLORS[i % len(ATTRIBUTE_COLORS)]


def series_style(i: int) -> tuple[str, str]:
    """(line style, marker) of the i-th value of a series attribute drawn beside colour (e.g. η).

    Line style and marker both change with ``i``, so two values differ in the
    legend even where one of the two is hard to see (short segments, dense markers).
    In a figure whose colours are precisions, the marker is the precision's
    (:func:`precision_style`): use the line style alone there.
    """
    return _LINESTYLES[i % len(_LINESTYLES)], _MARKERS[i % len(_MARKERS)]


def overlay_width(i: int, n: int) -> float:
    """Line width of the i-th of n curves that may coincide: each is thinner than the one before.

    Drawn in order, a curve equal to an earlier one leaves the earlier one's
    edges showing on both sides of it (0.9 pt wider per step, 1 pt the thinnest).
    """
    return 1.0 + 0.9 * (n - 1 - i)


def precision_marker(name: str) -> tuple[str, float]:
    """(marker, size in points) of a precision, larger for fewer digits.

    Each registered precision has its own filled marker; points of several
    precisions often coincide (the same accuracy, the same outcome): drawn in
    increasing digits, each smaller marker sits inside the larger one before
    it, so every precision stays visible.
    """
    names = precisions()
    i = names.index(name) if name in names else len(names)
    return _PRECISION_MARKERS[i % len(_PRECISION_MARKERS)], max(3.5, 9.0 - 1.8 * i)


def precision_style(name: str) -> dict:
    """``Line2D`` keywords of a precision: its colour, its marker and the marker's size."""
    marker, ms = precision_marker(name)
    return {"color": precision_color(name), "marker": marker, "ms": ms}


def breakdown_style(name: str, ms: float | None = None) -> dict:
    """``Line2D`` keywords of a breakdown in precision ``name``: the reserved filled cross
    (:data:`BREAKDOWN_MARKER`) in the precision's colour with a black edge, no line.

    Its default size is the precision's marker size plus 2 points: breakdowns of several
    precisions at one point, drawn in increasing digits, stay visible inside one another.
    """
    color = precision_color(name)
    if ms is None:
        ms = precision_marker(name)[1] + 2.0
    return {"marker": BREAKDOWN_MARKER, "ms": ms, "color": color, "mfc": color, "mec": "black",
            "mew": 0.8, "ls": "none"}


def mark_failures(ax, kappa, prec: str, *, y: float = 0.0) -> int:
    """Draw the fits of precision ``prec`` that returned no model (breakdown, overflow, no convergence)
    at their rung's κ and ``y`` digits (none kept) with the reserved breakdown cross, so a curve that
    stops reads as 'failed here', not as 'not run'.  A κ that is not finite (the rung's other fits have
    none either: the top of the ladder) is drawn at the panel's largest finite κ.  Returns how many."""
    k = np.asarray(kappa, float)
    if not k.size:
        return 0
    top = max((v for line in ax.get_lines() for v in np.asarray(line.get_xdata(), float)
               if np.isfinite(v) and v > 0), default=np.nan)
    k = np.where(np.isfinite(k), k, top)
    k = k[np.isfinite(k)]
    if k.size:
        ax.plot(k, np.full(k.size, y), **breakdown_style(prec), label=f"no model, {prec}")
    return int(k.size)


def precision_rank(name: str) -> float:
    """Sort key: the digits the precision carries (float32 < float64 < longdouble < mp20 < mp50 ...)."""
    try:
        return get_precision(str(name)).digits
    except UnknownPrecisionError:
        return float("inf")


def slug(text: str) -> str:
    """File-name-safe lower-case slug."""
    s = re.sub(r"[^a-zA-Z0-9]+", "-", str(text)).strip("-").lower()
    return s or "x"


@dataclass(frozen=True)
class FigureRef:
    """A saved figure: PNG and CSV paths relative to the report directory."""

    png: str
    csv: str
    caption: str
    alt: str
    size: tuple = ()  # (width, height) of the PNG in pixels, for the page's <img width height>


@dataclass(frozen=True)
class TableRef:
    """A saved table: the DataFrame shown and its CSV path relative to the report directory."""

    frame: pd.DataFrame
    csv: str
    caption: str


def new_figure(ncols: int = 1, nrows: int = 1, *, width: float = 6.4, height: float = 4.2, **kw):
    """A matplotlib figure of ``nrows x ncols`` panels, constrained layout."""
    fig, axes = plt.subplots(nrows, ncols, figsize=(width * ncols, height * nrows),
                             layout="constrained", squeeze=False, **kw)
    return fig, axes


def panel_grid(n: int, ncols: int = 3, *, width: float = 4.3, height: float = 3.6):
    """A figure of ``n`` panels in rows of at most ``ncols``; returns (fig, the n axes in order).

    The cells past the n-th are hidden, so a figure of one panel per solver,
    configuration or precision has no empty frames.
    """
    ncols = max(1, min(ncols, n))
    fig, axs = new_figure(ncols, -(-n // ncols), width=width, height=height)
    flat = list(axs.ravel())
    for a in flat[n:]:
        a.set_visible(False)
    return fig, flat[:n]


def panel_title(ax, text: str, *, fontsize: float = 9):
    """Set a panel's title wrapped to the panel's width, breaking after commas first.

    A solver configuration label (``op-lssvm[ranking=..., press=..., solve=...]``)
    is often wider than its panel; unwrapped, neighbouring titles run into each
    other.  The width in characters assumes an average glyph of 0.55 em.
    """
    fig = ax.get_figure()
    width_in = ax.get_position().width * fig.get_figwidth()
    chars = max(12, int(width_in * 72 / (0.55 * fontsize)))
    parts = [p + ("," if i < len(text.split(", ")) - 1 else "") for i, p in enumerate(text.split(", "))]
    lines, line = [], ""
    for part in parts:
        if line and len(line) + 1 + len(part) > chars:
            lines.append(line)
            line = part
        else:
            line = f"{line} {part}" if line else part
    lines.append(line)
    ax.set_title("\n".join(textwrap.fill(x, chars, break_on_hyphens=False) for x in lines),
                 fontsize=fontsize)


def log_axes(ax, *, x=True, y=True):
    if x:
        ax.set_xscale("log")
    if y:
        ax.set_yscale("log")
    ax.grid(True, which="major", alpha=0.3)


def _check_axes(fig, name):
    """Every panel with data has both axis labels and a legend (report contract)."""
    for ax in fig.axes:
        if not ax.has_data():
            continue
        if not ax.get_xlabel() or not ax.get_ylabel():
            raise ValueError(f"expected labelled axes in figure {name!r}, got "
                             f"xlabel={ax.get_xlabel()!r}, ylabel={ax.get_ylabel()!r}")
        if ax.get_legend() is None and not fig.legends:
            raise ValueError(f"expected a legend on every panel of figure {name!r}")


def save_figure(fig, data: pd.DataFrame, out_dir: Path, name: str, caption: str, *,
                alt: str | None = None) -> FigureRef:
    """Write ``<name>.png`` (150 dpi) and ``<name>.csv``; close the figure.

    Raises
    ------
    ValueError
        If a panel with data lacks axis labels or a legend.
    """
    out_dir = Path(out_dir)
    name = slug(name)
    try:
        _check_axes(fig, name)
        fig.savefig(out_dir / f"{name}.png", dpi=150)
        size = tuple(int(round(v * 150)) for v in fig.get_size_inches())
    finally:
        plt.close(fig)
    data.to_csv(out_dir / f"{name}.csv", index=False)
    return FigureRef(f"{name}.png", f"{name}.csv", caption, alt or caption, size)


def save_table(frame: pd.DataFrame, out_dir: Path, name: str, caption: str, *,
               data: pd.DataFrame | None = None) -> TableRef:
    """Write ``<name>.csv`` (``data`` if given, else ``frame``) and return the reference."""
    name = slug(name)
    (frame if data is None else data).to_csv(Path(out_dir) / f"{name}.csv", index=False)
    return TableRef(frame, f"{name}.csv", caption)


def empty_panel(ax, message: str):
    """Mark a panel as having no data (the report says why in text)."""
    ax.text(0.5, 0.5, message, ha="center", va="center", transform=ax.transAxes, wrap=True)
    ax.set_xticks([])
    ax.set_yticks([])


#: Where :func:`place_legends` tries an axes legend, in order; outside the axes if none is free.
_LEGEND_SPOTS = ("upper right", "upper left", "lower left", "lower right", "center right", "center left",
                 "upper center", "lower center")


def _under(ax, box, renderer) -> bool:
    """Whether a plotted mark of ``ax`` (marker, line, scatter point, bar) lies under display box ``box``.

    Lines are sampled at most 2 pixels apart, markers grown by their radius;
    only what the axes shows (inside its frame) counts.
    """
    frame = ax.get_window_extent(renderer)
    x0, y0 = max(box.x0, frame.x0), max(box.y0, frame.y0)
    x1, y1 = min(box.x1, frame.x1), min(box.y1, frame.y1)
    if x0 >= x1 or y0 >= y1:
        return False
    pt = ax.figure.dpi / 72

    def hit(xy, pad):
        xy = xy[np.isfinite(xy).all(axis=1)]
        return bool(len(xy)) and bool(np.any((xy[:, 0] > x0 - pad) & (xy[:, 0] < x1 + pad)
                                             & (xy[:, 1] > y0 - pad) & (xy[:, 1] < y1 + pad)))

    for line in ax.get_lines():
        if not line.get_visible():
            continue
        xy = line.get_transform().transform(np.asarray(line.get_xydata(), float))
        has_marker = line.get_marker() not in (None, "None", "none", "", " ")
        if has_marker and hit(xy, line.get_markersize() * pt / 2):
            return True
        if line.get_linestyle() not in ("None", "none", "", " ") and len(xy) > 1:
            # a segment with a NaN or infinite end (a missing point; 0 on a log axis) is a gap matplotlib
            # does not draw: its samples are non-finite and hit() drops them, so their arithmetic may
            # produce NaN without a warning
            with np.errstate(invalid="ignore"):
                seg = np.hypot(*np.diff(xy, axis=0).T)  # sample every segment at most 2 px apart
                n = int(min(4000.0, seg[np.isfinite(seg)].max(initial=0.0) / 2.0, 4e5 / len(seg))) + 2
                t = np.linspace(0.0, 1.0, n)[:, None, None]
                samples = (xy[:-1] + t * (xy[1:] - xy[:-1])).reshape(-1, 2)
            if hit(samples, line.get_linewidth() * pt / 2):
                return True
    for coll in ax.collections:
        if coll.get_visible() and hasattr(coll, "get_offsets") and len(coll.get_offsets()):
            if hit(coll.get_offset_transform().transform(np.asarray(coll.get_offsets(), float)), 3 * pt):
                return True
    for patch in ax.patches:
        bb = patch.get_window_extent(renderer)
        if patch.get_visible() and bb.x0 < x1 and bb.x1 > x0 and bb.y0 < y1 and bb.y1 > y0:
            return True
    return False


def place_legends(fig, axes=None, *, outside: str = "right", inside: bool = True) -> None:
    """Move each axes legend of ``fig`` to a spot where it hides no data (call before saving).

    The layout is computed once (:meth:`LayoutEngine.execute`, no pixels drawn);
    each legend of ``axes`` (default: every axes) then takes the first of the
    inner spots (:data:`_LEGEND_SPOTS`) with no marker, line or bar under it,
    and goes outside its axes (``outside``: "right" or "below") when every spot
    is taken (``inside=False``: always, for panels their curves fill corner to
    corner).  matplotlib's ``loc="best"`` only minimises the overlap, and with
    many curves still covers some.
    """
    axes = [a for a in (fig.axes if axes is None else axes) if a.get_legend() is not None]
    if not axes:
        return
    # A legend moved outside shrinks its panel under the layout engine, which can put data under
    # another panel's legend: check every legend again after each pass that moved one, until a pass
    # finds every legend free (at most 6 passes: 2 sufficed with the newest libraries, not at the
    # declared minimum versions, whose data put a curve under a legend the second pass had settled).
    pinned = set()
    for _ in range(6):
        engine = fig.get_layout_engine()
        if engine is not None:
            engine.execute(fig)
        renderer = fig.canvas.get_renderer()
        moved = False
        for ax in axes:
            leg = ax.get_legend()
            if id(leg) in pinned and not _under(ax, leg.get_window_extent(renderer), renderer):
                continue  # free where this function put it (inside or outside)
            # a legend not placed here yet gets a fixed spot even when it looks free: loc="best" is
            # recomputed when the figure is saved, at the saving dpi, and can land on data then
            pinned.add(id(leg))
            moved = True
            leg.set_bbox_to_anchor(None)  # the inner spots are relative to the axes again
            for spot in (_LEGEND_SPOTS if inside else ()):
                leg.set_loc(spot)
                if not _under(ax, leg.get_window_extent(renderer), renderer):
                    break
            else:
                # outside: under the x label (or right of the y tick labels), offset in points from
                # the axes' frame so that the layout shrinking the axes does not move it onto them
                frame = ax.get_window_extent(renderer)
                decor = ax.get_tightbbox(renderer, for_layout_only=True)
                pt = 72 / fig.dpi
                if outside == "below":
                    leg.set_loc("upper center")
                    leg.set_bbox_to_anchor((0.5, 0.0), transform=mtransforms.offset_copy(
                        ax.transAxes, fig=fig, y=-((frame.y0 - decor.y0) * pt + 4), units="points"))
                else:
                    leg.set_loc("upper left")
                    leg.set_bbox_to_anchor((1.0, 1.0), transform=mtransforms.offset_copy(
                        ax.transAxes, fig=fig, x=(decor.x1 - frame.x1) * pt + 4, units="points"))
        if not moved:
            return
