"""The ``lssvm-analysis`` command as a user meets it (issue 22).

* Options that contradict each other (every pair of :data:`cli.CONFLICTS`,
  and ``--scheduler`` with ``--dask-workers``) are refused with one line on
  stderr and exit status 2, before any work: nothing is built, the store
  and the output directory are not created.
* ``--version`` prints the package's version.
* A Dask option without ``distributed`` installed is one line naming the
  option and the extra; ``dask_client`` raises the typed error.
* One progress bar over all the sweeps: the total is known before the first
  task runs, stored tasks count as done without entering the rate (no
  "?task/s"), and a rerun finds everything done.
* The counts printed at the end are the store's, stored and new alike.
* With ``--dask-workers`` and port 8787 taken by someone else, no Dask
  warning or log line reaches the user (a real LocalCluster).

The report runs here on a registry of two tiny sections (a stage that
depends on the one before, as Abe's CV stages do) built from test task
kinds, so the command's plumbing is tested in seconds; the real sections
run in ``tests/test_report.py``.
"""
from __future__ import annotations

import contextlib
import os
import re
import socket
import sys
from collections import Counter
from pathlib import Path

import pytest

import _robust_kinds  # noqa: F401  (registers robust-sleepy here; workers import it from tests/)
import lssvm_analysis
from lssvm_analysis import cli
from lssvm_analysis.core.exceptions import MissingDependencyError
from lssvm_analysis.experiments import (Store, SweepProgress, SweepSpec, register_task_kind,
                                        run_sweep)
from lssvm_analysis.report import build as build_mod
from lssvm_analysis.report import plan as plan_mod
from lssvm_analysis.report.registry import ReportSection

TESTS = Path(__file__).resolve().parent
ROOT = TESTS.parent


def _mixed_row(task) -> dict:
    """Outcomes of every kind: x % 4 == 1 a breakdown, x % 4 == 2 an error row, else ok."""
    x = int(task.params["x"])
    if x % 4 == 2:
        raise RuntimeError(f"task x={x} fails on purpose")
    return {"status": "breakdown" if x % 4 == 1 else "ok", "value": float(x)}


def _any(spec) -> None:
    """No registry names to check."""


register_task_kind("cli-mixed", _mixed_row, validate=_any, replace=True)


def _sections(kind="cli-mixed", n=6):
    """Two sections; the second plans its stage from the first's stored rows (like a CV stage)."""
    def plan_a(profile, run):
        return {"a": SweepSpec("cli-a", kind=kind, grid={"x": list(range(n))}, seeds=[None])}

    def plan_b(profile, run):
        first = SweepSpec("cli-b1", kind=kind, grid={"x": list(range(n, 2 * n))}, seeds=[None])
        rows = run(first)
        best = int(rows["value"].max()) if "value" in rows and rows["value"].notna().any() else 0
        second = SweepSpec("cli-b2", kind=kind, grid={"x": [best + 100 + i for i in range(n)]},
                           seeds=[None])
        return {"b1": first, "b2": second}

    def render(sec, out, records, profile):
        return "rendered"

    return [ReportSection("cli-a", "A", 1.0, plan_a, render),
            ReportSection("cli-b", "B", 2.0, plan_b, render)]


@pytest.fixture
def tiny_report(monkeypatch):
    """The report's section registry replaced by :func:`_sections` (plan and page alike)."""
    def use(**kw):
        secs = _sections(**kw)
        monkeypatch.setattr(plan_mod, "report_sections", lambda: secs)
        monkeypatch.setattr(build_mod, "report_sections", lambda: secs)
        return secs
    return use


def _report_argv(tmp_path, *extra):
    return ["report", "--quick", "--out", str(tmp_path / "out"), "--store", str(tmp_path / "r.sqlite"),
            "--no-progress", "--asv-results", str(tmp_path / "no-asv"), *extra]


# ------------------------------------------------------------------------------------ options
#: One command line per refused combination; every CONFLICTS entry must appear here.
REFUSED = [
    (["--quick", "--profile", "full"], ("--quick", "--profile")),
    (["--quick", "--profile", "default"], ("--quick", "--profile")),
    (["--jobs", "2", "--scheduler", "tcp://127.0.0.1:1"], ("--jobs", "--scheduler")),
    (["--jobs", "1", "--dask-workers", "2"], ("--jobs", "--dask-workers")),
    (["--scheduler", "tcp://127.0.0.1:1", "--dask-workers", "2"], ("--scheduler", "--dask-workers")),
]


def test_every_declared_conflict_is_tested():
    tested = {names for _, names in REFUSED}
    assert {(a, b) for a, b, _, _ in cli.CONFLICTS} <= tested


@pytest.mark.parametrize("argv, names", REFUSED, ids=[" ".join(a) for a, _ in REFUSED])
def test_conflicting_options_refused_in_one_line_before_any_work(argv, names, tmp_path, monkeypatch,
                                                                  capsys):
    def must_not_run(*a, **kw):
        raise AssertionError("build_report ran although the options conflict")

    monkeypatch.setattr(cli, "build_report", must_not_run)
    out, store = tmp_path / "out", tmp_path / "r.sqlite"
    with pytest.raises(SystemExit) as exc:
        cli.main(["report", "--out", str(out), "--store", str(store), *argv])
    assert exc.value.code == 2
    err = capsys.readouterr().err
    assert len(err.strip().splitlines()) == 1, err
    assert "error:" in err and all(name in err for name in names)
    assert not out.exists() and not store.exists()


def test_quick_with_profile_quick_is_not_a_conflict(tmp_path, monkeypatch, capsys):
    seen = {}

    def fake(out, **kw):
        seen.update(kw)
        return Path(out) / "index.html"

    monkeypatch.setattr(cli, "build_report", fake)
    assert cli.main(_report_argv(tmp_path, "--profile", "quick")) == 0
    assert seen["quick"] is True and seen["profile"] == "quick"


def test_version(capsys):
    with pytest.raises(SystemExit) as exc:
        cli.main(["--version"])
    assert exc.value.code == 0
    assert capsys.readouterr().out.strip() == f"lssvm-analysis {lssvm_analysis.__version__}"


def test_dask_option_without_distributed_names_the_option_and_the_extra(monkeypatch, capsys):
    monkeypatch.setitem(sys.modules, "distributed", None)  # "import distributed" raises ImportError
    for option, value in (("--scheduler", "tcp://127.0.0.1:1"), ("--dask-workers", "2")):
        with pytest.raises(SystemExit) as exc:
            cli.main(["report", option, value])
        err = capsys.readouterr().err
        assert exc.value.code == 2 and len(err.strip().splitlines()) == 1, err
        assert option in err and "lssvm_analysis[dask]" in err
    with pytest.raises(MissingDependencyError, match=r"scheduler='tcp://127.0.0.1:1'.*\[dask\]"):
        with build_mod.dask_client(scheduler="tcp://127.0.0.1:1"):
            pass


# ----------------------------------------------------------------------------------- progress
def test_sweep_progress_counts_stored_tasks_as_done_without_a_rate(capsys):
    with SweepProgress("force", desc="t") as bar:
        bar.expect("stored", 10, 10)
        bar.expect("new", 5, 0)
        assert (bar.total, bar.done) == (15, 10)
        line = str(bar)
        assert "10/15" in line and "?task/s" not in line and "task/s" not in line
        bar.start("new", 5, 1)  # one task finished by another process meanwhile
        bar.task_done("ok")
        bar.task_done("breakdown")
        assert (bar.total, bar.done) == (15, 13)
        assert bar.new_counts == Counter(ok=1, breakdown=1)
        bar.start("new", 5, 3)  # a rerun of the same sweep: nothing counted twice
        assert bar.done == 13
        # a stage announced before the stage it depends on ran (other tasks, same name and size)
        bar.expect("stage", 4, 0, sweep_id="planned")
        bar.start("stage", 4, 1, sweep_id="actual")  # takes the announced one's place
        assert (bar.total, bar.done) == (19, 14)
    with pytest.raises(ValueError, match="stored=6"):
        SweepProgress(False).expect("x", 5, 6)
    with pytest.raises(ValueError, match="progress='yes'"):
        SweepProgress("yes")


def test_sweep_progress_counts_a_shared_task_once_and_labels_sections():
    """Two sweeps that share tasks (same content keys): the bar's total is the distinct tasks, the
    count the store holds at the end; each label is one line off a terminal, with the ETA."""
    import io

    lines = io.StringIO()
    bar = SweepProgress(False, lines=lines)
    bar.expect("a", 3, 1, sweep_id="a", keys=["k1", "k2", "k3"], stored_keys=["k1"])
    bar.expect("b", 3, 0, sweep_id="b", keys=["k2", "k3", "k4"], stored_keys=[])
    assert (bar.total, bar.done) == (4, 1)
    bar.label("abe")
    bar.start("a", 3, 1, sweep_id="a", keys=["k1", "k2", "k3"], stored_keys=["k1"])
    bar.task_done("ok"), bar.task_done("ok")
    bar.label("vieira")
    bar.start("b", 3, 2, sweep_id="b", keys=["k2", "k3", "k4"], stored_keys=["k2", "k3"])
    assert (bar.total, bar.done) == (4, 3)
    bar.task_done("ok")
    assert (bar.total, bar.done) == (4, 4) and bar.eta() == "0:00"
    bar.phase("rendering")
    got = lines.getvalue().splitlines()
    assert [g.split(":")[0] for g in got] == ["abe", "vieira", "rendering"]
    assert "1/4 tasks done, ETA ?" in got[0] and "3/4 tasks done" in got[1] and "ETA 0:00" in got[2]


class _Recording(SweepProgress):
    """Records (total, done) at each sweep start."""

    def __init__(self):
        super().__init__(False)
        self.at_start = []

    def start(self, name, total, stored, **kw):
        super().start(name, total, stored, **kw)
        self.at_start.append((name, self.total, self.done))


def test_one_bar_over_every_sweep_total_known_before_the_first_task(tiny_report, tmp_path):
    tiny_report()
    store = tmp_path / "r.sqlite"
    run_sweep(SweepSpec("cli-a", kind="cli-mixed", grid={"x": [0, 1, 2, 3]}, seeds=[None]), store,
              n_jobs=1, progress=False)  # part of section A stored beforehand, x = 2 as an error row
    bar = _Recording()
    plan_mod.run_report_sweeps(store, "quick", n_jobs=1, progress=bar)
    name, total, done = bar.at_start[0]
    # all three sweeps announced before the first runs; done: the 3 stored rows the report keeps
    # (the error row of x = 2 is retried, so it is not done)
    assert name == "cli-a" and total == 18 and done == 3
    assert bar.total == 18 and bar.done == 18 and sum(bar.new_counts.values()) == 15
    with Store(store) as st:
        assert bar.stored_counts == Counter(r["status"] for r in st.rows())
    errors = bar.stored_counts["error"]
    assert errors == 4  # x % 4 == 2: x = 2, 6, 10 and 114 (section B's second stage starts at 111)
    rerun = _Recording()
    plan_mod.run_report_sweeps(store, "quick", n_jobs=1, progress=rerun)
    # a rerun: every task done from the start except the error rows, which the report retries once
    assert rerun.at_start[0][1:] == (18, 18 - errors)
    assert rerun.new_counts == Counter(error=errors) and rerun.stored_counts == bar.stored_counts


# ------------------------------------------------------------------------------ final counts
def _printed_counts(text: str) -> Counter:
    m = re.search(r"tasks of this report in the store: (\d+) \(([^)]*)\)", text)
    assert m, text
    counts = Counter({k: int(v) for k, v in (kv.split("=") for kv in m.group(2).split())})
    assert sum(counts.values()) == int(m.group(1))
    return counts


def test_final_counts_are_the_stores(tiny_report, tmp_path, capsys):
    tiny_report()
    store = tmp_path / "r.sqlite"
    run_sweep(SweepSpec("cli-a", kind="cli-mixed", grid={"x": list(range(6))}, seeds=[None]), store,
              n_jobs=1, progress=False)  # section A entirely stored: the counts must include it
    assert cli.main(_report_argv(tmp_path, "--jobs", "1")) == 0
    printed = _printed_counts(capsys.readouterr().out)
    with Store(store) as st:
        stored = Counter(r["status"] for r in st.rows())
    assert printed == stored and set(stored) == {"ok", "breakdown", "error"}
    assert cli.main(_report_argv(tmp_path, "--jobs", "1")) == 0  # a rerun: same counts
    assert _printed_counts(capsys.readouterr().out) == stored


def test_only_runs_the_named_sections_and_refuses_unknown_ones(tiny_report, tmp_path, capsys, monkeypatch):
    """--only runs and renders the named sections (the full profile per paper, resumable); an
    unknown key is one line and exit 2 before any work."""
    tiny_report()
    assert cli.main(_report_argv(tmp_path, "--jobs", "1", "--only", "cli-b")) == 0
    with Store(tmp_path / "r.sqlite") as st:
        assert len(list(st.rows())) == 12  # section B's two stages of 6; none of section A's 6
    assert "cli-a" not in (tmp_path / "out" / "index.html").read_text()
    capsys.readouterr()

    def must_not_run(*a, **kw):
        raise AssertionError("build_report ran although --only named no section")

    monkeypatch.setattr(cli, "build_report", must_not_run)
    with pytest.raises(SystemExit) as exc:
        cli.main(_report_argv(tmp_path / "x", "--only", "cli-a,nope"))
    err = capsys.readouterr().err
    assert exc.value.code == 2 and len(err.strip().splitlines()) == 1 and "'cli-a,nope'" in err
    with pytest.raises(ValueError, match="only=\\['zzz'\\]"):
        plan_mod.selected_sections(["zzz"])
    with pytest.raises(TypeError, match="only='cli-a'"):
        plan_mod.selected_sections("cli-a")


# ------------------------------------------------------------------------------------- Dask
@contextlib.contextmanager
def _port_taken(port=8787):
    """Hold ``port`` (the Dask dashboard's default) as another cluster would, if it is free."""
    sock = socket.socket()
    try:
        sock.bind(("", port))
        sock.listen()
    except OSError:  # someone else holds it already: the situation under test anyway
        pass
    try:
        yield
    finally:
        sock.close()


def test_dask_workers_with_port_8787_taken_no_warning_reaches_the_user(tiny_report, tmp_path,
                                                                       monkeypatch, capfd):
    pytest.importorskip("distributed")
    tiny_report(kind="robust-sleepy", n=3)
    # spawned workers import lssvm_analysis from this worktree and the test kinds from tests/
    old = os.environ.get("PYTHONPATH")
    monkeypatch.setenv("PYTHONPATH", os.pathsep.join([str(ROOT), str(TESTS)] + ([old] if old else [])))
    with _port_taken():
        status = cli.main(_report_argv(tmp_path, "--dask-workers", "1"))
    out, err = capfd.readouterr()
    assert status == 0, err
    assert "8787" not in err and "WARNING" not in err and "Traceback" not in err, err
    assert "lssvm-analysis: dask:" not in err, err  # nothing even as one line: no port clash here
    assert _printed_counts(out) == Counter(ok=9)
