"""Appendix, generated from the registry: the spectrum and condition number of every system formed.

For every registered solver with a ``system`` builder, in every variant
configuration, the matrix it forms (float64) on the generic problems of the
precision section at a few values of C: its eigenvalues (symmetric matrices;
the KKT matrices are indefinite, their negative eigenvalues are counted) or
singular values, and kappa_2.  One figure and one table per paper.
"""
from __future__ import annotations

from dataclasses import dataclass, replace

import numpy as np
import pandas as pd

from ..experiments import SweepSpec
from ..experiments.arrays import loads
from ..solvers import get_solver, solvers
from .util import errors_note, num, ok
from .figures import (fmt_num, log_axes, overlay_width, panel_grid, panel_title, save_figure, save_table,
                      series_style)
from .html import Section
from .registry import register_section
from .sections_precision import SETTINGS as PRECISION_SETTINGS
from .sections_precision import grid_for

__all__ = ["AppendixSettings", "SETTINGS", "plan", "render"]


@dataclass(frozen=True)
class AppendixSettings:
    """The C values at which each system's spectrum is taken."""

    C: tuple = (1.0, 1e4, 1e8)


SETTINGS = {"default": AppendixSettings(), "quick": AppendixSettings(C=(1.0, 1e8)),
            "full": AppendixSettings(C=(1e-2, 1.0, 1e2, 1e4, 1e6, 1e8, 1e10))}


def plan(profile: str, run) -> dict:
    """One sweep: every solver with a system x its configurations x C, float64."""
    P, A = SETTINGS[profile], PRECISION_SETTINGS[profile]
    names = [n for n in (A.solvers or solvers()) if get_solver(n).system is not None]
    spec = SweepSpec(f"{profile}-appendix-spectra", kind="system-spectrum", solvers=names,
                     precisions=["float64"],
                     datasets=[("sinc", {"n_train": A.sinc_n, "n_test": 100}),
                               ("ripley-mixture", {"n_train": A.ripley_n, "n_test": 100})],
                     grid=grid_for(names, C=P.C, sigma2=[A.sinc_sigma2], eta=[1e-3]),
                     options={"first_task_only": True})
    return {"spectra": spec}


def _figure(sec, out, paper, rows):
    configs = list(dict.fromkeys(rows.configuration))
    fig, axs = panel_grid(len(configs), 3, width=4.0, height=3.6)
    for a, c in zip(axs, configs):
        g = rows[rows.configuration == c].sort_values("C")
        for i, (_, r) in enumerate(g.iterrows()):  # spectra often coincide: each curve thinner
            w = loads(r["spectrum"])
            a.plot(np.arange(1, len(w) + 1), np.clip(w, 1e-300, None), ls=series_style(i)[0],
                   lw=overlay_width(i, len(g)), color=f"C{i}", label=f"C={fmt_num(r['C'])}: κ₂={fmt_num(r['kappa2'])}")
        log_axes(a, x=False)
        panel_title(a, c)
        a.set_xlabel("index (decreasing magnitude) [–]")
        a.set_ylabel("|eigenvalue| or singular value [–]")
        a.legend(fontsize=8)
    sec.figure(save_figure(fig, rows, out, f"appendix-spectra-{paper}",
                           f"{paper}: spectrum of the system each solver (and variant) forms, float64, "
                           "at several C (magnitudes, decreasing)."))


def render(sec: Section, out, records, profile: str) -> str:
    """Spectra and kappa_2 per paper from the records "spectra"; returns the verdict."""
    df = records.get("spectra", pd.DataFrame())
    rows = ok(df)
    note = errors_note(df, "the spectra")
    if note:
        sec.note(note)
    if not len(rows) or "spectrum" not in rows.columns:
        sec.note("No spectra were recorded.")
        return "no spectra were recorded"
    sec.p("The matrix each registered solver forms (its registry ``system``), rounded to float64, on "
          "the precision section's problems: magnitudes of its eigenvalues (symmetric) or singular "
          "values, with κ₂ (escalated to mpmath where float64 cannot resolve the small end).")
    drawn = rows[rows.spectrum.notna()]  # a breakdown has no spectrum: it is in the kappa table's gaps
    for paper in dict.fromkeys(drawn.paper):
        _figure(sec, out, paper, drawn[drawn.paper == paper])
    t = rows.pivot_table(index=["paper", "configuration"], columns="C", values="kappa2", aggfunc="first")
    t.columns = [f"κ₂ at C={fmt_num(c)}" for c in t.columns]
    sec.table(save_table(t.reset_index(), out, "appendix-kappa",
                         "κ₂ of the system each solver configuration forms, against C."))
    worst = rows.loc[num(rows, "kappa2").idxmax()]
    return (f"{rows.configuration.nunique()} solver configurations; the largest κ₂ is "
            f"{fmt_num(worst['kappa2'])} ({worst['configuration']} at C = {fmt_num(worst['C'])})")


def with_settings(profile: str, **kw) -> AppendixSettings:
    """A copy of a profile's settings with some fields replaced (tests use tiny settings)."""
    return replace(SETTINGS[profile], **kw)


register_section("appendix", title="Appendix: spectra and condition numbers of every system formed",
                 order=100, plan=plan, render=render)
