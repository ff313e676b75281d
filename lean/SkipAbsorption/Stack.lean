import Mathlib.Analysis.Normed.Group.Basic

/-!
# Stacks of blocks: `resStack` (residual) and `plainStack` (residual-free)

Compositions of a list of maps `E → E` on a normed additive group, the head of the list applied
last, with their four defining equations (`rfl`). Split out of `SkipAbsorption.Depth` (review E
§6 of 2026-12-03) so that the files that only talk about stacks (`SkipAbsorption.Beyond.Stacks`)
do not depend on the asymptotics behind paper Corollary 7.
-/

noncomputable section

namespace SkipAbsorption

section Stack

variable {E : Type*} [NormedAddCommGroup E]

/-- Composition of residual blocks `x ↦ x + f x`; the head of the list is applied last. -/
def resStack : List (E → E) → E → E
  | [], x => x
  | f :: fs, x => resStack fs x + f (resStack fs x)

/-- Composition of residual-free blocks; the head of the list is applied last. -/
def plainStack : List (E → E) → E → E
  | [], x => x
  | g :: gs, x => g (plainStack gs x)

theorem resStack_nil (x : E) : resStack ([] : List (E → E)) x = x := rfl

theorem resStack_cons (f : E → E) (fs : List (E → E)) (x : E) :
    resStack (f :: fs) x = resStack fs x + f (resStack fs x) := rfl

theorem plainStack_nil (x : E) : plainStack ([] : List (E → E)) x = x := rfl

theorem plainStack_cons (g : E → E) (gs : List (E → E)) (x : E) :
    plainStack (g :: gs) x = g (plainStack gs x) := rfl

end Stack

end SkipAbsorption

end
