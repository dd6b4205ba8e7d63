"""Write the documentation's performance table from a measured asv run (never by hand).

Usage (from the repository root)::

    python benchmarks/readme_table.py --run            # asv run --python=same on the table's suites,
                                                       # then write the table
    python benchmarks/readme_table.py                  # write it from the latest asv results
    python benchmarks/readme_table.py --check          # print it, nothing written

Only the text between ``<!-- perf-table:begin -->`` and
``<!-- perf-table:end -->`` in ``TABLE`` (lssvm_analysis/docs/performance-table.md, shown by the
documentation's "Performance" page; it was in README.md before the README became a landing page) is
replaced.  The rows (benchmark,
target, what the floor is) are the specification below; every figure comes
from asv result files: each row from the newest run that measured it (so a
partial run does not erase the rows of an earlier full one), with the runs
used listed above the table: machine (asv's machine.json), commit, date, and
the load average before and after the run (recorded by ``--run`` in a file
next to the results; "not recorded" for a run made otherwise).  A benchmark
of the specification that no run measured is shown as such, not left out.
"""
from __future__ import annotations

import argparse
import datetime as _dt
import itertools
import json
import os
import subprocess
import sys
from pathlib import Path

__all__ = ["ROWS", "result_files", "latest_result", "render_table", "write_readme", "main"]

ROOT = Path(__file__).resolve().parents[1]
BEGIN, END = "<!-- perf-table:begin -->", "<!-- perf-table:end -->"
#: The file whose text between the markers is the table.
TABLE = ROOT / "lssvm_analysis" / "docs" / "performance-table.md"

#: (asv benchmark name, target, floor or what is measured).  Figures come from the run.
ROWS = [
    ("bench_mp.MPFit.time_fit", "<= 10 s (M = 1000)",
     "mp50 lssvm-schur: kernel, Cholesky, kappa estimate, solves (FLINT engine)"),
    ("bench_mp.MPFit.track_cpu_seconds", "as time_fit", "process time of the same fit"),
    ("bench_mp.MPFitLarge.time_fit", "<= 60 s (M = 2000)", "the same fit at M = 2000"),
    ("bench_mp.MPFitLarge.track_cpu_seconds", "as time_fit", "process time of the same fit"),
    ("bench_mp.MPKernel.time_rbf_kernel", "<= 5 s", "mp50 K(X, X), d = 4"),
    ("bench_mp.MPKernel.track_cpu_seconds", "as time_rbf_kernel", "process time of the same kernel"),
    ("bench_mp.MPPrimitives.track_speedup_over_mpmath", "--", "mpmath engine / FLINT engine, one process"),
    ("bench_mp.MPMapFit.track_cpu_seconds", "--", "one mp50 fit of the precision maps (M = 60), process time"),
    ("bench_mp.MPMapFit.track_speedup_over_mpmath", "--", "mpmath engine / FLINT engine, one process"),
    ("bench_mp.MPSRLSSVM.track_cpu_seconds", "<= 20 s for the rank study's 6 fits",
     "one mp50 sr-lssvm fit of Chen & Zhou's rank study (m = 2000, r = 100), process time"),
    ("bench_abe.MPBreakdownScan.track_cpu_seconds", "--",
     "one mp50 breakdown scan of Abe's section (M = 200, 65 factorizations), process time"),
    ("bench_exact.EscalatedExactModel.time_escalated_exact_model", "--",
     "exact model re-formed in 256-bit arb balls and certified (n = 30)"),
    ("bench_exact.EscalatedExactModel.time_dd_exact_model", "--", "the DD route on the same fit, for the ratio"),
    ("bench_floors.KernelFloor.track_kernel_over_floor", "<= 1.2", "one GEMM (M x d by d x M) + exp of M x M"),
    ("bench_floors.KernelFloor.track_kernel_over_blocked", "<= 1",
     "blocked floor: augmented GEMM by bands of 128 rows, clamp and exp in place"),
    ("bench_floors.DenseFloor.track_fit_over_floor", "<= 1.05",
     "blocked kernel floor, dpotrf in place, dpotrs (dgetrf/dgetrs for lssvm-kkt)"),
    ("bench_floors.DenseFloor.track_peak_words_over_m2", "<= 1.5", "tracemalloc peak / 8 M^2 bytes"),
    ("bench_floors.CGFloor.track_iteration_over_product", "<= 1.2", "one H @ P, P of shape M x 2"),
    ("bench_floors.CondestCost.track_pocon_over_potrs", "--", "dpocon in units of one dpotrs (1 rhs)"),
    ("bench_floors.CondestCost.track_pocon_share_of_floor", "--", "dpocon / the lssvm-schur floor"),
    ("bench_core.ReferenceSolve.time_reference_solve", "<= 1 s (M = 1000)", "--"),
    ("bench_core.ReferenceSolveLarge.time_reference_solve", "<= 6 s (M = 4000)", "--"),
    ("bench_chen_zhou.SRLSSVMRoad3D.time_sr_lssvm_road3d", "<= 15 s", "-- (paper: 37 s, MATLAB, i5)"),
    ("bench_chen_zhou.SRLSSVMRoad3DOneThread.peakmem_sr_lssvm_road3d", "O(m r)", "--"),
]

#: The suites ``--run`` measures (asv --bench regular expressions).
SUITES = ["bench_mp", "bench_floors", "bench_core.ReferenceSolve", "bench_chen_zhou.SRLSSVMRoad3D",
          "bench_abe.MPBreakdownScan", "bench_exact.EscalatedExactModel"]


def _results_dir() -> Path:
    return ROOT / ".asv" / "results"


def result_files(results_dir: Path | None = None) -> list:
    """[(result file, its data, machine.json dict)] of every asv run, newest first (by the run's date)."""
    results_dir = results_dir or _results_dir()
    found = []
    for path in results_dir.glob("*/*.json"):
        if path.name == "machine.json" or path.name.endswith(".load.json"):
            continue
        data = json.loads(path.read_text())
        if "results" in data:
            found.append((path, data, json.loads((path.parent / "machine.json").read_text())))
    if not found:
        raise SystemExit(f"no asv results under {results_dir}: run with --run first")
    return sorted(found, key=lambda f: _run_started(f[1]), reverse=True)


def latest_result(results_dir: Path | None = None):
    """(result file, its data, machine.json dict) of the most recent asv run."""
    return result_files(results_dir)[0]


def _fmt(value, unit):
    if value is None or (isinstance(value, float) and value != value):
        return "failed or skipped"
    if unit == "seconds":
        return f"{value:.3g} s"
    if unit == "bytes":
        return f"{value / 1e6:.0f} MB"
    return f"{value:.3g}" + ("" if unit in ("ratio", "unit") else f" {unit}")


def _measured(data, name):
    """[(parameter text, value text)] of benchmark ``name`` in one result file, [] if absent."""
    entry = data["results"].get(name)
    if not entry:
        return []
    cols = data.get("result_columns", ["result", "params"])
    values, params = entry[cols.index("result")], entry[cols.index("params")]
    unit = data.get("benchmarks", {}).get(name, {}).get("unit")
    if values is None:
        return [("", "failed")]
    out = []
    for value, combo in zip(values, itertools.product(*params)):
        out.append((", ".join(c.strip("'") for c in combo), _fmt(value, unit or _unit(name))))
    return out


def _unit(name):
    kind = name.rsplit(".", 1)[1].split("_", 1)[0]
    return {"time": "seconds", "peakmem": "bytes"}.get(kind, "unit")


def _run_started(data) -> float:
    """When the run measured (ms since the epoch): the latest ``started_at`` of its benchmarks.

    asv's top-level ``date`` is the *commit's* date, not the run's; a result
    file written before asv recorded ``started_at`` falls back to it.
    """
    cols = data.get("result_columns", [])
    if "started_at" in cols:
        k = cols.index("started_at")
        times = [e[k] for e in data.get("results", {}).values() if isinstance(e, list) and len(e) > k]
        times = [t for t in times if isinstance(t, (int, float))]
        if times:
            return float(max(times))
    return float(data.get("date", 0))


def _utc(ms) -> str:
    return _dt.datetime.fromtimestamp(ms / 1000, _dt.timezone.utc).strftime("%Y-%m-%d %H:%M UTC")


def _provenance(path, data, machine) -> str:
    return (f"commit {data.get('commit_hash', '?')[:8]} ({path.name}): machine {machine.get('machine', '?')}, "
            f"{machine.get('cpu', '?')}, {machine.get('num_cpu', '?')} cores, {machine.get('os', '?')}; "
            f"run {_utc(_run_started(data))} (commit dated {_utc(data.get('date', 0))}); "
            f"load average {_load_text(path)}")


def render_table(files) -> str:
    """The markdown between the markers: each row from the newest run that measured it, the
    runs used listed first (machine, commit, date, load; one BLAS thread)."""
    used, lines = [], []
    for name, target, floor in ROWS:
        hit = next(((k, f) for k, f in enumerate(files) if _measured(f[1], name)), None)
        if hit is None:
            lines.append(f"| `{name}` | | {target} | not measured in any stored run | {floor} |")
            continue
        k, (path, data, machine) = hit
        if k not in used:
            used.append(k)
        for params, value in _measured(data, name):
            lines.append(f"| `{name}` | {params} | {target} | {value} [run {used.index(k) + 1}] | {floor} |")
    head = ["Generated by `python benchmarks/readme_table.py` from asv result files (one BLAS thread):", ""]
    head += [f"{i + 1}. {_provenance(*files[k])}" for i, k in enumerate(used)]
    head += ["", "| benchmark | parameters | target | measured | floor / what |", "|---|---|---|---|---|"]
    return "\n".join(head + lines)


def write_readme(table: str, readme: Path | None = None) -> None:
    """Replace the text between the markers (kept) of ``readme`` (default ``TABLE``) by ``table``."""
    readme = readme or TABLE
    text = readme.read_text()
    i, j = text.find(BEGIN), text.find(END)
    if i < 0 or j < i:
        raise SystemExit(f"expected the markers {BEGIN} ... {END} in {readme}")
    readme.write_text(text[:i + len(BEGIN)] + "\n" + table + "\n" + text[j:])


def _load_text(path) -> str:
    side = path.with_name(path.stem + ".load.json")
    if not side.exists():
        return "not recorded"
    s = json.loads(side.read_text())
    return f"{s['before']:.1f} before, {s['after']:.1f} after (1-minute)"


def _run(bench, *, quick=False):
    before = os.getloadavg()[0]
    asv = [sys.executable, "-m", "asv"]
    subprocess.run(asv + ["machine", "--yes"], cwd=ROOT, check=True)
    cmd = asv + ["run", "--python=same", "--set-commit-hash",
                 subprocess.run(["git", "rev-parse", "HEAD"], cwd=ROOT, capture_output=True, text=True,
                                check=True).stdout.strip()]
    for b in bench:
        cmd += ["--bench", b]
    if quick:
        cmd.append("--quick")
    # --python=same benchmarks this working tree's package, not the one the environment installed
    env = dict(os.environ, PYTHONPATH=os.pathsep.join(filter(None, [str(ROOT), os.environ.get("PYTHONPATH")])),
               OPENBLAS_NUM_THREADS="1", OMP_NUM_THREADS="1", MKL_NUM_THREADS="1")
    subprocess.run(cmd, cwd=ROOT, check=False, env=env)
    after = os.getloadavg()[0]
    path, _, _ = latest_result()
    path.with_name(path.stem + ".load.json").write_text(json.dumps({"before": before, "after": after}))


def main(argv=None) -> int:
    ap = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    ap.add_argument("--run", action="store_true", help="run asv on the table's suites first")
    ap.add_argument("--bench", action="append", help="asv --bench regex (default: the table's suites)")
    ap.add_argument("--quick", action="store_true", help="asv run --quick (one call per benchmark)")
    ap.add_argument("--check", action="store_true", help="print the table, do not write it")
    args = ap.parse_args(argv)
    if args.run:
        _run(args.bench or SUITES, quick=args.quick)
    table = render_table(result_files())
    if args.check:
        print(table)
    else:
        write_readme(table)
    return 0


if __name__ == "__main__":
    raise SystemExit(main())
