"""The registry of report sections: the page is the sections registered here, in order.

A section is two functions and a title:

* ``plan(profile, run) -> {key: SweepSpec}``: the sweeps the section needs
  for the named profile ("quick", "default" or "full").  ``run(spec)`` runs
  (or resumes) a spec into the report's record store and returns its records
  as a DataFrame, so that a dependent stage (tune by CV, then test with the
  chosen point) can read the stage before it.  Every spec the section's
  ``render`` reads must be in the returned mapping.
* ``render(sec, out, records, profile) -> summary``: fills ``sec`` (a
  :class:`~lssvm_analysis.report.html.Section`) with text, figures and
  tables written under ``out``, from ``records`` (the section's own specs'
  rows, by the keys ``plan`` returned) and returns what it measured (the
  page's "Measured." line).  Verdicts on the papers' claims come only from
  the claims ledger (:mod:`lssvm_analysis.experiments.claims`), which
  :func:`~lssvm_analysis.report.build.write_report` adds to each section.
  It never runs a solver.

Family sections with paper-specific figures are hand-written modules that
call :func:`register_section` at import (one import line in
``report/__init__.py``); the generic sections (precisions, breakdown maps,
the spectra appendix) iterate the solver and precision registries, so a new
solver appears there without any edit.
"""
from __future__ import annotations

from dataclasses import dataclass
from typing import Callable

from ..experiments.papers import load_papers

__all__ = ["ReportSection", "PROFILE_NAMES", "register_section", "report_sections", "get_section",
           "check_profile"]

#: The report profiles: "quick" (tests, <= ~60 s), "default" (``make report``,
#: <= 5 min on 2 cores with every paper), "full" (the papers' own protocols).
PROFILE_NAMES = ("quick", "default", "full")


@dataclass(frozen=True)
class ReportSection:
    """A registered section of the report (see the module docstring)."""

    key: str
    title: str
    order: float
    plan: Callable
    render: Callable
    reads_all: bool = False


_SECTIONS: dict[str, ReportSection] = {}


def check_profile(profile: str) -> str:
    """The profile name, or ValueError naming it."""
    if profile not in PROFILE_NAMES:
        raise ValueError(f"expected a report profile in {PROFILE_NAMES}, got profile={profile!r}")
    return profile


def register_section(key: str, *, title: str, order: float, plan: Callable, render: Callable,
                     replace: bool = False, reads_all: bool = False) -> ReportSection:
    """Add a section to the report (at import of the module that defines it).

    Parameters
    ----------
    key : str
        Unique name; also the prefix of the section's sweep names and files.
    title : str
        The section heading.
    order : float
        Sections appear by increasing order.
    plan, render : callable
        See the module docstring.
    replace : bool
        Allow re-registering ``key`` (module reloads in tests).
    reads_all : bool
        ``render`` receives every section's records ``{section: {key: DataFrame}}`` and runs after
        the other sections (it may link to their files); the claims ledger is one.
    """
    if not isinstance(key, str) or not key:
        raise TypeError(f"expected a non-empty str key, got key={key!r}")
    if key in _SECTIONS and not replace:
        raise ValueError(f"expected a new section key, got key={key!r} (already registered)")
    if not (callable(plan) and callable(render)):
        raise TypeError(f"expected callables plan and render for section {key!r}")
    sec = ReportSection(key, title, float(order), plan, render, bool(reads_all))
    _SECTIONS[key] = sec
    return sec


def report_sections() -> list[ReportSection]:
    """The registered sections in page order (the papers' rooms loaded first)."""
    load_papers()
    return sorted(_SECTIONS.values(), key=lambda s: (s.order, s.key))


def get_section(key: str) -> ReportSection:
    load_papers()
    try:
        return _SECTIONS[key]
    except KeyError:
        raise ValueError(f"expected a report section in {sorted(_SECTIONS)}, got section={key!r}") from None
