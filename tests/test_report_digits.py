"""Issue 19 in the report: breakdown maps that never count an unmeasured fit ok, and the first-screen grid.

The records are synthetic (the report reads records only), built with the
fit rows' contract: ``model_error``/``model_digits`` against the exact model,
``problem_condition``, and the solve-error columns.
"""
from __future__ import annotations

import numpy as np
import pandas as pd

from lssvm_analysis.report import sections_precision as sp

U32, U64 = 2.0 ** -24, 2.0 ** -53


def _map_rows(**cols) -> pd.DataFrame:
    base = {"status": ["ok", "ok", "ok", "breakdown"], "unit_roundoff": [U32] * 4,
            "solver": ["s"] * 4, "precision": ["float32"] * 4}
    return pd.DataFrame({**base, **cols})


def test_map_outcome_without_a_reference_is_not_measured_never_ok():
    rows = _map_rows(forward_error=[1e-6, 1e-2, np.nan, np.nan])
    assert list(sp.outcomes(rows)) == ["ok", "large-error", "not-measured", "breakdown"]


def test_map_outcome_prefers_the_model_error_to_the_solve_error():
    # the solve error says 'ok' where the model against the exact model lost every digit
    rows = _map_rows(model_error=[1e-6, 1.0, np.nan, np.nan], solve_error=[1e-6, 1e-7, 1e-7, np.nan])
    assert sp.map_error(rows)[0] == "model_error"
    assert list(sp.outcomes(rows)) == ["ok", "large-error", "not-measured", "breakdown"]
