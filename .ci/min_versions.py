"""Install the declared minimum versions in a fresh venv and run the tests there.

Usage (from the repository root; ``.ci/run min-versions`` and ``make test-min`` call it)::

    python .ci/min_versions.py [--venv DIR] [--extras test,dask,bench] [-- PYTEST ARGS...]

Every requirement of ``pyproject.toml`` (``[project].dependencies`` and the
extras asked for) is pinned to its floor (``numpy>=1.26`` -> ``numpy==1.26``),
the project is installed without resolving anything else (``--no-deps``),
``pip check`` verifies that the pinned set is consistent, and pytest runs the
given arguments (default: the whole suite minus the ``slow`` marker) with
those versions.  A floor that is too low shows up as an ImportError or a
failing test here, not on a user's machine.

The pins are computed by :func:`floor_pins`, which ``tests/test_dependencies.py``
also uses, so the floors the test checks and the ones this job installs are
the same list.
"""
from __future__ import annotations

import argparse
import os
import re
import subprocess
import sys
import tomllib
import venv
from pathlib import Path

__all__ = ["ROOT", "requirements", "floor_pins", "main"]

ROOT = Path(__file__).resolve().parents[1]

_REQ = re.compile(r"^\s*(?P<name>[A-Za-z0-9][A-Za-z0-9._-]*)\s*(?P<spec>[^;]*?)\s*(;.*)?$")


def requirements(pyproject=ROOT / "pyproject.toml", extras=()) -> list[str]:
    """The requirement strings of ``[project].dependencies`` plus those of ``extras``."""
    project = tomllib.loads(Path(pyproject).read_text(encoding="utf-8"))["project"]
    reqs = list(project["dependencies"])
    optional = project.get("optional-dependencies", {})
    for extra in extras:
        if extra not in optional:
            raise ValueError(f"expected an extra of pyproject.toml ({', '.join(sorted(optional))}), "
                             f"got extra={extra!r}")
        reqs += optional[extra]
    return reqs


def floor_pins(reqs) -> dict[str, str]:
    """``{distribution name: floor version}`` of requirement strings, each with one ``>=`` floor.

    Raises
    ------
    ValueError
        A requirement without a ``>=`` floor (every dependency must declare
        the oldest version the code works with).
    """
    pins = {}
    for req in reqs:
        m = _REQ.match(req)
        floors = re.findall(r">=\s*([0-9][0-9A-Za-z.]*)", m.group("spec")) if m else []
        if len(floors) != 1:
            raise ValueError(f"expected one '>=' floor in every requirement, got {req!r}")
        pins[m.group("name").lower().replace("_", "-")] = floors[0]
    return pins


def _run(*cmd, **kw):
    print("+", " ".join(map(str, cmd)), flush=True)
    subprocess.run(list(map(str, cmd)), check=True, **kw)


def main(argv=None) -> int:
    parser = argparse.ArgumentParser(description=__doc__.split("\n\n")[0])
    parser.add_argument("--venv", default=str(ROOT / ".venv-min"), help="venv to (re)create")
    parser.add_argument("--extras", default="test,dask,bench",
                        help="extras whose floors are installed too (comma-separated)")
    parser.add_argument("pytest_args", nargs="*", default=None,
                        help="pytest arguments (default: -m 'not slow' -n 2)")
    args = parser.parse_args(argv)
    extras = [e for e in args.extras.split(",") if e]
    pins = floor_pins(requirements(extras=extras))
    env_dir = Path(args.venv)
    venv.create(env_dir, clear=True, with_pip=True)
    py = env_dir / "bin" / "python"
    _run(py, "-m", "pip", "install", "--quiet", *(f"{n}=={v}" for n, v in pins.items()))
    _run(py, "-m", "pip", "install", "--quiet", "--no-deps", "-e", ROOT)
    _run(py, "-m", "pip", "check")
    _run(py, "-m", "pip", "list")
    _run(py, "-c", "import lssvm_analysis, sys; print('imported', lssvm_analysis.__version__)")
    env = dict(os.environ, LSSVM_MIN_VERSIONS="1", OPENBLAS_NUM_THREADS="1")
    pytest_args = args.pytest_args or ["-m", "not slow", "-n", "2", "-q"]
    return subprocess.run([str(py), "-m", "pytest", *pytest_args], cwd=ROOT, env=env).returncode


if __name__ == "__main__":
    sys.exit(main())
