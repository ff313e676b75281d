"""Beyond the paper: the research note's results that are not Lean theorems, as data.

This project's research note on wider blocks and deep stacks (``deep-stacks.md``) goes beyond
the paper. Its results that are stated in Lean are library theorems like the paper's
(:mod:`leanbridge.library_statements`, the groups :data:`~leanbridge.library_statements.
BEYOND_GROUPS`), exported with their Lean names and verdicts. This module holds the rest, which
the exports print in the same section, "Beyond the paper", after the paper's results:

* :data:`CONJECTURES`: Theorem D of the note (a proof sketch) and the conjectures for the cases
  nothing covers, with their exact hypotheses. They carry **no Lean name**: nothing of them is
  formalised, so no export gives them ``\\lean``, ``\\leanok`` or a verdict;
* the numerical evidence, ``leanbridge/data/deep-evidence.json`` (schema
  ``leanbridge.deep-evidence/1``), written by :data:`REGENERATE` — never by hand — and read by
  :func:`load_evidence`.

Texts follow the rules of :mod:`leanbridge.library_statements` (LaTeX text, mathematics in
``$…$`` only, ASCII, no text-mode macros, no ``|``, no ``--``, no ``\\{``), so one string is
valid LaTeX, blueprint content and Markdown.
"""

from __future__ import annotations

import json
from dataclasses import dataclass
from importlib import resources

HEADING = "Beyond the paper"

#: The one sentence that opens the section in every export.
INTRO = (
    r"The results in this section are not from the paper: they come from an unpublished "
    r"research note of this project on wider blocks and deep stacks of ReLU blocks, whose "
    r"statements are given here in full; its "
    r"theorems are stated in Lean (in SkipAbsorption.Beyond), each with its status as given, "
    r"while its proof sketch and conjectures are not formalised and its numerical results are "
    r"evidence, not proof.")

#: The notation of the section (in addition to the paper's).
NOTATION = (
    r"A residual ReLU stack of depth $L$ and width $n$ is $F = R_L\circ\dots\circ R_1$ with "
    r"$R_\ell(x) = x + B_\ell\max(A_\ell x, 0)$, where $A_\ell\in\mathbb{R}^{n\times d}$ and "
    r"$B_\ell\in\mathbb{R}^{d\times n}$ are the weights $W_{\mathrm{up}}$ and "
    r"$W_{\mathrm{down}}$ of layer $\ell$; a plain stack is $G = P_{L'}\circ\dots\circ P_1$ "
    r"with $P_\ell(x) = V_\ell\max(U_\ell x, 0)$ of widths $n'_1,\dots,n'_{L'}$, without "
    r"skips. A layer satisfies (ND) if $\det(I_d + B_\ell D_S A_\ell)\neq 0$ for every "
    r"$S\subseteq\lbrace 1,\dots,n\rbrace$; by the note it fails only on a set of weights of "
    r"measure zero (not formalised), and the S-condition $B_\ell D_S A_\ell = -I_d$ is its "
    r"extreme violation.")

STATUSES = ("proof sketch", "conjecture")


@dataclass(frozen=True)
class Conjecture:
    """A result of the note that is not formalised: a proof sketch or a conjecture.

    ``hypotheses`` are read "if …, and …", ``conclusion`` "then …" (as a library statement);
    ``source`` says where the note states it; ``comment`` what stands between it and a proof
    (or a Lean statement) and what evidence there is.
    """

    key: str
    title: str
    status: str                      # one of STATUSES
    source: str
    hypotheses: tuple[str, ...]
    conclusion: str
    comment: str

    @property
    def label(self) -> str:
        return "rem:beyond-" + self.key.replace("_", "-")

    @property
    def sentence(self) -> str:
        """The statement as one sentence: "If H1, and H2, then C."."""
        return f"If {', and '.join(self.hypotheses)}, then {self.conclusion}."

    def to_dict(self) -> dict:
        return {"key": self.key, "title": self.title, "status": self.status,
                "source": self.source, "label": self.label,
                "hypotheses": list(self.hypotheses), "conclusion": self.conclusion,
                "statement": self.sentence, "comment": self.comment}


_GENERIC = (r"the weights $(B_\ell, A_\ell)$ of every layer are nondegenerate and satisfy "
            r"(ND)")

CONJECTURES: tuple[Conjecture, ...] = (
    Conjecture(
        "theorem_d", "Theorem D of the note: d = 2, homeomorphic regime", "proof sketch",
        "deep-stacks.md, section 2, Theorem D",
        (r"$d = 2$ and $n\geq 4$",
         r"every residual block $R_\ell$ is a homeomorphism of $\mathbb{R}^2$ (for example "
         r"$\lVert B_\ell\rVert\,\lVert A_\ell\rVert < 1$)",
         r"the $2nL$ kink rays of $F$ are pairwise distinct and no two rays coming from layers "
         r"$\ell\geq 2$ are antipodal (generic non-coincidence)",
         r"the rows of $A_1$ are pairwise non-parallel and the first layer violates the "
         r"S-condition: $B_1 D_S A_1\neq -I_2$ for every $S$"),
        r"$F$ is not a plain stack of $L'\leq L$ blocks of width $n$; more generally, "
        r"$F\neq G$ for every plain stack $G$ with $n'_1 = n$ and "
        r"$n'_1 + \dots + n'_{L'}\leq nL$",
        r"The note gives a proof sketch (it counts kink rays, uses invariance of domain to "
        r"make every plain block a homeomorphism, and reduces to the paper's single-block "
        r"theorem on the first layer), not a proof; it needs piecewise-linear topology that "
        r"neither the Lean library nor Mathlib provides in usable form, so there is no Lean "
        r"statement. Numerically, random weights of scale $s$ give homeomorphic blocks in all "
        r"of 300 draws at $s\leq 0.5$ but only in 74 to 81 percent at $s = 1$ (the default "
        r"scale of the experiments below), so Theorem D covers most, not all, of their "
        r"targets."),
    Conjecture(
        "same_depth", "Deep stacks of the same depth, outside Theorem D", "conjecture",
        "deep-stacks.md, sections 0 and 3",
        (r"$d\geq 2$ and $n\geq 2d$", _GENERIC,
         r"$d\geq 3$, or $d = 2$ and some block $R_\ell$ is not a homeomorphism (the cases "
         r"Theorem D leaves open)"),
        r"$F$ is not a plain stack of $L'\leq L$ blocks of width $n$",
        r"For $n < 2d$ this is Theorem B of the note (proved there; its version for small "
        r"weights is stated in Lean above). For $d\geq 3$ the kink set of $F$ no longer splits "
        r"into one sheet per unit, and without injectivity the count of kink rays of "
        r"Theorem D fails. Numerical evidence only: the note's experiments found no exact fit "
        r"of a generic target at the same width (about 330 starts over all its shapes), and "
        r"the table below has such shapes (its conclusion column says whether their controls "
        r"were exact from random starts, the only case it counts as a dichotomy)."),
    Conjecture(
        "deeper", "Deeper plain stacks", "conjecture", "deep-stacks.md, sections 0 and 3",
        (r"$d\geq 2$ and $n\geq 2d$", _GENERIC),
        r"$F$ is not a plain stack of $L' > L$ blocks of width $n$ either",
        r"The count of kink rays of Theorem D does not bind when $L' > L$. Numerical evidence "
        r"only: the note's experiment with one more plain block than residual ones found no "
        r"exact fit, and the table below has such a shape (its conclusion column says whether "
        r"its controls were exact from random starts, the only case it counts as a "
        r"dichotomy)."),
)


# -- the numerical evidence --------------------------------------------------------------------

EVIDENCE_SCHEMA = "leanbridge.deep-evidence/1"
EVIDENCE_RESOURCE = "data/deep-evidence.json"
#: The command that writes the committed table (run from the repository root).
REGENERATE = "python benchmarks/bench_deep.py --write leanbridge/data/deep-evidence.json"


class EvidenceError(ValueError):
    """The evidence file is missing or not a ``leanbridge.deep-evidence/1`` table."""


#: The kinds of start of a fit, in the order the tables print them: random starts, and
#: informed ones (the known exact solution of a control, or the nearest planted one for the
#: generic target, jittered by 3 percent).
KINDS = ("random", "informed")


@dataclass(frozen=True)
class EvidenceKind:
    """The starts of one kind in one fit: the best held-out relative error (None: the fit had
    no start of this kind) and the starts that were exact."""

    best: float | None
    exact_starts: int
    starts: int

    @property
    def cell(self) -> str:
        """"2.4e-02 (0/6)": the best error, then the exact starts out of this kind's starts;
        "none" when the fit had no start of this kind."""
        if not self.starts or self.best is None:
            return "none"
        return f"{self.best:.1e} ({self.exact_starts}/{self.starts})"


@dataclass(frozen=True)
class EvidenceFit:
    """One fit of a row: the best held-out relative error and the starts that were exact,
    overall and per kind of start (:data:`KINDS`)."""

    best: float
    exact_starts: int
    starts: int
    depth: int
    width: int
    exact_representation_known: bool
    random: EvidenceKind
    informed: EvidenceKind

    def kind(self, kind: str) -> EvidenceKind:
        return {"random": self.random, "informed": self.informed}[kind]

    @property
    def cell(self) -> str:
        """"random 2.4e-02 (0/6); informed 3.0e-16 (1/2)": per kind of start, the best
        error and the exact starts out of that kind's starts."""
        return "; ".join(f"{kind} {self.kind(kind).cell}" for kind in KINDS)

    @property
    def shape(self) -> str:
        return f"{self.depth} × {self.width}"


@dataclass(frozen=True)
class EvidenceRow:
    """One shape of the table: the target (d, n, L), the plain shape L' × n', the fits."""

    d: int
    n: int
    L: int
    Lp: int
    width: int
    seed: int
    note_says: str
    generic: EvidenceFit
    planted: EvidenceFit
    width_control: EvidenceFit
    conclusion: str

    @property
    def shape(self) -> str:
        return f"{self.Lp} × {self.width}"


@dataclass(frozen=True)
class Evidence:
    """The table as the file holds it (``data``: the file's JSON, verbatim)."""

    data: dict
    rows: tuple[EvidenceRow, ...]

    @property
    def command(self) -> str:
        return self.data["command"]

    @property
    def tangent(self) -> list[dict]:
        return self.data.get("tangent", [])

    @property
    def exact_threshold(self) -> str:
        """The exact threshold as the tables print it: "1e-8"."""
        return short_float(self.data["exact_threshold"])

    @property
    def floor_threshold(self) -> str:
        return short_float(self.data["floor_threshold"])

    @property
    def tangent_all_expected(self) -> bool:
        """Every tangent excess equals d² (the theorem's prediction for one block)."""
        return all(t["excess"] == t["expected"] for t in self.tangent)


def short_float(value: float) -> str:
    """A threshold in the shortest scientific form: 1e-08 → "1e-8"."""
    mantissa, exponent = f"{value:.0e}".split("e")
    return f"{mantissa}e{int(exponent)}"


def _kind(raw: dict) -> EvidenceKind:
    best = raw["best_relative_error"]
    return EvidenceKind(None if best is None else float(best), int(raw["exact_starts"]),
                        int(raw["starts"]))


def _fit(raw: dict) -> EvidenceFit:
    return EvidenceFit(float(raw["best_relative_error"]), int(raw["exact_starts"]),
                       int(raw["starts"]), int(raw["depth"]), int(raw["width"]),
                       bool(raw["exact_representation_known"]), _kind(raw["random"]),
                       _kind(raw["informed"]))


def parse_evidence(data: object) -> Evidence:
    """The table of a parsed ``leanbridge.deep-evidence/1`` file (raises
    :class:`EvidenceError`)."""
    if not isinstance(data, dict) or data.get("schema") != EVIDENCE_SCHEMA:
        raise EvidenceError(f"the evidence table is not a {EVIDENCE_SCHEMA} file")
    try:
        rows = tuple(
            EvidenceRow(int(r["d"]), int(r["n"]), int(r["L"]), int(r["Lp"]), int(r["width"]),
                        int(r["seed"]), str(r["note_says"]), _fit(r["generic"]),
                        _fit(r["planted"]), _fit(r["width_control"]), str(r["conclusion"]))
            for r in data["rows"])
        str(data["command"]), float(data["exact_threshold"]), float(data["floor_threshold"])
        [(int(t["d"]), int(t["n"]), int(t["excess"]), int(t["expected"]))
         for t in data.get("tangent", [])]
    except (KeyError, TypeError, ValueError) as exc:
        raise EvidenceError(f"the evidence table is malformed ({type(exc).__name__}: {exc}); "
                            f"regenerate it: {REGENERATE}") from None
    if not rows:
        raise EvidenceError(f"the evidence table has no rows; regenerate it: {REGENERATE}")
    return Evidence(data, rows)


def load_evidence() -> Evidence:
    """The committed table, ``leanbridge/data/deep-evidence.json`` (shipped in the wheel)."""
    try:
        text = resources.files("leanbridge").joinpath(EVIDENCE_RESOURCE).read_text(
            encoding="utf-8")
        data = json.loads(text)
    except (OSError, UnicodeDecodeError, json.JSONDecodeError) as exc:
        raise EvidenceError(f"cannot read the evidence table leanbridge/{EVIDENCE_RESOURCE} "
                            f"({exc}); regenerate it: {REGENERATE}") from None
    return parse_evidence(data)
