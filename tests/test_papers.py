"""A paper is one room: one key everywhere, declared once, and a sixth paper is one folder.

* The registered papers are the five seeds, each with one key that its solvers, claims and
  sections use (a solver's ``paper`` is a registered paper's key, or "baseline").
* ``register_paper`` refuses what would make two papers collide, by name.
* A sixth paper written outside the package (a folder with one task kind, one claim, one sweep and
  one section, declared through the entry-point group ``lssvm_analysis.papers``) appears in the
  ledger and the report with no edit to the package.
"""
from __future__ import annotations

import csv
import os
import subprocess
import sys
import textwrap

import pytest

import lssvm_analysis as la
from lssvm_analysis.experiments.claims import claims
from lssvm_analysis.experiments.papers import (UnknownPaperError, get_paper, paper_of_claim, papers,
                                               register_paper)
from lssvm_analysis.report import report_sections


def test_the_five_papers_and_their_keys():
    keys = [p.key for p in papers()]
    assert keys == ["abe", "chen-zhou", "suykens", "vieira", "zhao-sun"]
    assert {p.prefix for p in papers()} == {"A", "C", "S", "V", "Z"}
    assert get_paper("suykens").sections == ("suykens", "suykens-tables")


def test_one_key_per_paper_everywhere():
    keys = {p.key for p in papers()}
    assert {la.get_solver(n).paper for n in la.solvers()} - {"baseline"} <= keys
    sections = {s.key for s in report_sections()}
    for c in claims():
        paper = get_paper(c.paper)
        assert paper_of_claim(c.id) is paper, c.id
        assert c.section in paper.sections or f"{c.section}" in sections, c.id
        assert set(paper.sections) <= sections, paper.key


@pytest.mark.parametrize("kw, error, match", [
    (dict(key="", prefix="Q", title="t"), TypeError, "key=''"),
    (dict(key="q", prefix="q1", title="t"), ValueError, "prefix='q1'"),
    (dict(key="q", prefix="A", title="t"), ValueError, "paper 'abe' has it"),
    (dict(key="abe", prefix="Q", title="t"), ValueError, "key='abe'"),
    (dict(key="q", prefix="Q", title="t", sections="q"), TypeError, "sections='q'"),
])
def test_register_paper_refuses_by_name(kw, error, match):
    with pytest.raises(error, match=match):
        register_paper(**kw)


def test_an_unknown_paper_is_named():
    with pytest.raises(UnknownPaperError, match="key='nope'"):
        get_paper("nope")


SIXTH = '''
"""A sixth paper, written outside lssvm_analysis: one kind, one sweep, one section, one claim."""
from lssvm_analysis.experiments import SweepSpec, register_paper, register_task_kind
from lssvm_analysis.experiments.claims import Verdict, register_claim
from lssvm_analysis.report import register_section

PAPER = register_paper("sixth", prefix="X", title="Sixth: squares are not negative", sections=("sixth",),
                       package=__name__)


def square_row(task):
    return {"square": float(task.params["a"]) ** 2}


register_task_kind("sixth-square", square_row)


def plan(profile, run):
    return {"squares": SweepSpec("sixth-squares", kind="sixth-square", grid={"a": [-2.0, 0.5, 3.0]})}


def render(sec, out, records, profile):
    df = records["squares"]
    sec.note(f"{len(df)} squares computed.")
    return f"{len(df)} squares"


register_section("sixth", title="Sixth: squares", order=60, plan=plan, render=render)


def rule(records):
    df = records["squares"]
    low = float(df.square.min())
    return Verdict("holds" if low >= 0 else "does not hold", measured=f"least square {low:g} over {len(df)} values")


def examples():
    import pandas as pd
    return {"holds": {"squares": pd.DataFrame({"square": [0.0, 4.0]})},
            "does not hold": {"squares": pd.DataFrame({"square": [-1.0, 4.0]})}}


register_claim("X-square", paper="sixth", section="sixth", where="§1", text="a square is not negative",
               printed="≥ 0", records=("squares",), rule=rule, examples=examples,
               quote="A square is never negative.", threshold="least square ≥ 0 (exact arithmetic)")
'''


def test_a_sixth_paper_from_outside_is_one_folder(tmp_path):
    """The folder plus its installed metadata (the entry point) is all it takes: ledger and page show it."""
    pkg = tmp_path / "sixth_paper"
    pkg.mkdir()
    (pkg / "__init__.py").write_text(textwrap.dedent(SIXTH), encoding="utf-8")
    dist = tmp_path / "sixth_paper-0.1.dist-info"  # what `pip install` of the folder would leave
    dist.mkdir()
    (dist / "METADATA").write_text("Metadata-Version: 2.1\nName: sixth-paper\nVersion: 0.1\n", encoding="utf-8")
    (dist / "entry_points.txt").write_text("[lssvm_analysis.papers]\nsixth = sixth_paper\n", encoding="utf-8")
    env = dict(os.environ, PYTHONPATH=os.pathsep.join(
        [str(tmp_path)] + [p for p in os.environ.get("PYTHONPATH", "").split(os.pathsep) if p]))
    out, store = tmp_path / "report", tmp_path / "records.sqlite"
    run = subprocess.run([sys.executable, "-m", "lssvm_analysis.cli", "report", "--quick", "--only", "sixth",
                          "--out", str(out), "--store", str(store), "--jobs", "1"],
                         env=env, capture_output=True, text=True, timeout=600)
    assert run.returncode == 0, run.stderr[-2000:]
    with open(out / "ledger.csv", newline="", encoding="utf-8") as fh:
        rows = {r["id"]: r for r in csv.DictReader(fh)}
    assert rows["X-square"]["verdict"] == "holds" and rows["X-square"]["paper"] == "sixth"
    assert rows["X-square"]["measured"] == "least square 0.25 over 3 values"
    page = (out / "index.html").read_text(encoding="utf-8")
    assert "Sixth: squares" in page and "X-square" in page and "3 squares computed." in page
