"""Gates of the claims ledger against the inventory ``shared/CLAIMS.md``.

* The package's copy of the inventory (``experiments/claims/inventory.json``) is the file's rows,
  parsed by the one parser.
* Every id of the inventory is registered in the ledger, with a rule or a reason why it is not
  testable offline; the ledger holds no id the inventory does not list.
* Every registered claim shows the paper's words and its threshold with the threshold's reason.
* A claim of two aspects is split: its parent is registered as the conjunction of its sub-claims.
"""
from __future__ import annotations

import json
import os
from pathlib import Path

import pytest

from lssvm_analysis.experiments.claims import Verdict, claims, evaluate, get_claim
from lssvm_analysis.experiments.claims import combine
from lssvm_analysis.experiments.claims.inventory import INVENTORY_FILE, inventory, parse_claims_md, write_inventory
from lssvm_analysis.experiments.papers import UnknownPaperError, paper_of_claim, papers

CLAIMS_MD = Path(__file__).resolve().parents[1].parent / "shared" / "CLAIMS.md"
INVENTORY = inventory()
REGISTERED = {c.id: c for c in claims()}


def test_the_packaged_inventory_is_the_files():
    if not CLAIMS_MD.is_file():
        if os.environ.get("CI"):
            pytest.fail(f"expected the inventory beside the clone in CI, got no file at {CLAIMS_MD}")
        pytest.skip(f"no shared/CLAIMS.md beside this checkout ({CLAIMS_MD})")
    rows, protocols = parse_claims_md(CLAIMS_MD.read_text(encoding="utf-8"))
    packaged = json.loads(INVENTORY_FILE.read_text(encoding="utf-8"))
    assert rows == packaged["rows"], "inventory.json is stale: regenerate it from CLAIMS.md"
    assert protocols == packaged["protocols"]


def test_write_inventory_round_trips(tmp_path):
    """The generator writes what the parser reads: a two-row inventory of a paper the file names by prefix."""
    md = tmp_path / "CLAIMS.md"
    md.write_text("## 1. A paper\nProtocol: two rows.\n| A-x | w | q | m | t | o |\n| A-y ✓ | w2 | q2 | m2 | t2 | o2 |\n",
                  encoding="utf-8")
    out = tmp_path / "inventory.json"
    assert write_inventory(md, out) == 2
    data = json.loads(out.read_text(encoding="utf-8"))
    assert [r["id"] for r in data["rows"]] == ["A-x", "A-y"] and data["rows"][1]["judged"] is True
    assert data["protocols"] == {"A": "Protocol: two rows."}


def test_the_parser_refuses_a_malformed_row():
    with pytest.raises(ValueError, match="expected 6 cells"):
        parse_claims_md("| A-x | where | words |\n")
    with pytest.raises(ValueError, match="duplicates"):
        parse_claims_md("| A-x | w | q | m | t | o |\n| A-x | w | q | m | t | o |\n")
    with pytest.raises(TypeError, match="text="):
        parse_claims_md(None)


def test_the_inventory_counts():
    """CLAIMS.md §6: 174 claims, 59 judged before the inventory (✓), per paper 22/22/18/49/63."""
    assert len(INVENTORY) == 174 and sum(r.judged for r in INVENTORY.values()) == 59
    per = {p.key: sum(r.paper == p.key for r in INVENTORY.values()) for p in papers()}
    assert per == {"abe": 22, "vieira": 22, "zhao-sun": 18, "suykens": 49, "chen-zhou": 63}


def test_a_prefix_no_paper_declares_is_refused_by_name():
    with pytest.raises(UnknownPaperError, match="claim_id='Q-x'"):
        paper_of_claim("Q-x")


@pytest.mark.parametrize("paper", sorted(p.key for p in papers()))
def test_every_inventory_row_is_registered(paper):
    missing = [i for i, r in INVENTORY.items() if r.paper == paper and i not in REGISTERED]
    assert not missing, f"{len(missing)} rows of CLAIMS.md have no claim in the ledger: {missing}"


def test_the_ledger_holds_only_inventory_rows():
    assert sorted(set(REGISTERED) - set(INVENTORY)) == []


@pytest.mark.parametrize("cid", sorted(REGISTERED))
def test_every_claim_shows_its_words_and_threshold(cid):
    c = REGISTERED[cid]
    assert c.quote and c.source and c.threshold, cid
    assert c.parts or c.rule is not None or c.untestable, cid
    assert c.paper == paper_of_claim(cid).key, cid


def test_parents_are_the_conjunction_of_their_sub_claims():
    for cid, row in INVENTORY.items():
        if row.parent and row.parent in INVENTORY and row.parent in REGISTERED and cid in REGISTERED:
            parent = get_claim(row.parent)
            assert parent.parts, f"{row.parent} has sub-claims ({cid}) but is judged by a rule of its own"
            assert evaluate(parent, {}).outcome in ("not run", "not testable offline", "undecided"), row.parent


def test_combine_is_a_conjunction():
    h, n, u = Verdict("holds", measured="a"), Verdict("does not hold", measured="b"), Verdict("undecided", "c")
    w = Verdict("holds only when", measured="d", condition="C > 1")
    assert combine([("X/a", h), ("X/b", h)]).outcome == "holds"
    assert combine([("X/a", h), ("X/b", n), ("X/c", u)]).outcome == "does not hold"
    assert combine([("X/a", h), ("X/b", u)]).outcome == "undecided"
    assert combine([("X/a", h), ("X/b", Verdict("not run"))]).outcome == "undecided"
    assert combine([("X/a", Verdict("not run")), ("X/b", Verdict("not run"))]).outcome == "not run"
    got = combine([("X/a", h), ("X/b", w)])
    assert got.outcome == "holds only when" and got.condition == "C > 1"
    assert "a: holds" in got.measured and "b: holds only when C > 1" in got.measured
    with pytest.raises(ValueError, match="parts=\\[\\]"):
        combine([])
