"""The papers' own repetition counts, the one table the ``full`` profile follows.

Each paper's room declares its counts beside its section (:func:`register_paper_counts`);
the engine knows no paper by name.

Each :class:`PaperCount` names a report section, the sweeps it governs (a
glob over the section's spec keys), what is counted (``"seeds"``: random
splits, runs or randomisations; ``"folds"``: cross-validation folds), the
paper's count and where the paper gives it (the section of
``../shared/SEED_NOTES.md``).  ``default_min`` is what the default profile
must reach (:data:`DEFAULT_SPLITS` paired splits behind every comparison of a
paper's table: issue 20 asked for 10, issue 34's budget halved it; a verdict
they cannot decide says how many splits would), or None where the default runs
fewer for its time budget (said in the reason).

:func:`planned_count` reads a planned :class:`~lssvm_analysis.experiments.SweepSpec`;
the test of the plans checks every entry against the ``full`` and
``default`` plans.  Papers that print no count (Zhao & Sun: no tables at
all, SEED_NOTES §2.3) have no entry: their sections choose their own.
"""
from __future__ import annotations

from dataclasses import dataclass
from fnmatch import fnmatchcase

from ..experiments.papers import load_papers

__all__ = ["PaperCount", "DEFAULT_SPLITS", "planned_count", "register_paper_counts", "paper_counts"]


#: Paired splits the default profile runs at least for the papers' tables (issue 34: the report's budget;
#: was 10): a 95 % interval behind every comparison; the papers' counts run in "full".
DEFAULT_SPLITS = 5


@dataclass(frozen=True)
class PaperCount:
    """One repetition count of a paper's protocol and the sweeps that follow it.

    Attributes
    ----------
    section : str
        Report section key.
    specs : str
        Glob (fnmatch) over the section's spec keys.
    what : {"seeds", "folds"}
    count : int
        The paper's count, which the ``full`` profile uses.
    source : str
        Where the paper states it.
    default_min : int or None
        The least the ``default`` profile runs; None: fewer, for the reason given in ``source``.
        :data:`DEFAULT_SPLITS` for the papers' tables: enough paired splits for a 95 % interval
        behind every comparison within the report's time budget; the papers' counts run in "full",
        and a verdict the default splits cannot decide says how many would.
    exclude : str
        Glob of spec keys ``specs`` matches that the count does not govern ("" = none).
    """

    section: str
    specs: str
    what: str
    count: int
    source: str
    default_min: int | None = DEFAULT_SPLITS
    exclude: str = ""

    def governs(self, key: str) -> bool:
        """Whether the spec key ``key`` of the section follows this count."""
        return fnmatchcase(key, self.specs) and not (self.exclude and fnmatchcase(key, self.exclude))


_COUNTS: list[PaperCount] = []


def register_paper_counts(*counts: PaperCount) -> None:
    """Declare a paper's repetition counts (at import of its room's section): the ``full`` profile's
    table, which :func:`paper_counts` gives the test of the plans."""
    for c in counts:
        if not isinstance(c, PaperCount):
            raise TypeError(f"expected PaperCount entries, got {c!r}")
        if c not in _COUNTS:
            _COUNTS.append(c)


def paper_counts() -> tuple[PaperCount, ...]:
    """Every registered paper's repetition counts (the papers' rooms loaded first)."""
    load_papers()
    return tuple(_COUNTS)


def planned_count(spec, what: str) -> int:
    """The number of seeds (distinct random splits) or CV folds a planned spec runs."""
    if what == "seeds":
        return len(set(spec.seeds))
    if what == "folds":
        return int(dict(spec.options)["folds"])
    raise ValueError(f"expected what in ('seeds', 'folds'), got what={what!r}")
