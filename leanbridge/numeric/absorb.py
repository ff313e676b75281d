"""Decide, on actual weights, whether a block's skip can be folded into the MLP.

The block is ``f(x) = A x + W_down σ(W_up x)`` (``A = I`` by default), with w_i the columns of
W_down (d×n) and u_i the rows of W_up (n×d).

**Construction (sufficiency, any σ with σ(z) − σ(−z) = c·z, c ≠ 0).** Negating the rows of W_up
in an index set S turns unit i into σ(−u_i·x) = σ(u_i·x) − c·u_i·x, so

    W_down σ(V_up x) = W_down σ(W_up x) − c · W_down[:,S] W_up[S,:] x,   V_up = W_up, rows S negated.

This equals f(x) for all x exactly when

    W_down[:,S] W_up[S,:] = −A/c.                                                   (★)

**Lemma 4 (invertible A).** A x + W_down σ(W_up x) = A (x + A⁻¹W_down σ(W_up x)), and
multiplying a residual-free block by A only changes its down-projection. So f is absorbable
iff the identity-skip block with down-projection A⁻¹W_down is; its S-condition is
A⁻¹W_down[:,S] W_up[S,:] = −I/c, which is (★) multiplied by A⁻¹. We test (★) itself: the same
condition, without forming A⁻¹ (better conditioned), and the absorbing block is
V_down = A·(A⁻¹W_down) = W_down. (★) is *sufficient* for every A, even singular; *necessary*
only through the paper's Thm 8/10 (ReLU/GELU, nondegenerate weights, d ≥ 2) and Lemma 4, which
needs A invertible. (The Lean statement of Thm 8, ``SkipAbsorption.absorbable_relu_iff``, needs
only nondegenerate weights, any d; it is cited, not compiled here, and ``absorb`` still answers
d = 1 with "no decision".)

**Deciding (★) without enumerating subsets.** With R_i = w_i u_iᵀ, (★) reads Σ a_i R_i = T,
T = −A/c, a ∈ {0,1}^n. Its normal equations are G a = r with the Gram matrix
G_ij = ⟨R_i, R_j⟩_F = (w_i·w_j)(u_i·u_j), i.e. G = (W_downᵀW_down) ∘ (W_up W_upᵀ), and
r_i = ⟨R_i, T⟩_F = w_iᵀ T u_i (= −(1/c)(W_up W_down)_ii when A = I). We solve the Jacobi-scaled
system (columns of unit norm) by Cholesky:

1. If the least-squares residual min_a∈ℝⁿ ‖Σ a_i R_i − T‖_F exceeds the tolerance, no a at all
   (binary or not) satisfies (★): **not absorbable by (★)**. (It is taken from the Gram form
   ‖T‖² − 2rᵀb + bᵀGb less a bound on its rounding error when that leaves it above the
   tolerance — generic weights, by a wide margin — and computed directly otherwise.)
2. Otherwise round the solution to {0,1} and check the residual of that S directly: if it is
   within the tolerance, **S is found**.
3. Otherwise, when G is nonsingular the real solution a* is unique, and any binary a within the
   tolerance τ of (★) satisfies |a_i − a*_i| ≤ τ/(σ_min(M)·‖R_i‖_F) (M the matrix with columns
   vec(R_i) scaled to unit norm); when that bound is < 1/2 it must be the rounding, which failed:
   **no S** (an exact certificate, computed with the smallest eigenvalue of the scaled G).
4. When G is singular (n > d², or degenerate weights) or badly conditioned, or the certificate
   does not hold: a mixed-integer feasibility problem (``scipy.optimize.milp``, HiGHS) on the
   rank-reduced system, with a time limit. Infeasible → **no S**; time limit → **not found
   within the limit** (no decision).

**Memory.** G is formed, in float64, into one preallocated n×n array, tile by tile from
float64 conversions of the weights' tiles (the weights stay in their stored dtype, e.g.
float32); the row Gram matrix W_up W_upᵀ is never whole (each of its tiles is multiplied into
G and summarised for the collinearity check). The Cholesky factor then overwrites one
triangle of that array in place while the other keeps G (and a vector its diagonal), so the
solves, the refinement's G·b and the relaxed distance need no second n×n array
(:class:`GramSystem`). The floor of this exact method is G and its factor — n(n+1)/2 numbers
each, one n×n float64 array together, 8n² bytes — plus the weights; only the
eigen-decomposition fallbacks (singular or badly conditioned G, a failed rounding
certificate) add a second n×n array.

**Tolerances.** A set S is accepted when

    ‖W_down[:,S] W_up[S,:] − T‖_F ≤ τ(S) = 1e-9·‖T‖_F + 16·(ε_in + √n·ε₆₄)·Σ_{i∈S} ‖w_i‖‖u_i‖,

ε₆₄ the machine epsilon of float64 and ε_in = ε₆₄ (the default, and what ``absorb`` and
``scan`` use whatever the stored dtype). The relative floor 1e-9 means "(★) holds to 9
significant digits". The second term is a worst-case bound (triangle inequality over the
rank-one terms) on how much summing the product in float64 can move W_down[:,S] W_up[S,:].
**The stored numbers are the block**: a float16, bfloat16 or float32 weight is an exact
number, widened to float64 exactly, so (★) is decided for the weights as stored and the
tolerance never grows with the storage precision (a block stored in float16 with
W_down[:,S] W_up[S,:] = −0.9·I is not absorbable, as its float32 copy is not). ``eps_in``
larger than ε₆₄ is a library knob for inputs known only to that relative precision (tests
of the ill-conditioned paths use it); no command sets it. The test is invariant
under the rescaling W_down → s·W_down, W_up → W_up/s, which leaves the block's function class
and every product W_down[:,S] W_up[S,:] unchanged. Decisions "no S" use
τ_max = τ({1..n}) ≥ τ(S) for every S; a least-squares residual above τ_max excludes every S.
The scaled Gram matrix counts as singular below a reciprocal condition number of 1e-10 (the
Cholesky solution would then be accurate to less than ~6 digits); its numerical rank keeps the
eigenvalues above 100·n·ε₆₄·λ_max.

**Biases.** Real blocks are f(x) = A x + W_down σ(W_up x + b) + b_down. Negating u_i *and* b_i
for i ∈ S gives σ(−(u_i·x + b_i)) = σ(u_i·x + b_i) − c·(u_i·x + b_i), so under (★) the block
V_down σ(V_up x + v) + v_down with v = b (entries in S negated) and
v_down = b_down + c·Σ_{i∈S} b_i w_i equals f: (★) is still sufficient, and "absorbable" is
decided and constructed. Necessity with biases, and `never` with biases, are the large-scale
limit's (R4, :mod:`leanbridge.numeric.biased`, which says which theorem covers which block):
for ReLU, GELU, GELU-tanh, SiLU and softplus with the identity skip a failed (★) is "not
absorbable", tanh and sigmoid never absorb; other cases with biases stay "no decision".

**Scale.** Weights near 1e±300 would overflow the norms and Gram entries (or underflow them
into "zero rows"): :func:`block_scaling` rescales W_down and W_up by exact powers of two
first (the S-condition is unchanged, and the block is the same function up to scaling its
input and output), so they decide as weights near 1; products more than 2^500 below the skip
are "no S" outright, more than 2^500 above it "no decision" (float64 cannot hold both).

**Verification.** The absorbing block is compared with the skip block on 64 random inputs
(norms 1e-3 … 1e3 over the typical ‖u_i‖). Exactly, g(x) − f(x) = c·(T − W_down[:,S] W_up[S,:])x,
so it passes when ‖f − g‖ ≤ 2·(|c|·residual·‖x‖ + 1000·ε₆₄·(sum of the magnitudes of the
terms)) at every point; the max relative error ‖f − g‖/‖f‖ is reported (~1e-13 to 1e-12 in
float64 at GPT-2 size). It **vetoes**: an error above :data:`VERIFY_MAX_RELATIVE` of the
terms' size makes the block "no decision (verification)", never "absorbable".
"""

from __future__ import annotations

import math
import time
from dataclasses import dataclass, field

from leanbridge.analysis import CONDITIONAL, NEVER, Analysis, analyse
from leanbridge.families import Family
from leanbridge.numeric import biased as biased_mod
from leanbridge.numeric.activations import numeric_activation
from leanbridge.numeric.errors import need
from leanbridge.numeric.milp import proves_infeasible, run_milp

#: Relative floor of the tolerance: (★) must hold to this relative accuracy.
REL_TOL = 1e-9
#: Multiple of (ε_in + √n ε₆₄)·Σ‖w_i‖‖u_i‖ added to the tolerance (rounding of the inputs and
#: of the float64 product).
KAPPA = 16.0
#: Below this reciprocal condition number (1-norm estimate) the scaled Gram matrix is treated
#: as singular: Cholesky solutions would carry relative errors of 1e-6 or more.
RCOND_MIN = 1e-10
#: Rows of W_up count as collinear when 1 − |cos| is below max(64 ε_in, this) (ε_in = ε₆₄ for
#: stored weights: the cosines are of the exact stored numbers, computed in float64).
COLLINEAR_TOL = 1e-12
#: A verification error above this vetoes "absorbable" whatever the tolerance says (the block
#: is then "no decision (verification)"): max over the random inputs of ‖f − g‖ divided by the
#: size of the terms summed (``max_error_over_terms`` of :func:`verify`; not ‖f‖, which is 0
#: on a whole cone for a planted ReLU block). Correct absorbing blocks verify to ~1e-15.
#: (With the library knob ``eps_in`` > ε₆₄ the veto is at max(this, 1000·ε_in) instead.)
VERIFY_MAX_RELATIVE = 1e-6
#: Weights, skip and products whose largest entries lie within 2^±SAFE_EXPONENT are decided as
#: stored; outside that range the block is first rescaled exactly (see :func:`block_scaling`).
SAFE_EXPONENT = 200
#: Multiple of ε₆₄ times the size of the summed terms allowed as float64 evaluation error when
#: verifying an absorbing block (see :func:`verify`).
VERIFY_FLOAT = 1000.0

ABSORBABLE = "absorbable"
NOT_ABSORBABLE = "not_absorbable"
NO_DECISION = "no_decision"

_F64 = 2.0 ** -52


# --------------------------------------------------------------------------------------------
# The S-decision
# --------------------------------------------------------------------------------------------

@dataclass
class SDecision:
    """Outcome of deciding (★): ``found`` True (S), False (proved none), None (undecided)."""

    found: bool | None
    S: list[int]
    method: str
    detail: str
    residual: float | None           # ‖W_down[:,S] W_up[S,:] − T‖_F of the S found/rounded
    tolerance: float                 # τ(S) when found, τ_max otherwise
    ls_residual: float | None        # min over real a (a lower bound for every S)
    gram: dict = field(default_factory=dict)
    timings: dict = field(default_factory=dict)
    system: tuple | None = field(default=None, repr=False)   # (GramSystem, r, scales, active)
    collinear: dict | None = field(default=None, repr=False)  # see _collinear (all units active)


def tolerance(term_sum: float, t_norm: float, eps_in: float, n: int) -> float:
    """τ = 1e-9·‖T‖_F + 16·(ε_in + √n·ε₆₄)·Σ‖w_i‖‖u_i‖ (see the module docstring)."""
    return REL_TOL * t_norm + KAPPA * (eps_in + math.sqrt(max(n, 1)) * _F64) * term_sum


#: Rows and columns of the Gram matrix formed per tile (at most; a quarter of n for small n):
#: the float64 temporaries are two d×tile panels (9 MiB at d = 768; none for float64
#: weights) or one panel and a tile×tile block, whatever n is. Below ~640, OpenBLAS's
#: multi-threaded products on shared CPUs ran at half speed or less (measured at d = 768),
#: which would cost more time than the memory saved is worth.
TILE = 768
#: Units per strip for the norms and projections (elementwise work: small strips suffice).
STRIP = 128


def gram_tile(m: int) -> int:
    """The tile size :func:`form_gram` uses for m units."""
    return max(1, min(TILE, -(-m // 4)))


def _f64(np, part):
    """``part`` as float64: a view when it already is, else a converted copy (of a tile)."""
    return np.asarray(part, dtype=np.float64)


def unit_norms(np, W_down, W_up, tile: int = STRIP):
    """(‖w_i‖, ‖u_i‖) in float64, a tile of units at a time (no float64 copy of the weights)."""
    n = W_down.shape[1]
    wn, un = np.empty(n), np.empty(n)
    for k in range(0, n, tile):
        wn[k:k + tile] = np.linalg.norm(_f64(np, W_down[:, k:k + tile]), axis=0)
        un[k:k + tile] = np.linalg.norm(_f64(np, W_up[k:k + tile]), axis=1)
    return wn, un


def _residual(np, W_down, W_up, a, T, tile: int = STRIP) -> float:
    """‖W_down diag(a) W_up − T‖_F, computed directly in float64: the d×d product is
    accumulated in place (BLAS dgemm with β = 1) over tiles of the units with a_i ≠ 0, so the
    float64 temporaries are one d×d array and two d×tile panels."""
    from scipy.linalg import blas

    units = np.flatnonzero(a)
    P = np.array(T, dtype=np.float64, order="F")
    P *= -1.0
    for k in range(0, units.size, tile):
        idx = units[k:k + tile]
        left = _f64(np, W_down[:, idx]) * a[idx]                 # d×k, C order
        right = np.ascontiguousarray(_f64(np, W_up[idx]))       # k×d, C order
        # Fortran views of the C arrays are their transposes: op = transpose gives them back
        blas.dgemm(1.0, left.T, right.T, beta=1.0, c=P, trans_a=1, trans_b=1, overwrite_c=1)
    return float(np.linalg.norm(P))


def _projections(np, T, Wd, Wu, tile: int = STRIP):
    """(w_iᵀ T u_i)_i in float64, a tile of units at a time. For a diagonal T (the identity
    skip: T = −I/c) without the d×d×n product T·W_upᵀ, which costs as much as a tenth of the
    Gram matrix."""
    n = Wd.shape[1]
    out = np.empty(n)
    diagonal = np.diagonal(T)
    is_diagonal = np.count_nonzero(T) == np.count_nonzero(diagonal)     # no d×d temporaries
    for k in range(0, n, tile):
        wd, wu = _f64(np, Wd[:, k:k + tile]), _f64(np, Wu[k:k + tile])
        if is_diagonal:
            wd = wd * diagonal[:, None]
            wd *= wu.T
            out[k:k + tile] = wd.sum(axis=0)
        else:
            out[k:k + tile] = np.einsum("ji,ji->i", T @ wu.T, wd)
    return out


class GramSystem:
    """The Jacobi-scaled Gram matrix G = D⁻¹((W_downᵀW_down) ∘ (W_up W_upᵀ))D⁻¹ and its Cholesky
    factor, in **one** n×n float64 array (the memory of a decision: see :func:`form_gram`).

    Layout of the C-ordered array ``a``: its strict lower triangle always holds G, and
    ``diag`` G's diagonal; its upper triangle (with the diagonal) holds G too after
    :meth:`mirror`, or the Cholesky factor after :meth:`factor` — LAPACK sees ``a.T``
    (Fortran order, no copy), whose *lower* triangle is ``a``'s upper one. So G·b (BLAS dsymv
    on the lower triangle, diagonal corrected) works in every state, and the factorisation,
    solves and condition estimate (dpotrf/dpotrs/dpocon, in place) never copy G.
    ``anorm`` is ‖G‖₁ (for the condition estimate), ``collinear`` the summary of
    :func:`_collinear` (None when not asked for).
    """

    device = "cpu"

    def __init__(self, a, diag, anorm: float, collinear: dict | None = None) -> None:
        # LAPACK and BLAS work in place on ``a.T`` only when ``a`` is C-ordered float64; on any
        # other array SciPy would silently work on a copy, and a "factor" that never happened
        # would be used as one (a false "not absorbable"). Refuse such an array.
        if a.dtype != "float64" or not a.flags.c_contiguous or a.ndim != 2 \
                or a.shape[0] != a.shape[1]:
            raise ValueError("GramSystem needs a square C-ordered float64 array (in-place "
                             f"LAPACK), got {a.dtype} {a.shape}, "
                             f"C-contiguous={a.flags.c_contiguous}")
        self.a, self.diag, self.anorm, self.collinear = a, diag, anorm, collinear
        self.m = a.shape[0]
        self.state = "full"                     # full / factor / lower (upper part destroyed)

    @classmethod
    def from_full(cls, np, G, collinear: dict | None = None,
                  anorm: float | None = None) -> "GramSystem":
        """From a full n×n float64 array (taken over, not copied, when it is C-ordered; else a
        C-ordered float64 copy), e.g. one formed on a GPU; ``anorm`` = ‖G‖₁ when known."""
        G = np.ascontiguousarray(G, dtype=np.float64)
        if anorm is None:
            anorm = max(float(np.abs(G[:, k:k + STRIP]).sum(axis=0).max())
                        for k in range(0, G.shape[1], STRIP))
        system = cls(G, G.diagonal().copy(), anorm, collinear)
        system.mirror()                         # exactly symmetric, whatever formed it
        return system

    def matvec(self, b):
        """G·b, from the strict lower triangle and ``diag`` (valid in every state)."""
        from scipy.linalg import blas

        y = blas.dsymv(1.0, self.a.T, b, lower=0)     # a.T's upper = a's lower triangle
        y += (self.diag - self.a.diagonal()) * b
        return y

    def mirror(self, tile: int = TILE) -> None:
        """Copy G's strict lower triangle and diagonal into the upper triangle (tile by tile,
        no n×n temporary): G whole again, the factor (if any) overwritten."""
        np = need("numpy", "leanbridge absorb")
        a, m = self.a, self.m
        for i in range(0, m, tile):
            end = min(i + tile, m)
            for j in range(end, m, tile):
                a[i:end, j:j + tile] = a[j:j + tile, i:end].T
            for k in range(i, end - 1):
                a[k, k + 1:end] = a[k + 1:end, k]
        np.fill_diagonal(a, self.diag)
        self.state = "full"

    def factor(self) -> float | None:
        """Cholesky factor in place; its reciprocal condition number (1-norm estimate,
        LAPACK dpocon), or None when G is not numerically positive definite."""
        from scipy.linalg import lapack

        if self.state != "full":
            self.mirror()
        _, info = lapack.dpotrf(self.a.T, lower=1, clean=0, overwrite_a=1)
        self.state = "factor" if info == 0 else "lower"
        if info != 0:
            return None
        rcond, _ = lapack.dpocon(self.a.T, self.anorm, uplo="L")
        return float(rcond)

    def solve(self, v):
        """G⁻¹v by the factor (after a successful :meth:`factor`)."""
        from scipy.linalg import lapack

        assert self.state == "factor"
        x, info = lapack.dpotrs(self.a.T, v, lower=1)
        if info != 0:
            raise ValueError(f"dpotrs failed (info {info})")
        return x

    def lambda_min(self) -> float:
        """Smallest eigenvalue of G (LAPACK dsyevr on the upper triangle, in place: G's strict
        lower triangle and ``diag`` survive, the factor does not)."""
        sl = need("scipy.linalg", "leanbridge absorb")
        self.mirror()
        value = sl.eigh(self.a.T, lower=True, overwrite_a=True, eigvals_only=True,
                        subset_by_index=[0, 0], check_finite=False)[0]
        self.state = "lower"
        return float(value)

    def eigh(self):
        """(eigenvalues, eigenvectors) of G (dsyevd on a copy: the eigenvectors take another
        n×n array; this path — singular or badly conditioned G — is not the common one)."""
        sl = need("scipy.linalg", "leanbridge absorb")
        self.mirror()
        return sl.eigh(self.a, driver="evd", check_finite=False)

    def on_cpu(self) -> "GramSystem":
        return self

    def release(self) -> None:
        self.a = None


def _summarise_cos(np, cos, i0: int, j0: int, diagonal: bool, limit: float, best: list) -> None:
    """Fold one tile of |cos| (rows i0…, columns j0…, the strict upper triangle of the whole
    matrix only) into ``best`` = [max, i, j, count of entries ≥ limit]."""
    if diagonal:                                      # keep the strict upper triangle
        for k in range(cos.shape[0]):
            cos[k, :k + 1] = 0.0
    flat = int(np.argmax(cos))
    i, j = divmod(flat, cos.shape[1])
    value = float(cos[i, j])
    i, j = i + i0, j + j0
    if value > best[0] or (value == best[0] and (i, j) < (best[1], best[2])):
        best[:3] = [value, i, j]
    best[3] += int((cos >= limit).sum())


def form_gram(np, Wd, Wu, Dg, un=None, eps_in: float = _F64,
              tile: int | None = None) -> GramSystem:
    """The Jacobi-scaled Gram matrix of the block (units with Dg_i = ‖w_i‖‖u_i‖), formed into
    one preallocated n×n float64 array, tile×tile blocks of its upper triangle at a time
    (each mirrored below the diagonal): G_IJ = D⁻¹((W_down[:,I]ᵀW_down[:,J]) ∘
    (W_up[I] W_up[J]ᵀ))D⁻¹, from the weights' tiles converted to float64 (exactly; the weights
    themselves stay in their stored dtype). Two passes — W_downᵀW_down's tiles first, then
    each tile of W_up W_upᵀ multiplied in — so that only one matrix's tiles are converted at a
    time. Symmetry halves the flops of two full products, and the row Gram matrix
    W_up W_upᵀ is never held whole: each of its tiles gives the collinearity summary of
    nondegeneracy() (when ``un``, the row norms, is given) and is then multiplied into G's
    tile. ‖G‖₁ is accumulated on the way. ``tile``: default :func:`gram_tile`."""
    m = Wd.shape[1]
    tile = tile or gram_tile(m)
    a = np.empty((m, m))
    colsum = np.zeros(m)
    best = [-1.0, 0, 0, 0]
    limit = 1.0 - max(64 * eps_in, COLLINEAR_TOL)
    starts = range(0, m, tile)
    for i in starts:                                  # pass 1: W_downᵀW_down, upper tiles
        wd_i = _f64(np, Wd[:, i:i + tile])
        for j in starts[i // tile:]:
            wd_j = wd_i if j == i else _f64(np, Wd[:, j:j + tile])
            np.matmul(wd_i.T, wd_j, out=a[i:i + tile, j:j + tile])   # straight into G
            del wd_j
    del wd_i
    for i in starts:                                  # pass 2: ∘ W_up W_upᵀ, scale, mirror
        I = slice(i, min(i + tile, m))
        wu_i = _f64(np, Wu[I])
        for j in starts[i // tile:]:
            J = slice(j, min(j + tile, m))
            block = a[I, J]                           # views: updated in place
            if j == i:
                up = wu_i @ wu_i.T
            else:
                # the tile of W_up W_upᵀ goes where G's mirror image will be written last
                up = a[J, I].T
                wu_j = _f64(np, Wu[J])
                np.matmul(wu_j, wu_i.T, out=a[J, I])
                del wu_j
            block *= up                               # Hadamard product
            block /= Dg[I, None]
            block /= Dg[None, J]
            if un is not None and m > 1:
                up /= un[I, None]
                up /= un[None, J]
                np.abs(up, out=up)
                _summarise_cos(np, up, i, j, j == i, limit, best)
            if j == i:                                # exactly symmetric diagonal tile
                for k in range(block.shape[0] - 1):
                    block[k + 1:, k] = block[k, k + 1:]
            np.abs(block, out=up)
            colsum[J] += up.sum(axis=0)
            if j != i:
                colsum[I] += up.sum(axis=1)
                a[J, I] = block.T
            del up, block
    collinear = None
    if un is not None:
        count = best[3] if best[0] >= limit else 0
        collinear = {"cos": max(best[0], 0.0), "i": best[1], "j": best[2], "count": count}
    return GramSystem(a, a.diagonal().copy(), float(colsum.max()), collinear)


def decide_s(W_down, W_up, T, eps_in: float = _F64, time_limit: float = 30.0,
             gram_fn=None) -> SDecision:
    """Decide whether some S ⊆ {0..n−1} has W_down[:,S] W_up[S,:] = T (see module docstring).

    W_down and W_up may be float32 (as stored): every product is formed from float64 tiles of
    them, so the decision is the same as on float64 copies, without the copies.
    ``gram_fn``: a function (Wd, Wu, Dg, un, eps_in) → a Gram system (:class:`GramSystem`, the
    default :func:`form_gram`, NumPy/LAPACK; ``leanbridge.numeric.gpu`` forms and factors it
    on a GPU). Memory, besides the weights: one n×n float64 array (G and its Cholesky factor
    share it) plus tile-sized temporaries; only the eigen-decomposition fallbacks (singular
    or badly conditioned G, a failed rounding certificate) take a second n×n array.
    """
    np = need("numpy", "leanbridge absorb")
    need("scipy.linalg", "leanbridge absorb")    # the factor and solves of the Gram system
    clock = time.perf_counter
    times: dict[str, float] = {}
    d, n = W_down.shape
    t_norm = float(np.linalg.norm(T))
    wn, un = unit_norms(np, W_down, W_up)
    terms = wn * un
    tiny = np.finfo(float).tiny
    active = np.flatnonzero(terms > tiny)
    zero_units = n - active.size
    tol_max = tolerance(float(terms.sum()), t_norm, eps_in, n)

    def tol_of(S) -> float:
        return tolerance(float(terms[S].sum()), t_norm, eps_in, n)

    gram: dict = {"n": n, "d": d, "zero_units": int(zero_units), "active_units": int(active.size)}
    if t_norm == 0.0:
        return SDecision(True, [], "trivial", "T = 0: the empty set S works (no skip)", 0.0,
                         0.0, 0.0, gram, times)
    if active.size == 0:
        return SDecision(False, [], "trivial", "every unit is zero, and T ≠ 0", None, tol_max,
                         t_norm, gram, times)

    start = clock()
    if active.size == n:                     # the usual case: no copies of the weights
        Wd, Wu = W_down, W_up
    else:
        Wd, Wu = W_down[:, active], W_up[active]
    Dg = terms[active]
    # The collinearity check of nondegeneracy() needs |cos| of the rows of W_up: summarised
    # tile by tile while G is formed (all units active only, as nondegeneracy() expects).
    system = (gram_fn or form_gram)(np, Wd, Wu, Dg, un if active.size == n else None, eps_in)
    r = _projections(np, T, Wd, Wu) / Dg            # r_i = w_iᵀ T u_i / ‖R_i‖
    m = active.size
    times["gram"] = clock() - start
    gram["device"] = system.device

    def residual_of(a_active) -> float:
        return _residual(np, Wd, Wu, a_active, T)

    decision = _decide_system(np, system, r, Dg, Wd, Wu, T, active, t_norm,
                              tol_max, tol_of, residual_of, d, m, time_limit, gram, times)
    decision.collinear = system.collinear
    return decision


def _decide_system(np, system, r, Dg, Wd, Wu, T, active, t_norm, tol_max, tol_of,
                   residual_of, d, m, time_limit, gram, times) -> SDecision:
    """Steps 1–4 of the module docstring on a Gram system; the decision's ``system`` is the
    one left at the end (a GPU system hands over to the CPU for the eigen-decompositions)."""
    holder = [system]
    decision = _decide_with(np, holder, r, Dg, Wd, Wu, T, active, t_norm, tol_max,
                            tol_of, residual_of, d, m, time_limit, gram, times)
    decision.system = (holder[0], r, Dg, active)
    return decision


def _decide_with(np, holder, r, Dg, Wd, Wu, T, active, t_norm, tol_max, tol_of,
                 residual_of, d, m, time_limit, gram, times) -> SDecision:
    clock = time.perf_counter
    system = holder[0]

    def to_S(mask) -> list[int]:
        return [int(i) for i in active[np.flatnonzero(mask)]]

    def on_cpu():
        holder[0] = holder[0].on_cpu()
        if holder[0].device != gram["device"]:
            gram["device"] += f", then {holder[0].device} (eigen-decomposition)"
        return holder[0]

    singular_reason = None
    factored = False
    rcond = None
    if m > d * d:
        singular_reason = f"n = {m} > d² = {d * d}: the {m} rank-one terms R_i live in a " \
                          f"{d * d}-dimensional space, so G is singular"
    else:
        start = clock()
        rcond = system.factor()                 # in place: G stays in the other triangle
        if rcond is None:
            singular_reason = "Cholesky failed: G is singular (degenerate weights)"
        elif not rcond > RCOND_MIN:
            singular_reason = (f"G is numerically singular (reciprocal condition number "
                               f"≈ {rcond:.1e} < {RCOND_MIN:g})")
        else:
            factored = True
        times["cholesky"] = clock() - start
    gram.update(singular=singular_reason is not None, rcond=rcond, reason=singular_reason)

    if factored:
        start = clock()
        b = system.solve(r)
        b += system.solve(r - system.matvec(b))                    # one refinement step
        g = system.matvec(b) - r
        excess2 = max(float(g @ system.solve(g)), 0.0)
        a = b / Dg
        # The residual² at a in Gram form, ‖T‖² − 2rᵀb + bᵀGb = ‖T‖² − rᵀb + bᵀg, with a bound
        # on its rounding error (see relaxed_distance): when even its lower end leaves the
        # least-squares minimum above the tolerance (generic weights: by a wide margin), the
        # direct residual (2d²n flops, a tenth of the Gram matrix's cost) is not needed.
        square = t_norm * t_norm - float(r @ b) + float(b @ g)
        error = 4 * (d + m) * _F64 * (float(np.abs(b).sum()) + t_norm) ** 2
        lower = math.sqrt(max(square - error - excess2, 0.0))
        if not lower > tol_max:
            res_ls = residual_of(a)
            lower = math.sqrt(max(res_ls * res_ls - excess2, 0.0))
        times["solve"] = clock() - start
        if lower > tol_max:
            return SDecision(False, [], "least-squares",
                             f"no real a solves the S-condition: the least-squares residual "
                             f"{lower:.3e} exceeds the tolerance {tol_max:.1e}",
                             None, tol_max, lower, gram, times)
        mask = a > 0.5
        S = to_S(mask)
        res_S = residual_of(mask.astype(float))
        if res_S <= tol_of(active[mask]):
            return SDecision(True, S, "rounding",
                             "the unique least-squares solution rounds to S, whose residual is "
                             "within the tolerance", res_S, tol_of(active[mask]), res_ls,
                             gram, times)
        start = clock()
        lam_min = on_cpu().lambda_min()
        times["certificate"] = clock() - start
        gram["lambda_min_scaled"] = lam_min
        if lam_min > 0:
            bound = (tol_max + math.sqrt(max(excess2, 0.0))) / (math.sqrt(lam_min) * Dg.min())
            if bound < 0.5:
                return SDecision(False, [], "rounding-certificate",
                                 f"G is nonsingular, so the real solution is unique; a binary "
                                 f"solution would lie within {bound:.1e} < 1/2 of it in every "
                                 f"coordinate, i.e. be its rounding, whose residual {res_S:.3e} "
                                 f"exceeds the tolerance", res_S, tol_max, res_ls, gram, times)
        gram["reason"] = (f"the rounding certificate does not hold (smallest eigenvalue of "
                          f"the scaled G {lam_min:.1e}); falling back to MILP")
        return _milp(np, holder[0], r, Dg, Wd, Wu, T, active, t_norm, tol_max, tol_of,
                     time_limit, gram, times, res_ls)

    # Singular (or badly conditioned) G: eigen-decomposition, rank-reduced system.
    start = clock()
    lam, U = on_cpu().eigh()
    times["eigh"] = clock() - start
    noise = max(float(lam[-1]), 0.0) * m * _F64 * 100
    keep = lam > noise
    gram["rank"] = int(keep.sum())
    s = (U[:, keep].T @ r) / np.sqrt(lam[keep])
    b = U[:, keep] @ (s / np.sqrt(lam[keep]))                       # minimum-norm solution
    a = b / Dg
    res_mn = residual_of(a)
    # ‖t‖² − ‖s‖² is the squared distance of T to the span of the R_i (cancellation-prone:
    # a margin of 1e-7 ‖T‖ is kept before concluding from it).
    perp = math.sqrt(max(t_norm ** 2 - float(s @ s), 0.0))
    lower = min(res_mn, perp) - 1e-7 * t_norm
    if lower > tol_max:
        return SDecision(False, [], "least-squares",
                         f"no real a solves the S-condition: T is at distance ≥ {lower:.3e} from the span "
                         f"of the rank-one terms (tolerance {tol_max:.1e})",
                         None, tol_max, min(res_mn, perp), gram, times)
    mask = a > 0.5
    res_S = residual_of(mask.astype(float))
    if res_S <= tol_of(active[mask]):
        return SDecision(True, to_S(mask), "rounding",
                         "the minimum-norm least-squares solution rounds to S, whose residual "
                         "is within the tolerance", res_S, tol_of(active[mask]), res_mn,
                         gram, times)
    R = np.sqrt(lam[keep])[:, None] * U[:, keep].T                   # k×m, ‖Rb − s‖ ≤ residual
    del U
    return _milp(np, None, None, Dg, Wd, Wu, T, active, t_norm, tol_max, tol_of,
                 time_limit, gram, times, res_mn, R=R, s=s)


#: How many MILP candidates may fail the direct residual check (each then excluded by a cut)
#: before the solve stops without a decision.
MILP_CANDIDATES = 20


def exclusion_cut(np, mask):
    """The cut that excludes the binary point ``mask`` and no other binary point:
    ``Σ_{i∈mask} a_i − Σ_{i∉mask} a_i ≤ |mask| − 1``, as ``(row, upper)``. A binary ``a`` other
    than ``mask`` either misses a unit of ``mask`` (first sum ≤ |mask| − 1) or has a unit
    outside it (second sum ≥ 1)."""
    return np.where(mask, 1.0, -1.0), float(mask.sum()) - 1.0


def _milp(np, system, r, Dg, Wd, Wu, T, active, t_norm, tol_max, tol_of, time_limit,
          gram, times, ls_residual, R=None, s=None) -> SDecision:
    """Binary feasibility of |R D a − s| ≤ τ (ℓ∞ box ⊇ ℓ2 ball: infeasible ⇒ no S), solved by
    :func:`run_milp`."""
    start = time.perf_counter()
    if R is None:
        lam, U = system.eigh()
        noise = max(float(lam[-1]), 0.0) * system.m * _F64 * 100
        keep = lam > noise
        gram["rank"] = int(keep.sum())
        s = (U[:, keep].T @ r) / np.sqrt(lam[keep])
        R = np.sqrt(lam[keep])[:, None] * U[:, keep].T
        del U
    m = Dg.size
    # In units of ‖T‖_F, so that HiGHS's absolute feasibility tolerance (1e-7) is relative.
    A_rows = R * Dg[None, :] / t_norm
    rhs = s / t_norm
    box = tol_max / t_norm
    cuts: list = []
    tried = 0
    while True:
        remaining = time_limit - (time.perf_counter() - start)
        if remaining <= 0:
            break
        constraints = [(A_rows, rhs - box, rhs + box)]
        for mask in cuts:      # exclude candidates that failed the direct residual check
            row, upper = exclusion_cut(np, mask)
            constraints.append((row[None, :], -np.inf, upper))
        result = run_milp(np.zeros(m), constraints, max(remaining, 0.01))
        tried += 1
        if result.x is not None:
            mask = result.x > 0.5
            res_S = _residual(np, Wd, Wu, mask.astype(float), T)
            if res_S <= tol_of(active[mask]):
                times["milp"] = time.perf_counter() - start
                return SDecision(True, [int(i) for i in active[np.flatnonzero(mask)]], "milp",
                                 "mixed-integer solve (HiGHS) found S; its residual is within "
                                 "the tolerance", res_S, tol_of(active[mask]), ls_residual,
                                 gram, times)
            cuts.append(mask)
            if tried >= MILP_CANDIDATES:
                times["milp"] = time.perf_counter() - start
                return SDecision(None, [], "milp-candidate-limit",
                                 f"not found: the mixed-integer solve stopped after {tried} "
                                 f"candidate(s), none within the tolerance by the direct "
                                 f"residual check, without a verified S and without proving "
                                 f"there is none", None, tol_max, ls_residual, gram, times)
            continue
        if proves_infeasible(result):
            times["milp"] = time.perf_counter() - start
            return SDecision(False, [], "milp",
                             "mixed-integer solve (HiGHS): no binary a satisfies the S-condition within "
                             "the tolerance (infeasible)", None, tol_max, ls_residual, gram,
                             times)
        if result.status == 2:  # HiGHS refused the model: that proves nothing
            times["milp"] = time.perf_counter() - start
            return SDecision(None, [], "milp-model-error",
                             f"not decided: HiGHS refused the mixed-integer model ({result.message}"
                             f"; the largest constraint entry is {float(np.max(np.abs(A_rows))):.3g} "
                             f"in units of ‖T‖), which proves neither an S nor that there is none",
                             None, tol_max, ls_residual, gram, times)
        break
    times["milp"] = time.perf_counter() - start
    return SDecision(None, [], "milp-time-limit",
                     f"not found within the limit: the mixed-integer solve stopped after "
                     f"{time_limit:g} s without a verified S and without proving there is none",
                     None, tol_max, ls_residual, gram, times)


def relaxed_distance(W_down, W_up, T, system: tuple | None = None) -> dict:
    """min over a ∈ [0,1]^n of ‖W_down diag(a) W_up − T‖_F (box-constrained least squares).

    Solved in Gram form, bᵀGb − 2rᵀb + ‖T‖² with b_i = a_i‖w_i‖‖u_i‖ ∈ [0, ‖w_i‖‖u_i‖] (G the
    Jacobi-scaled Gram matrix of :func:`decide_s`, reused through ``system`` = (its
    :class:`GramSystem`, r, the scales, the active units)), by L-BFGS-B
    with the bounds. ``scipy.optimize.lsq_linear`` on the explicit d²×n matrix would need 14 GB
    at GPT-2 size, and on a Cholesky factor of G took 27 s there (lsmr); L-BFGS-B takes
    ~0.1 s. Zero units (R_i = 0) do not change the residual and are left out. The value
    returned is the residual at the minimiser: from the Gram form when a rounding-error bound
    shows it is accurate to 1e-6 relative (‖T‖_F-sized distances, the usual case), otherwise
    recomputed directly (‖W_down diag(a) W_up − T‖_F, 2d²n flops).
    """
    np = need("numpy", "leanbridge absorb")
    opt = need("scipy.optimize", "leanbridge absorb")
    start = time.perf_counter()
    if system is None:
        wn, un = unit_norms(np, W_down, W_up)
        terms = wn * un
        active = np.flatnonzero(terms > np.finfo(float).tiny)
        scale = terms[active]
        Wd, Wu = W_down[:, active], W_up[active]
        G = form_gram(np, Wd, Wu, scale) if scale.size else None
        r = _projections(np, T, Wd, Wu) / scale
    else:
        G, r, scale, active = system
        if active.size == W_down.shape[1]:     # no copies of the weights in the usual case
            Wd, Wu = W_down, W_up
        else:
            Wd, Wu = W_down[:, active], W_up[active]
    t2 = float(np.vdot(T, T))
    if scale.size == 0:
        return {"distance": math.sqrt(t2), "iterations": 0, "converged": True,
                "seconds": time.perf_counter() - start, "a_min": 0.0, "a_max": 0.0,
                "fractional_units": 0}

    def fun(b):
        Gb = G.matvec(b)
        return float(b @ Gb - 2 * r @ b + t2), 2 * (Gb - r)

    b0 = np.zeros_like(scale)
    bounds = list(zip(np.zeros_like(scale), scale))
    result = opt.minimize(fun, b0, jac=True, method="L-BFGS-B", bounds=bounds,
                          options={"maxiter": 5000, "ftol": 1e-15, "gtol": 1e-12})
    a = np.clip(result.x / scale, 0.0, 1.0)
    b = a * scale
    Gb = G.matvec(b)
    square = float(b @ Gb - 2 * r @ b + t2)
    # Rounding: the scaled G_ij come from length-d dot products, |G_ij| ≤ 1, error ≲ 2dε₆₄;
    # |r_i| ≤ ‖T‖ with error ≲ dε₆₄‖T‖; the m-term sums add mε₆₄ times their magnitudes. So
    # |error of square| ≤ 4(d + m)ε₆₄(Σb + ‖T‖_F)² (b ≥ 0).
    m = scale.size
    bound = 4 * (W_down.shape[0] + m) * _F64 * (float(b.sum()) + math.sqrt(t2)) ** 2
    if square > 5e5 * bound:         # then the relative error of √square is below 1e-6
        distance = math.sqrt(square)
    else:
        distance = _residual(np, Wd, Wu, a, T)
    return {"distance": distance, "iterations": int(result.nit),
            "converged": bool(result.success), "seconds": time.perf_counter() - start,
            "a_min": float(a.min()) if a.size else 0.0, "a_max": float(a.max()) if a.size else 0.0,
            "fractional_units": int(np.sum((a > 1e-6) & (a < 1 - 1e-6)))}


# --------------------------------------------------------------------------------------------
# Nondegeneracy, verification, the whole command
# --------------------------------------------------------------------------------------------

def _collinear(np, cos, norms, eps_in: float) -> dict:
    """The most collinear pair of rows of W_up, from ``cos`` = W_up W_upᵀ (overwritten with
    |cos|, zero diagonal) and the row norms (all nonzero): ``{"cos", "i", "j", "count"}``,
    ``count`` the pairs with |cos| ≥ 1 − max(64 ε_in, COLLINEAR_TOL)."""
    cos /= norms[:, None]
    cos /= norms[None, :]
    np.abs(cos, out=cos)
    np.fill_diagonal(cos, 0.0)
    limit = 1.0 - max(64 * eps_in, COLLINEAR_TOL)
    i, j = np.unravel_index(int(np.argmax(cos)), cos.shape)
    value = float(cos[i, j])
    count = int((np.triu(cos, 1) >= limit).sum()) if value >= limit else 0
    return {"cos": value, "i": int(i), "j": int(j), "count": count}


def nondegeneracy(W_down, W_up, eps_in: float, gram_up=None, collinear=None) -> list[str]:
    """Violations of the paper's nondegeneracy (D5): nonzero, pairwise non-collinear rows of
    W_up; nonzero columns of W_down. Empty list: nondegenerate. ``gram_up`` = W_up W_upᵀ when
    already computed (it is overwritten), or ``collinear`` = its summary from
    :func:`decide_s` (``SDecision.collinear``)."""
    np = need("numpy", "leanbridge absorb")
    problems = []
    wn, un = unit_norms(np, W_down, W_up)
    zero_rows = np.flatnonzero(un == 0)
    zero_cols = np.flatnonzero(wn == 0)
    if zero_rows.size:
        problems.append(f"{zero_rows.size} zero rows of W_up (first: {int(zero_rows[0])})")
    if zero_cols.size:
        problems.append(f"{zero_cols.size} zero columns of W_down (first: {int(zero_cols[0])})")
    nz = np.flatnonzero(un > 0)
    if nz.size > 1:
        every_row = nz.size == W_up.shape[0]
        if collinear is None or not every_row:
            if gram_up is not None and every_row:
                cos = gram_up
            else:
                unit = _f64(np, W_up[nz])
                cos = unit @ unit.T
            collinear = _collinear(np, cos, un[nz], eps_in)
        if collinear["count"]:
            i, j = nz[collinear["i"]], nz[collinear["j"]]
            problems.append(f"{collinear['count']} pair(s) of collinear rows of W_up (e.g. "
                            f"{int(i)} and {int(j)}, |cos| = {collinear['cos']:.15f})")
    return problems


def verify(family: Family, W_down, W_up, A, V_down, V_up, c: float = 1.0,
           residual: float = 0.0, seed: int = 0, points: int = 64, *, b_up=None, b_down=None,
           v_b_up=None, v_b_down=None, skip_scale: float = 1.0) -> dict:
    """Check the absorbing block g(x) = V_down σ(V_up x + v_b_up) + v_b_down against
    f(x) = A x + W_down σ(W_up x + b_up) + b_down (biases None: absent) on random x with norms
    from 1e-3 to 1e3 times 1/median‖u_i‖.

    Reports the max relative error ‖f(x) − g(x)‖/‖f(x)‖. Passes when, at every point,
    ‖f(x) − g(x)‖ ≤ 2·(|c|·residual·‖x‖ + VERIFY_FLOAT·ε₆₄·scale(x)): exactly,
    g(x) − f(x) = c·(−A/c − W_down[:,S] W_up[S,:]) x (the bias terms cancel exactly), whose
    norm is at most |c|·residual·‖x‖; scale(x) = ‖A x‖ + Σ_i ‖w_i‖(|σ(h_i)| + |σ(−h_i)|)
    (h = W_up x + b_up) + ‖b_down‖ + ‖v_b_down‖ + |c|·Σ_i |b_i|‖w_i‖ bounds the float64
    evaluation error. A wrong construction gives errors of the size of f itself and fails.
    ``skip_scale``: the identity skip times this factor (A = None; a rescaled block)."""
    np = need("numpy", "leanbridge absorb")
    sigma = numeric_activation(family).value
    rng = np.random.default_rng(seed)
    d = W_down.shape[0]
    X = rng.standard_normal((points, d))
    X /= np.linalg.norm(X, axis=1, keepdims=True)
    wn, un = unit_norms(np, W_down, W_up)       # in float64 (the weights may be float32)
    u_scale = float(np.median(un)) or 1.0
    X *= (np.logspace(-3, 3, points) / u_scale)[:, None]
    skip = X * skip_scale if A is None else X @ A.T
    H = X @ W_up.T
    H_v = X @ V_up.T
    if b_up is not None:
        H += b_up
    if v_b_up is not None:
        H_v += v_b_up
    f = skip + sigma(H) @ W_down.T
    g = sigma(H_v) @ V_down.T
    constant = 0.0
    for bias, into in ((b_down, f), (v_b_down, g)):
        if bias is not None:
            into += bias
            constant += float(np.linalg.norm(bias))
    if b_up is not None:
        constant += abs(c) * float(np.abs(b_up) @ wn)
    gap = np.linalg.norm(f - g, axis=1)
    errors = gap / np.maximum(np.linalg.norm(f, axis=1), 1e-300)
    scale = np.linalg.norm(skip, axis=1) + (np.abs(sigma(H)) + np.abs(sigma(-H))) @ wn \
        + constant
    bound = abs(c) * residual * np.linalg.norm(X, axis=1) + VERIFY_FLOAT * _F64 * scale
    return {"points": points, "max_relative_error": float(errors.max()),
            "median_relative_error": float(np.median(errors)), "seed": seed,
            "max_error_over_bound": float(np.max(gap / np.maximum(bound, 1e-300))),
            "max_error_over_terms": float(np.max(gap / np.maximum(scale, 1e-300))),
            "passed": bool(np.all(gap <= 2 * bound))}


#: What every report with biases says (``leanbridge scan --help``, its reports, the README).
BIAS_CAVEAT = biased_mod.BIAS_CAVEAT
#: The verdict text of a block whose "not absorbable" no biased theorem covers.
NO_DECISION_BIASES = biased_mod.NO_DECISION_BIASES


def _nonzero(np, bias) -> bool:
    return bias is not None and bool(np.any(bias))


@dataclass
class AbsorbResult:
    """What ``leanbridge absorb`` reports."""

    family: Family
    analysis: Analysis
    verdict: str                      # absorbable / not_absorbable / no_decision
    summary: str
    reasons: list[str]
    numerics: bool
    decision: SDecision | None = None
    S: list[int] | None = None
    V_up: object = None
    V_down: object = None
    verification: dict | None = None
    distance: dict | None = None
    skip: dict | None = None
    shapes: dict | None = None
    nondegeneracy: list[str] | None = None
    #: Lean-backed checks added by :func:`leanbridge.numeric.theory_checks.annotate`: keys
    #: card_check, nondegenerate, minimal_width, lean (merged into :meth:`to_dict`).
    theory: dict | None = None
    notes: list[str] = field(default_factory=list)
    timings: dict = field(default_factory=dict)
    #: Why a "no decision" is not "not absorbable": "biases", "necessity", "singular_skip",
    #: "d<2", "degenerate", "time_limit", "milp_candidates", "milp_model_error", "undetermined",
    #: "verification"
    #: (empty otherwise).
    blockers: list[str] = field(default_factory=list)
    biases: bool = False              # the block has nonzero biases (see BIAS_CAVEAT)
    V_b_up: object = None             # absorbing block's biases (when the block has biases)
    V_b_down: object = None
    #: The exact power-of-two rescaling the block was decided on (weights near 1e±300; see
    #: :func:`block_scaling`), or None.
    scaling: dict | None = None

    def to_dict(self) -> dict:
        dec = self.decision
        data = {
            "activation": self.family.name,
            "analysis_verdict": self.analysis.verdict,
            "verdict": self.verdict,
            "summary": self.summary,
            "reasons": self.reasons,
            "numerics": self.numerics,
            "shapes": self.shapes,
            "skip": self.skip,
            "notes": self.notes,
        }
        if dec is not None:
            data["decision"] = {
                "S_exists": dec.found, "method": dec.method, "detail": dec.detail,
                "residual": dec.residual, "tolerance": dec.tolerance,
                "least_squares_residual": dec.ls_residual, "gram": dec.gram,
            }
            data["nondegeneracy_violations"] = self.nondegeneracy
        if self.S is not None:
            data["S"] = self.S
            data["S_size"] = len(self.S)
        if self.theory is not None:
            data.update(self.theory)
        data["verification"] = self.verification
        data["distance"] = self.distance
        data["biases"] = self.biases
        data["scaling"] = self.scaling
        data["blockers"] = self.blockers
        data["timings_seconds"] = self.timings
        return data


def _analysis_reasons(analysis: Analysis) -> list[str]:
    return [r for r in analysis.reasons if not r.startswith("not used:")]


def absorb_without_numerics(family: Family, skip_is_zero: bool | None = None,
                            biases: bool = False) -> AbsorbResult:
    """`never` and `undetermined` families: the answer does not depend on the weights.

    ``biases``: the block has nonzero biases; a `never` family is then "no decision" (the
    theorems are for bias-free blocks, see :data:`BIAS_CAVEAT`)."""
    analysis = analyse(family)
    reasons = _analysis_reasons(analysis)
    if skip_is_zero:
        return AbsorbResult(family, analysis, ABSORBABLE,
                            "absorbable trivially: the skip matrix is 0, so the block is "
                            "already residual-free", reasons, False, biases=biases)
    if analysis.verdict == NEVER and biases:
        decided, summary = biased_mod.never_with_biases(family, analysis)
        return AbsorbResult(family, analysis, NOT_ABSORBABLE if decided else NO_DECISION,
                            summary, reasons, False, blockers=[] if decided else ["biases"],
                            biases=True)
    if analysis.verdict == NEVER:
        return AbsorbResult(family, analysis, NOT_ABSORBABLE,
                            f"not absorbable for any weights: {family.display} is a 'never' "
                            f"family ({', '.join(analysis.argument_names)}); no numerics needed",
                            reasons, False)
    if analysis.verdict == CONDITIONAL:  # only reached for gated conditional families (none)
        return AbsorbResult(family, analysis, NO_DECISION,
                            "no decision: the S-condition is implemented for ungated blocks "
                            "only", reasons, False, blockers=["undetermined"], biases=biases)
    return AbsorbResult(family, analysis, NO_DECISION,
                        f"no decision possible: none of the paper's arguments applies to "
                        f"{family.display} (analysis verdict 'undetermined'), so neither "
                        "absorbability nor its impossibility can be concluded", reasons, False,
                        blockers=["undetermined"], biases=biases)


def _exponent(np, array) -> int | None:
    """The binary exponent e of the largest |entry| (2^(e−1) ≤ max < 2^e); None for all zeros."""
    top = float(np.max(np.abs(array))) if array.size else 0.0
    return math.frexp(top)[1] if top > 0 else None


def block_scaling(np, W_down, W_up, T) -> tuple[int, int, bool]:
    """(a, b, negligible): decide the block on W_down·2^−a, W_up·2^−b and T·2^−(a+b) — exact powers of
    two, so the S-condition is unchanged: W_down[:,S] W_up[S,:] = T iff the same holds for
    the scaled matrices. (0, 0) when every largest entry (and the product's) lies within
    2^±SAFE_EXPONENT (then nothing is copied). Otherwise the product's scale is brought to
    within 2^±250 of 1 — to 1 itself when the skip then stays within 2^±250 too — and split
    evenly between the two matrices, so that norms, Gram entries and ‖T‖² neither overflow
    nor underflow: weights near 1e±300 (W_down·s, W_up/s) decide as weights near 1.
    ``negligible``: the products are more than 2^500 below the skip (then each matrix is
    scaled to largest entries near 1 and no S can exist: ‖Σ_{i∈S} R_i‖ ≤ n·d·2^(e_d+e_u) is
    far below ‖T‖ − τ). The block x ↦ A x + W_down σ(W_up x) itself is equivalent, for every
    σ, to
    ξ ↦ 2^−(a+b) A ξ + W_down' σ(W_up' ξ) (x = 2^−b ξ, outputs times 2^a), which is what is
    verified."""
    ed, eu, et = (_exponent(np, M) for M in (W_down, W_up, T))
    if ed is None or eu is None or et is None:
        return 0, 0, False
    if max(abs(ed), abs(eu), abs(et), abs(ed + eu - et)) <= SAFE_EXPONENT:
        return 0, 0, False
    product = ed + eu
    if product < et - 500:
        return ed, eu, True
    z = min(max(product, et - 250), et + 250)
    z = min(max(z, product - 250), product + 250)
    rest = product - z                  # the scaled product's exponent, split between the two
    return ed - rest // 2, eu - (rest - rest // 2), False


def rebalanced(np, W_down, W_up):
    """(W_down·2^−k, W_up·2^k) with k splitting their largest entries' exponents evenly (the
    matrices themselves when within 2^±SAFE_EXPONENT): every product W_down[:,S] W_up[S,:]
    is unchanged, exactly, so checks stated through them (the S-condition, nondegeneracy,
    |S| ≥ d, the minimal width) can run on it without overflow."""
    ed, eu = _exponent(np, W_down), _exponent(np, W_up)
    if ed is None or eu is None or max(abs(ed), abs(eu)) <= SAFE_EXPONENT:
        return W_down, W_up
    k = (ed - eu) // 2
    return _ldexp(np, W_down, -k), _ldexp(np, W_up, k)


def _ldexp(np, array, k: int):
    """array·2^k in float64 (a copy; exact unless entries leave float64's exponent range)."""
    return np.ldexp(np.asarray(array, dtype=np.float64), k) if k else array


def absorb(family: Family, W_down, W_up, A=None, eps_in: float = _F64,
           time_limit: float = 30.0, seed: int = 0, notes: list[str] | None = None,
           b_up=None, b_down=None, gram_fn=None) -> AbsorbResult:
    """Decide absorbability of x ↦ A x + W_down σ(W_up x + b_up) + b_down for a family
    (numerics when the analysis verdict is `conditional`).

    Biases (``b_up`` of length n, ``b_down`` of length d; None or all zero: bias-free): the
    S-condition and the construction are the same, the absorbing block gets the biases
    V_b_up = b_up with the entries in S negated and V_b_down = b_down + c·W_down[:,S] b_up[S];
    a failed S-condition (or a `never` family) is "no decision" (see :data:`BIAS_CAVEAT`).
    ``gram_fn``: passed to :func:`decide_s`."""
    np = need("numpy", "leanbridge absorb")
    analysis = analyse(family)
    notes = list(notes or [])
    d, n = W_down.shape
    shapes = {"d": d, "n": n}
    for bias, size, name in ((b_up, n, "b_up"), (b_down, d, "b_down")):
        if bias is not None and tuple(bias.shape) != (size,):
            raise ValueError(f"{name} has shape {tuple(bias.shape)}; expected ({size},)")
    biases = _nonzero(np, b_up) or _nonzero(np, b_down)
    skip_zero = A is not None and not np.any(A)
    if family.gated or analysis.verdict != CONDITIONAL:
        result = absorb_without_numerics(family, skip_zero, biases)
        result.shapes, result.notes = shapes, notes
        return result

    timings: dict[str, float] = {}
    clock = time.perf_counter
    c = analysis.facts.odd_coefficient
    c_float = float(c)
    reasons = _analysis_reasons(analysis)
    skip: dict = {"kind": "identity" if A is None else "matrix"}
    invertible = True
    if A is None:
        T = -np.eye(d) / c_float
    else:
        start = clock()
        sv = np.linalg.svd(A, compute_uv=False)
        rank = int(np.sum(sv > sv[0] * d * _F64)) if sv[0] > 0 else 0
        invertible = rank == d
        skip.update(rank=rank, invertible=invertible,
                    condition_number=float(sv[0] / sv[-1]) if sv[-1] > 0 else math.inf)
        timings["skip_svd"] = clock() - start
        T = -A / c_float
        if invertible:
            skip["lemma4"] = ("A is invertible: by Lemma 4 the block is absorbable iff "
                              "x + A⁻¹W_down σ(W_up x) is, i.e. iff some S has "
                              "A⁻¹W_down[:,S] W_up[S,:] = −I/c, equivalently "
                              "W_down[:,S] W_up[S,:] = −A/c")
        else:
            skip["lemma4"] = (f"A is singular (rank {rank} < d = {d}): the reduction of Lemma 4 "
                              "to the identity skip does not apply; the S-condition "
                              "W_down[:,S] W_up[S,:] = −A/c is still sufficient, but its failure "
                              "proves nothing")

    # Weights near 1e±300: decided on exactly rescaled copies (block_scaling); Wd, Wu, T_s are
    # the block as decided and verified (the weights themselves when no rescaling is needed).
    exp_down, exp_up, negligible = block_scaling(np, W_down, W_up, T)
    z = exp_down + exp_up
    Wd, Wu = _ldexp(np, W_down, -exp_down), _ldexp(np, W_up, -exp_up)
    T_s = None if negligible else _ldexp(np, T, -z)
    if z and not negligible and (not np.array_equal(np.ldexp(T_s, z), T)
                                 or _exponent(np, T_s) < -510):
        # The skip is more than 2^500 below the weights' products: float64 cannot hold both
        # (T_s not exact, or its largest entry below 2^−511, whose square is no longer a
        # normal float64: ‖T_s‖ loses precision and from 2^−538 on passes for T = 0).
        return AbsorbResult(family, analysis, NO_DECISION,
                            "no decision: the skip term is below float64's resolution of "
                            "these weights (their products exceed it by more than 2^500)",
                            reasons, True, shapes=shapes, skip=skip, notes=notes,
                            timings=timings, blockers=["undetermined"], biases=biases)
    scaling = None
    if exp_down or exp_up:
        exact = (np.array_equal(np.ldexp(Wd, exp_down), W_down)
                 and np.array_equal(np.ldexp(Wu, exp_up), W_up))
        scaling = {"down_exponent": -exp_down, "up_exponent": -exp_up, "exact": bool(exact)}
        notes.append(f"decided on W_down·2^{-exp_down} and W_up·2^{-exp_up} (the skip term "
                     f"times 2^{-z}): an exact rescaling that leaves the S-condition unchanged"
                     + ("" if exact else "; NOT exact for some entries (they leave float64's "
                        "exponent range when rescaled)")
                     + "; residuals and distances are reported in the original units")

    def original_units(value):
        if value is None or not z:
            return value
        with np.errstate(over="ignore"):
            return float(np.ldexp(value, z))

    start = clock()
    t_norm = None                        # ‖T‖_F, computed at T's own scale (no under/overflow)
    if negligible:
        e_t = _exponent(np, T)
        with np.errstate(over="ignore"):
            t_norm = float(np.ldexp(np.linalg.norm(np.ldexp(T, -e_t)), e_t))
        decision = SDecision(False, [], "magnitude",
                             f"the weights' products (entries below 2^{z + 2} times n·d) are "
                             f"more than 2^500 smaller than the skip, so no sum of them "
                             f"comes within the tolerance of it", None, REL_TOL * t_norm,
                             None, {"n": n, "d": d})
    else:
        decision = decide_s(Wd, Wu, T_s, eps_in, time_limit, gram_fn=gram_fn)
    timings["decide"] = clock() - start
    scaled_residual = decision.residual or 0.0
    if z and not negligible:
        decision.residual = original_units(decision.residual)
        decision.tolerance = original_units(decision.tolerance)
        decision.ls_residual = original_units(decision.ls_residual)
    cond_text = "W_down[:,S] W_up[S,:] = " + ("−I/c" if A is None else "−A/c") + \
        f" (c = {c})"
    result = AbsorbResult(family, analysis, NO_DECISION, "", reasons, True, decision,
                          shapes=shapes, skip=skip, notes=notes, timings=timings,
                          biases=biases, scaling=scaling)

    if decision.found:
        decision.system = None               # the n×n Gram array is not needed any more
        S = decision.S
        mask = np.zeros(n, dtype=bool)
        mask[S] = True
        V_up = W_up.copy()
        V_up[mask] *= -1.0
        V_down = W_down.copy()
        v_b_up = v_b_down = None
        if biases:
            # σ(−(u_i·x + b_i)) = σ(u_i·x + b_i) − c·(u_i·x + b_i): negate b_i with u_i; the
            # constants −c·b_i·w_i that appear are cancelled in the output bias.
            b_up_ = np.zeros(n) if b_up is None else b_up
            v_b_up = b_up_.copy()
            v_b_up[mask] *= -1.0
            v_b_down = (np.zeros(d) if b_down is None else b_down.astype(float)) \
                + c_float * (W_down[:, mask] @ b_up_[mask])
        start = clock()
        # Verified on the block as decided (rescaled copies when block_scaling rescaled: the
        # same function up to x = 2^−b ξ and outputs times 2^a; the output bias scales too).
        V_up_s = V_up if Wu is W_up else Wu * np.where(mask, -1.0, 1.0)[:, None]
        check = verify(family, Wd, Wu, None if A is None else _ldexp(np, A, -z), Wd, V_up_s,
                       c_float, scaled_residual,
                       seed=seed, b_up=b_up if biases else None,
                       b_down=_ldexp(np, b_down, -exp_down) if biases and b_down is not None
                       else None, v_b_up=v_b_up,
                       v_b_down=None if v_b_down is None else _ldexp(np, v_b_down, -exp_down),
                       skip_scale=math.ldexp(1.0, -z) if A is None else 1.0)
        timings["verify"] = clock() - start
        result.S, result.V_up, result.V_down, result.verification = S, V_up, V_down, check
        result.V_b_up, result.V_b_down = v_b_up, v_b_down
        with_biases = (" and the up-bias entries in S negated, c·Σ_{i∈S} b_i w_i added to the "
                       "output bias,") if biases else ""
        veto = max(VERIFY_MAX_RELATIVE, 1000.0 * eps_in)
        if check["passed"] and check["max_error_over_terms"] <= veto:
            result.verdict = ABSORBABLE
            result.summary = (f"absorbable: S with |S| = {len(S)} satisfies {cond_text}; the "
                              f"block with the rows of W_up in S negated{with_biases} and W_down "
                              f"unchanged equals the skip block (max relative error "
                              f"{check['max_relative_error']:.1e} on {check['points']} random "
                              "inputs)")
        else:
            result.blockers = ["verification"]
            why = ("more than the residual and float64 rounding explain" if not check["passed"]
                   else f"above the {veto:g} a correct absorbing block verifies to")
            result.summary = (f"no decision: S satisfies {cond_text} within the tolerance, but "
                              f"the constructed block differs from the skip block by a relative "
                              f"{check['max_relative_error']:.1e} on random inputs "
                              f"({check['max_error_over_terms']:.1e} of the terms' size), "
                              f"{why}; the verification vetoes 'absorbable'")
        return result

    start = clock()
    if negligible:                       # the products do not move T at float64 precision
        result.distance = {"distance": t_norm, "relative": 1.0,
                           "iterations": 0, "converged": True, "seconds": 0.0}
    else:
        result.distance = relaxed_distance(Wd, Wu, T_s, decision.system)
        result.distance["relative"] = (result.distance["distance"]
                                       / float(np.linalg.norm(T_s)))
        result.distance["distance"] = original_units(result.distance["distance"])
    timings["distance"] = clock() - start
    start = clock()
    result.nondegeneracy = nondegeneracy(Wd, Wu, eps_in, collinear=decision.collinear)
    timings["nondegeneracy"] = clock() - start
    dist = (f"distance to the nearest absorbable configuration (relaxed, a ∈ [0,1]^n) "
            f"{result.distance['distance']:.4g} (relative {result.distance['relative']:.3g})")
    if decision.found is None:
        result.blockers = [{"milp-candidate-limit": "milp_candidates",
                            "milp-model-error": "milp_model_error"}.get(decision.method,
                                                                        "time_limit")]
        result.summary = f"no decision: {decision.detail}; {dist}"
        return result
    blockers = []
    bias_blocker = biased_mod.bias_blocker(family, analysis, A is not None) if biases else None
    if bias_blocker:
        blockers.append(("biases", bias_blocker))
    if not analysis.necessity_proven:
        blockers.append(("necessity", (f"the S-condition is not known to be necessary for "
                                       f"{family.display} (it is for ReLU, every σ with "
                                       "σ(t·z)/t → relu(z), and every σ = a·z + b·|z| with "
                                       "a, b ≠ 0)")))
    if not invertible:
        blockers.append(("singular_skip", ("the skip is singular, so Lemma 4 does not reduce "
                                           "it to the identity")))
    if d < 2:
        blockers.append(("d<2", "d = 1 (the paper states its theorems for d ≥ 2; the Lean "
                                "statement has no hypothesis on d but is not compiled here)"
                         if biased_mod.characterisation(family, analysis, A is not None)
                         else "d = 1 (the theorems need d ≥ 2)"))
    if result.nondegeneracy:
        blockers.append(("degenerate", "the weights are degenerate: "
                         + "; ".join(result.nondegeneracy)))
    if blockers:
        result.blockers = [code for code, _ in blockers]
        head = NO_DECISION_BIASES if bias_blocker else "no decision"
        result.summary = (f"{head}: no S satisfies {cond_text} ({decision.method}), so the "
                          f"sign-flip construction does not apply, but "
                          + "; ".join(text for _, text in blockers) +
                          f"; other absorbing blocks are not excluded; {dist}")
        return result
    result.verdict = NOT_ABSORBABLE
    citation = biased_mod.necessity_citation(family, analysis, biases, A is not None)
    result.summary = (f"not absorbable: no S satisfies {cond_text} ({decision.method}); "
                      f"{citation}; {dist}")
    return result

