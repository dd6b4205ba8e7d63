"""Floor 1b, certified arithmetic: balls (arb), Ozaki-exact products, double-double, the bounds on
inverses, and the formation of problems in extended precision that the exact models and the
reference solve stand on.

Imports only :mod:`lssvm_analysis.core` and :mod:`lssvm_analysis.arith`.
"""
