"""leanbridge: when can an MLP absorb its own skip connection?

A bridge between the results of arXiv 2604.23705 ("Can an MLP Absorb Its Own Skip
Connection?") and a Lean 4 library: an activation catalog in SymPy, a symbolic analysis that
picks the argument that applies to an activation, a SymPy→Lean printer, and (in later modules)
generation, checking and export of the Lean statements.
"""

__version__ = "0.1.0"
