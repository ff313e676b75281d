"""``leanbridge probe tangent``: the first-order rank test at a matched pair (one block).

Take a residual ReLU block R(x) = x + B relu(Ax) with a planted S (|S| = d, B[:,S] = −A_S⁻¹,
so that B_S A_S = −I) and the plain block that equals it, P(x) = V relu(Ux) with U = A (rows in
S negated) and V = B (paper Thm 8, "if"). On N points of the unit sphere form the Jacobians of
the two parametrisations,

    J_plain = ∂ vec P(X)/∂(U, V),   J_res = ∂ vec R(X)/∂(A, B)        ((N·d) × 2nd each),

whose column spans are (sampled) tangent spaces of the plain and the residual function families
at the common point. The excess

    rank [J_plain, J_res] − rank J_plain

counts the directions in which the residual family leaves the plain one to first order. For one
block it is d² (``deep-stacks.md`` §3): the residual tangent adds every linear map x ↦ Mx
(through relu(a_i·x) − relu(−a_i·x) = a_i·x for i ∈ S, and A_S invertible), which the plain
tangent at a generic point does not contain — d² being the codimension of {B_S A_S = −I}.

**Points.** Ranks of sampled Jacobians only grow with the point set, and a thin activation
region that no point hits hides directions. For d = 2 the 2n sectors between the kink rays get
3 points each on top of the random ones; for d ≥ 3 the random set is doubled until the three
ranks are unchanged twice in a row (at most 16 times the initial count). For generic weights
rank J_plain = rank J_res = 2nd − n (the n positive rescalings u_i → t u_i, w_i → w_i/t);
``resolved`` reports whether both reached it.

**Numerical rank.** Singular values of each matrix above

    tol = σ_max · max(rows, columns) · ε₆₄          (NumPy's ``matrix_rank`` default)

count. The largest discarded and the smallest kept singular value are reported (relative to
σ_max): for ReLU Jacobians the gap is many orders of magnitude, so the rank does not depend on
the choice of tolerance. Seeded and deterministic.
"""

from __future__ import annotations

import time
from dataclasses import dataclass

from leanbridge.numeric import stacks
from leanbridge.numeric.errors import NumericInputError, need

SCHEMA = "leanbridge.probe-tangent/1"


@dataclass
class RankInfo:
    rank: int
    columns: int
    tolerance: float              # absolute
    smallest_kept: float | None   # relative to σ_max
    largest_dropped: float | None

    def to_dict(self) -> dict:
        return {"rank": self.rank, "columns": self.columns, "tolerance": self.tolerance,
                "smallest_kept_relative": self.smallest_kept,
                "largest_dropped_relative": self.largest_dropped}


@dataclass
class TangentResult:
    d: int
    n: int
    seed: int
    points: int
    S: list[int]
    match_error: float            # max |P(x) − R(x)| over the points (the pair is matched)
    plain: RankInfo
    residual: RankInfo
    joint: RankInfo
    seconds: float = 0.0

    @property
    def excess(self) -> int:
        return self.joint.rank - self.plain.rank

    @property
    def expected(self) -> int:
        return self.d * self.d

    @property
    def generic_rank(self) -> int:
        """2nd − n: the rank of either Jacobian for generic weights (n rescalings)."""
        return 2 * self.n * self.d - self.n

    @property
    def resolved(self) -> bool:
        return self.plain.rank == self.generic_rank and self.residual.rank == self.generic_rank

    def to_dict(self) -> dict:
        return {"schema": SCHEMA, "d": self.d, "n": self.n, "seed": self.seed,
                "points": self.points, "S": self.S, "match_max_error": self.match_error,
                "rank_plain": self.plain.to_dict(), "rank_residual": self.residual.to_dict(),
                "rank_joint": self.joint.to_dict(), "excess": self.excess,
                "expected": self.expected, "agrees": self.excess == self.expected,
                "generic_rank": self.generic_rank, "resolved": self.resolved,
                "tolerance_rule": "sigma_max * max(rows, columns) * eps64",
                "seconds": self.seconds}


def numerical_rank(M) -> RankInfo:
    """Rank with NumPy's default tolerance σ_max·max(shape)·ε₆₄, and the singular-value gap."""
    np = need("numpy", "leanbridge probe tangent")
    s = np.linalg.svd(M, compute_uv=False)
    top = float(s[0]) if s.size else 0.0
    tol = top * max(M.shape) * np.finfo(float).eps
    keep = s > tol
    rank = int(keep.sum())
    kept = float(s[keep][-1] / top) if rank else None
    dropped = float(s[~keep][0] / top) if rank < s.size and top > 0 else None
    return RankInfo(rank, M.shape[1], float(tol), kept, dropped)


#: d ≥ 3: the point set is doubled until the three ranks are unchanged twice in a row, up to
#: this multiple of the initial count.
MAX_POINTS_FACTOR = 16
#: d = 2: points placed inside every sector between consecutive kink rays.
PER_SECTOR = 3


def _sector_points(np, A):
    """d = 2: PER_SECTOR unit vectors inside each of the 2n sectors cut by the kink lines
    a_i·x = 0, so that every activation region is sampled (random points miss thin ones)."""
    normals = np.arctan2(A[:, 1], A[:, 0])
    rays = np.sort(np.mod(np.concatenate([normals + np.pi / 2, normals - np.pi / 2]),
                          2 * np.pi))
    gaps = np.diff(np.concatenate([rays, rays[:1] + 2 * np.pi]))
    frac = (np.arange(PER_SECTOR) + 1) / (PER_SECTOR + 1)
    angles = (rays[:, None] + gaps[:, None] * frac[None, :]).ravel()
    return np.stack([np.cos(angles), np.sin(angles)], axis=1)


def tangent_probe(d: int, n: int, seed: int = 0, points: int | None = None) -> TangentResult:
    """The rank test at a planted matched pair (see the module docstring)."""
    np = need("numpy", "leanbridge probe tangent")
    if d < 1 or n < 1:
        raise NumericInputError(f"--d and --n must be positive integers (got d = {d}, n = {n})")
    if n < d:
        raise NumericInputError(f"probe tangent plants an S of size d, so it needs n ≥ d; got "
                                f"d = {d}, n = {n}")
    start = time.perf_counter()
    params = 2 * n * d
    count = points or max(200, 4 * params)
    if count * d < 2 * params:
        raise NumericInputError(f"--points {count}: need at least {-(-2 * params // d)} points "
                                f"(rows ≥ the {2 * params} columns of [J_plain, J_res])")
    rng = np.random.default_rng([seed, 3])
    (A, B), = stacks.random_residual(rng, d, n, 1)
    S = sorted(int(i) for i in rng.choice(n, d, replace=False))
    while np.linalg.cond(A[S]) > 1e6:                      # measure zero; redraw S
        S = sorted(int(i) for i in rng.choice(n, d, replace=False))
    B, S = stacks.plant(A, B, S)
    U, V = stacks.flip_block(A, B, S)
    res_model = stacks.StackModel(d, (n,), residual=True)
    plain_model = stacks.StackModel(d, (n,))
    theta_res, theta_plain = res_model.pack([(A, B)]), plain_model.pack([(U, V)])

    def ranks(X):
        J_res = res_model.jacobian(theta_res, X)
        J_plain = plain_model.jacobian(theta_plain, X)
        return (numerical_rank(J_plain), numerical_rank(J_res),
                numerical_rank(np.hstack([J_plain, J_res])))

    X = stacks.sphere(rng, count, d)
    if d == 2:
        X = np.vstack([X, _sector_points(np, A)])
    infos = ranks(X)
    stable = 0
    while d > 2 and stable < 2 and X.shape[0] < MAX_POINTS_FACTOR * count:
        X = np.vstack([X, stacks.sphere(rng, X.shape[0], d)])   # a superset: ranks only grow
        new = ranks(X)
        stable = stable + 1 if [i.rank for i in new] == [i.rank for i in infos] else 0
        infos = new
    match = float(np.abs(res_model.forward(theta_res, X)
                         - plain_model.forward(theta_plain, X)).max())
    result = TangentResult(d, n, seed, int(X.shape[0]), S, match, *infos)
    result.seconds = time.perf_counter() - start
    return result


def format_text(result: TangentResult) -> str:
    r = result

    def gap(info: RankInfo) -> str:
        kept = f"{info.smallest_kept:.1e}" if info.smallest_kept is not None else "—"
        dropped = f"{info.largest_dropped:.1e}" if info.largest_dropped is not None else "—"
        return (f"rank {info.rank} of {info.columns} columns (σ/σ_max: smallest kept {kept}, "
                f"largest dropped {dropped})")

    verdict = "agrees with" if r.excess == r.expected else "DIFFERS from"
    return "\n".join([
        f"probe tangent: d = {r.d}, n = {r.n}, seed {r.seed}; planted S = {r.S}; {r.points} "
        f"sphere points; matched pair max |P − R| = {r.match_error:.1e}",
        f"  J_plain            {gap(r.plain)}",
        f"  J_res              {gap(r.residual)}",
        f"  [J_plain, J_res]   {gap(r.joint)}",
        f"excess rank[J_plain, J_res] − rank J_plain = {r.excess}; d² = {r.expected} "
        f"({verdict} the prediction for one block)",
        "tolerance: σ > σ_max · max(rows, columns) · ε64 (NumPy's matrix_rank default)",
    ] + ([] if r.resolved else [
        f"warning: rank J_plain / J_res below 2nd − n = {r.generic_rank}: the points may miss "
        "a thin activation region; try more --points"]))
