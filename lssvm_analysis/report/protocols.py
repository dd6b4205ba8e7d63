"""The papers' own repetition counts, the one table the ``full`` profile follows (issue 20).

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

__all__ = ["PaperCount", "PAPER_COUNTS", "DEFAULT_SPLITS", "planned_count"]


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


PAPER_COUNTS = (
    PaperCount("vieira", "table", "seeds", 30, "Vieira §4 / Table 2: mean ± sd over 30 random 2/3–1/3 splits "
               "(SEED_NOTES §1.6, §1.8)"),
    PaperCount("vieira", "table", "folds", 10, "Vieira §4: 10-fold CV on the training part (SEED_NOTES §1.6)",
               default_min=None),
    PaperCount("chen-zhou", "t1-*", "seeds", 10, "Chen & Zhou §5: medium sets, 10 runs (Table 1; SEED_NOTES "
               "§3.8); not the 3-run Satimage z-score diagnostic, which no table of the paper has",
               exclude="t1-*-zscore"),
    PaperCount("chen-zhou", "t4-*", "seeds", 10, "Chen & Zhou Table 4: medium regression, 10 runs (SEED_NOTES "
               "§3.8)"),
    PaperCount("chen-zhou", "sweep-*", "seeds", 10, "Chen & Zhou Table 3 (Cod-RNA, a large set: 5 runs) run here "
               "on Pendigits, a medium set of the paper: its 10 runs (SEED_NOTES §3.8)"),
    PaperCount("chen-zhou", "fig3", "seeds", 10, "Chen & Zhou Fig. 3: synthetic medium problem, 10 runs as the "
               "medium sets (the figure states no count)"),
    PaperCount("chen-zhou", "scale", "seeds", 5, "Chen & Zhou Table 5: large regression (3D-spatial), 5 runs "
               "(SEED_NOTES §3.8); default: one draw per m (time series, report budget)", default_min=None),
    PaperCount("chen-zhou", "scale-svr", "seeds", 5, "Chen & Zhou Table 5: ε-SVR rows, 5 runs; default: one "
               "draw per m (report budget)", default_min=None),
    PaperCount("suykens-tables", "*", "seeds", 10, "Suykens Table 3.3–3.5: mean(std) of 10 randomised test "
               "runs (SEED_NOTES §4)"),
    PaperCount("suykens-tables", "*", "folds", 10, "Suykens §3.4.2: 10-fold CV on the 2/3 training part "
               "(SEED_NOTES §4); default: 5 folds (report budget); not the reference classifiers, which the "
               "chapter quotes without a CV", default_min=None, exclude="reference*"),
    PaperCount("abe", "test-*-boston*", "seeds", 100, "Abe Table 1: 100 random half/half splits of Boston "
               "(SEED_NOTES §5)"),
    PaperCount("abe", "test-*-mackey-glass", "seeds", 1, "Abe Table 1: Mackey-Glass has one fixed 500/500 "
               "split (SEED_NOTES §5)", default_min=1),
    PaperCount("abe", "cv-*", "folds", 5, "Abe §4: C, γ and η by 5-fold CV (SEED_NOTES §5)", default_min=5),
)


def planned_count(spec, what: str) -> int:
    """The number of seeds (distinct random splits) or CV folds a planned spec runs."""
    if what == "seeds":
        return len(set(spec.seeds))
    if what == "folds":
        return int(dict(spec.options)["folds"])
    raise ValueError(f"expected what in ('seeds', 'folds'), got what={what!r}")
