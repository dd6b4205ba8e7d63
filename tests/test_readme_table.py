"""benchmarks/readme_table.py: the README's performance table comes from asv result files only."""
from __future__ import annotations

import json
import sys
from pathlib import Path

ROOT = Path(__file__).resolve().parents[1]
if str(ROOT) not in sys.path:  # benchmarks/ is a top-level package next to lssvm_analysis/
    sys.path.insert(0, str(ROOT))

from benchmarks import readme_table as rt  # noqa: E402


def _run(directory, name, date, results):
    directory.mkdir(parents=True, exist_ok=True)
    (directory / "machine.json").write_text(json.dumps({"machine": "m1", "cpu": "cpu", "num_cpu": "2",
                                                         "os": "os", "version": 1}))
    data = {"commit_hash": name * 8, "date": date, "result_columns": ["result", "params"], "results": results}
    (directory / f"{name}-env.json").write_text(json.dumps(data))


def test_rows_from_the_newest_run_that_measured_them_and_only_between_markers(tmp_path):
    fit, ratio = "bench_mp.MPFit.time_fit", "bench_floors.KernelFloor.track_kernel_over_blocked"
    _run(tmp_path / "m1", "a", 1_000, {fit: [[7.25], [["'lssvm-schur'"], ["'mp50'"], ["1000"]]],
                                       ratio: [[1.5], [["4000"], ["4"]]]})
    _run(tmp_path / "m1", "b", 2_000, {ratio: [[0.98], [["4000"], ["4"]]]})
    (tmp_path / "m1" / "b-env.load.json").write_text(json.dumps({"before": 1.5, "after": 2.25}))
    table = rt.render_table(rt.result_files(tmp_path))
    assert "| 7.25 s [run 1] |" in table and "| 0.98 [run 2] |" in table and "1.5 [run" not in table
    assert "1.5 before, 2.2 after" in table and "commit bbbbbbbb" in table and "commit aaaaaaaa" in table
    assert table.count("not measured in any stored run") == len(rt.ROWS) - 2
    readme = tmp_path / "README.md"
    readme.write_text(f"intro\n{rt.BEGIN}\nold table\n{rt.END}\noutro\n")
    rt.write_readme(table, readme)
    text = readme.read_text()
    assert text.startswith(f"intro\n{rt.BEGIN}\n") and text.endswith(f"{rt.END}\noutro\n")
    assert "old table" not in text and table in text


def test_a_run_is_dated_by_when_it_measured_not_by_its_commit(tmp_path):
    """asv's top-level ``date`` is the commit's; the run's own time is its benchmarks' ``started_at``.

    An old commit measured today must sort as the newest run and show today's time.
    """
    ratio = "bench_floors.KernelFloor.track_kernel_over_blocked"
    directory = tmp_path / "m1"
    _run(directory, "a", 5_000_000, {ratio: [[1.5], [["4000"], ["4"]]]})
    old = {"commit_hash": "b" * 8, "date": 1_000, "result_columns": ["result", "params", "version", "started_at"],
           "results": {ratio: [[0.98], [["4000"], ["4"]], "v", 9_000_000]}}
    (directory / "b-env.json").write_text(json.dumps(old))
    files = rt.result_files(tmp_path)
    assert [f[1]["commit_hash"][0] for f in files] == ["b", "a"]
    table = rt.render_table(files)
    assert "| 0.98 [run 1] |" in table
    assert "run 1970-01-01 02:30 UTC (commit dated 1970-01-01 00:00 UTC)" in table
