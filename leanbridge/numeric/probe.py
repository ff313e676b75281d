"""A numeric illustration: can a residual-free block of the same width fit x + block(x)?

For a family and random weights, the target is ``f(x) = x + W_down σ(W_up x)`` (gated:
``x + W_down (g(W_gate x) ⊙ (W_val x)))``. On the ball of radius r we fit a residual-free block
of the same kind and width n (no skip, no biases) by minimising the relative squared error

    L(θ) = Σ_p ‖F_θ(x_p) − f(x_p)‖² / Σ_p ‖f(x_p)‖²

over training points x_p drawn uniformly in the ball, with SciPy's L-BFGS-B and the gradient
written out by hand (NumPy). Radii are fitted largest first; each gets ``restarts`` starts —
the target's own weights without the skip ("warm"), then random initialisations — plus, from
the second radius on, the best fit of the previous radius (continuation: an exact solution
is exact on every ball); finally every radius also evaluates the best fits of the other
radii. The fit with the smallest training error is kept, and the reported figure is its
relative error √L on fresh test points of the same ball.

What the theorems predict, and what the probe shows:

* ``never`` families (degree, linearisation or parity argument): the error stays bounded away
  from 0 as r → 0 — the skip's linear term cannot be matched (for ReLU², ReGLU the error is
  even independent of r, by homogeneity).
* ReLU / GELU with a planted S (``planted=True``: W_down[:,S] = −(1/c) W_up[S,:]⁻¹ for a random
  S of size d): ≈ 0 at every radius, the sign-flip block exists. With generic weights ReLU
  stays bounded away from 0 (scale invariance), while smooth activations (GELU, tanh, …) fit
  better and better as r → 0 — locally only the linear part matters; that is not absorption.

Everything is seeded: the same arguments give the same numbers.
"""

from __future__ import annotations

import time
import zlib
from dataclasses import dataclass, field

from leanbridge.analysis import CONDITIONAL, analyse
from leanbridge.families import Family
from leanbridge.numeric.activations import numeric_activation
from leanbridge.numeric.errors import NumericInputError, need

#: Default radii of the balls (fitted largest first, for the continuation start).
DEFAULT_RADII = (10.0, 1.0, 0.1, 0.01)


# --------------------------------------------------------------------------------------------
# Blocks, losses and hand-written gradients
# --------------------------------------------------------------------------------------------

class _Model:
    """A residual-free block of width n as a flat parameter vector, with loss and gradient."""

    def __init__(self, family: Family, d: int, n: int) -> None:
        act = numeric_activation(family)
        self.sigma, self.dsigma = act.value, act.derivative
        self.gated = family.gated
        self.d, self.n = d, n
        self.shapes = ([("W_gate", (n, d)), ("W_val", (n, d)), ("W_down", (d, n))]
                       if self.gated else [("W_up", (n, d)), ("W_down", (d, n))])
        self.size = sum(a * b for _, (a, b) in self.shapes)

    def unpack(self, theta):
        out, at = {}, 0
        for name, (a, b) in self.shapes:
            out[name] = theta[at:at + a * b].reshape(a, b)
            at += a * b
        return out

    def pack(self, params: dict):
        np = need("numpy", "leanbridge probe")
        return np.concatenate([params[name].ravel() for name, _ in self.shapes])

    def forward(self, params: dict, X):
        """Block output (N×d) for inputs X (N×d)."""
        if self.gated:
            hidden = self.sigma(X @ params["W_gate"].T) * (X @ params["W_val"].T)
        else:
            hidden = self.sigma(X @ params["W_up"].T)
        return hidden @ params["W_down"].T

    def loss_and_grad(self, theta, X, F, norm2: float):
        """L = ‖block(X) − F‖²/norm2 and dL/dθ (analytic)."""
        np = need("numpy", "leanbridge probe")
        p = self.unpack(theta)
        W_down = p["W_down"]
        if self.gated:
            Hg = X @ p["W_gate"].T
            Hv = X @ p["W_val"].T
            g = self.sigma(Hg)
            P = g * Hv
            E = P @ W_down.T - F
            dP = (2.0 / norm2) * (E @ W_down)                   # N×n
            grads = {
                "W_down": (2.0 / norm2) * (E.T @ P),
                "W_gate": (dP * self.dsigma(Hg) * Hv).T @ X,
                "W_val": (dP * g).T @ X,
            }
        else:
            H = X @ p["W_up"].T
            P = self.sigma(H)
            E = P @ W_down.T - F
            dH = (2.0 / norm2) * (E @ W_down) * self.dsigma(H)
            grads = {"W_down": (2.0 / norm2) * (E.T @ P), "W_up": dH.T @ X}
        loss = float(np.sum(E * E) / norm2)
        return loss, self.pack(grads)


def _ball(rng, count: int, d: int, radius: float):
    """``count`` points uniform in the d-ball of the given radius."""
    np = need("numpy", "leanbridge probe")
    X = rng.standard_normal((count, d))
    X /= np.linalg.norm(X, axis=1, keepdims=True)
    return X * (radius * rng.random(count) ** (1.0 / d))[:, None]


def _family_seed(seed: int, name: str) -> list[int]:
    return [seed, zlib.crc32(name.encode())]


def target_weights(family: Family, d: int, n: int, seed: int, planted: bool) -> tuple[dict, list]:
    """Random target weights (N(0, 1/d) reads, N(0, 1/n) writes); with ``planted``, a random
    S of size d gets W_up[S,:] = Q (random orthogonal) and W_down[:,S] = −Qᵀ/c."""
    np = need("numpy", "leanbridge probe")
    rng = np.random.default_rng(_family_seed(seed, family.name) + [0])
    model = _Model(family, d, n)
    params = {name: rng.standard_normal(shape) / np.sqrt(shape[1]) for name, shape in
              model.shapes}
    S: list[int] = []
    if planted:
        Q, _ = np.linalg.qr(rng.standard_normal((d, d)))
        S = sorted(int(i) for i in rng.choice(n, d, replace=False))
        c = float(analyse(family).facts.odd_coefficient)
        params["W_up"][S] = Q
        params["W_down"][:, S] = -Q.T / c
    return params, S


@dataclass
class RadiusResult:
    radius: float
    best_error: float                # relative error on test points, best restart
    best_train_error: float
    start_errors: dict[str, float]   # test error per start: warm, random i, continuation
    best_start: str                  # the start whose fit is reported (chosen on training)
    construction_error: float | None = None   # planted: the sign-flip block's test error

    def to_dict(self) -> dict:
        return {"radius": self.radius, "best_relative_error": self.best_error,
                "best_train_relative_error": self.best_train_error,
                "start_relative_errors": self.start_errors,
                "best_start": self.best_start,
                "construction_relative_error": self.construction_error}


@dataclass
class ProbeResult:
    family: Family
    verdict: str
    d: int
    n: int
    planted: bool
    S: list[int]
    seed: int
    restarts: int
    points: int
    radii: list[RadiusResult] = field(default_factory=list)
    seconds: float = 0.0

    def to_dict(self) -> dict:
        return {"activation": self.family.name, "analysis_verdict": self.verdict,
                "gated": self.family.gated, "d": self.d, "n": self.n, "planted": self.planted,
                "S": self.S, "seed": self.seed, "restarts": self.restarts,
                "training_points": self.points, "radii": [r.to_dict() for r in self.radii],
                "seconds": self.seconds}


def can_plant(family: Family) -> bool:
    """An S can be planted: ungated, σ(z) − σ(−z) = c·z (analysis verdict conditional)."""
    return not family.gated and analyse(family).verdict == CONDITIONAL


def probe(family: Family, d: int, n: int, radii=DEFAULT_RADII, restarts: int = 3,
          seed: int = 0, planted: bool = False, points: int | None = None,
          maxiter: int = 1000) -> ProbeResult:
    """Fit a residual-free block to x + block(x) on balls of the given radii (see module doc)."""
    np = need("numpy", "leanbridge probe")
    opt = need("scipy.optimize", "leanbridge probe")
    if d < 1 or n < 1:
        raise NumericInputError("--d and --n must be positive")
    if restarts < 1:
        raise NumericInputError("--restarts must be at least 1")
    analysis = analyse(family)
    if planted:
        if family.gated or analysis.verdict != CONDITIONAL:
            raise NumericInputError(
                f"--planted needs an ungated family with σ(z) − σ(−z) = c·z (verdict "
                f"'conditional'); {family.name} is {'gated' if family.gated else 'not'}"
                f"{'' if family.gated else ' conditional'} (verdict '{analysis.verdict}')")
        if n < d:
            raise NumericInputError(f"--planted needs n ≥ d (an S of size d); got d = {d}, "
                                    f"n = {n}")
    start = time.perf_counter()
    model = _Model(family, d, n)
    target, S = target_weights(family, d, n, seed, planted)
    count = points or max(200, 10 * model.size // d)

    def f(X):
        return X + model.forward(target, X)

    construction = None
    if planted:
        construction = dict(target)
        construction["W_up"] = target["W_up"].copy()
        construction["W_up"][S] *= -1.0

    result = ProbeResult(family, analysis.verdict, d, n, planted, S, seed, restarts, count)

    def relative_error(params, X, F, norm2) -> float:
        E = model.forward(params, X) - F
        return float(np.sqrt(np.sum(E * E) / norm2))

    balls, best_fits = [], []
    previous = None
    for k, radius in enumerate(sorted(radii, reverse=True)):
        rng = np.random.default_rng(_family_seed(seed, family.name) + [1, k])
        X, X_test = _ball(rng, count, d, radius), _ball(rng, count, d, radius)
        F, F_test = f(X), f(X_test)
        ball = (X, F, float(np.sum(F * F)), X_test, F_test, float(np.sum(F_test * F_test)))
        balls.append(ball)
        starts = [("warm", model.pack(target))]
        for i in range(restarts - 1):
            starts.append((f"random {i + 1}", np.concatenate([
                rng.standard_normal(a * b) / np.sqrt(b) for _, (a, b) in model.shapes])))
        if previous is not None:
            starts.append(("continuation", previous))
        errors, train_errors, fits = [], [], []
        for _, theta0 in starts:
            fit = opt.minimize(model.loss_and_grad, theta0, args=(X, F, ball[2]), jac=True,
                               method="L-BFGS-B",
                               options={"maxiter": maxiter, "ftol": 1e-16, "gtol": 1e-12,
                                        "maxcor": 30})
            params = model.unpack(fit.x)
            errors.append(relative_error(params, X_test, F_test, ball[5]))
            train_errors.append(relative_error(params, X, F, ball[2]))
            fits.append(fit.x)
        best = int(np.argmin(train_errors))        # chosen on training points
        previous = fits[best]
        best_fits.append(fits[best])
        item = RadiusResult(float(radius), errors[best], train_errors[best],
                            {label: e for (label, _), e in zip(starts, errors)}, starts[best][0])
        if construction is not None:
            item.construction_error = relative_error(construction, X_test, F_test, ball[5])
        result.radii.append(item)

    # Transfer: an exact fit on one ball is exact on every ball, so every radius also tries
    # the best fits of the other radii (evaluated as they are, no refit).
    for k, (item, ball) in enumerate(zip(result.radii, balls)):
        X, F, norm2, X_test, F_test, norm2_test = ball
        for j, theta in enumerate(best_fits):
            if j == k:
                continue
            params = model.unpack(theta)
            train = relative_error(params, X, F, norm2)
            if train < item.best_train_error:
                item.best_train_error = train
                item.best_error = relative_error(params, X_test, F_test, norm2_test)
                item.best_start = f"fit at radius {result.radii[j].radius:g}"
    result.seconds = time.perf_counter() - start
    return result


def plot(results: list[ProbeResult], path: str) -> None:
    """Write a PNG of best relative error vs radius (log–log), one line per family."""
    matplotlib = need("matplotlib", "--plot")
    matplotlib.use("Agg")
    import matplotlib.pyplot as plt

    fig, ax = plt.subplots(figsize=(6.4, 4.4), dpi=120)
    for res in results:
        radii = [r.radius for r in res.radii]
        errors = [max(r.best_error, 1e-16) for r in res.radii]
        label = f"{res.family.display} ({res.verdict}{', planted S' if res.planted else ''})"
        ax.loglog(radii, errors, marker="o", label=label)
    ax.set_xlabel("radius r of the input ball")
    ax.set_ylabel("best relative error of a residual-free fit")
    d, n = results[0].d, results[0].n
    ax.set_title(f"fitting x + block(x) without a skip (d = {d}, n = {n})")
    ax.grid(True, which="both", alpha=0.3)
    ax.legend(fontsize=8)
    fig.tight_layout()
    fig.savefig(path, format="png")
    plt.close(fig)
