"""Layer 3, analysis: certified references and error measures, conditioning studies, the crossover model.

Imports the core and the solvers, never the layers above.
"""
