"""The Vieira report section on the quick profile with a temporary record store."""
import time

from lssvm_analysis.experiments import run_sweep
from lssvm_analysis.report import registry
from lssvm_analysis.report import sections_vieira  # noqa: F401 (registers the section)
from lssvm_analysis.report.html import Section


def test_vieira_section_quick(tmp_path):
    sec_info = registry.get_section("vieira")
    assert sec_info.order == 30
    store = tmp_path / "rec.sqlite"
    t0 = time.perf_counter()
    specs = sec_info.plan("quick", lambda spec: run_sweep(spec, store, n_jobs=1, progress=False))
    records = {k: run_sweep(s, store, n_jobs=1, progress=False) for k, s in specs.items()}
    elapsed = time.perf_counter() - t0
    sec = Section(sec_info.title, "vieira")
    verdict = sec_info.render(sec, tmp_path, records, "quick")
    for name in ("vieira-table2.csv", "vieira-time-over-l.png", "vieira-stability.png",
                 "vieira-stability.csv"):
        assert (tmp_path / name).exists(), name
    assert "accuracy equivalent to LSSVM" in verdict and "sparser than every other method" in verdict
    assert "IP-LSSVM degrades" in verdict and "log-log slopes" in verdict
    assert "digits of z" in verdict
    assert all((records[k].status != "error").all() for k in records), \
        {k: records[k].get("message") for k in records}
    assert elapsed < 60, elapsed
