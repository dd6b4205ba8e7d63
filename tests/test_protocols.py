"""The ``full`` profile follows the papers' own repetition counts, from one table with their sources
(declared by each paper's room: :func:`lssvm_analysis.report.protocols.paper_counts`), and the default profile runs >= 10 splits behind
the accuracy comparisons.  Plans only: nothing is run."""
from __future__ import annotations

import pandas as pd
import pytest

from lssvm_analysis.experiments import SweepSpec
from lssvm_analysis.report.protocols import PaperCount, paper_counts, planned_count

PAPER_COUNTS = paper_counts()  # each room declares its paper's counts beside its section
from lssvm_analysis.report.registry import get_section, report_sections

_PLANS: dict = {}


def _plan(section, profile):
    """The section's specs for the profile, every dependent stage planned from no stored rows."""
    if (section, profile) not in _PLANS:
        specs = get_section(section).plan(profile, lambda spec: pd.DataFrame())
        _PLANS[section, profile] = {k: v for k, v in specs.items() if isinstance(v, SweepSpec)}
    return _PLANS[section, profile]


def _governed(entry, profile):
    specs = {k: v for k, v in _plan(entry.section, profile).items() if entry.governs(k)}
    assert specs, f"{entry.section}: no spec matches {entry.specs!r} in {profile!r}"
    return specs


@pytest.mark.parametrize("entry", PAPER_COUNTS, ids=[f"{e.section}:{e.specs}:{e.what}" for e in PAPER_COUNTS])
def test_full_plan_uses_the_papers_count(entry):
    for key, spec in _governed(entry, "full").items():
        assert planned_count(spec, entry.what) == entry.count, (key, entry.source)


@pytest.mark.parametrize("entry", [e for e in PAPER_COUNTS if e.default_min is not None],
                         ids=[f"{e.section}:{e.specs}:{e.what}" for e in PAPER_COUNTS if e.default_min is not None])
def test_default_plan_reaches_its_minimum(entry):
    for key, spec in _governed(entry, "default").items():
        assert planned_count(spec, entry.what) >= min(entry.default_min, entry.count), (key, entry.source)


def test_table_names_real_sections_and_sources():
    keys = {s.key for s in report_sections()}
    for e in PAPER_COUNTS:
        assert e.section in keys and e.what in ("seeds", "folds") and e.count >= 1 and e.source
    assert PaperCount("x", "t1-*", "seeds", 1, "-", exclude="t1-*-zscore").governs("t1-splice")
    assert not PaperCount("x", "t1-*", "seeds", 1, "-", exclude="t1-*-zscore").governs("t1-satimage-zscore")
    with pytest.raises(ValueError, match="what="):
        planned_count(_plan("vieira", "full")["table"], "repeats")


def test_task_counts_of_the_full_plan(tmp_path):
    """The full profile's plan, counted (report/plan.task_counts): more tasks than the default in every
    section whose protocol the full profile widens, shared tasks counted once."""
    from lssvm_analysis.report.plan import stored_plan, task_counts

    store = tmp_path / "r.sqlite"
    full, default = task_counts(stored_plan(store, "full")), task_counts(stored_plan(store, "default"))
    assert (full.tasks >= 0).all() and full.tasks.sum() > default.tasks.sum()
    by_f, by_d = full.groupby("section").tasks.sum(), default.groupby("section").tasks.sum()
    for section in ("vieira", "abe", "suykens-tables", "chen-zhou", "zhao-sun"):
        assert by_f[section] > by_d[section], section
    keys = {t.key for by in stored_plan(store, "full").values() for s in by.values()
            if isinstance(s, SweepSpec) for t in s.tasks()}
    assert full.tasks.sum() == len(keys)
