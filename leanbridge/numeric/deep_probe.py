"""``leanbridge probe deep``: can a residual-free ReLU stack equal a residual one? With controls.

Beyond the paper (which settles one block at equal width). The target is a residual stack
F = R_L∘…∘R_1, R_l(x) = x + B_l relu(A_l x), with random weights A_l ~ N(0, s²/d),
B_l ~ N(0, s²/n) (the set-up of ``deep-stacks.md`` §3). A plain stack of L' blocks of width n'
(no skips, no biases) is fitted to it on points of the unit sphere — enough, since both are
positively homogeneous — from several starts, each by L-BFGS on the mean squared error and then
a Levenberg–Marquardt polish (SciPy ``least_squares(method="lm")`` with the exact Jacobian of
:mod:`leanbridge.numeric.stacks`). The figure reported for a fit is the relative L2 error
‖G(X) − F(X)‖/‖F(X)‖ on held-out test points of the start with the smallest error on separate
validation points (as many as training points). Choosing on the training points picked
over-fitted starts: a wide plain block can put a kink between two training points and be
exact on them but not elsewhere.

A floor of 1e-2 alone means nothing: the landscape is hard and exact fits are sometimes missed.
So every run also fits, with the same procedure,

* the **planted control**: the same weights with each W_down minimally modified so that
  B_S A_S = −I for a d-subset S (:func:`leanbridge.numeric.stacks.plant`), fitted at the same
  shape L' × n'. An exact representation exists when L' = L and n' ≥ n (sign flips, paper
  Thm 8) and, for L' > L, when the extra blocks can be the identity (n' ≥ 2d); at other shapes
  the planted fit is reported but is no control;
* the **width control**: the generic target at max(L, L') blocks of width n + d, exact by the
  layerwise construction (note, Theorem C), extra blocks the identity (n + d ≥ 2d as n ≥ d).

Starts: ``starts`` random ones (U ~ N(0, 1/d), V ~ N(0, 1/n')) and ``informed`` ones — the
plain block of the nearest planted version of each target layer (first start: the S that
changes W_down least; then random S), respectively the width-(n + d) construction, with 3 %
jitter; extra blocks start as the identity. Both targets get the same rule, so for the generic
target the first informed start is the planted control's exact solution, jittered.

Only the contrast is evidence, and only for the same kind of start: an informed start begins 3 %
away from a known exact solution, so a control reached from informed starts only shows that
the solution attracts nearby iterates, not that the optimiser finds exact fits from scratch.
Every report therefore gives, per fit, the best error and the exact count of the random starts
and of the informed starts separately, and the conclusion is a **dichotomy** only when the
generic best is ≥ 1e-4 while every control is reached (≤ 1e-8) from random starts: then the
optimiser finds exact representations at these shapes when they exist and found none for the
generic target. When only informed starts reach a control (typical at depth 2 with a few random
starts: the random starts sit near the generic target's 1e-2 floor), the conclusion says
"controls exact from informed starts only" and claims no dichotomy. Neither is a proof (see
``theory`` in the result for what is proved).

Everything is seeded: targets, points and starts are the same for the same arguments, and so is
each L-BFGS run. The Levenberg–Marquardt polish is reproducible up to floating-point rounding
only: NumPy's SIMD sums and BLAS can round differently from run to run (they depend on memory
alignment), and near convergence LM iterates at that noise level, so the last digits of a
non-exact error (~1e-10 relative) or the size of an exact one (~1e-16) can change; the table,
the counts and the conclusion do not.
"""

from __future__ import annotations

import math
import time
from dataclasses import dataclass, field

from leanbridge.numeric import stacks
from leanbridge.numeric.errors import NumericInputError, need
from leanbridge.numeric.threads import single_threaded_blas

#: A fit at or below this relative error counts as exact.
EXACT = 1e-8
#: A best generic error at or above this, with the controls exact, is reported as a dichotomy.
FLOOR = 1e-4
#: Relative jitter of informed starts (times the RMS of each weight matrix).
JITTER = 0.03
#: A target smaller than this (relative to the inputs) on the sphere is degenerate (F ≈ 0,
#: e.g. a planted first block mapping onto a cone on which the rest vanishes): redrawn.
DEGENERATE = 1e-6
#: At most this many draws of the target weights.
MAX_DRAWS = 20

SCHEMA = "leanbridge.probe-deep/1"
#: The kinds of start, in the order they run.
KINDS = ("random", "informed")


def _short(error: float | None) -> str:
    """An error as the reports print it: "2.4e-02", or "none" (no start of that kind)."""
    return "none" if error is None else f"{error:.1e}"


@dataclass
class StartResult:
    label: str                     # "random 3", "informed 1"
    kind: str                      # random / informed
    lbfgs_train: float             # relative training error after L-BFGS
    train: float                   # after the LM polish
    val: float                     # validation points (selects the best start)
    test: float                    # held-out test points (reported)
    lm_nfev: int
    lm_status: int

    def to_dict(self) -> dict:
        return {"label": self.label, "kind": self.kind,
                "lbfgs_train_relative_error": self.lbfgs_train,
                "train_relative_error": self.train, "validation_relative_error": self.val,
                "test_relative_error": self.test,
                "lm_evaluations": self.lm_nfev, "lm_status": self.lm_status}


@dataclass
class FitResult:
    name: str                      # generic / planted / width
    title: str
    target: str                    # generic / planted
    depth: int
    width: int
    exact_known: bool              # an exact representation is known to exist
    starts: list[StartResult] = field(default_factory=list)
    notes: list[str] = field(default_factory=list)

    @property
    def best(self) -> StartResult:
        """The start with the smallest validation error (ties: training error)."""
        return min(self.starts, key=lambda s: (s.val, s.train))

    @property
    def best_error(self) -> float:
        return self.best.test

    @property
    def exact_starts(self) -> int:
        return sum(s.test <= EXACT for s in self.starts)

    def of_kind(self, kind: str) -> list[StartResult]:
        """The starts of one kind (random / informed), in the order run."""
        return [s for s in self.starts if s.kind == kind]

    def best_of(self, kind: str) -> StartResult | None:
        """The best start of one kind, by the same rule as :attr:`best` (None: no such
        start)."""
        starts = self.of_kind(kind)
        return min(starts, key=lambda s: (s.val, s.train)) if starts else None

    def best_error_of(self, kind: str) -> float | None:
        best = self.best_of(kind)
        return None if best is None else best.test

    def exact_from(self, kind: str) -> bool:
        """The best start of this kind is exact (held-out error ≤ :data:`EXACT`)."""
        error = self.best_error_of(kind)
        return error is not None and error <= EXACT

    def kind_summary(self, kind: str) -> dict:
        """Best held-out error, best start and exact count of the starts of one kind."""
        starts, best = self.of_kind(kind), self.best_of(kind)
        return {"starts": len(starts),
                "best_relative_error": None if best is None else best.test,
                "best_start": None if best is None else best.label,
                "exact_starts": sum(s.test <= EXACT for s in starts)}

    def to_dict(self) -> dict:
        best = self.best
        return {"name": self.name, "title": self.title, "target": self.target,
                "depth": self.depth, "width": self.width,
                "exact_representation_known": self.exact_known,
                "best_relative_error": best.test, "best_train_relative_error": best.train,
                "best_validation_relative_error": best.val,
                "best_start": best.label, "exact_starts": self.exact_starts,
                "starts_total": len(self.starts),
                "by_kind": {kind: self.kind_summary(kind) for kind in KINDS},
                "notes": self.notes,
                "starts": [s.to_dict() for s in self.starts]}


@dataclass
class DeepResult:
    d: int
    n: int
    L: int
    Lp: int
    width: int
    scale: float
    seed: int
    starts: int
    informed: int
    train_points: int
    test_points: int
    theory: dict
    draws: int = 1
    planted_S: list[list[int]] = field(default_factory=list)
    target_size: dict = field(default_factory=dict)
    fits: list[FitResult] = field(default_factory=list)
    seconds: float = 0.0

    def fit(self, name: str) -> FitResult:
        return next(f for f in self.fits if f.name == name)

    def summary(self) -> dict:
        """The comparison of the generic fit with the controls, and the conclusion.

        A control counts as exact if its best start is (held-out error ≤ :data:`EXACT`). A
        dichotomy is claimed only when every control is exact **from random starts**: an
        informed start begins 3 % away from the known exact solution, so its success says
        that the solution is a local attractor, not that the optimiser finds exact fits from
        scratch at this shape. When only informed starts reach a control, the conclusion says
        so and claims no dichotomy."""
        generic = self.fit("generic").best_error
        planted = self.fit("planted").best_error
        width = self.fit("width").best_error

        def ratio(a: float, b: float) -> float:
            return a / b if b > 0 else math.inf

        # a fit is a control only where an exact representation is known to exist
        controls = [f for f in (self.fit("planted"), self.fit("width")) if f.exact_known]
        controls_exact = all(f.best_error <= EXACT for f in controls)
        from_random = [f.name for f in controls if f.exact_from("random")]
        informed_only = [f.name for f in controls
                         if f.best_error <= EXACT and not f.exact_from("random")]
        random_ok = controls_exact and not informed_only
        gen = self.fit("generic")
        kinds = ", ".join(f"{kind} {_short(gen.best_error_of(kind))}" for kind in KINDS)
        if not controls_exact:
            failed = [f.name for f in controls if f.best_error > EXACT]
            text = (f"inconclusive: the {' and '.join(failed)} control(s) did not reach "
                    f"{EXACT:g} although an exact representation exists there, so the "
                    "optimiser's floor says nothing about the generic target; add starts")
        elif generic >= FLOOR and random_ok:
            which = "both controls" if len(controls) == 2 else f"the {controls[0].name} control"
            text = (f"dichotomy: no fit of the generic target below {generic:.1e} ({kinds}) "
                    f"while {which} reached ≤ {EXACT:g} from random starts at these shapes "
                    "(numerical evidence of non-representability, not a proof)")
        elif generic >= FLOOR:
            if len(informed_only) == len(controls) > 1:
                head = "controls exact from informed starts only"
            else:
                head = f"the {informed_only[0]} control exact from informed starts only"
                if from_random:
                    head += f" (the {from_random[0]} control also from random starts)"
            text = (f"{head}: the random-start landscape is not shown to find exact fits at "
                    f"this shape, so no dichotomy is claimed; random-start best "
                    + ", ".join(f"{f.name} {_short(f.best_error_of('random'))}"
                                for f in controls)
                    + f"; generic best {generic:.1e} ({kinds})")
        elif generic <= EXACT:
            kind = "random" if gen.exact_from("random") else "informed"
            text = ("the generic target was fitted exactly (≤ 1e-8): it is representable "
                    f"(from {kind} starts{'' if kind == 'random' else ' only'})")
        else:
            text = (f"unclear: the generic best {generic:.1e} ({kinds}) lies between "
                    f"{EXACT:g} and {FLOOR:g}")
        verdict = text.split(":")[0]
        return {"generic_best": generic, "planted_best": planted, "width_best": width,
                "generic_over_planted": ratio(generic, planted),
                "generic_over_width": ratio(generic, width),
                "random_best": {f.name: f.best_error_of("random") for f in self.fits},
                "informed_best": {f.name: f.best_error_of("informed") for f in self.fits},
                "controls": [f.name for f in controls],
                "controls_exact": controls_exact,
                "controls_exact_from_random": random_ok,
                "controls_exact_from_informed_only": informed_only,
                "dichotomy": random_ok and generic >= FLOOR,
                "verdict": verdict, "conclusion": text}

    def to_dict(self) -> dict:
        return {"schema": SCHEMA, "d": self.d, "n": self.n, "L": self.L, "Lp": self.Lp,
                "width": self.width, "scale": self.scale, "seed": self.seed,
                "random_starts": self.starts, "informed_starts": self.informed,
                "train_points": self.train_points, "test_points": self.test_points,
                "exact_threshold": EXACT, "floor_threshold": FLOOR,
                "theory": self.theory, "target_draws": self.draws,
                "planted_S": self.planted_S, "target_size": self.target_size,
                "fits": [f.to_dict() for f in self.fits], "summary": self.summary(),
                "seconds": self.seconds}


# --------------------------------------------------------------------------------------------
# What the theory says at these shapes
# --------------------------------------------------------------------------------------------

def theory(d: int, n: int, L: int, Lp: int, width: int) -> dict:
    """The statement of ``deep-stacks.md`` that covers a generic target at these shapes, with
    its status (proved / proof sketch / conjecture). Generic = the paper's nondegeneracy plus
    (ND): det(I + B_l[:,S] A_l[S,:]) ≠ 0 for every layer and S."""
    if d == 1:
        if n >= 2 and width >= 2:
            return {"prediction": "representable", "statement": "Theorem A (d = 1)",
                    "status": "proved (note)"}
        if n == 1 and width == 1:
            return {"prediction": "not representable",
                    "statement": "Theorem A (d = 1): width 1 only if the stack vanishes on a "
                                 "half-line", "status": "proved (note)"}
    if width < 2 * d:
        return {"prediction": "not representable",
                "statement": "Theorem B: a plain stack whose first block is narrower than 2d "
                             "is not injective on an open cone; a generic residual stack has "
                             "invertible Jacobians almost everywhere",
                "status": "proved (note); stated in Lean for residual branches Lipschitz with constant < 1 (SkipAbsorption.resStack_ne_plainStack_of_lt_two_mul; not compiled here)"}
    if L == 1 and Lp == 1:
        exact = width >= n + d
        return {"prediction": "representable" if exact else "not representable",
                "statement": "Theorem C: one block is absorbed at width n′ iff n′ ≥ n + d",
                "status": "proved (note); stated in Lean under (ND) (SkipAbsorption.absorbableWithWidth_relu_iff; not compiled here)"}
    if width >= n + d and Lp >= L:
        return {"prediction": "representable",
                "statement": "layerwise construction (Theorem C), extra blocks the identity",
                "status": "proved (construction)"}
    if d == 2 and n >= 4 and width == n and Lp <= L:
        return {"prediction": "not representable (homeomorphic regime)",
                "statement": "Theorem D (d = 2, every block a homeomorphism)",
                "status": "proof sketch only, not formalised"}
    return {"prediction": "open", "statement": "conjecture: no exact representation",
            "status": "conjecture; numerical evidence only"}


# --------------------------------------------------------------------------------------------
# Fitting
# --------------------------------------------------------------------------------------------

def _jitter(np, rng, layers):
    out = []
    for U, V in layers:
        pair = []
        for M in (U, V):
            rms = float(np.sqrt(np.mean(M * M))) or 1.0
            pair.append(M + JITTER * rms * rng.standard_normal(M.shape))
        out.append(tuple(pair))
    return out


def _random_plain(np, rng, d: int, widths):
    return [(rng.standard_normal((w, d)) / math.sqrt(d), rng.standard_normal((d, w)) / math.sqrt(w))
            for w in widths]


def _pad(np, rng, U, V, width: int):
    """Widen a block to ``width`` units: new units get small random reads and zero writes."""
    extra = width - U.shape[0]
    if extra <= 0:
        return U, V
    d = U.shape[1]
    return (np.vstack([U, JITTER * rng.standard_normal((extra, d)) / math.sqrt(d)]),
            np.hstack([V, np.zeros((d, extra))]))


def _random_subset(rng, A) -> list[int]:
    """A random d-subset S with A_S reasonably conditioned (falls back to pivoted QR)."""
    np = need("numpy", "leanbridge probe")
    n, d = A.shape
    for _ in range(50):
        S = sorted(int(i) for i in rng.choice(n, d, replace=False))
        if np.linalg.cond(A[S]) < 1e6:
            return S
    return stacks.independent_rows(A)


def _informed_same_width(np, rng, target, k: int, d: int, Lp: int, width: int):
    """Informed start k for a plain L' × n' fit (n' ≥ n): per layer the sign-flip block of the
    nearest planted version (k = 0: least change; k ≥ 1: a random S), padded to n' units;
    extra layers the identity (random when n' < 2d)."""
    layers = []
    for A, B in target[:Lp]:
        S = None if k == 0 else _random_subset(rng, A)
        B2, S = stacks.plant(A, B, S)
        layers.append(_pad(np, rng, *stacks.flip_block(A, B2, S), width))
    for _ in range(Lp - len(layers)):
        layers.append(stacks.identity_block(d, width) if width >= 2 * d
                      else _random_plain(np, rng, d, [width])[0])
    return _jitter(np, rng, layers)


def _informed_width(np, rng, target, k: int, d: int, depth: int, width: int):
    layers = []
    for A, B in target:
        S = stacks.independent_rows(A) if k == 0 else _random_subset(rng, A)
        layers.append(stacks.width_block(A, B, S))
    for _ in range(depth - len(layers)):
        layers.append(stacks.identity_block(d, width))
    return _jitter(np, rng, layers)


def _fit_one(np, opt, model, theta0, X, Y, X_val, Y_val, X_test, Y_test, lbfgs_iter: int,
             lm_nfev: int):
    norm2 = float(np.sum(Y * Y))
    norm = math.sqrt(norm2)
    test_norm = math.sqrt(float(np.sum(Y_test * Y_test)))
    fit = opt.minimize(model.loss_and_grad, theta0, args=(X, Y, norm2), jac=True,
                       method="L-BFGS-B",
                       options={"maxiter": lbfgs_iter, "ftol": 1e-15, "gtol": 1e-12,
                                "maxcor": 30})
    theta1 = fit.x
    lbfgs_train = float(np.linalg.norm(model.forward(theta1, X) - Y)) / norm
    lm = opt.least_squares(lambda t: (model.forward(t, X) - Y).ravel() / norm, theta1,
                           jac=lambda t: model.jacobian(t, X) / norm, method="lm",
                           xtol=1e-15, ftol=1e-15, gtol=1e-15, max_nfev=lm_nfev)
    theta = lm.x if np.all(np.isfinite(lm.x)) else theta1
    train = float(np.linalg.norm(model.forward(theta, X) - Y)) / norm
    if not train <= lbfgs_train:            # LM never makes it worse, but be safe
        theta, train = theta1, lbfgs_train
    val = float(np.linalg.norm(model.forward(theta, X_val) - Y_val) / np.linalg.norm(Y_val))
    test = float(np.linalg.norm(model.forward(theta, X_test) - Y_test)) / test_norm
    return lbfgs_train, train, val, test, int(lm.nfev), int(lm.status)


def deep_probe(d: int, n: int, L: int, Lp: int | None = None, width: int | None = None,
               starts: int = 6, informed: int = 2, seed: int = 0, scale: float = 1.0,
               train_points: int | None = None, test_points: int = 2000,
               lbfgs_iter: int = 300, lm_nfev: int = 200, progress=None) -> DeepResult:
    """Run the experiment (see the module docstring). ``progress``: a callable taking the
    number of fits to do and returning an object with ``update(1)``, ``set_postfix_str(s)``
    and ``close()`` (a tqdm bar), or None."""
    np = need("numpy", "leanbridge probe deep")
    opt = need("scipy.optimize", "leanbridge probe deep")
    Lp = L if Lp is None else Lp
    width = n if width is None else width
    for name, value in (("--d", d), ("--n", n), ("--L", L), ("--Lp", Lp), ("--width", width)):
        if value < 1:
            raise NumericInputError(f"{name} must be a positive integer (got {value})")
    if n < d:
        raise NumericInputError(f"probe deep needs n ≥ d (the planted control plants an S of "
                                f"size d); got d = {d}, n = {n}")
    if starts < 0 or informed < 0 or starts + informed < 1:
        raise NumericInputError("--starts and --informed must be ≥ 0, with at least one start")
    if not (scale > 0 and math.isfinite(scale)):
        raise NumericInputError("--scale must be a positive number")
    if test_points < 1 or (train_points is not None and train_points < 1):
        raise NumericInputError("point counts must be positive")
    begin = time.perf_counter()
    width_depth = max(L, Lp)
    models = {"same": stacks.StackModel(d, (width,) * Lp),
              "width": stacks.StackModel(d, (n + d,) * width_depth)}
    biggest = max(m.size for m in models.values())
    count = train_points or max(400 * (d - 1), -(-3 * biggest // d), 50)
    if count * d < biggest:
        raise NumericInputError(f"{count} training points give {count * d} residuals, fewer "
                                f"than the {biggest} parameters (Levenberg–Marquardt needs at "
                                "least as many)")
    res_model = stacks.StackModel(d, (n,) * L, residual=True)

    # Targets (redrawn while degenerate: F ≈ 0 on the sphere).
    point_rng = np.random.default_rng([seed, 0])
    X, X_test = stacks.sphere(point_rng, count, d), stacks.sphere(point_rng, test_points, d)
    X_val = stacks.sphere(point_rng, count, d)
    for draw in range(MAX_DRAWS):
        rng = np.random.default_rng([seed, 1, draw])
        generic = stacks.random_residual(rng, d, n, L, scale)
        planted, planted_S = [], []
        for A, B in generic:
            B2, S = stacks.plant(A, B)
            planted.append((A, B2))
            planted_S.append(S)
        sizes = {}
        for label, layers in (("generic", generic), ("planted", planted)):
            out = res_model.forward(res_model.pack(layers), X_test)
            sizes[label] = float(np.linalg.norm(out) / np.linalg.norm(X_test))
        if min(sizes.values()) > DEGENERATE:
            break
    else:
        raise NumericInputError(f"every one of {MAX_DRAWS} target draws was degenerate "
                                "(F ≈ 0 on the sphere); try another --seed")
    values = {}
    for label, layers in (("generic", generic), ("planted", planted)):
        theta = res_model.pack(layers)
        values[label] = tuple(res_model.forward(theta, P) for P in (X, X_val, X_test))

    result = DeepResult(d, n, L, Lp, width, scale, seed, starts, informed, count, test_points,
                        theory(d, n, L, Lp, width), draw + 1, planted_S, sizes)
    planted_exact = width >= n and (Lp == L or (Lp > L and width >= 2 * d))
    same_informed_ok = width >= n
    fits = [
        FitResult("generic", "generic target", "generic", Lp, width,
                  result.theory["prediction"] == "representable"),
        FitResult("planted", "planted control", "planted", Lp, width, planted_exact),
        FitResult("width", "width n + d control", "generic", width_depth, n + d, True),
    ]
    plan = []
    for index, fit in enumerate(fits):
        kinds = [("random", i) for i in range(starts)]
        ok = same_informed_ok if fit.name != "width" else True
        if informed and not ok:
            fit.notes.append("no informed starts at this shape (plain width below n)")
        kinds += [("informed", i) for i in range(informed)] if ok else []
        plan += [(index, kind, i) for kind, i in kinds]
    bar = progress(len(plan)) if progress is not None else None
    blas = single_threaded_blas()
    try:
        with blas:
            for index, kind, i in plan:
                fit = fits[index]
                model = models["width" if fit.name == "width" else "same"]
                rng = np.random.default_rng([seed, 2, index, 0 if kind == "random" else 1, i])
                if kind == "random":
                    layers = _random_plain(np, rng, d, model.widths)
                elif fit.name == "width":
                    layers = _informed_width(np, rng, generic, i, d, width_depth, n + d)
                else:
                    target = generic if fit.target == "generic" else planted
                    layers = _informed_same_width(np, rng, target, i, d, Lp, width)
                Y, Y_val, Y_test = values[fit.target]
                errs = _fit_one(np, opt, model, model.pack(layers), X, Y, X_val, Y_val, X_test,
                                Y_test, lbfgs_iter, lm_nfev)
                fit.starts.append(StartResult(f"{kind} {i + 1}", kind, *errs))
                if bar is not None:
                    bar.set_postfix_str(f"{fit.name}: best {fit.best_error:.1e}", refresh=False)
                    bar.update(1)
    finally:
        if bar is not None:
            bar.close()
    if not planted_exact:
        fits[1].notes.append("no exact representation of the planted target is known at this "
                             "shape (needs L′ = L and n′ ≥ n, or L′ > L and n′ ≥ 2d)")
    result.fits = fits
    result.seconds = time.perf_counter() - begin
    return result


# --------------------------------------------------------------------------------------------
# Output
# --------------------------------------------------------------------------------------------

def kind_cell(summary: dict) -> str:
    """One kind of start in one fit: "2.4e-02 (0/6)" (best error, exact starts out of that
    kind's starts), or "none" when the fit had no start of that kind."""
    if not summary["starts"]:
        return "none"
    return f"{summary['best_relative_error']:.1e} ({summary['exact_starts']}/{summary['starts']})"


def format_text(result: DeepResult) -> str:
    """The table printed by ``leanbridge probe deep``."""
    r = result
    lines = [f"probe deep: d = {r.d}; target: {r.L} residual block(s) of width {r.n} (scale "
             f"{r.scale:g}); fitted: plain {r.Lp} × {r.width}; seed {r.seed}; "
             f"{r.starts} random + {r.informed} informed starts per fit, each L-BFGS then "
             f"Levenberg–Marquardt; {r.train_points} training, {r.train_points} validation, "
             f"{r.test_points} held-out test sphere points"]
    th = r.theory
    lines.append(f"theory for a generic target: {th['prediction']} — {th['statement']} "
                 f"[{th['status']}]")
    lines.append(f"  {'fit':<22}{'target':<9}{'plain L×n':<11}{'best rel. err':<15}"
                 f"{'≤ 1e-8':<8}{'best start':<13}{'random: best (≤ 1e-8)':<24}"
                 "informed: best (≤ 1e-8)")
    for fit in r.fits:
        title = fit.title
        if not fit.exact_known and fit.name != "generic":
            title = f"{fit.name} (no control)"
        kinds = [kind_cell(fit.kind_summary(kind)) for kind in KINDS]
        lines.append(f"  {title:<22}{fit.target:<9}{f'{fit.depth} × {fit.width}':<11}"
                     f"{fit.best_error:<15.2e}{f'{fit.exact_starts}/{len(fit.starts)}':<8}"
                     f"{fit.best.label:<13}{kinds[0]:<24}{kinds[1]}")
        lines.extend(f"    note: {note}" for note in fit.notes)
    s = r.summary()
    lines.append(f"ratios: generic/planted {s['generic_over_planted']:.1e}, generic/width "
                 f"{s['generic_over_width']:.1e}")
    lines.append(f"conclusion: {s['conclusion']}")
    if r.draws > 1:
        lines.append(f"note: the target was redrawn {r.draws - 1} time(s) (degenerate draws: "
                     "F ≈ 0 on the sphere)")
    lines.append(f"({r.seconds:.1f} s)")
    return "\n".join(lines)


def plot(result: DeepResult, path: str) -> None:
    """PNG: held-out relative error of every start, per fit (log scale), with the thresholds."""
    matplotlib = need("matplotlib", "--plot")
    matplotlib.use("Agg")
    import matplotlib.pyplot as plt

    np = need("numpy", "--plot")
    fig, ax = plt.subplots(figsize=(6.4, 4.4), dpi=120)
    for x, fit in enumerate(result.fits):
        for kind, marker in (("random", "o"), ("informed", "s")):
            errs = [max(s.test, 1e-17) for s in fit.starts if s.kind == kind]
            if errs:
                offsets = np.linspace(-0.15, 0.15, len(errs)) if len(errs) > 1 else [0.0]
                ax.scatter(x + np.asarray(offsets), errs, marker=marker, alpha=0.7,
                           label=kind if x == 0 else None, color="C0" if kind == "random"
                           else "C1")
    ax.axhline(EXACT, color="green", linestyle="--", linewidth=1, label=f"exact ({EXACT:g})")
    ax.axhline(FLOOR, color="red", linestyle=":", linewidth=1, label=f"floor ({FLOOR:g})")
    ax.set_yscale("log")
    ax.set_xticks(range(len(result.fits)))
    ax.set_xticklabels([f"{f.title}\n{f.depth} × {f.width}" for f in result.fits], fontsize=8)
    ax.set_ylabel("held-out relative error (per start)")
    ax.set_title(f"probe deep: d = {result.d}, n = {result.n}, L = {result.L} "
                 f"(seed {result.seed})")
    ax.grid(True, which="both", axis="y", alpha=0.3)
    ax.legend(fontsize=8)
    fig.tight_layout()
    fig.savefig(path, format="png")
    plt.close(fig)
