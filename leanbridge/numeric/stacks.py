"""Bias-free ReLU stacks as flat parameter vectors: values, loss gradients and Jacobians.

A *residual* stack of L blocks of width n maps x ∈ ℝ^d through

    R_l(z) = z + B_l relu(A_l z)          (A_l n×d = W_up, B_l d×n = W_down),

a *plain* (residual-free) stack of L' blocks of widths n'_l through P_l(z) = V_l relu(U_l z).
:class:`StackModel` holds either kind as one flat vector θ = (U_1, V_1, U_2, V_2, …) (row-major,
for a residual stack U_l = A_l, V_l = B_l) and gives, for a batch of inputs X (N×d),

* the outputs (N×d);
* the gradient of ‖F_θ(X) − Y‖²/c (L-BFGS), written out by hand;
* the Jacobian ∂ vec F_θ(X)/∂θ (N·d × P) (Levenberg–Marquardt, the tangent rank test), one
  backward pass per output coordinate.

relu'(0) is taken as 0 (the derivative is used only off the kinks, a null set of inputs).

The constructions used as controls and starts are here too (paper Thm 8 and the note
``deep-stacks.md`` §2): the sign-flip block of a planted layer (:func:`flip_block`), the
layerwise width-(n + d) block (:func:`width_block`) and the identity as a plain block of width
2d (:func:`identity_block`).
"""

from __future__ import annotations

import itertools
import math
from dataclasses import dataclass

from leanbridge.numeric.errors import need


def _np():
    return need("numpy", "leanbridge probe")


@dataclass(frozen=True)
class StackModel:
    """A stack of ``len(widths)`` blocks ℝ^d → ℝ^d; ``residual`` adds the skip z ↦ z."""

    d: int
    widths: tuple[int, ...]
    residual: bool = False

    @property
    def size(self) -> int:
        """Number of parameters P = Σ_l 2·d·n_l."""
        return sum(2 * self.d * w for w in self.widths)

    # -- packing --------------------------------------------------------------------------
    def unpack(self, theta) -> list[tuple]:
        """θ → [(U_1, V_1), …] (views into θ)."""
        layers, at = [], 0
        for w in self.widths:
            U = theta[at:at + w * self.d].reshape(w, self.d)
            at += w * self.d
            V = theta[at:at + w * self.d].reshape(self.d, w)
            at += w * self.d
            layers.append((U, V))
        return layers

    def pack(self, layers) -> object:
        """[(U_1, V_1), …] → θ (a new array)."""
        np = _np()
        if len(layers) != len(self.widths):
            raise ValueError(f"{len(layers)} layers given, the model has {len(self.widths)}")
        parts = []
        for (U, V), w in zip(layers, self.widths):
            if U.shape != (w, self.d) or V.shape != (self.d, w):
                raise ValueError(f"layer shapes {U.shape}, {V.shape}; expected "
                                 f"({w}, {self.d}), ({self.d}, {w})")
            parts += [np.asarray(U, float).ravel(), np.asarray(V, float).ravel()]
        return np.concatenate(parts)

    # -- forward / backward ---------------------------------------------------------------
    def forward(self, theta, X, keep: bool = False):
        """Outputs (N×d); with ``keep`` also the cache [(z_in, pre-activation)] per layer."""
        np = _np()
        Z = np.asarray(X, float)
        cache = []
        for U, V in self.unpack(theta):
            H = Z @ U.T
            out = np.maximum(H, 0.0) @ V.T
            if keep:
                cache.append((Z, H))
            Z = Z + out if self.residual else out
        return (Z, cache) if keep else Z

    def loss_and_grad(self, theta, X, Y, scale: float):
        """L = ‖F_θ(X) − Y‖²/scale and dL/dθ."""
        np = _np()
        out, cache = self.forward(theta, X, keep=True)
        E = out - Y
        loss = float(np.sum(E * E) / scale)
        delta = (2.0 / scale) * E
        grads = []
        for (U, V), (Z, H) in zip(reversed(self.unpack(theta)), reversed(cache)):
            act = np.maximum(H, 0.0)
            gV = delta.T @ act                       # d×w
            dH = (delta @ V) * (H > 0)               # N×w
            gU = dH.T @ Z                            # w×d
            grads.append((gU, gV))
            back = dH @ U
            delta = delta + back if self.residual else back
        grads.reverse()
        return loss, np.concatenate([np.concatenate([gU.ravel(), gV.ravel()])
                                     for gU, gV in grads])

    def jacobian(self, theta, X):
        """∂ vec F_θ(X)/∂θ as an (N·d)×P matrix, rows ordered (sample, coordinate)."""
        np = _np()
        _, cache = self.forward(theta, X, keep=True)
        layers = self.unpack(theta)
        N, d = X.shape[0], self.d
        J = np.empty((N, d, self.size))
        offsets = list(itertools.accumulate([0] + [2 * d * w for w in self.widths]))
        for k in range(d):
            delta = np.zeros((N, d))
            delta[:, k] = 1.0
            for l in range(len(layers) - 1, -1, -1):
                (U, V), (Z, H) = layers[l], cache[l]
                w = self.widths[l]
                mask = H > 0
                act = np.where(mask, H, 0.0)
                at = offsets[l]
                dH = (delta @ V) * mask                                    # N×w
                J[:, k, at:at + w * d] = (dH[:, :, None] * Z[:, None, :]).reshape(N, -1)
                J[:, k, at + w * d:at + 2 * w * d] = \
                    (delta[:, :, None] * act[:, None, :]).reshape(N, -1)
                back = dH @ U
                delta = delta + back if self.residual else back
        return J.reshape(N * d, self.size)


# --------------------------------------------------------------------------------------------
# Points, random stacks and the constructions
# --------------------------------------------------------------------------------------------

def sphere(rng, count: int, d: int):
    """``count`` points uniform on the unit sphere of ℝ^d."""
    np = _np()
    X = rng.standard_normal((count, d))
    X /= np.linalg.norm(X, axis=1, keepdims=True)
    return X


def random_residual(rng, d: int, n: int, L: int, scale: float = 1.0) -> list[tuple]:
    """L residual layers (A_l, B_l) with A ~ N(0, s²/d), B ~ N(0, s²/n) entries."""
    np = _np()
    return [(rng.standard_normal((n, d)) * scale / math.sqrt(d),
             rng.standard_normal((d, n)) * scale / math.sqrt(n)) for _ in range(L)]


#: Subsets S of size d are enumerated up to this many; beyond, a pivoted QR picks one.
MAX_SUBSETS = 5000


def _subsets(n: int, d: int):
    return itertools.combinations(range(n), d)


def plant(A, B, S=None):
    """The layer with W_down minimally modified so that B_S A_S = −I (|S| = d): B[:,S] is
    replaced by −A_S⁻¹ (forced when |S| = d). Without ``S``, the d-subset that changes B least
    in Frobenius norm (enumerated when C(n, d) ≤ :data:`MAX_SUBSETS`, otherwise the rows a
    pivoted QR of Aᵀ picks). Returns (B', S)."""
    np = _np()
    n, d = A.shape
    if S is None:
        if math.comb(n, d) <= MAX_SUBSETS:
            best, S = math.inf, None
            for cand in _subsets(n, d):
                AS = A[list(cand)]
                if np.linalg.cond(AS) > 1e12:
                    continue
                change = float(np.linalg.norm(B[:, list(cand)] + np.linalg.inv(AS)))
                if change < best:
                    best, S = change, list(cand)
        if S is None:
            S = independent_rows(A)
    S = sorted(int(i) for i in S)
    B2 = B.copy()
    B2[:, S] = -np.linalg.inv(A[S])
    return B2, S


def independent_rows(A) -> list[int]:
    """d rows of A (n×d, rank d) that a QR with column pivoting of Aᵀ picks (sorted)."""
    sl = need("scipy.linalg", "leanbridge probe")
    d = A.shape[1]
    _, _, piv = sl.qr(A.T, mode="economic", pivoting=True)
    return sorted(int(i) for i in piv[:d])


def flip_block(A, B, S):
    """The plain block of the sign-flip construction: U = A with the rows in S negated, V = B.
    Exact for x + B relu(Ax) iff B_S A_S = −I (paper Thm 8, "if")."""
    U = A.copy()
    U[list(S)] *= -1.0
    return U, B.copy()


def width_block(A, B, S):
    """The plain block of width n + d equal to x + B relu(Ax) when A_S (|S| = d) is invertible:

        (B_S + A_S⁻¹) relu(A_S x) − A_S⁻¹ relu(−A_S x) + B_{S^c} relu(A_{S^c} x)

    (x = A_S⁻¹(relu(A_S x) − relu(−A_S x)); note ``deep-stacks.md``, Theorem C)."""
    np = _np()
    S = list(S)
    inv = np.linalg.inv(A[S])
    V = B.copy()
    V[:, S] += inv
    return np.vstack([A, -A[S]]), np.hstack([V, -inv])


def identity_block(d: int, width: int):
    """x = relu(x) − relu(−x) as a plain block of width ``width`` ≥ 2d (extra units zero)."""
    np = _np()
    if width < 2 * d:
        raise ValueError(f"the identity needs width ≥ 2d = {2 * d}; got {width}")
    U = np.zeros((width, d))
    V = np.zeros((d, width))
    U[:d], U[d:2 * d] = np.eye(d), -np.eye(d)
    V[:, :d], V[:, d:2 * d] = np.eye(d), -np.eye(d)
    return U, V
