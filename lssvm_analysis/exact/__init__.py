"""Floor 1b, certified arithmetic: balls (arb), Ozaki-exact products, double-double, the bounds on
inverses, and the formation of problems in extended precision that the exact models and the
reference solve stand on.

Imports only :mod:`lssvm_analysis.core` and :mod:`lssvm_analysis.arith`.  Every module
states its public names in ``__all__``; modules outside ``exact/`` use those only (the
layer test checks it).  By job:

* :mod:`.arb`: data taken exactly into balls (:class:`ExactSystem`), ball norms and the
  residual of a system held in arb;
* :mod:`.double_double`: double-double arrays (:class:`DD`) and the kernels in DD;
* :mod:`.ozaki`: exact float64 products by Ozaki splitting, exact sums, fixed-point
  iterates and their exact residuals; :mod:`.pieces`: exact data as float64 pieces;
* :mod:`.inverse_bounds`: the certificates on ||A^-1|| of ``reference_solve`` and
  ``condition_number`` (float64 factorization, Ozaki products, arb inverse);
* :mod:`.formation`: the exact model's system formed in DD with its bound
  (:class:`ExactProblem`), the bordered system in any precision;
  :mod:`.formation_balls`: the same systems formed in balls at any bits (escalation).
"""
from .arb import ExactSystem, exact_system, residual_arb
from .double_double import DD, kernel_dd
from .formation import ExactProblem, bordered_matrix, lssvm_system_dd, normal_equations, reduced_lssvr_problem
from .formation_balls import kernel_balls, lssvm_system_balls, normal_balls
from .inverse_bounds import Certificate, certificate, inverse_norm_bound
from .ozaki import FixedPoint, OutOfRange, pieces_of_sum, product_terms, residual
from .pieces import float64_pieces

__all__ = ["ExactSystem", "exact_system", "residual_arb", "DD", "kernel_dd", "ExactProblem", "bordered_matrix",
           "lssvm_system_dd", "normal_equations", "reduced_lssvr_problem", "kernel_balls", "lssvm_system_balls",
           "normal_balls", "Certificate", "certificate", "inverse_norm_bound", "FixedPoint", "OutOfRange",
           "pieces_of_sum", "product_terms", "residual", "float64_pieces"]
