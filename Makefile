# Two commands do all the set-up on a fresh machine (Python 3.11 + pip):
#   make report   -> .venv, install, write reports/default/index.html
#   make test     -> .venv, install with the test extras, run pytest
PYTHON ?= python3
VENV := .venv
PY := $(VENV)/bin/python
# Single-threaded BLAS: timings are less noisy and pytest-xdist workers do
# not oversubscribe the two cores.
export OPENBLAS_NUM_THREADS ?= 1
export OMP_NUM_THREADS ?= 1
export MKL_NUM_THREADS ?= 1

.PHONY: report test install clean

$(PY):
	$(PYTHON) -m venv $(VENV)
	$(PY) -m pip install --quiet --upgrade pip

$(VENV)/.installed: pyproject.toml | $(PY)
	$(PY) -m pip install --quiet -e '.[test]'
	touch $@

install: $(VENV)/.installed

report: install
	$(VENV)/bin/lssvm-analysis report --out reports/default

test: install
	$(PY) -m pytest -n 2 --dist loadgroup

clean:
	rm -rf $(VENV) .asv build *.egg-info
