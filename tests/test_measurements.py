"""Every run-to-run measurement is named as one: ``time_*`` columns, and the columns a task kind
declares (``register_task_kind(..., measurements=...)``): suykens-check's timings ``t_*`` and
cz-fit's traced ``peak_bytes``.  Two runs of one task may differ there and nowhere else, so a
determinism check (the cluster gate, tests/test_cluster_full_profile.py) ignores exactly these."""
from __future__ import annotations

import pytest

from lssvm_analysis.experiments import get_task_kind, is_measurement, register_task_kind


def test_the_run_to_run_columns_are_named():
    assert is_measurement("time_task") and is_measurement("time_fit", "fit")
    assert is_measurement("t_dense", "suykens-check") and is_measurement("t_cg_all", "suykens-check")
    assert is_measurement("peak_bytes", "cz-fit")
    assert not is_measurement("model_digits", "fit") and not is_measurement("t_dense")
    assert not is_measurement("peak_bytes", "fit") and not is_measurement("cg_iterations", "suykens-check")
    assert get_task_kind("cz-fit").measurements == ("peak_bytes",)


@pytest.mark.parametrize("bad", ["t_*", ("t_*", ""), (3,)])
def test_a_kind_declares_measurements_as_patterns(bad):
    with pytest.raises(TypeError, match="measurements="):
        register_task_kind("x-measurements", lambda task: {}, measurements=bad)
