"""The Vieira report section on the quick profile with a temporary record store."""
from lssvm_analysis.experiments.claims import claims, evaluate
from lssvm_analysis.report import registry


def test_vieira_section_quick(tmp_path, render_section):
    assert registry.get_section("vieira").order == 30
    r = render_section("vieira")
    records, verdict = r.records, r.verdict
    for name in ("vieira-table2.csv", "vieira-time-over-l.png", "vieira-stability.png",
                 "vieira-stability.csv", "vieira-normal-equations.csv"):
        assert (tmp_path / name).exists(), name
    assert "log-log slopes" in verdict and "digits of z" in verdict  # what the section measured
    ne = records["normal-equations"]  # the study at a fixed k: both solves against one exact model
    assert (ne.k == 40).all() and (ne["status[lstsq]"] == "ok").all()
    assert (ne["model_digits[lstsq]"] > 0).all() and (ne.exact_digits >= ne["model_digits[lstsq]"]).all()
    for c in claims(section="vieira"):  # the verdicts are the ledger's, from the same records
        v = evaluate(c, {"vieira": records})
        assert v.outcome != "not run" or c.rule is None, (c.id, v.sentence())
    assert all((records[k].status != "error").all() for k in records), \
        {k: records[k].get("message") for k in records}
