"""Zhao & Sun's claims against what the paper's data would say ("Examples").

The seed stops after eq. (11): Zhao & Sun print no number.  Every example is built from the theory
the inventory states (CLAIMS.md §3), and its outcome asserted; rules that share a quantity are
checked to agree.
"""
from __future__ import annotations

import numpy as np
import pandas as pd
import pytest

from lssvm_analysis.experiments.arrays import loads
from lssvm_analysis.experiments.claims import claims, get_claim
from lssvm_analysis.papers.zhao_sun.claims import THEORY_EXAMPLES, first_within, margins


def test_every_zhao_sun_rule_has_a_theory_example():
    ruled = {c.id for c in claims(paper="zhao-sun") if c.rule is not None}
    assert ruled == set(THEORY_EXAMPLES), sorted(ruled ^ set(THEORY_EXAMPLES))


@pytest.mark.parametrize("cid", sorted(THEORY_EXAMPLES))
def test_what_the_theory_says(cid):
    """No printed number exists; under the theory each claim holds except Z-eq7/ridge: a ridge of 1e-8
    biases the minimiser of (6) by more than rounding once ‖θ‖ is large."""
    expected, records = THEORY_EXAMPLES[cid]()
    v = get_claim(cid).rule(records)
    assert v.outcome == expected, v.sentence()


def test_fewer_svs_and_size_use_one_margin():
    """Z-fewer-svs and Z-greedy-random/size (and the section's greedy table) judge 'similar' by the same
    margin m = the full LSSVR's split sd, fixed from the baseline alone."""
    recs = THEORY_EXAMPLES["Z-fewer-svs"]()[1]
    g = recs["zhao-sun-greedy-sinc"].assign(set="sinc")
    m = margins(g)["sinc"]
    assert m == pytest.approx(float(g.full_rmse.std(ddof=1)))
    fewer = get_claim("Z-fewer-svs").rule(recs)
    assert f"m = {m:.3g}" in fewer.measured
    k = {first_within(loads(r.greedy_path_rmse), float(r.full_rmse), m) for r in g.itertuples()}
    assert k == {5} and "comparable from |S| = 5" in fewer.measured


def test_exact_and_ridge_partition_the_literal_fits():
    """/exact reads the fits without the ridge, /ridge those with it: a failure of one leaves the other."""
    rows = pd.concat([THEORY_EXAMPLES["Z-eq7/exact"]()[1]["zhao-sun-ridge"],
                      THEORY_EXAMPLES["Z-eq7/ridge"]()[1]["zhao-sun-ridge"]], ignore_index=True)
    recs = {"zhao-sun-ridge": rows}
    assert get_claim("Z-eq7/exact").rule(recs).outcome == "holds"
    assert get_claim("Z-eq7/ridge").rule(recs).outcome == "does not hold"


def test_baselines_left_out_of_a_split_do_not_count():
    """Splits past ``extra_seeds`` carry no SVR or timing (-1 / NaN): Z-lssvm-slower reads the others only."""
    recs = THEORY_EXAMPLES["Z-lssvm-slower"]()[1]
    g = recs["zhao-sun-greedy-sinc"].copy()
    g.loc[g.seed >= 2, ["svr_n_support", "time_predict_full", "time_predict_svr"]] = [-1, np.nan, np.nan]
    v = get_claim("Z-lssvm-slower").rule({"zhao-sun-greedy-sinc": g})
    assert "over 2 paired splits" in v.measured


def test_recursive_inverse_names_the_order_of_its_drift():
    """A drift that grows as κ²·u (the update amplifying its own error) is beyond 10·(k+1)·κ·u from some step
    on, and the verdict's cause says s ≈ 2 from the records, not a fixed explanation; a drift a constant
    factor 3 over the bound in every precision is named as a larger constant."""
    from lssvm_analysis.experiments.arrays import dumps
    k = np.arange(1, 21)
    cond = np.logspace(0, 8, 20)

    def rec(drift_of):
        rows = [{"precision": p, "update": "bordered-inverse", "unit_roundoff": u,
                 "drift_operator": dumps(drift_of(u)), "cond": dumps(cond), "status": "ok"}
                for p, u in (("float64", 1.1e-16), ("longdouble", 5.4e-20))]
        return {"zhao-sun-growth": pd.DataFrame(rows)}

    v = get_claim("Z-recursive-inverse").rule(rec(lambda u: cond ** 2 * u))
    assert v.outcome == "does not hold"
    assert "κ^s·u with s = 2–2" in v.cause, v.cause
    v = get_claim("Z-recursive-inverse").rule(rec(lambda u: 30 * (k + 1) * cond * u))
    assert v.outcome == "does not hold" and "the same factor in every precision" in v.cause, v.cause
