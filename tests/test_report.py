"""Gates of the report and the CLI (layer 7).

* On a tiny profile the ``report`` command writes an ``index.html`` that
  references only files that exist (parsed for src/href), one CSV per figure.
* A second run reuses every stored record (nothing recomputed).
* The page is still written when tasks fail (their rows are notes, not crashes).
* The figure/HTML machinery enforces labelled axes, legends and existing links.
"""
from __future__ import annotations

import html.parser
from dataclasses import replace
from pathlib import Path
from urllib.parse import urlparse

import matplotlib.pyplot as plt
import numpy as np
import pandas as pd
import pytest

import lssvm_analysis as la
from lssvm_analysis import cli
from lssvm_analysis.experiments import Store, load_records
from lssvm_analysis.experiments.claims import claims, ledger_frame
from lssvm_analysis.report.build import read_records
from lssvm_analysis.report.ledger import page_problems
from lssvm_analysis.report import (plan, report_sections, sections_appendix, sections_digits, sections_precision,
                                   write_report)
from lssvm_analysis.papers.abe import section as sections_abe
from lssvm_analysis.papers.suykens import section as sections_suykens
from lssvm_analysis.report.figures import fmt_num, new_figure, save_figure
from lssvm_analysis.report.html import Section, write_page

#: The smallest settings that still exercise every built-in section and task kind, swapped in
#: for the "quick" profile (family sections run their own "quick" settings).
TINY = {
    sections_abe: sections_abe.with_settings(
        "quick", abe_M=40, abe_etas=(0.1,), abe_C=(1e-2, 1e4, 1e10, 1e14), mp_max_n=30,
        breakdown_etas=(0.1,), breakdown_precisions=("float64",), bisect=2, pd_C=(1e0, 1e8),
        pd_precisions=("float64",), table_datasets=(("mackey-glass", (("n_train", 60), ("n_test", 60))),),
        table_splits=1, cv_C=(1e3,), cv_sigma2={"mackey-glass": (1.0,)}, sparse_etas=(0.05,),
        crossover_M=60, crossover_ratios=(0.5, 1.0), crossover_formations=("blas3",),
        crossover_repeats=1),
    sections_suykens: sections_suykens.with_settings(
        "quick", kkt_n=10, kkt_C=(1.0, 1e6), cg_n=12, cg_C=(1.0, 1e4), cg_precisions=("float64",),
        prune_n=30, prune_min_support=10),
    sections_precision: sections_precision.with_settings(
        "quick", sinc_n=10, ripley_n=12, accuracy_C=(1.0, 1e6), map_M=30, map_C=(1e0, 1e16),
        map_sigma2=(1.0,), solvers=("lssvm-kkt", "lssvm-schur", "lssvm-cg", "els-dual", "svm-c")),
    sections_appendix: sections_appendix.with_settings("quick", C=(1.0,)),
    sections_digits: sections_digits.with_settings(
        "quick", n=10, C=(1e1, 1e16), precisions=("float32", "float64"),
        solvers=("lssvm-schur", "reduced-lssvr", "fs-lssvm", "svm-c")),
}


def _tiny(mp):
    for module, settings in TINY.items():
        mp.setitem(module.SETTINGS, "quick", settings)


class _Links(html.parser.HTMLParser):
    def __init__(self):
        super().__init__()
        self.links = []

    def handle_starttag(self, tag, attrs):
        for name, value in attrs:
            if name in ("src", "href") and value is not None:
                self.links.append((tag, value))


def _links(page: Path):
    parser = _Links()
    parser.feed(page.read_text(encoding="utf-8"))
    return parser.links


def test_report_command_on_tiny_profile(tmp_path):
    """The CLI once on the tiny profile (``--quick`` with the profile swapped in), then the gates.

    One test, not several sharing a fixture: the report is built once per run even when
    pytest-xdist spreads tests over workers.
    """
    out, store = tmp_path / "out", tmp_path / "records.sqlite"
    with pytest.MonkeyPatch.context() as mp:
        _tiny(mp)
        status = cli.main(["report", "--quick", "--out", str(out), "--store", str(store), "--jobs",
                           "1", "--no-progress", "--asv-results", str(tmp_path / "no-asv")])
        assert status == 0
        _check_links(out)
        _check_sections(out)
        _check_ledger(out, store)
        _check_no_task_failed(store)
        _check_second_run_reuses_every_record(store)
        _check_parallel_rendering_writes_the_same_files(store, tmp_path)


def _check_links(out: Path):
    """index.html references only files that exist, by relative path; every file is linked."""
    page = out / "index.html"
    assert page.is_file()
    links = _links(page)
    files = [v for _, v in links if not v.startswith("#")]
    assert any(v.endswith(".png") for v in files) and any(v.endswith(".csv") for v in files)
    for value in files:
        url = urlparse(value)
        assert not url.scheme and not url.netloc, f"expected a relative link, got {value!r}"
        assert not Path(url.path).is_absolute() and ".." not in Path(url.path).parts
        assert (out / url.path).is_file(), f"index.html links to a missing file {value!r}"
    anchors = {v[1:] for _, v in links if v.startswith("#")}
    text = page.read_text(encoding="utf-8")
    assert all(f'id="{a}"' in text for a in anchors)
    for png in out.glob("*.png"):  # every figure has its CSV
        assert png.with_suffix(".csv").is_file()
    linked = {Path(urlparse(v).path).name for v in files}
    assert {f.name for f in out.iterdir() if f.suffix in (".png", ".csv")} <= linked


def _check_sections(out: Path):
    text = (out / "index.html").read_text(encoding="utf-8")
    keys = [sec.key for sec in report_sections()]
    for anchor in keys:
        assert f'id="{anchor}"' in text
    homes = {c.section for c in claims()}
    # each claims' home lists its ids by outcome, linked to the one ledger; no section repeats the rows
    assert text.count('class="verdict-summary"') == len([k for k in keys if k in homes])
    assert text.count('<table class="ledger"') == 1
    assert "water purification" in text and "orange juice" in text  # not available offline
    table = pd.read_csv(out / "abe-breakdown.csv")
    assert {"C_star", "pred_C_star", "step"} <= set(table.columns)


def _check_ledger(out: Path, store: Path):
    """The ledger's gate on the page: every claim with its verdict, verdicts only from the ledger."""
    with Store(store) as st_:
        specs = {sec.key: sec.plan("quick", lambda spec: load_records(st_, spec)) for sec in report_sections()}
        records = read_records(st_, specs)
    text = (out / "index.html").read_text(encoding="utf-8")
    assert page_problems(text, ledger_frame(records)) == []
    assert text.index('id="ledger"') < min(text.index(f'id="{c.section}"') for c in claims())


def _check_no_task_failed(store: Path):
    """Integration: every task kind of the report runs on the installed package."""
    with Store(store) as s:
        rows = s.rows()
    failed = [(r["kind"], r.get("message", "")[:200]) for r in rows if r["status"] == "error"]
    assert not failed, failed


def _check_second_run_reuses_every_record(store: Path):
    with Store(store) as s:
        before = len(s)
    specs = plan.run_report_sweeps(store, "quick", n_jobs=1, progress=False)
    with Store(store) as s:
        assert len(s) == before  # every task key was found: nothing recomputed, nothing duplicated
    assert {"abe-spectrum", "breakdown", "test-els-mackey-glass"} <= set(specs["abe"])
    assert {"accuracy", "maps"} <= set(specs["precisions"])


def _check_parallel_rendering_writes_the_same_files(store: Path, tmp_path: Path):
    """Sections rendered on two processes write the page and the files one process writes, byte for byte."""
    with Store(store) as st_:
        specs = {sec.key: sec.plan("quick", lambda spec: load_records(st_, spec)) for sec in report_sections()}
        records = read_records(st_, specs)
    serial, parallel = tmp_path / "serial", tmp_path / "parallel"
    write_report(serial, records, "quick", n_jobs=1)
    write_report(parallel, records, "quick", n_jobs=2)
    names = sorted(f.name for f in serial.iterdir())
    assert names == sorted(f.name for f in parallel.iterdir()) and "index.html" in names
    for name in names:
        assert (serial / name).read_bytes() == (parallel / name).read_bytes(), name


def test_report_written_from_error_rows_only(tmp_path):
    """Records that are all errors (e.g. a module not there yet) give notes, not a crash."""
    err = pd.DataFrame([{"key": "k", "kind": "x", "status": "error", "message": "boom"}])
    with pytest.MonkeyPatch.context() as mp:
        _tiny(mp)
        specs = {sec.key: sec.plan("quick", lambda spec: err) for sec in report_sections()}
        records = {sec: {key: err for key in by_key} for sec, by_key in specs.items()}
        page = write_report(tmp_path, records, "quick")
    text = page.read_text(encoding="utf-8")
    assert "failed with an error" in text
    assert page_problems(text, ledger_frame(records)) == []  # every claim present, 'not run' where no rows
    for _, value in _links(page):
        assert value.startswith("#") or (tmp_path / value).is_file()


def test_clean_removes_only_the_previous_reports_files(tmp_path):
    from lssvm_analysis.report.build import _clean

    sec = Section("t", "t")
    sec.figure(save_figure(*_labelled(), pd.DataFrame({"a": [1]}), tmp_path, "fig", "c"))
    write_page(tmp_path, "t", [sec])
    (tmp_path / "mine.csv").write_text("a\n1\n")  # a user's file in the output directory
    _clean(tmp_path)
    assert sorted(f.name for f in tmp_path.iterdir()) == ["mine.csv"]
    _clean(tmp_path)  # no report there any more: nothing happens
    assert (tmp_path / "mine.csv").is_file()


def test_figure_contract(tmp_path):
    fig, ax = new_figure()
    ax[0, 0].plot([1, 2], [3, 4], label="x")
    with pytest.raises(ValueError, match="labelled axes"):
        save_figure(fig, pd.DataFrame({"a": [1]}), tmp_path, "nolabels", "c")
    fig, ax = new_figure()
    ax[0, 0].plot([1, 2], [3, 4])
    ax[0, 0].set_xlabel("x [s]")
    ax[0, 0].set_ylabel("y [m]")
    with pytest.raises(ValueError, match="legend"):
        save_figure(fig, pd.DataFrame({"a": [1]}), tmp_path, "nolegend", "c")
    assert not plt.get_fignums()  # figures are closed even when refused
    sec = Section("t", "t")
    sec.figure(save_figure(*_labelled(), pd.DataFrame({"a": [1]}), tmp_path, "ok", "c"))
    (tmp_path / "ok.png").unlink()
    with pytest.raises(FileNotFoundError, match="ok.png"):
        write_page(tmp_path, "t", [sec])


def _labelled():
    fig, ax = new_figure()
    ax[0, 0].plot([1, 2], [3, 4], label="x")
    ax[0, 0].set_xlabel("x [s]")
    ax[0, 0].set_ylabel("y [m]")
    ax[0, 0].legend()
    return (fig,)


def test_fmt_num():
    """One format for the report and the claims: the union of what each of its two copies did."""
    from lssvm_analysis.experiments.claims import stats

    assert fmt_num is stats.fmt_num
    assert fmt_num(float("nan")) == "—" and fmt_num(None) == "—"
    assert fmt_num(float("inf")) == "∞" and fmt_num(-np.inf) == "−∞"
    assert fmt_num(1234567.0) == "1.23e+06" and fmt_num(0.5) == "0.5" and fmt_num(3) == "3"
    assert fmt_num(123456) == "123456" and fmt_num(np.int64(-7)) == "-7"  # counts are not rounded
    assert fmt_num(True) == "yes" and fmt_num(np.bool_(False)) == "no"
    assert fmt_num(np.float32(2.5e-4)) == "2.50e-04" and fmt_num(0.0) == "0"
    assert fmt_num(1 / 3, digits=5) == "0.33333" and fmt_num("n/a") == "n/a"


def test_cli_list_and_bad_arguments(capsys):
    assert cli.main(["list"]) == 0
    assert "els-dual" in capsys.readouterr().out
    with pytest.raises(SystemExit):
        cli.main(["report", "--jobs", "many"])
    with pytest.raises(ValueError, match="profile='huge'"):
        plan.run_report_sweeps(":memory:", "huge")


def test_maps_run_extended_precisions_only_when_the_profile_says_so(monkeypatch):
    """``PrecisionSettings.map_extended`` adds the further precisions' columns to the breakdown
    maps (the mp50 column of issue 24), spec by spec, on their own sub-grid; the hardware
    precisions always cover the whole plane."""
    base = sections_precision.with_settings("quick", solvers=("lssvm-kkt", "op-lssvm"), map_C=(1.0, 1e8),
                                            map_sigma2=(1.0, 10.0))
    hardware = la.precisions(hardware=True)
    for extended, expected in (("none", []), ("mp", la.precisions(native=False)),
                               ("every", la.precisions(hardware=False))):
        for sub in (None, (1e8,)):
            monkeypatch.setitem(sections_precision.SETTINGS, "quick",
                                replace(base, map_extended=extended, map_extended_C=sub))
            specs = sections_precision.plan("quick", run=lambda spec: None)
            hw = {k: s for k, s in specs.items() if k.startswith("maps") and not k.startswith("maps-extended")}
            ext = {k: s for k, s in specs.items() if k.startswith("maps-extended")}
            assert hw and all(list(s.precisions) == hardware for s in hw.values())
            assert {(t.params["C"], t.params["sigma2"]) for t in hw["maps"].tasks()} == \
                {(c, s2) for c in (1.0, 1e8) for s2 in (1.0, 10.0)}
            assert bool(ext) == bool(expected)
            if expected:
                assert all(list(s.precisions) == expected for s in ext.values())
                assert {(t.params["C"], t.params["sigma2"]) for t in ext["maps-extended"].tasks()} == \
                    {(c, s2) for c in (sub or (1.0, 1e8)) for s2 in (1.0, 10.0)}
    with pytest.raises(ValueError, match="map_extended='mp50'"):
        replace(base, map_extended="mp50")
