"""Gates of the claims ledger.

* Every rule passes its controls: the claim's synthetic records (``examples()``) hold a positive
  control, records built from the paper's model where the sentence is true by construction, on which
  the rule must say "holds", and a negative control, where the sentence is false, on which it must
  say "does not hold"; further keys ("not reproduced", "undecided", ...) are controls of those
  outcomes.  A rule that cannot say "holds", or cannot fail, is a defect.
* Every claim of SEED_NOTES' claim lists has its row (the mapping below, bullet -> claim id).
* The statistics the rules decide with: the paired interval is Student's, the decisions follow it.
* The page gate (:func:`page_problems`) finds a missing claim, a changed verdict and verdict wording
  outside the ledger.
"""
from __future__ import annotations

import math

import numpy as np
import pandas as pd
import pytest
from scipy import stats as st

from lssvm_analysis.experiments.claims import OUTCOMES, Verdict, claims, evaluate, get_claim, ledger_frame
from lssvm_analysis.analysis.tuning import grid_edge
from lssvm_analysis.experiments.claims.stats import better, grid_edges, not_worse, paired, splits_needed
from lssvm_analysis.report import report_sections
from lssvm_analysis.report.html import Section, render_page
from lssvm_analysis.report.ledger import ledger_table, page_problems

_RULED = [c for c in claims() if c.rule is not None]


@pytest.mark.parametrize("claim", _RULED, ids=[c.id for c in _RULED])
def test_every_rule_passes_its_positive_and_negative_control(claim):
    examples = claim.examples()
    missing = sorted({"holds", "does not hold"} - set(examples))
    assert not missing, f"{claim.id}: no control for {missing}"
    for expected, records in examples.items():
        v = claim.rule(records)
        assert isinstance(v, Verdict)
        assert v.outcome == expected, f"{claim.id}: expected {expected!r}, got {v.sentence()!r}"
        assert v.measured  # a verdict states our number(s)


def test_registry_is_consistent():
    ids = [c.id for c in claims()]
    assert len(ids) == len(set(ids))
    sections = {s.key for s in report_sections()}
    for c in claims():
        assert c.section in sections, c.id
        assert c.text and c.where and c.printed, c.id
        if c.parts:  # a parent: its sub-claims (and the rule of its own aspect, if any) decide
            assert evaluate(c, {}).outcome in ("not run", "not testable offline", "undecided"), c.id
        elif c.rule is None:
            assert evaluate(c, {}).outcome == "not testable offline" and c.untestable
        else:
            assert evaluate(c, {}).outcome == "not run"  # no records: said, not guessed
    with pytest.raises(ValueError, match="expected either a rule"):
        from lssvm_analysis.experiments.claims import register_claim
        register_claim("X-none", paper="x", section="vieira", where="-", text="-", printed="-")
    with pytest.raises(ValueError, match="expected a claim id"):
        get_claim("no-such-claim")
    with pytest.raises(ValueError, match="expected an outcome"):
        Verdict("maybe")


#: SEED_NOTES' claim lists, bullet by bullet, and the ledger row that judges each (issue 20: all of them,
#: the untested ones included).
SEED_NOTES_CLAIMS = {
    "§1.9.1 OP-LSSVM accuracy equivalent or superior": "V-accuracy",
    "§1.9.2 sparser on all sets but PCV, DER, BCW (SVM)": "V-sparsity",
    "§1.8 OP-LSSVM ~80 SVs": "V-kstar",
    "§1.4 step 4 normal equations, precision note (cond ~1e6, squared ~1e12 at k = 100)": "V-normal-equations",
    "§1.8 Table 2": "V-table2",
    "§1.9.3 time grows more slowly with L": "V-time-growth",
    "§1.9.3 faster for larger sets (extrapolation)": "V-time-larger",
    "§1.9.4 IP-LSSVM degrades except on BCW": "V-ip",
    "§1.7 PCV and DER": "V-pcv-der",
    "§2.3 (a)/(c) similar generalisation with fewer SVs": "Z-fewer-svs",
    "§2.3 (b) number of SVs predefined": "Z-predefined",
    "§2.3 (d) greedy beats random": "Z-greedy-random",
    "§2.3 (e) convergence": "Z-converges",
    "§2.3 (f) classification": "Z-classification",
    "§2.3 (g) background": "Z-background",
    "§2.3 (7) solves (6)": "Z-eq7",
    "§3.5 best rank-r Nystrom under the trace norm": "C-nystrom",
    "§3.8 Fig. 3 2 SVs": "C-fig3-2sv",
    "§3.8 Fig. 3 ordering": "C-fig3-order",
    "§3.8 Table 1 higher accuracy on most sets": "C-t1-accuracy",
    "§3.8 Table 1 faster except C-SVC": "C-t1-speed",
    "§3.8 Table 1 FS less accurate and slower": "C-t1-fs",
    "§3.8 Table 1 fewer iterations": "C-t1-iterations",
    "§3.8 Table 1 values": "C-t1-values",
    "§3.8 Adult (Fig. 4)": "C-fig4",
    "§3.8 dense methods' memory limit": "C-memory",
    "§3.8 Table 2": "C-t2",
    "§3.8 Table 3 most accurate at every rate": "C-t3-accuracy",
    "§3.8 Table 3 faster than FS and CSI": "C-t3-speed",
    "§3.8 Table 4 better than any other": "C-t4-accuracy",
    "§3.8 Table 4 fastest": "C-t4-speed",
    "§3.8 Table 4 values": "C-t4-values",
    "§3.8 Table 4 nSVs below r": "C-rank",
    "§3.8 Table 5 prediction errors": "C-t5-accuracy",
    "§3.8 Table 5 faster": "C-t5-speed",
    "§3.8 identity (i): the printed model f": "C-model",
    "§3.4 Theorem 2 convergence": "C-theorem2",
    "§4 CG bound (3.26)-(3.27)": "S-cg-bound",
    "§4 KKT indefinite, transform to (3.25)": "S-kkt",
    "§4 direct methods up to N = 2000": "S-direct-2000",
    "§4 pruning 500 -> 250 -> 50 (sinc)": "S-sinc-prune",
    "§4 noisy data allow less pruning": "S-noisy-prune",
    "§4 Table 3.3 RBF LS-SVM as well as RBF SVM": "S-rbf-svm",
    "§4 Table 3.3 Fisher targets": "S-fisher",
    "§4 Table 3.3 values": "S-table33",
    "§4 Table 3.4 1vs1 best": "S-1vs1",
    "§4 Table 3.4 values": "S-table34",
    "§4 Table 3.5 28-93 % pruned at ~2 pp": "S-prune",
    "§4 adu, thy, usp, wav": "S-adult",
    "§5 sparse LS-SVRs keep 43-77 % of the SVs": "A-sparse-svs",
    "§5 N ~ M: dual faster": "A-dual-faster",
    "§5 N < M: primal equal or faster": "A-primal-sparse",
    "§5 cost crossover": "A-crossover",
    "§5 DuLS unstable (Cholesky fails on MG)": "A-duls-unstable",
    "§5 primal more stable (large C)": "A-primal-stable",
    "§5 Omega_e rank N, lambda_min = 1/C": "A-rank",
    "§5 full LS-SVR most accurate on most sets": "A-ls-accurate",
    "§5 Table 1 values": "A-table1",
    "§5 W.P. and O.J.": "A-wp-oj",
}


def test_every_seed_notes_claim_is_in_the_ledger():
    ids = {c.id for c in claims()}
    missing = {k: v for k, v in SEED_NOTES_CLAIMS.items() if v not in ids}
    assert not missing


# --------------------------------------------------------------------------- statistics
def test_paired_interval_is_students():
    rng = np.random.default_rng(0)
    a, b = pd.Series(rng.normal(1.0, 1.0, 12)), pd.Series(rng.normal(0.0, 1.0, 12))
    d = paired(a, b)
    lo, hi = st.t.interval(0.95, 11, loc=(a - b).mean(), scale=(a - b).std(ddof=1) / math.sqrt(12))
    assert d.n == 12 and math.isclose(d.lo, lo, rel_tol=1e-12) and math.isclose(d.hi, hi, rel_tol=1e-12)
    assert math.isclose(d.p, st.ttest_rel(a, b).pvalue, rel_tol=1e-12)


def test_one_split_never_decides():
    """A single run gives no interval: 'undecided', and the text says what would decide it."""
    d = paired(pd.Series([0.9]), pd.Series([0.1]))
    assert d.n == 1 and better(d) == "undecided" and not_worse(d, 0.05) == "undecided"
    assert "≥ 2 paired splits" in d.resolution()


def test_resolution_counts_the_splits_an_effect_needs():
    """An undecided interval says how many splits would resolve its effect at its spread: n with
    t_(n-1) sd / sqrt(n) < |effect| (Student's half-width), checked against the formula."""
    base = pd.Series(np.linspace(-1.0, 1.0, 8))
    d = paired(base + 0.2, 0 * base)
    assert better(d) == "undecided"
    n = splits_needed(d.mean, d.sd)
    half = lambda k: st.t.ppf(0.975, k - 1) * d.sd / math.sqrt(k)  # noqa: E731
    assert half(n) < abs(d.mean) <= half(n - 1)
    assert f"≈ {n} paired splits" in d.resolution()
    assert math.isclose(d.sd, base.std(ddof=1), rel_tol=1e-12)

def test_paired_sentences_count_the_units_paired():
    """A comparison paired over domains (Suykens' tables), rungs or timing repeats says so: its
    interval and its resolution count those units, never "splits"."""
    base = pd.Series(np.linspace(-1.0, 1.0, 8))
    d = paired(base + 0.2, 0 * base, units="domains")
    assert "over 8 paired domains" in d.text() and "paired domains at this effect" in d.resolution()
    assert "split" not in d.text() + d.resolution()
    one = paired(pd.Series([0.9]), pd.Series([0.1]), units="cells (domain, randomisation)")
    assert "on one cell (domain, randomisation)" in one.text()
    assert "≥ 2 paired cells (domain, randomisation)" in one.resolution()



@pytest.mark.parametrize("shift, margin, out_better, out_nw", [
    (5.0, 1.0, "holds", "holds"), (-5.0, 1.0, "does not hold", "does not hold"),
    (0.0, 1.0, "undecided", "holds"), (-1.0, 1.0, "does not hold", "undecided")])
def test_decisions_follow_the_interval(shift, margin, out_better, out_nw):
    base = pd.Series(np.linspace(-0.3, 0.3, 10))
    d = paired(base + shift, 0 * base)
    assert better(d) == out_better
    assert not_worse(d, margin) == out_nw


def test_grid_edges():
    cv = pd.DataFrame({"C": [1.0, 10.0, 100.0] * 2, "sigma2": [1.0] * 3 + [2.0] * 3,
                       "cv_mae": [3.0, 2.0, 1.0, 3.0, 2.5, 2.0]})
    assert grid_edges(cv, "cv_mae") == ["C = 100 (largest of 3)", "sigma2 = 1 (smallest of 2)"]
    cv.loc[2, "cv_mae"] = 9.0
    assert grid_edges(cv, "cv_mae") == ["sigma2 = 1 (smallest of 2)"]
    assert grid_edges(cv.assign(cv_mae=np.nan), "cv_mae") == []


def test_grid_edge_is_the_one_edge_test():
    """claims' grid_edges and tune's on_edge ask the same function."""
    assert grid_edge([1.0, 10.0, 100.0], 100.0) == "high" and grid_edge([1.0, 10.0], 1.0) == "low"
    assert grid_edge([1.0, 10.0, 100.0], 10.0) is None
    assert grid_edge([5.0, 5.0], 5.0) is None  # one value: nothing was searched
    assert grid_edge([1.0, np.nan, 4.0], 4.0) == "high" and grid_edge([1.0, 4.0], np.nan) is None
    assert grid_edge([-1.0, 0.0, 2.0], -1.0) == "low"  # non-positive values: exact equality
    assert grid_edge([1e-3, 1e3], 1e3 * (1 + 1e-12)) == "high"  # a refined grid's rounding


# --------------------------------------------------------------------------- the page gate
def _page(tmp_path, frame, extra=""):
    sec = Section("1. Ledger", "ledger")
    sec.ledger(ledger_table(frame, tmp_path, "ledger", "ledger"))
    other = Section("2. Vieira", "vieira")
    other.p("Measured things." + extra)
    mine = frame[frame.section == "vieira"]
    other.verdict = [f"{i}: {s}" for i, s in zip(mine.id, mine.sentence)]
    return render_page("t", [sec, other])


def test_page_gate_finds_what_breaks_it(tmp_path):
    frame = ledger_frame({})
    assert page_problems(_page(tmp_path, frame), frame) == []
    assert any("verdict wording" in p for p in page_problems(_page(tmp_path, frame, " The claim holds."), frame))
    assert any("V-accuracy has no row" in p for p in page_problems(_page(tmp_path, frame[frame.id != "V-accuracy"]),
                                                                   frame))
    changed = frame.assign(sentence=frame.sentence.where(frame.id != "V-ip", "holds: made up."))
    assert any("V-ip" in p for p in page_problems(_page(tmp_path, changed), frame))
    assert set(frame.verdict) <= set(OUTCOMES)


def test_memory_claim_reads_the_refusal_rows():
    """C-memory: the bytes per m² of a refusal row (the guard's own estimate at the size it refused)
    decide over the peak model of the options, and the sizes run and refused are stated; the sentence's
    subjects (R-LSSVM-W/-Y) decide."""
    from lssvm_analysis.papers.chen_zhou.claims_examples import dense_rows
    rule = get_claim("C-memory").rule
    model = rule(dense_rows({"lssvm-schur": 1.5}))  # not a subject of the sentence: nothing decides
    assert model.outcome == "undecided" and "no dense fit was refused" in model.measured
    refused = rule(dense_rows({"r-lssvm-w": 1.5}, {"r-lssvm-w": (45000, 40.0)}))  # 40 B/m²: m ≈ 14.7k
    assert refused.outcome == "holds"
    assert "r-lssvm-w ran to m = 2000, refused at m = 45000 (22 GiB available)" in refused.measured
    assert "r-lssvm-w 1.47e+04" in refused.measured and "r-lssvm-w: refusal" in refused.uncertainty
    one_array = rule(dense_rows({"r-lssvm-w": 1.5}, {"r-lssvm-w": (45000, 8.0)}))  # 8 B/m²: m ≈ 32.8k
    assert one_array.outcome == "not reproduced"


def test_primal_stable_leaves_out_scans_where_neither_form_broke_down():
    """A-primal-stable/bd compares first-breakdown C's; where neither form broke down up to the scan's
    C_max (mp50 at C <= 1e30) there is no contest: the verdict is that of the other rows, and
    with no other rows it is undecided."""
    rule = get_claim("A-primal-stable/bd").rule
    rows = [("float64", 0.1, "els-primal", np.nan), ("float64", 0.1, "els-dual", 1e13),
            ("mp50", 0.1, "els-primal", np.nan), ("mp50", 0.1, "els-dual", np.nan)]
    bd = pd.DataFrame(rows, columns=["precision", "eta", "solver", "C_star"])
    with_mp, without = rule({"breakdown": bd}), rule({"breakdown": bd[bd.precision != "mp50"]})
    assert with_mp.outcome == without.outcome == "holds"
    assert "mp50 η=0.1: neither broke down (no contest)" in with_mp.measured
    assert rule({"breakdown": bd[bd.precision == "mp50"]}).outcome == "undecided"
