"""The Vieira report section on the quick profile with a temporary record store."""
from lssvm_analysis.experiments.claims import claims, evaluate
from lssvm_analysis.report import registry
import lssvm_analysis as la


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


def test_normal_equations_study_has_its_mp_rows_where_the_profile_says():
    """The mp rows of the normal-equations study (issue 24): default at the largest gamma only,
    full at every gamma of the float rows, quick none; the float rows keep their own grid."""
    from lssvm_analysis.papers.vieira import section as V
    for profile, mp_C in (("quick", None), ("default", {4096.0}), ("full", None)):
        specs = V.plan(profile, None)
        floats = {t.params["C"] for t in specs["normal-equations"].tasks()}
        mp = specs.get("normal-equations-mp")
        if profile == "quick":
            assert mp is None
            continue
        assert list(mp.precisions) == la.precisions(native=False)
        assert {t.params["C"] for t in mp.tasks()} == (mp_C or floats)
