"""The example plugin package (tests/plugin_example) is complete: installed, its own tests pass.

A researcher copies that folder to start a solver package: its pyproject declares the entry point,
its module writes only the algorithm (through ``lssvm_analysis.kit``), and its ``tests/`` run
``check_solver`` and an accuracy gate.  Here the package is installed into a temporary site (as
tests/test_plugins.py does) and its own test suite is run by pytest from a copy of the folder,
as its author would run it.  (The project's own run does not collect that folder: tests/conftest.py.)
"""
from __future__ import annotations

import shutil

from test_plugins import EXAMPLE, install_plugin_example, run_python


def test_the_example_package_passes_its_own_tests(tmp_path):
    site = install_plugin_example(tmp_path / "site")
    package = tmp_path / "package"
    shutil.copytree(EXAMPLE, package, ignore=shutil.ignore_patterns("__pycache__"))
    proc = run_python(site, None, "-m", "pytest", "-q", "-p", "no:cacheprovider", cwd=package)
    assert proc.returncode == 0, proc.stdout[-3000:] + proc.stderr[-2000:]
    assert "2 passed" in proc.stdout, proc.stdout[-2000:]


def test_the_example_writes_only_its_algorithm():
    """It validates, assembles its Fit and records a breakdown with the kit, and imports nothing private."""
    source = (EXAMPLE / "lssvm_plugin_example" / "__init__.py").read_text(encoding="utf-8")
    for call in ("kit.validate_xy(", "kit.make_fit(", "kit.breakdown_fit(", "kit.PhaseTimer()", "kit.exact_krr_model"):
        assert call in source, call
    imports = [line for line in source.splitlines() if line.startswith(("import ", "from "))]
    assert imports == ["import numpy as np", "import lssvm_analysis as la", "from lssvm_analysis import kit"], imports
