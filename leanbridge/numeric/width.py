"""The minimal width of a residual-free block that absorbs a block's identity skip.

Beyond the paper, which works at equal width n. For x ↦ x + W_down σ(W_up x) (σ(z) − σ(−z) = c·z)
and widths n' (``deep-stacks.md``, Theorem C and §5):

* **upper bounds.** Width n when some S has W_down[:,S] W_up[S,:] = −I/c (the sign flip, paper
  Thm 8 "if"). Width n + d whenever some d rows of W_up are linearly independent: with those
  rows S_r, A_r = W_up[S_r,:] invertible and x = (1/c)·A_r⁻¹(σ(A_r x) − σ(−A_r x)),

      x + W_down σ(W_up x) = Σ_{i∉S_r} w_i σ(u_i·x) + (W_down[:,S_r] + A_r⁻¹/c) σ(A_r x)
                             − (A_r⁻¹/c) σ(−A_r x)                       (:func:`wide_block`).

  Both are built and verified on random inputs.
* **lower bound (ReLU, nondegenerate weights).** If a ReLU block of width n' absorbs the skip,
  some S has rank(I + W_down[:,S] W_up[S,:]) ≤ n' − n (the rank bound, §5 of the note). So
  n' ≥ n + r_min with r_min = min_S rank(I + W_down[:,S] W_up[S,:]). Under (ND) —
  det(I + W_down[:,S] W_up[S,:]) ≠ 0 for every S — r_min = d and n' ≥ n + d, which the
  construction attains: the minimal width is exactly n + d.

**Checking (ND) exactly.** r_min is computed by enumerating all 2^n subsets when n ≤
:data:`MAX_ENUMERATION_N` (= 20), batched: for d ≤ n the d×d matrices I + Σ_{i∈S} w_i u_iᵀ,
for d > n the |S|×|S| matrices I + C[S,S], C = W_up W_down, whose nullity is the same
(dim ker(I + BA) = dim ker(I + AB)). A singular value counts as nonzero when it exceeds

    ND_TOL · (1 + ‖M − I‖_F)           (ND_TOL = 1e-9, M the matrix of that S),

the same relative accuracy as ``absorb``'s S-condition. A determinant certifies most subsets
without an SVD: σ_min ≥ |det M|/σ_max^(k−1) and σ_max ≤ √(‖M‖₁‖M‖_∞); the others get one.
Values above the threshold are nonzero for certain (float64 errors are ~1e-15 relative), so
the rank found is at most the true rank and n + r_min stays a valid lower bound. For n > 20
(ND) is "not checked": without an S the lower bound is only n + 1 (every
I + W_down[:,S] W_up[S,:] is nonzero). Cost at n = 20 (10⁶ subsets, one BLAS thread): a few
seconds for d ≤ n; up to ~30 s for d > n, where most matrices need the SVD.
"""

from __future__ import annotations

import itertools
import math

from leanbridge.numeric.errors import need
from leanbridge.numeric.threads import single_threaded_blas

#: (ND) and r_min are checked by enumerating subsets up to this n (2^20 ≈ 10⁶ subsets).
MAX_ENUMERATION_N = 20
#: Relative threshold of a nonzero singular value in the (ND) check (see the module docstring).
ND_TOL = 1e-9
#: Subsets per batch of the enumeration.
_CHUNK = 1 << 15


def _ranks(np, M, scale):
    """Numerical ranks of the batch M (b×k×k) with threshold ND_TOL·scale, and a lower bound
    on each σ_min/scale. A determinant certifies full rank without an SVD:
    σ_min ≥ |det M| / σ_max^(k−1) and σ_max ≤ √(‖M‖₁‖M‖_∞)."""
    k = M.shape[-1]
    tol = ND_TOL * scale
    absM = np.abs(M)
    top = np.sqrt(absM.sum(axis=1).max(axis=1) * absM.sum(axis=2).max(axis=1))   # ≥ σ_max
    with np.errstate(over="ignore", under="ignore", divide="ignore", invalid="ignore"):
        bound = np.abs(np.linalg.det(M)) / top ** (k - 1)
    bound = np.where(np.isfinite(bound), bound, 0.0)
    ranks = np.full(M.shape[0], k)
    sigma = bound / scale
    unsure = np.flatnonzero(~(bound > tol))
    if unsure.size:
        sv = np.linalg.svd(M[unsure], compute_uv=False)
        ranks[unsure] = (sv > tol[unsure, None]).sum(axis=1)
        sigma[unsure] = sv[:, -1] / scale[unsure]
    return ranks, sigma


def _batches(np, n: int, d: int, W_down, W_up):
    """(subsets as index lists, ranks of I + W_down[:,S] W_up[S,:], σ_min bounds) in batches."""
    if d <= n:
        # d×d matrices I + Σ_{i∈S} w_i u_iᵀ, subsets as bit masks
        R = np.einsum("ki,ij->ikj", W_down, W_up).reshape(n, d * d)
        total = 1 << n
        for start in range(0, total, _CHUNK):
            codes = np.arange(start, min(total, start + _CHUNK), dtype=np.int64)
            m = ((codes[:, None] >> np.arange(n, dtype=np.int64)) & 1).astype(float)
            E = (m @ R).reshape(-1, d, d)
            scale = 1.0 + np.sqrt(np.einsum("bij,bij->b", E, E))
            ranks, sigma = _ranks(np, E + np.eye(d), scale)
            yield m.astype(bool), ranks, sigma
    else:
        # k×k matrices I + C[S,S], C = W_up W_down (same nullity), grouped by |S| = k
        C = W_up @ W_down
        empty = np.zeros((1, n), dtype=bool)
        yield empty, np.array([d]), np.array([1.0])
        for k in range(1, n + 1):
            idx = np.fromiter(itertools.chain.from_iterable(itertools.combinations(range(n), k)),
                              dtype=np.int64).reshape(-1, k)
            for start in range(0, idx.shape[0], _CHUNK):
                part = idx[start:start + _CHUNK]
                E = C[part[:, :, None], part[:, None, :]]
                scale = 1.0 + np.sqrt(np.einsum("bij,bij->b", E, E))
                ranks, sigma = _ranks(np, E + np.eye(k), scale)
                m = np.zeros((part.shape[0], n), dtype=bool)
                np.put_along_axis(m, part, True, axis=1)
                yield m, d - (k - ranks), sigma


def singular_patterns(W_down, W_up, max_n: int = MAX_ENUMERATION_N) -> dict:
    """min over all S ⊆ {0..n−1} of rank(I + W_down[:,S] W_up[S,:]) by enumeration.

    Returns ``{"checked": True, "subsets", "min_rank", "argmin_S", "singular_subsets",
    "nd_holds", "min_sigma_relative", "tolerance"}``; ``{"checked": False, "reason"}`` when
    n > ``max_n``. ``singular_subsets`` counts the S with rank < d; (ND) holds iff it is 0.
    ``min_sigma_relative`` is a lower bound on min_S σ_min/(1 + ‖M_S − I‖_F) (exact for the
    subsets that needed an SVD)."""
    np = need("numpy", "the minimal-width check")
    d, n = W_down.shape
    if n > max_n:
        return {"checked": False,
                "reason": f"n = {n} > {max_n}: (ND) needs all 2^n subsets; not checked"}
    best_rank, best_S, singular, min_sigma = d + 1, [], 0, math.inf
    with single_threaded_blas():
        for masks, ranks, sigma in _batches(np, n, d, W_down, W_up):
            singular += int((ranks < d).sum())
            min_sigma = min(min_sigma, float(sigma.min()))
            k = int(np.argmin(ranks))
            if ranks[k] < best_rank:
                best_rank, best_S = int(ranks[k]), [int(i) for i in np.flatnonzero(masks[k])]
    return {"checked": True, "subsets": 1 << n, "min_rank": best_rank, "argmin_S": best_S,
            "singular_subsets": singular, "nd_holds": singular == 0,
            "min_sigma_relative": min_sigma, "tolerance": ND_TOL}


def independent_rows(W_up) -> tuple[list[int] | None, float]:
    """d rows of W_up that are linearly independent — the pivot rows of an LU factorisation
    with partial pivoting, W_up = L[p] U (n d² flops; a pivoted QR took 17 s at GPT-2 size) —
    and the reciprocal condition number of those rows (LAPACK's 1-norm estimate, ``dgecon``);
    (None, rcond) when rank W_up < d numerically (rcond not above ND_TOL)."""
    np = need("numpy", "the minimal-width check")
    sl = need("scipy.linalg", "the minimal-width check")
    n, d = W_up.shape
    if n < d or not np.any(W_up):
        return None, 0.0
    perm, _, _ = sl.lu(W_up, p_indices=True)                # W_up = L[perm] @ U
    rows = sorted(int(i) for i in np.argsort(perm)[:d])      # rows i with perm[i] < d
    chosen = W_up[rows]
    lu, piv = sl.lu_factor(chosen, check_finite=False)
    if not np.all(np.diag(lu) != 0):
        return None, 0.0
    anorm = float(np.abs(chosen).sum(axis=0).max())
    rcond = float(sl.lapack.dgecon(lu, anorm, norm="1")[0])      # LAPACK's 1-norm estimate
    if not rcond > ND_TOL:
        return None, rcond
    return rows, rcond


def wide_block(W_down, W_up, rows: list[int], c: float = 1.0):
    """The width-(n + d) block (V_down, V_up) of the module docstring for the rows ``rows``."""
    np = need("numpy", "the minimal-width check")
    inv = np.linalg.inv(W_up[rows]) / c
    V_down = W_down.astype(float).copy()
    V_down[:, rows] += inv
    return np.hstack([V_down, -inv]), np.vstack([W_up, -W_up[rows]])


def minimal_width(family, W_down, W_up, S_found: list[int] | None, nondegenerate: bool,
                  c: float, relu_necessity: bool, identity_skip: bool = True, seed: int = 0,
                  max_n: int = MAX_ENUMERATION_N, no_S: bool = True) -> dict:
    """Lower and upper bounds on the minimal absorbing width, and the value where they meet.

    ``S_found``: the S of the S-condition if one was found (then width n works), else None;
    ``no_S``: (when ``S_found`` is None) it is proved that no S exists — False when the
    S-decision was left open (MILP time limit), then only n is a lower bound for n > 20.
    ``relu_necessity``: the ReLU rank bound applies (the family is ReLU); with
    ``nondegenerate`` it gives the lower bound. Result keys: ``value`` (int or None),
    ``status`` (decided / bounds / not_checked), ``lower``, ``upper``, ``reasons``, ``nd``
    (:func:`singular_patterns` or why not), ``independent_rows``, ``construction``
    (verification of the width-(n + d) block), ``lean`` (the Lean names the bounds use)."""
    from leanbridge.numeric import absorb as absorb_mod
    from leanbridge.numeric.theory_checks import LEAN

    d, n = W_down.shape
    out: dict = {"value": None, "status": "not_checked", "lower": None, "upper": None,
                 "reasons": [], "nd": None, "independent_rows": None, "construction": None,
                 "lean": {}}
    if not identity_skip:
        out["reasons"].append("the width statements are for the identity skip; not checked")
        return out
    reasons, lean = out["reasons"], out["lean"]
    # upper bound
    if S_found is not None:
        out["upper"] = n
        reasons.append(f"width n = {n} works: the sign-flip block of S")
        lean["upper"] = LEAN["sufficiency"]
    rows, rcond = independent_rows(W_up)
    out["independent_rows"] = rows
    if rows is not None:
        V_down, V_up = wide_block(W_down, W_up, rows, c)
        check = absorb_mod.verify(family, W_down, W_up, None, V_down, V_up, c, 0.0, seed=seed)
        out["construction"] = {"width": n + d, "rows": rows, "rows_rcond": rcond,
                               "max_relative_error": check["max_relative_error"],
                               "passed": check["passed"]}
        if out["upper"] is None and check["passed"]:
            out["upper"] = n + d
            reasons.append(f"width n + d = {n + d} works: d independent rows of W_up "
                           f"{_short(rows)} (construction verified, max relative error "
                           f"{check['max_relative_error']:.1e})")
            if relu_necessity:
                lean["upper"] = LEAN["width_upper"]
    elif out["upper"] is None:
        reasons.append("rank W_up < d: no d independent rows, the width-(n + d) construction "
                       "does not apply")
    # lower bound
    if not relu_necessity:
        reasons.append(f"no lower bound: the width rank bound is proved for ReLU only, not "
                       f"for {family.display}")
    elif not nondegenerate:
        reasons.append("no lower bound: the rank bound needs nondegenerate weights "
                       f"({LEAN['nondegenerate']})")
    elif S_found is not None:
        out["lower"] = n
        lean["lower"] = LEAN["width_rank_bound"]
        reasons.append(f"nondegenerate weights: the rank bound gives width ≥ n = {n}")
    else:
        nd = singular_patterns(W_down, W_up, max_n)
        out["nd"] = nd
        lean["lower"] = LEAN["width_rank_bound"]
        if nd["checked"]:
            r_min = nd["min_rank"]
            out["lower"] = n + r_min
            if nd["nd_holds"]:
                reasons.append(f"(ND) holds for all {nd['subsets']} subsets S: every absorbing "
                               f"ReLU block has width ≥ n + d = {n + d}")
            else:
                reasons.append(f"(ND) fails ({nd['singular_subsets']} singular subsets): the "
                               f"rank bound gives width ≥ n + min_S rank = {n + r_min}")
        elif no_S:
            out["lower"] = n + 1
            reasons.append(f"{nd['reason']}; lower bound n + 1 = {n + 1} (no S: "
                           "I + W_down[:,S] W_up[S,:] ≠ 0, so its rank is ≥ 1, for every S)")
        else:
            out["lower"] = n
            reasons.append(f"{nd['reason']}; lower bound n = {n} (the S-condition was not "
                           "decided)")
    if out["lower"] is not None and out["lower"] == out["upper"]:
        out["value"], out["status"] = out["lower"], "decided"
    elif out["lower"] is not None or out["upper"] is not None:
        out["status"] = "bounds"
    return out


def _short(rows: list[int], limit: int = 8) -> str:
    text = ", ".join(str(i) for i in rows[:limit])
    return "{" + text + (f", … ({len(rows) - limit} more)" if len(rows) > limit else "") + "}"
