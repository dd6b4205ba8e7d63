"""Time the report's profiles cold: each one into a fresh store, with the machine and its load.

Usage::

    python -m benchmarks.measure_profiles [PROFILE ...] [--jobs N] [--keep DIR]

Each profile (default: quick, then default) runs ``lssvm-analysis report --profile P`` in a
child process, against a new empty store and output directory in a temporary directory, so
nothing is reused: the time a newcomer's ``make report`` takes after its install.  One JSON row
per profile on stdout: wall seconds, the child's CPU seconds (user + system, its workers
included), the tasks it ran, the CPU model, the core count and the 1-minute load average before
and after.  These 2-core machines are shared and their speed moves by ~20 % from hour to hour:
read the load beside a time, and compare a time with the budget's margin, not with its edge.
The budget (README, "Set-up"): quick <= 60 s, default <= 240 s cold on 2 cores.

This is a script, not an asv benchmark (a cold report is minutes long and writes files), and
not a pytest test (no timing assertions in the test suite).
"""
from __future__ import annotations

import argparse
import json
import os
import platform
import re
import resource
import subprocess
import sys
import tempfile
import time
from pathlib import Path

from lssvm_analysis.report.build import cpu_model

#: The budgets the README states, in seconds of wall time, cold, on 2 cores.
BUDGET = {"quick": 60.0, "default": 240.0}


def measure(profile: str, jobs: int | None, keep: Path | None) -> dict:
    """Run one profile cold in a child process and return its row."""
    with tempfile.TemporaryDirectory(prefix=f"lssvm-{profile}-") as tmp:
        root = Path(keep) / profile if keep else Path(tmp)
        root.mkdir(parents=True, exist_ok=True)
        argv = [sys.executable, "-m", "lssvm_analysis.cli", "report", "--profile", profile,
                "--out", str(root / "out"), "--store", str(root / "store.sqlite"), "--no-progress",
                "--asv-results", str(root / "no-asv")]
        if jobs:
            argv += ["--jobs", str(jobs)]
        env = {**os.environ, "OPENBLAS_NUM_THREADS": "1", "OMP_NUM_THREADS": "1", "MKL_NUM_THREADS": "1"}
        load0 = os.getloadavg()[0]
        before = resource.getrusage(resource.RUSAGE_CHILDREN)
        t0 = time.perf_counter()
        proc = subprocess.run(argv, env=env, capture_output=True, text=True)
        wall = time.perf_counter() - t0
        after = resource.getrusage(resource.RUSAGE_CHILDREN)
        if proc.returncode != 0:
            raise SystemExit(f"measure_profiles: the {profile} report failed ({proc.returncode}): "
                             f"{proc.stderr.strip()[-2000:]}")
        tasks = re.search(r"tasks of this report in the store: (\d+)", proc.stdout)
        return {"profile": profile, "wall_s": round(wall, 1),
                "cpu_s": round((after.ru_utime - before.ru_utime) + (after.ru_stime - before.ru_stime), 1),
                "tasks": int(tasks.group(1)) if tasks else None, "budget_s": BUDGET.get(profile),
                "cpu": cpu_model(), "cores": os.cpu_count(), "load_before": round(load0, 2),
                "load_after": round(os.getloadavg()[0], 2), "python": platform.python_version(),
                "date": time.strftime("%Y-%m-%d %H:%M UTC", time.gmtime())}


def main(argv=None) -> int:
    parser = argparse.ArgumentParser(prog="measure_profiles", description=__doc__.split("\n\n")[0])
    parser.add_argument("profiles", nargs="*", default=["quick", "default"],
                        choices=["quick", "default", "full"], metavar="PROFILE")
    parser.add_argument("--jobs", type=int, default=None, help="worker processes (default: all cores)")
    parser.add_argument("--keep", type=Path, default=None, help="keep each run's store and report here")
    args = parser.parse_args(argv)
    for profile in args.profiles or ["quick", "default"]:
        print(json.dumps(measure(profile, args.jobs, args.keep)), flush=True)
    return 0


if __name__ == "__main__":
    sys.exit(main())
