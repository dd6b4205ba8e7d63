"""The Vieira report section on the quick profile with a temporary record store."""
from lssvm_analysis.report import registry


def test_vieira_section_quick(tmp_path, render_section):
    assert registry.get_section("vieira").order == 30
    r = render_section("vieira")
    records, verdict = r.records, r.verdict
    for name in ("vieira-table2.csv", "vieira-time-over-l.png", "vieira-stability.png",
                 "vieira-stability.csv"):
        assert (tmp_path / name).exists(), name
    assert "accuracy equivalent to LSSVM" in verdict and "sparser than every other method" in verdict
    assert "IP-LSSVM degrades" in verdict and "log-log slopes" in verdict
    assert "digits of z" in verdict
    assert all((records[k].status != "error").all() for k in records), \
        {k: records[k].get("message") for k in records}
