"""The registry of papers: one key per paper, declared once by the paper's own room.

A paper is a folder (``lssvm_analysis/papers/<paper>/`` for the five seeds, or a
package of a user's own) that holds everything the paper adds above the
library: its task kinds, its claims with their rules, examples and printed
tables, and its report sections.  The folder's ``__init__`` calls
:func:`register_paper` once; the engines (sweeps, ledger, report) know no
paper by name and find the papers here.

Papers are discovered like plugins (a pytest plugin, a Django app): the
built-in rooms are the package :data:`BUILTIN_PAPERS`, and a third party's
paper declares its package in the entry-point group :data:`ENTRY_POINT_GROUP`.
:func:`load_papers` imports both, once, the first time an engine asks a
registry for something a paper registers (a task kind, a claim, a section).

>>> from lssvm_analysis.experiments.papers import get_paper
>>> get_paper("abe").prefix
'A'
"""
from __future__ import annotations

import importlib
import types
import warnings
from dataclasses import dataclass
from importlib.metadata import entry_points

from ..core.exceptions import LSSVMWarning

__all__ = ["BUILTIN_PAPERS", "ENTRY_POINT_GROUP", "Paper", "UnknownPaperError", "get_paper", "load_papers",
           "paper_of_claim", "papers", "register_paper"]

#: The package whose import registers the five seed papers (one sub-package per paper).
BUILTIN_PAPERS = "lssvm_analysis.papers"
#: Third-party papers: ``[project.entry-points."lssvm_analysis.papers"] mine = "my_pkg.my_paper"``.
ENTRY_POINT_GROUP = "lssvm_analysis.papers"


class UnknownPaperError(ValueError):
    """A paper key or claim-id prefix that no registered paper declares."""


@dataclass(frozen=True)
class Paper:
    """A registered paper.

    Attributes
    ----------
    key : str
        The one key of the paper, used by its solvers, claims, sweeps and sections.
    prefix : str
        The prefix of its claim ids (``"A"`` of ``A-rank``).
    title : str
        Authors and short title, as the report names the paper.
    sections : tuple of str
        The keys of the report sections the paper's room registers (its claims read their records).
    package : str
        The package that registered it (its room).
    """

    key: str
    prefix: str
    title: str
    sections: tuple = ()
    package: str = ""


_PAPERS: dict[str, Paper] = {}
_LOADED = False


def register_paper(key: str, *, prefix: str, title: str, sections=(), package: str = "",
                   replace: bool = False) -> Paper:
    """Declare a paper (once, in its room's ``__init__``).

    Parameters
    ----------
    key : str
        The paper's key: lower case, the one name its solvers (``paper=``), claims and report use.
    prefix : str
        The prefix of its claim ids: one or more upper-case letters, unique among the papers.
    title : str
        How the report names the paper.
    sections : iterable of str
        The report sections its room registers, in page order.
    package : str
        The room's package (``__name__`` of the calling ``__init__``).
    replace : bool
        Allow re-registering ``key`` (module reloads in tests).

    Raises
    ------
    TypeError, ValueError
        A key, prefix or title that is not a non-empty str, a prefix that is not upper-case letters,
        or a key or prefix that another paper already holds.
    """
    for name, value in (("key", key), ("prefix", prefix), ("title", title)):
        if not isinstance(value, str) or not value:
            raise TypeError(f"expected a non-empty str {name}, got {name}={value!r}")
    if not (prefix.isascii() and prefix.isalpha() and prefix.isupper()):
        raise ValueError(f"expected a claim-id prefix of upper-case letters, got prefix={prefix!r}")
    if isinstance(sections, str):
        raise TypeError(f"expected an iterable of section keys, got sections={sections!r}")
    sections = tuple(sections)
    if not all(isinstance(s, str) and s for s in sections):
        raise TypeError(f"expected non-empty str section keys, got sections={sections!r}")
    if key in _PAPERS and not replace:
        raise ValueError(f"expected a new paper key, got key={key!r} (already registered)")
    taken = {p.prefix: p.key for p in _PAPERS.values() if p.key != key}
    if prefix in taken:
        raise ValueError(f"expected a claim-id prefix no other paper uses, got prefix={prefix!r} "
                         f"(paper {taken[prefix]!r} has it)")
    paper = Paper(key, prefix, title, sections, package)
    _PAPERS[key] = paper
    return paper


def load_papers() -> None:
    """Import the built-in papers and those of the entry-point group, once.

    A third-party paper that fails to import is skipped with an :class:`~lssvm_analysis.core.exceptions.LSSVMWarning` that names
    it; the built-in papers are part of the package and their import errors propagate.
    An entry point may name a module (its import registers the paper) or a callable (called once).
    """
    global _LOADED
    if _LOADED:
        return
    _LOADED = True  # before the imports: a room that reads a registry while it loads must not recurse
    importlib.import_module(BUILTIN_PAPERS)
    for ep in entry_points(group=ENTRY_POINT_GROUP):
        try:
            obj = ep.load()
            if callable(obj) and not isinstance(obj, types.ModuleType):
                obj()
        except Exception as exc:  # noqa: BLE001 - a broken plugin must not break the suite
            warnings.warn(f"paper plugin {ep.name!r} ({ep.value}) was not loaded: "
                          f"{type(exc).__name__}: {exc}", LSSVMWarning, stacklevel=2)


def papers() -> list[Paper]:
    """The registered papers, in registration order."""
    load_papers()
    return list(_PAPERS.values())


def get_paper(key: str) -> Paper:
    """The paper registered under ``key``; :class:`UnknownPaperError` naming it otherwise."""
    load_papers()
    try:
        return _PAPERS[key]
    except KeyError:
        raise UnknownPaperError(f"expected a paper key in {sorted(_PAPERS)}, got key={key!r}") from None


def paper_of_claim(claim_id: str) -> Paper:
    """The paper whose prefix a claim id carries (``A-rank`` -> Abe's)."""
    load_papers()
    prefix = str(claim_id).split("-", 1)[0]
    for p in _PAPERS.values():
        if p.prefix == prefix:
            return p
    raise UnknownPaperError(f"expected a claim id whose prefix a registered paper declares "
                            f"({sorted(p.prefix for p in _PAPERS.values())}), got claim_id={claim_id!r}")
