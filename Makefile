# Two commands do all the set-up on a fresh machine (Python 3.11 + pip):
#   make report   -> .venv, install the package, write reports/default/index.html
#   make test     -> .venv, install with the test, dask and bench extras, run pytest
# (test needs dask for the LocalCluster tests and bench, i.e. asv, for the benchmark
# smoke tests).  make test-min installs the declared minimum versions in .venv-min and
# runs the tests there (.ci/min_versions.py).  make docs installs the docs extra into .venv
# and builds the documentation (lssvm_analysis/docs) into build/docs/, offline, warnings as errors.
PYTHON ?= python3
VENV := .venv
PY := $(VENV)/bin/python
# Single-threaded BLAS: timings are less noisy and pytest-xdist workers do
# not oversubscribe the two cores.
export OPENBLAS_NUM_THREADS ?= 1
export OMP_NUM_THREADS ?= 1
export MKL_NUM_THREADS ?= 1

.PHONY: report test test-min install clean docs chromium full

$(PY):
	$(PYTHON) -m venv $(VENV)
	$(PY) -m pip install --quiet --upgrade pip

# One stamp per set of extras: `make report` after `make test` installs nothing new.
$(VENV)/.installed-report: pyproject.toml | $(PY)
	$(PY) -m pip install --quiet -e .
	touch $@

$(VENV)/.installed-test: pyproject.toml | $(PY)
	$(PY) -m pip install --quiet -e '.[test,dask,bench]'
	touch $@ $(VENV)/.installed-report

install: $(VENV)/.installed-report

report: $(VENV)/.installed-report
	$(VENV)/bin/lssvm-analysis report --out reports/default

# The papers' full protocols (CPU-hours, see README): the sweeps on a 2-worker Dask LocalCluster into a
# store that a rerun resumes, then the published ledger reports/full/{ledger.csv,cost.csv,index.html}
# (lssvm-analysis publish: judged from the sections the store holds completely, computing nothing).
# On a running cluster: make full FULL_CLUSTER="--scheduler tcp://HOST:8786".
FULL_STORE ?= .full/records.sqlite
FULL_CLUSTER ?= --dask-workers 2
$(VENV)/.installed-dask: pyproject.toml | $(PY)
	$(PY) -m pip install --quiet -e '.[dask]'
	touch $@ $(VENV)/.installed-report

full: $(VENV)/.installed-dask
	$(VENV)/bin/lssvm-analysis report --profile full $(FULL_CLUSTER) --store $(FULL_STORE) --out build/full-report
	$(VENV)/bin/lssvm-analysis publish --profile full --store $(FULL_STORE) --out reports/full

# The browser gate (tests/test_report_browser.py) drives Debian's chromium through playwright;
# as root, install it with apt-get when it is missing (elsewhere the test skips and says why).
chromium:
	@command -v chromium >/dev/null 2>&1 || command -v chromium-browser >/dev/null 2>&1 || \
	  { [ "$$(id -u)" = 0 ] && command -v apt-get >/dev/null 2>&1 && \
	    apt-get update -qq && apt-get install -y -qq chromium; } || \
	  echo "chromium not installed: tests/test_report_browser.py will be skipped"

# ruff first: an undefined name or a loop-variable closure fails in seconds, before the suite
test: $(VENV)/.installed-test chromium
	$(PY) -m ruff check .
	$(PY) -m pytest -n 2 --dist loadgroup

$(VENV)/.installed-docs: pyproject.toml | $(PY)
	$(PY) -m pip install --quiet -e '.[docs]'
	touch $@ $(VENV)/.installed-report

docs: $(VENV)/.installed-docs
	$(VENV)/bin/sphinx-build -W --keep-going -b html lssvm_analysis/docs build/docs
	@echo "the documentation: build/docs/index.html"

test-min:
	$(PYTHON) .ci/min_versions.py --venv .venv-min

clean:
	rm -rf $(VENV) .venv-min .asv build *.egg-info
