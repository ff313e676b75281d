"""The Lean side of leanbridge: printing SymPy as Lean 4 / Mathlib terms."""
