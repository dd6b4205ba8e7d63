"""Figures and tables of the report: every one is a PNG or HTML table *and* a CSV.

The plotting backend is matplotlib's Agg (no display).  Each figure is saved
with the tidy DataFrame it was drawn from, so every number in the report can
be read back from ``<name>.csv`` next to ``<name>.png``.
"""
from __future__ import annotations

import math
import re
from dataclasses import dataclass
from pathlib import Path

import matplotlib

matplotlib.use("Agg", force=True)
import matplotlib.pyplot as plt  # noqa: E402
import numpy as np  # noqa: E402
import pandas as pd  # noqa: E402

from ..core.exceptions import UnknownPrecisionError  # noqa: E402
from ..core.precision import get_precision, precisions  # noqa: E402

__all__ = ["FigureRef", "TableRef", "save_figure", "save_table", "new_figure", "slug",
           "fmt_num", "panel_grid", "precision_color", "precision_rank",
           "log_axes", "empty_panel"]

#: Colours of the registered precisions, in registry order; mp at any other number of digits is purple.
_PALETTE = ("tab:red", "tab:blue", "tab:green", "tab:purple", "tab:brown", "tab:olive")


def precision_color(name: str) -> str:
    """Colour of a precision: by its place in the registry (an unregistered mpN is purple)."""
    names = precisions()
    if name in names:
        return _PALETTE[names.index(name) % len(_PALETTE)]
    return "tab:purple" if str(name).startswith("mp") else "tab:gray"


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


def fmt_num(x, digits: int = 3) -> str:
    """Short human format: '—' for NaN/None, engineering-ish for others."""
    if x is None:
        return "—"
    if isinstance(x, (bool, np.bool_)):
        return "yes" if x else "no"
    if isinstance(x, (int, np.integer)):
        return str(int(x))
    try:
        v = float(x)
    except (TypeError, ValueError):
        return str(x)
    if math.isnan(v):
        return "—"
    if math.isinf(v):
        return "∞" if v > 0 else "−∞"
    if v != 0 and (abs(v) >= 1e4 or abs(v) < 1e-3):
        return f"{v:.{digits - 1}e}"
    return f"{v:.{digits}g}"


@dataclass(frozen=True)
class FigureRef:
    """A saved figure: PNG and CSV paths relative to the report directory."""

    png: str
    csv: str
    caption: str
    alt: str


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
    finally:
        plt.close(fig)
    data.to_csv(out_dir / f"{name}.csv", index=False)
    return FigureRef(f"{name}.png", f"{name}.csv", caption, alt or caption)


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
