"""Frozen thresholds, and no ``nan`` in a sentence a reader sees.

Every registered claim with a rule judges by the threshold of its inventory row (``shared/CLAIMS.md``,
:mod:`lssvm_analysis.experiments.claims.inventory`), or its ``reading`` states the theory that replaces
it: a threshold is fixed before the results, never re-derived after them.
"""
from __future__ import annotations

import pandas as pd
import pytest

from lssvm_analysis.experiments.claims import claims
from lssvm_analysis.experiments.claims.inventory import inventory
from lssvm_analysis.experiments.claims.stats import paired

#: Claims of other papers that fail the check today, by owner (the lead removes an entry once its
#: owner's branch is merged and the claim passes).
KNOWN_FAILURES: dict[str, str] = {}


def _ruled():
    return [c for c in claims() if c.rule is not None]


@pytest.mark.parametrize("cid", [pytest.param(c.id, marks=pytest.mark.xfail(
    reason=f"owned by {KNOWN_FAILURES[c.id]}", strict=True)) if c.id in KNOWN_FAILURES else c.id
    for c in _ruled()])
def test_threshold_is_the_inventorys_or_the_reading_gives_the_theory(cid):
    c = next(x for x in _ruled() if x.id == cid)
    row = inventory().get(cid)
    assert row is not None, f"{cid}: no inventory row"
    assert c.threshold == row.threshold or c.reading.strip(), (
        f"{cid}: threshold {c.threshold!r} differs from the inventory's {row.threshold!r} and no reading "
        "states the theory replacing it")


def test_one_split_interval_reads_as_text_not_nan():
    """One split gives no interval: the text says so, and no ``nan`` reaches the sentence."""
    d = paired(pd.Series([0.3]), pd.Series([0.1]))
    assert d.interval() == "no interval (1 split)"
    assert d.short("+.2g") == "+0.2, no interval (1 split)"
    assert "nan" not in d.text() + d.resolution() + d.short()
    none = paired(pd.Series([float("nan")]), pd.Series([0.1]))
    assert "nan" not in none.text() + none.resolution() + none.short()
    two = paired(pd.Series([0.3, 0.5]), pd.Series([0.1, 0.2]))
    assert two.interval("+.2g") == "[-0.39, +0.89]" and "nan" not in two.text()
