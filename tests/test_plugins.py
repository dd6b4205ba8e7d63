"""Third-party solvers and the pytest plugin, with real entry-point loading.

The plugin example (``tests/plugin_example/``, a package with its own
pyproject.toml) is installed into a temporary site directory: its package and
a ``.dist-info`` whose ``entry_points.txt`` is the one its pyproject.toml
declares, so ``importlib.metadata`` finds it as it finds a pip-installed
distribution (pip could not install a local path portably from the ``test``
extra, and would change the shared environment).  Each check runs in a fresh
interpreter with that directory on ``sys.path``: ``import lssvm_analysis``
loads the entry point, and the solver must then be everywhere the built-in
ones are, with no edit to the package.
"""
from __future__ import annotations

import json
import os
import re
import shutil
import subprocess
import sys
import textwrap
import tomllib
from pathlib import Path

import pytest

ROOT = Path(__file__).resolve().parents[1]
EXAMPLE = ROOT / "tests" / "plugin_example"


def install_plugin_example(site: Path) -> Path:
    """Install the example into ``site`` as a distribution (package + .dist-info with its entry points)."""
    meta = tomllib.loads((EXAMPLE / "pyproject.toml").read_text(encoding="utf-8"))["project"]
    shutil.copytree(EXAMPLE / "lssvm_plugin_example", site / "lssvm_plugin_example")
    info = site / f"{meta['name'].replace('-', '_')}-{meta['version']}.dist-info"
    info.mkdir()
    (info / "METADATA").write_text(f"Metadata-Version: 2.1\nName: {meta['name']}\nVersion: {meta['version']}\n")
    lines = [f"[{group}]\n" + "".join(f"{k} = {v}\n" for k, v in eps.items())
             for group, eps in meta["entry-points"].items()]
    (info / "entry_points.txt").write_text("\n".join(lines))
    return site


@pytest.fixture(scope="module")
def plugin_site(tmp_path_factory):
    return install_plugin_example(tmp_path_factory.mktemp("site"))


def run_python(site: Path, code: str, *args, cwd=None) -> subprocess.CompletedProcess:
    env = {**os.environ, "PYTHONPATH": os.pathsep.join([str(site), str(ROOT)]),
           "OPENBLAS_NUM_THREADS": "1", "OMP_NUM_THREADS": "1", "MPLBACKEND": "Agg"}
    return subprocess.run([sys.executable, *(["-c", code] if code else []), *args], env=env, cwd=cwd,
                          capture_output=True, text=True, timeout=600)


_EVERYWHERE = textwrap.dedent("""
    import json, sys, warnings
    import numpy as np
    import lssvm_analysis as la
    from lssvm_analysis.report import sections_appendix, sections_digits as sd
    from lssvm_analysis.report.html import Section
    from lssvm_analysis.experiments import execute_task
    from lssvm_analysis.experiments.fit_kind import accepts_combination
    import pandas as pd
    sys.path.insert(0, {root!r})
    from benchmarks import common

    out = {{"solvers": la.solvers(), "plugins": la.load_plugins()}}
    info = la.get_solver("example-krr")
    out["literal"] = [v.value for v in info.variants if v.literal]
    pb = info.example_problem(n=30, rng=0)
    est = la.LSSVMRegressor(C=10.0, sigma2=1.0, solver="example-krr").fit(pb.X, pb.y)
    out["estimator"] = est.fit_.solver
    out["asv"] = "example-krr" in common.solver_names()
    out["appendix"] = "example-krr" in sections_appendix.plan("quick", None)["spectra"].solvers
    cmp = la.compare(pb.X, pb.y, precisions=["float64"], C=10.0, ladder=False, sigma2=1.0)   # default solvers
    out["compare"] = sorted(set(cmp.frame.configuration[cmp.frame.solver == "example-krr"]))
    out["compare_answer"] = [s for s in cmp.answers.sentence if s.startswith("example-krr:")]
    # the quick report's grid, on a tiny ladder: the plugin's solver and one built-in
    sd.SETTINGS["quick"] = sd.with_settings("quick", solvers=("example-krr", "krr"), n=12, C=(1e1, 1e8),
                                            precisions=("float32", "float64"))
    specs = sd.plan("quick", None)
    rows = {{k: pd.DataFrame([execute_task(t) for t in s.tasks() if accepts_combination(t)])
            for k, s in specs.items()}}
    sd.render(Section("grid", "grid"), {out_dir!r}, rows, "quick")
    grid = pd.read_csv({out_dir!r} + "/digits-grid.csv")
    out["grid"] = sorted(set(grid.configuration))
    print(json.dumps(out))
""")


def test_the_installed_plugin_solver_is_everywhere(plugin_site, tmp_path):
    proc = run_python(plugin_site, _EVERYWHERE.format(root=str(ROOT), out_dir=str(tmp_path)))
    assert proc.returncode == 0, proc.stderr[-3000:]
    out = json.loads(proc.stdout.strip().splitlines()[-1])
    assert "example-krr" in out["solvers"] and out["plugins"] == {"example-krr": "lssvm_plugin_example"}
    assert out["literal"] == ["explicit"] and out["estimator"] == "example-krr"
    assert out["asv"] and out["appendix"]
    assert "example-krr" in out["grid"] and "example-krr[inverse=explicit]" in out["grid"], out["grid"]
    # compare's default solvers (every one with an exact model) include the plugin's, both forms
    assert out["compare"] == ["example-krr", "example-krr[inverse=explicit]"] and len(out["compare_answer"]) == 1


def test_a_broken_plugin_is_skipped_with_a_named_warning(plugin_site, tmp_path):
    site = tmp_path / "site"
    site.mkdir()
    info = site / "broken_plugin-0.1.dist-info"
    info.mkdir()
    (info / "METADATA").write_text("Metadata-Version: 2.1\nName: broken-plugin\nVersion: 0.1\n")
    (info / "entry_points.txt").write_text("[lssvm_analysis.solvers]\nbroken = no_such_module_h33\n")
    proc = run_python(site, "import warnings; warnings.simplefilter('always'); import lssvm_analysis as la; "
                            "print('broken' in la.load_plugins())")
    assert proc.returncode == 0, proc.stderr
    assert proc.stdout.strip() == "False"
    assert "solver plugin 'broken' (no_such_module_h33) was not loaded: ModuleNotFoundError" in proc.stderr


def test_check_solver_runs_the_battery_on_the_plugin_solver(plugin_site):
    code = ("from lssvm_analysis.testing import check_solver; ran = check_solver('example-krr'); "
            "print(len(ran), sum(r.startswith('exact_model_hook') for r in ran), "
            "sum(r.startswith('peak_memory') for r in ran))")
    proc = run_python(plugin_site, code)
    assert proc.returncode == 0, proc.stderr[-3000:]
    n, exact, peak = map(int, proc.stdout.split())
    assert exact == 2 and peak == 4 and n >= 30   # both variants' exact model; four precisions' peak


_USER_TESTS = textwrap.dedent('''
    import numpy as np
    import lssvm_analysis as la
    from lssvm_analysis.testing import assert_model_digits

    rng = np.random.default_rng(0)
    X = rng.uniform(-3, 3, (150, 2))
    y = np.sinc(X[:, 0]) + 0.05 * X[:, 1]

    def _gate(inverse):
        fit = la.fit("example-krr", X, y, precision="float64", C=1e10, sigma2=3.0, inverse=inverse)
        assert_model_digits(fit, X, y, at_least=4, X_test=X[:50], predictions_at_least=8)

    def test_cholesky_solve_keeps_the_decision_values():
        _gate("solve")

    def test_explicit_inverse_keeps_them_too():
        _gate("explicit")
''')


def test_a_users_gate_passes_on_the_solve_and_fails_on_the_explicit_inverse(plugin_site, tmp_path):
    """pytest on a user's test file that uses the plugin's assertion.

    Sinc, 150 points, sigma2 = 3, C = 1e10: problem kappa 9.3e11.  Both models
    keep ~5.5 digits (kappa u: forward error is all a solve can promise), but
    the Cholesky solve is backward stable, so its residual -- and with it the
    decision values K alpha = y - alpha / C -- keeps ~10.5 digits, while the
    explicit inverse is not backward stable (Higham, section 14.1) and its
    decision values keep only the model's ~5.5.  The user's gate asks for 8.
    """
    (tmp_path / "test_user_gate.py").write_text(_USER_TESTS)
    from importlib.metadata import entry_points
    registered = any(ep.value == "lssvm_analysis.testing" for ep in entry_points(group="pytest11"))
    plugin = [] if registered else ["-p", "lssvm_analysis.testing"]   # an install older than the entry point
    proc = run_python(plugin_site, None, "-m", "pytest", "-q", "-p", "no:cacheprovider", *plugin,
                      "test_user_gate.py", cwd=tmp_path)
    assert proc.returncode == 1, proc.stdout[-3000:] + proc.stderr[-2000:]
    assert "1 failed, 1 passed" in proc.stdout
    failure = proc.stdout[proc.stdout.index("test_explicit_inverse_keeps_them_too"):]
    assert "example-krr in float64:" in failure and "prediction digits < predictions_at_least=8" in failure
    assert re.search(r"problem kappa 9\.\d+e\+11; exact model certified to \d+\.\d digits", failure), failure


def test_the_package_declares_its_pytest_plugin_and_the_example_its_solver():
    project = tomllib.loads((ROOT / "pyproject.toml").read_text(encoding="utf-8"))["project"]
    assert project["entry-points"]["pytest11"] == {"lssvm_analysis": "lssvm_analysis.testing"}
    example = tomllib.loads((EXAMPLE / "pyproject.toml").read_text(encoding="utf-8"))["project"]
    assert example["entry-points"]["lssvm_analysis.solvers"] == {"example-krr": "lssvm_plugin_example"}
