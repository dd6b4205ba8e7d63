"""Operation counts of the generic kernels (lssvm_analysis.arith.counting; A-cost-orders' evidence)."""
import numpy as np
import pytest

from lssvm_analysis.arith.counting import count_cholesky, count_matmul
from lssvm_analysis.core.exceptions import CholeskyBreakdownError
from lssvm_analysis.papers.abe.kinds import op_count_row


def _spd(n, seed=0):
    H = np.random.default_rng(seed).standard_normal((n, 3))
    return H @ H.T + np.eye(n)


@pytest.mark.parametrize("n", [1, 2, 7, 30])
def test_cholesky_counts_are_the_textbook_polynomials(n):
    # left-looking Cholesky: column j's update is an (n - j) x j matrix-vector product, so
    # sum_j (n - j) j = (n^3 - n)/6 multiplications, one division per subdiagonal entry, one root per column
    A = _spd(n)
    before = A.copy()
    c = count_cholesky(A)
    assert c == {"mul": (n ** 3 - n) // 6, "add": (n ** 3 - n) // 6, "div": n * (n - 1) // 2, "sqrt": n}
    np.testing.assert_array_equal(A, before)  # the caller's array is not modified


def test_counts_do_not_depend_on_the_values():
    assert count_cholesky(_spd(12, seed=1)) == count_cholesky(_spd(12, seed=2))


def test_matmul_counts_m_p_n_multiplications():
    A, B = np.ones((4, 5)), np.ones((5, 6))
    c = count_matmul(A, B)
    assert c["mul"] == 4 * 5 * 6 and c["sqrt"] == 0 and c["div"] == 0


def test_breakdown_is_raised_not_counted():
    with pytest.raises(CholeskyBreakdownError):
        count_cholesky(-np.eye(3))


def test_op_count_row():
    class Task:
        params = {"M": 20}
        options = {"N": 4}
        seed = 0
    row = op_count_row(Task())
    assert row["chol_mul"] == (20 ** 3 - 20) // 6 and row["chol_sqrt"] == 20 and row["form_mul"] == 20 * 20 * 4
    assert "M" not in row  # an input column: the runner refuses outcome columns that shadow inputs
