"""Floor 0: exceptions, records (breakdowns), input validation, memo; nothing that computes.

Imports nothing else of the package.
"""
