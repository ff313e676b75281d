"""The Lean library's general theorems as a paper states them: one entry per theorem.

The exports (LaTeX, Markdown, JSON, blueprint) print the general theorems from
:data:`LIBRARY_STATEMENTS` and nothing else: to export a new theorem of ``lean/SkipAbsorption``,
add one :class:`LibraryStatement` here (its Lean name, the group it belongs to, the paper
result, its hypotheses and its conclusion), its title in :data:`TITLES` and, for the blueprint,
its informal proof in :data:`PROOFS` (and the Mathlib facts it rests on in
:data:`MATHLIB_FACTS`). ``tests/test_export.py`` checks that every entry
names a theorem declared in ``lean/`` and that every general theorem the family files
instantiate has an entry.

Texts are LaTeX *text* with mathematics in ``$…$`` only, so that the same string is valid
LaTeX, valid blueprint content and Markdown with ``$…$`` math: no text-mode macros, no ``--``,
no ``|`` (write ``\\lvert``/``\\rvert``), no ``\\{`` (write ``\\lbrace``/``\\rbrace``), ASCII only.
They use the notation of :data:`NOTATION`.
"""

from __future__ import annotations

from dataclasses import dataclass

from leanbridge.lean import library

#: Group key → heading. A group is one theorem of the exported document (its entries are the
#: numbered parts). Add a group here before using it in an entry.
GROUPS: dict[str, str] = {
    "degree": "Degree argument",
    "linearisation": "Linearisation at the origin",
    "even_parity": "Even activations",
    "odd_linear_parity": "Odd-linear activations: the S-condition",
    "relu_characterisation": "ReLU: the S-condition is necessary and sufficient",
    "pre_norm": "Pre-norm blocks: the residual stream",
    "gelu_characterisation": "GELU: the S-condition is necessary and sufficient",
    "beyond_width": "Beyond the paper: width",
    "beyond_depth": "Beyond the paper: depth",
    "beyond_recession": "Beyond the paper: the large-scale limit",
    "beyond_biases": "Beyond the paper: biases",
    "beyond_leaky": "Beyond the paper: activations with a kink (Leaky ReLU)",
}

#: The groups whose theorems are not in the paper (they come from this project's research note,
#: ``deep-stacks.md``). The exports print them after the paper's results, under the heading
#: "Beyond the paper", with the note's results that are not formalised
#: (:mod:`leanbridge.beyond`). They are the last groups of :data:`GROUPS`.
BEYOND_GROUPS: tuple[str, ...] = ("beyond_width", "beyond_depth", "beyond_recession",
                                  "beyond_biases", "beyond_leaky")

#: The notation every entry uses, stated once at the top of an export.
NOTATION = (
    r"For $d, n\in\mathbb{N}$, an ungated block of width $n$ with activation "
    r"$\sigma\colon\mathbb{R}\to\mathbb{R}$ is "
    r"$B_W(x) = W_{\mathrm{down}}\,\sigma(W_{\mathrm{up}}x)$ with "
    r"$W = (W_{\mathrm{down}}, W_{\mathrm{up}})\in\mathbb{R}^{d\times n}\times"
    r"\mathbb{R}^{n\times d}$, $\sigma$ applied entrywise; a gated block with gate $g$ is "
    r"$B_W(x) = W_{\mathrm{down}}\bigl(g(W_{\mathrm{gate}}x)\odot W_{\mathrm{val}}x\bigr)$ "
    r"with $W = (W_{\mathrm{down}}, W_{\mathrm{gate}}, W_{\mathrm{val}})$. "
    r"A block $B_W$ absorbs the skip $A\in\mathbb{R}^{d\times d}$ if there are weights $V$ of "
    r"the same shapes with $Ax + B_W(x) = B_V(x)$ for all $x\in\mathbb{R}^d$. "
    r"For $S\subseteq\lbrace 1,\dots,n\rbrace$, $D_S\in\mathbb{R}^{n\times n}$ is the diagonal "
    r"matrix with $(D_S)_{ii} = 1$ for $i\in S$ and $0$ otherwise. "
    r"The weights $W$ of an ungated block are nondegenerate if every row of "
    r"$W_{\mathrm{up}}$ is nonzero, no two rows of $W_{\mathrm{up}}$ are parallel, and every "
    r"column of $W_{\mathrm{down}}$ is nonzero (the paper's genericity condition, as "
    r"reconstructed)."
)


#: Characters a blueprint label cannot hold as text: the graph shows a label's text after its
#: last ``:``, ``\\uses`` splits at commas, and the rest is LaTeX syntax.
_NOT_IN_NODE = str.maketrans({c: " " for c in ",:\\{}%#$^~&"})


#: The LaTeX of the titles, in plain Unicode text (:func:`plain_text`).
_PLAIN = ((r"\sigma", "σ"), (r"\neq", " ≠ "), (r"\geq", " ≥ "), (r"\leq", " ≤ "),
          ("$", ""), ("'", "′"))


def plain_text(latex: str) -> str:
    """A title's LaTeX text as plain Unicode text: "$k\\neq 1$" reads "k ≠ 1"."""
    for macro, char in _PLAIN:
        latex = latex.replace(macro, char)
    return " ".join(latex.split())


def node_text(text: str) -> str:
    """``text`` as the readable part of a blueprint label (the name of a dependency-graph
    node): the characters a label cannot hold become spaces."""
    return " ".join(text.translate(_NOT_IN_NODE).split())


@dataclass(frozen=True)
class LibraryStatement:
    """One general theorem of the Lean library, as exported.

    ``lean`` is the name inside ``namespace SkipAbsorption``; ``group`` a key of
    :data:`GROUPS`; ``paper`` the paper's result (``None`` when it is not in the paper);
    ``hypotheses`` are read "if …, and …", ``conclusion`` "then …" (the hypotheses on the
    activation; the conclusion quantifies over the dimensions, skips and weights).
    """

    lean: str
    group: str
    paper: str | None
    hypotheses: tuple[str, ...]
    conclusion: str

    @property
    def full_name(self) -> str:
        return f"{library.NAMESPACE}.{self.lean}"

    @property
    def label(self) -> str:
        return "thm:lib-" + self.lean.replace("_", "-")

    @property
    def beyond_the_paper(self) -> bool:
        """Not a result of the paper (one of :data:`BEYOND_GROUPS`)."""
        return self.group in BEYOND_GROUPS

    @property
    def title(self) -> str:
        """What the statement says, in plain words (:data:`TITLES`; the group's heading for an
        entry that has none yet). Plain Unicode text: also the node's name in the blueprint's
        dependency graph."""
        return TITLES.get(self.lean, GROUPS[self.group])

    @property
    def full_title(self) -> str:
        """The title, then the paper's reference: "… (paper Prop 5)"."""
        return f"{self.title} (paper {self.paper})" if self.paper else self.title

    @property
    def node_label(self) -> str:
        """The blueprint label: its text after ``thm:`` is what the dependency graph shows."""
        return "thm:" + node_text(plain_text(self.full_title))

    @property
    def proof(self) -> str | None:
        """The informal proof (:data:`PROOFS`), or None."""
        return PROOFS.get(self.lean)

    @property
    def mathlib(self) -> tuple["MathlibFact", ...]:
        """The Mathlib facts the Lean proof rests on, as far as the export knows them."""
        return tuple(f for f in MATHLIB_FACTS if self.lean in f.used_by)

    @property
    def sentence(self) -> str:
        """The statement as one sentence: "If H1, and H2, then C."."""
        if not self.hypotheses:
            return self.conclusion[:1].upper() + self.conclusion[1:] + "."
        return f"If {', and '.join(self.hypotheses)}, then {self.conclusion}."

    def to_dict(self) -> dict:
        return {"lean_name": self.full_name, "group": self.group, "paper": self.paper,
                "title": self.title, "label": self.label, "hypotheses": list(self.hypotheses),
                "conclusion": self.conclusion, "statement": self.sentence,
                "beyond_the_paper": self.beyond_the_paper}


_HOM_SIGMA = (r"for some $k\in\mathbb{N}$ with $k\neq 1$, $\sigma(tz) = t^k\sigma(z)$ for all "
              r"$t > 0$ and $z\in\mathbb{R}$ ($\sigma$ is positively homogeneous of degree $k$)")
_HOM_GATE = (r"for some $m\in\mathbb{N}$ with $m\neq 0$, $g(tz) = t^m g(z)$ for all $t > 0$ "
             r"and $z\in\mathbb{R}$ (so the block is positively homogeneous of degree "
             r"$m + 1\neq 1$)")
_HOM_SIGMA_REAL = (r"for some real $k\neq 1$, $\sigma(tz) = t^k\sigma(z)$ for all $t > 0$ and "
                   r"$z\in\mathbb{R}$ ($\sigma$ is positively homogeneous of degree $k$)")
_HOM_GATE_REAL = (r"for some real $m\neq 0$, $g(tz) = t^m g(z)$ for all $t > 0$ and "
                  r"$z\in\mathbb{R}$ (so the block is positively homogeneous of degree "
                  r"$m + 1\neq 1$)")
_RELU = r"$\sigma(z) = \max(z, 0)$ (ReLU)"
_NONDEGENERATE = r"the weights $W$ are nondegenerate"
_S_CONDITION = r"$W_{\mathrm{down}}\,D_S\,W_{\mathrm{up}} = {rhs}$"
_CONTRACTING = (r"each residual branch $B_{W^{(\ell)}}$ is Lipschitz with a constant "
                r"$K_\ell < 1$ for the sup norm on $\mathbb{R}^d$")
_ND = (r"$\det(I_d + W_{\mathrm{down}}\,D_S\,W_{\mathrm{up}})\neq 0$ for every "
       r"$S\subseteq\lbrace 1,\dots,n\rbrace$ (condition (ND))")
_NORMED = (r"$E$ is a normed additive commutative group (for example $\mathbb{R}^d$ with the "
           r"sup norm)")
_SCALAR_STACK = (r"$d = 1$ and $F$ is a composition of residual ReLU blocks "
                 r"$x\mapsto x + \sum_i b_i\max(a_i x, 0)$ on $\mathbb{R}$ (any depth and "
                 r"widths)")
_PRE_NORM_MAPS = (r"$N, F, G\colon\mathbb{R}^d\to\mathbb{R}^d$ (a pre-norm block computes "
                  r"$h + F(N(h))$: the skip carries $h$, the MLP $F$ reads the normalised "
                  r"$N(h)$)")
_LITTLE_O = r"$\sigma(z) = o(z)$ as $z\to 0$"
#: Lean's ``Tendsto g (𝓝 0) (𝓝 0)``: the neighbourhood filter is not punctured, so it says
#: g(0) = 0 as well as g(z) → 0 (read as a punctured limit, "g(z) → 0" alone would be false).
_TENDSTO = r"$g$ is continuous at $0$ and $g(0) = 0$"
# the large-scale limit (issue 22, ../shared/research/recession.md)
_TO = (r"$\sigma(tz)/t\to {rho}$ as $t\to\infty$, for every $z\in\mathbb{R}$ (the "
       r"large-scale limit of $\sigma$)")
_BOUNDED = (r"$\sigma$ is bounded: $\lvert\sigma(z)\rvert\leq M$ for some $M$ and all "
            r"$z\in\mathbb{R}$")
_ODD_ONE = r"$\sigma(z) - \sigma(-z) = z$ for all $z\in\mathbb{R}$"
_GELU = r"$\sigma(z) = z\,\Phi(z)$ (GELU, $\Phi$ the standard normal distribution function)"
_GELU_TANH = (r"$\sigma(z) = \tfrac{z}{2}\bigl(1 + \tanh(\sqrt{2/\pi}\,(z + 0.044715\,z^3))"
              r"\bigr)$ (GELU, tanh approximation)")
_SWISH = r"$\sigma(z) = z/(1 + e^{-z})$ (SiLU, Swish)"
_SOFTPLUS = r"$\sigma(z) = \log(1 + e^{z})$ (softplus)"
_TANH = r"$\sigma = \tanh$"
_SIGMOID = r"$\sigma(z) = 1/(1 + e^{-z})$ (sigmoid)"
_IFF = (r"the block $B_W$ absorbs the identity skip if and only if some "
        r"$S\subseteq\lbrace 1,\dots,n\rbrace$ satisfies "
        r"$W_{\mathrm{down}}\,D_S\,W_{\mathrm{up}} = -I_d$")
_IFF_SKIP = (r"the block $B_W$ absorbs the skip $A$ if and only if some "
             r"$S\subseteq\lbrace 1,\dots,n\rbrace$ satisfies "
             r"$W_{\mathrm{down}}\,D_S\,W_{\mathrm{up}} = -A$")
_NO_SKIP = r"for all $d, n$ and all weights, no ungated block with activation $\sigma$ absorbs a skip $A\neq 0$"
_BIASED = (r"the biased block $x\mapsto W_{\mathrm{down}}\,\sigma(W_{\mathrm{up}}x + b) + e$ "
           r"($b\in\mathbb{R}^n$, $e\in\mathbb{R}^d$) absorbs the {skip} when some biased "
           r"block $x\mapsto V_{\mathrm{down}}\,\sigma(V_{\mathrm{up}}x + b') + e'$ of the "
           r"same width, with biases of its own, equals $x\mapsto {Ax}W_{\mathrm{down}}\,"
           r"\sigma(W_{\mathrm{up}}x + b) + e$")
_BIASED_IFF = (_BIASED.replace("{skip}", "identity skip").replace("{Ax}", "x + ")
               + r"; for all $b$ and $e$ it does if and only if some "
                 r"$S\subseteq\lbrace 1,\dots,n\rbrace$ satisfies "
                 r"$W_{\mathrm{down}}\,D_S\,W_{\mathrm{up}} = -I_d$ (the biases never matter)")
_BIASED_NEVER = (_BIASED.replace("{skip}", "skip $A$").replace("{Ax}", "Ax + ")
                 + r"; for all $d, n$, weights and biases, it absorbs no skip $A\neq 0$")
_EVEN = r"$\sigma(-z) = \sigma(z)$ for all $z\in\mathbb{R}$ ($\sigma$ is even)"
_STACKS = (r"for $d\geq 1$ and all blocks $B_{W^{(1)}},\dots,B_{W^{(L)}}$ ($L\geq 0$) and "
           r"$B_{V^{(1)}},\dots,B_{V^{(L')}}$ ($L'\geq 1$) of width $n$ with {what}, the "
           r"composition of the residual blocks $x\mapsto x + B_{W^{(\ell)}}(x)$ differs from "
           r"the composition of the blocks $B_{V^{(\ell)}}$")

LIBRARY_STATEMENTS: tuple[LibraryStatement, ...] = (
    LibraryStatement(
        "not_absorbable_of_posHomogeneous", "degree", "Prop 5", (_HOM_SIGMA,),
        r"for all $d, n$, no ungated block with activation $\sigma$ absorbs a skip "
        r"$A\neq 0$"),
    LibraryStatement(
        "not_gatedAbsorbable_of_posHomogeneous", "degree", "Prop 5", (_HOM_GATE,),
        r"for all $d, n$, no gated block with gate $g$ absorbs a skip $A\neq 0$"),
    LibraryStatement(
        "isLittleO_of_posHomogeneous", "linearisation", "Cor 7",
        (r"for some $k\in\mathbb{N}$ with $k > 1$, $\sigma(tz) = t^k\sigma(z)$ for all $t > 0$ "
         r"and $z\in\mathbb{R}$",),
        r"$\sigma(z) = o(z)$ as $z\to 0$"),
    LibraryStatement(
        "not_absorbable_of_isLittleO", "linearisation", "Prop 6", (_LITTLE_O,),
        r"for $d\geq 1$, no ungated block with activation $\sigma$ absorbs the identity "
        r"skip $A = I_d$"),
    LibraryStatement(
        "not_absorbable_of_isLittleO_of_isUnit", "linearisation", "Prop 6 and Lemma 4",
        (_LITTLE_O,),
        r"for $d\geq 1$, no ungated block with activation $\sigma$ absorbs an invertible "
        r"skip $A$"),
    LibraryStatement(
        "not_mlpStack_eq_of_isLittleO", "linearisation", "Cor 7", (_LITTLE_O,),
        _STACKS.replace("{what}", r"activation $\sigma$")),
    LibraryStatement(
        "not_gatedAbsorbable_of_tendsto", "linearisation", "Prop 6", (_TENDSTO,),
        r"for $d\geq 1$, no gated block with gate $g$ absorbs the identity skip $A = I_d$"),
    LibraryStatement(
        "not_gatedAbsorbable_of_tendsto_of_isUnit", "linearisation", "Prop 6 and Lemma 4",
        (_TENDSTO,),
        r"for $d\geq 1$, no gated block with gate $g$ absorbs an invertible skip $A$"),
    LibraryStatement(
        "not_gatedMlpStack_eq_of_tendsto", "linearisation", "Cor 7", (_TENDSTO,),
        _STACKS.replace("{what}", r"gate $g$")),
    LibraryStatement(
        "not_absorbable_of_even", "even_parity", None, (_EVEN,),
        r"for $d\geq 1$, no ungated block with activation $\sigma$ absorbs the identity "
        r"skip $A = I_d$"),
    LibraryStatement(
        "not_absorbable_of_even_of_ne_zero", "even_parity", None, (_EVEN,),
        r"for all $d, n$, no ungated block with activation $\sigma$ absorbs a skip "
        r"$A\neq 0$"),
    LibraryStatement(
        "absorbable_of_sCondition", "odd_linear_parity", "Thm 8 and Thm 10, sufficiency",
        (r"$\sigma(z) - \sigma(-z) = c\,z$ for all $z\in\mathbb{R}$, with $c\neq 0$",
         r"$S\subseteq\lbrace 1,\dots,n\rbrace$ satisfies "
         r"$W_{\mathrm{down}}\,D_S\,W_{\mathrm{up}} = -\tfrac{1}{c}\,I_d$"),
        r"the ungated block $B_W$ with activation $\sigma$ absorbs the identity skip: "
        r"$V_{\mathrm{down}} = W_{\mathrm{down}}$ with $V_{\mathrm{up}}$ equal to "
        r"$W_{\mathrm{up}}$ with the rows in $S$ negated gives $x + B_W(x) = B_V(x)$"),
    LibraryStatement(
        "not_absorbable_of_posHomogeneous_rpow", "degree", "Prop 5, real degrees",
        (_HOM_SIGMA_REAL,),
        r"for all $d, n$, no ungated block with activation $\sigma$ absorbs a skip "
        r"$A\neq 0$"),
    LibraryStatement(
        "not_gatedAbsorbable_of_posHomogeneous_rpow", "degree", "Prop 5, real degrees",
        (_HOM_GATE_REAL,),
        r"for all $d, n$, no gated block with gate $g$ absorbs a skip $A\neq 0$"),
    LibraryStatement(
        "exists_sCondition_of_absorbable_relu", "relu_characterisation", "Thm 8, necessity",
        (_RELU, _NONDEGENERATE, r"the block $B_W$ absorbs the identity skip $A = I_d$"),
        r"some $S\subseteq\lbrace 1,\dots,n\rbrace$ satisfies "
        + _S_CONDITION.replace("{rhs}", r"-I_d")),
    LibraryStatement(
        "absorbable_relu_iff", "relu_characterisation", "Thm 8", (_RELU, _NONDEGENERATE),
        r"the block $B_W$ absorbs the identity skip if and only if some "
        r"$S\subseteq\lbrace 1,\dots,n\rbrace$ satisfies "
        + _S_CONDITION.replace("{rhs}", r"-I_d")),
    LibraryStatement(
        "absorbable_relu_iff_of_isUnit_det", "relu_characterisation", "Thm 8 and Lemma 4",
        (_RELU, _NONDEGENERATE, r"$A\in\mathbb{R}^{d\times d}$ is invertible"),
        r"the block $B_W$ absorbs the skip $A$ if and only if some "
        r"$S\subseteq\lbrace 1,\dots,n\rbrace$ satisfies "
        + _S_CONDITION.replace("{rhs}", r"-A")),
    LibraryStatement(
        "card_le_of_sCondition", "relu_characterisation", "Thm 8, the bound on S",
        (r"$c\neq 0$", r"$S\subseteq\lbrace 1,\dots,n\rbrace$ satisfies "
         + _S_CONDITION.replace("{rhs}", r"-\tfrac{1}{c}\,I_d")),
        r"$S$ has at least $d$ elements"),
    LibraryStatement(
        "volume_sCondition_eq_zero", "relu_characterisation", "Cor 11, for a fixed up-projection",
        (r"$d\geq 1$", r"$W_{\mathrm{up}}\in\mathbb{R}^{n\times d}$ is fixed"),
        r"the set of $W_{\mathrm{down}}\in\mathbb{R}^{d\times n}$ for which some "
        r"$S\subseteq\lbrace 1,\dots,n\rbrace$ satisfies "
        + _S_CONDITION.replace("{rhs}", r"-I_d")
        + r" has Lebesgue measure zero"),
    LibraryStatement(
        "volume_sCondition_joint_eq_zero", "relu_characterisation", "Cor 11",
        (r"$d\geq 1$",),
        r"the set of pairs $(W_{\mathrm{up}}, W_{\mathrm{down}})\in\mathbb{R}^{n\times d}\times"
        r"\mathbb{R}^{d\times n}$ for which some $S\subseteq\lbrace 1,\dots,n\rbrace$ satisfies "
        + _S_CONDITION.replace("{rhs}", r"-I_d")
        + r" has Lebesgue measure zero (for the product of the Lebesgue measures)"),
    LibraryStatement(
        "not_residual_eq_of_bounded_norm", "pre_norm", None,
        (_PRE_NORM_MAPS, r"$d\geq 1$",
         r"$N$ has bounded output: $\lVert N(h)\rVert\leq R$ for some $R$ and all $h$ (as "
         r"LayerNorm and RMSNorm have, with $\varepsilon > 0$ and a finite gain)",
         r"$F$ and $G$ are continuous"),
        r"$h + F(N(h))\neq G(N(h))$ for some $h\in\mathbb{R}^d$: no continuous function of "
        r"$N(h)$ absorbs the residual of a pre-norm block"),
    LibraryStatement(
        "not_residual_eq_of_not_injective", "pre_norm", None,
        (_PRE_NORM_MAPS,
         r"$N(h_1) = N(h_2)$ for some $h_1\neq h_2$ (LayerNorm forgets the mean: "
         r"$N(h + c\mathbf{1}) = N(h)$)"),
        r"no function $G$ at all satisfies $h + F(N(h)) = G(N(h))$ for all "
        r"$h\in\mathbb{R}^d$"),
    LibraryStatement(
        "absorbable_gelu_iff", "gelu_characterisation", "Thm 10", (_GELU, _NONDEGENERATE),
        _IFF + r" (proved here by the large-scale limit, not by the paper's ridge-function "
               r"argument)"),
    LibraryStatement(
        "absorbable_gelu_iff_of_isUnit_det", "gelu_characterisation", "Thm 10 and Lemma 4",
        (_GELU, _NONDEGENERATE, r"$A\in\mathbb{R}^{d\times d}$ is invertible"), _IFF_SKIP),
    LibraryStatement(
        "absorbableWithWidth_add_of_linearIndependent", "beyond_width", None,
        (_RELU, r"some $d$ rows of $W_{\mathrm{up}}$ are linearly independent"),
        r"some ungated ReLU block of width $n + d$ equals $x\mapsto x + B_W(x)$"),
    LibraryStatement(
        "exists_rank_le_of_absorbableWithWidth", "beyond_width", None,
        (_RELU, _NONDEGENERATE, r"some ungated ReLU block of width $n'$ equals "
         r"$x\mapsto x + B_W(x)$"),
        r"some $S\subseteq\lbrace 1,\dots,n\rbrace$ has "
        r"$n + \operatorname{rank}(I_d + W_{\mathrm{down}}\,D_S\,W_{\mathrm{up}})\leq n'$"),
    LibraryStatement(
        "exists_sCondition_of_absorbableWithWidth_self", "beyond_width", None,
        (_RELU, _NONDEGENERATE, r"some ungated ReLU block of the same width $n$ equals "
         r"$x\mapsto x + B_W(x)$"),
        r"some $S\subseteq\lbrace 1,\dots,n\rbrace$ satisfies "
        + _S_CONDITION.replace("{rhs}", r"-I_d")
        + r" (the case $n' = n$ of the rank bound: the paper's Thm 8, necessity, obtained "
          r"again from the width argument)"),
    LibraryStatement(
        "le_width_of_absorbableWithWidth", "beyond_width", None,
        (_RELU, _NONDEGENERATE, _ND,
         r"some ungated ReLU block of width $n'$ equals $x\mapsto x + B_W(x)$"),
        r"$n'\geq n + d$"),
    LibraryStatement(
        "absorbableWithWidth_relu_iff", "beyond_width", None,
        (_RELU, _NONDEGENERATE, _ND,
         r"some $d$ rows of $W_{\mathrm{up}}$ form an invertible matrix"),
        r"some ungated ReLU block of width $n'$ equals $x\mapsto x + B_W(x)$ if and only if "
        r"$n'\geq n + d$"),
    LibraryStatement(
        "not_injective_mlp_relu_of_lt_two_mul", "beyond_depth", None,
        (_RELU, r"the width satisfies $n < 2d$"),
        r"the block $B_W\colon\mathbb{R}^d\to\mathbb{R}^d$ is not injective"),
    LibraryStatement(
        "injective_add_of_lipschitzWith", "beyond_depth", None,
        (_NORMED, r"$f\colon E\to E$ is Lipschitz with a constant $K < 1$"),
        r"the residual map $x\mapsto x + f(x)$ is injective"),
    LibraryStatement(
        "injective_resStack", "beyond_depth", None,
        (_NORMED, r"$f_1,\dots,f_L\colon E\to E$ ($L\geq 0$) are each Lipschitz with a "
         r"constant $K_\ell < 1$"),
        r"the composition of the residual maps $x\mapsto x + f_\ell(x)$ is injective"),
    LibraryStatement(
        "resStack_ne_plainStack_of_lt_two_mul", "beyond_depth", None,
        (_CONTRACTING, r"the first block of a composition $G$ of maps of $\mathbb{R}^d$ is a "
         r"ReLU block of width $n' < 2d$"),
        r"the composition of the residual blocks $x\mapsto x + B_{W^{(\ell)}}(x)$ differs from "
        r"$G$ (at any depths, whatever the later maps of $G$)"),
    LibraryStatement(
        "resStack_eq_plainStack_width_two", "beyond_depth", None, (_SCALAR_STACK,),
        r"for every $L'\geq 1$, $F$ equals a composition of $L'$ ReLU blocks of width $2$ "
        r"without skips"),
    LibraryStatement(
        "resStack_eq_plainStack_width_one_iff", "beyond_depth", None, (_SCALAR_STACK,),
        r"for every $L'\geq 1$, $F$ equals a composition of $L'$ ReLU blocks of width $1$ "
        r"without skips if and only if $F$ vanishes on a closed half-line"),
    # -- the large-scale limit (issue 22; recession.md, results of this project) ------------
    LibraryStatement(
        "absorbable_of_tendsto_div", "beyond_recession", None,
        (_TO.replace("{rho}", r"\rho(z)") + r", for some $\rho\colon\mathbb{R}\to\mathbb{R}$",),
        r"for all $d, n$, skips $A$ and weights $W$, $V$: if "
        r"$Ax + W_{\mathrm{down}}\,\sigma(W_{\mathrm{up}}x) = V_{\mathrm{down}}\,"
        r"\sigma(V_{\mathrm{up}}x)$ for all $x$, then the same holds with $\rho$ in place of "
        r"$\sigma$ (R1: the identity at $tx$, divided by $t$, as $t\to\infty$)"),
    LibraryStatement(
        "eq_zero_of_absorbable_of_tendsto_div_zero", "beyond_recession", None,
        (_TO.replace("{rho}", "0"),), _NO_SKIP + r" (R2)"),
    LibraryStatement(
        "eq_zero_of_absorbable_of_bounded", "beyond_recession", None, (_BOUNDED,),
        _NO_SKIP + r" (R2)"),
    LibraryStatement("not_absorbable_tanh", "beyond_recession", None, (_TANH,), _NO_SKIP),
    LibraryStatement("not_absorbable_sigmoid", "beyond_recession", None, (_SIGMOID,), _NO_SKIP),
    LibraryStatement(
        "exists_sCondition_of_absorbable_of_tendsto_div_relu", "beyond_recession", None,
        (_TO.replace("{rho}", r"\max(z, 0)"), _NONDEGENERATE,
         r"the block $B_W$ absorbs the identity skip $A = I_d$"),
        r"some $S\subseteq\lbrace 1,\dots,n\rbrace$ satisfies "
        r"$W_{\mathrm{down}}\,D_S\,W_{\mathrm{up}} = -I_d$ (R3)"),
    LibraryStatement(
        "absorbable_iff_of_tendsto_div_relu", "beyond_recession", None,
        (_TO.replace("{rho}", r"\max(z, 0)"), _ODD_ONE, _NONDEGENERATE), _IFF + " (R3)"),
    LibraryStatement(
        "absorbable_iff_of_tendsto_div_relu_of_isUnit_det", "beyond_recession", None,
        (_TO.replace("{rho}", r"\max(z, 0)"), _ODD_ONE, _NONDEGENERATE,
         r"$A\in\mathbb{R}^{d\times d}$ is invertible"), _IFF_SKIP + " (R3 and Lemma 4)"),
    LibraryStatement("absorbable_geluTanh_iff", "beyond_recession", None,
                     (_GELU_TANH, _NONDEGENERATE), _IFF),
    LibraryStatement("absorbable_swish_iff", "beyond_recession", None,
                     (_SWISH, _NONDEGENERATE), _IFF),
    LibraryStatement("absorbable_softplus_iff", "beyond_recession", None,
                     (_SOFTPLUS, _NONDEGENERATE), _IFF),
    LibraryStatement("absorbable_geluTanh_iff_of_isUnit_det", "beyond_recession", None,
                     (_GELU_TANH, _NONDEGENERATE,
                      r"$A\in\mathbb{R}^{d\times d}$ is invertible"), _IFF_SKIP),
    LibraryStatement("absorbable_swish_iff_of_isUnit_det", "beyond_recession", None,
                     (_SWISH, _NONDEGENERATE,
                      r"$A\in\mathbb{R}^{d\times d}$ is invertible"), _IFF_SKIP),
    LibraryStatement("absorbable_softplus_iff_of_isUnit_det", "beyond_recession", None,
                     (_SOFTPLUS, _NONDEGENERATE,
                      r"$A\in\mathbb{R}^{d\times d}$ is invertible"), _IFF_SKIP),
    LibraryStatement(
        "gatedAbsorbable_of_gateParity", "beyond_recession", None,
        (r"$g(z) + g(-z) = c$ for all $z\in\mathbb{R}$, with $c\neq 0$",
         r"$S\subseteq\lbrace 1,\dots,n\rbrace$ satisfies "
         r"$W_{\mathrm{down}}\,D_S\,W_{\mathrm{val}} = -\tfrac{1}{c}\,A$ for a skip "
         r"$A\in\mathbb{R}^{d\times d}$"),
        r"the gated block $B_W$ with gate $g$ absorbs the skip $A$: "
        r"$V_{\mathrm{down}}$ and $V_{\mathrm{gate}}$ equal to $W_{\mathrm{down}}$ with the "
        r"columns in $S$ negated and $W_{\mathrm{gate}}$ with the rows in $S$ negated, and "
        r"$V_{\mathrm{val}} = W_{\mathrm{val}}$, give $Ax + B_W(x) = B_V(x)$ for all $x$ (gate "
        r"parity; whether the condition is also necessary is open)"),
    LibraryStatement(
        "gatedAbsorbable_sigmoid_of_sCondition", "beyond_recession", None,
        (r"$g(z) = 1/(1 + e^{-z})$ (GLU)",
         r"$S\subseteq\lbrace 1,\dots,n\rbrace$ satisfies "
         r"$W_{\mathrm{down}}\,D_S\,W_{\mathrm{val}} = -A$ for a skip "
         r"$A\in\mathbb{R}^{d\times d}$"),
        r"the gated block $B_W$ with gate $g$ absorbs the skip $A$ (the sigmoid gate has "
        r"$g(z) + g(-z) = 1$)"),
    # -- biases (R4) -----------------------------------------------------------------------
    LibraryStatement(
        "biasedAbsorbable_of_sCondition", "beyond_biases", None,
        (r"$\sigma(z) - \sigma(-z) = c\,z$ for all $z\in\mathbb{R}$, with $c\neq 0$",
         r"$S\subseteq\lbrace 1,\dots,n\rbrace$ satisfies "
         r"$W_{\mathrm{down}}\,D_S\,W_{\mathrm{up}} = -\tfrac{1}{c}\,A$ for a skip "
         r"$A\in\mathbb{R}^{d\times d}$"),
        r"for all $b\in\mathbb{R}^n$ and $e\in\mathbb{R}^d$, "
        r"$Ax + W_{\mathrm{down}}\,\sigma(W_{\mathrm{up}}x + b) + e = "
        r"W_{\mathrm{down}}\,\sigma(V_{\mathrm{up}}x + b') + e'$ for all $x$, with "
        r"$V_{\mathrm{up}}$ and $b'$ equal to $W_{\mathrm{up}}$ and $b$ with the rows and entries "
        r"in $S$ negated and $e' = e + c\,W_{\mathrm{down}}\,D_S\,b$"),
    LibraryStatement(
        "absorbable_of_biasedAbsorbable_of_tendsto", "beyond_biases", None,
        (r"$\sigma(tz + \beta)/t\to\rho(z)$ as $t\to\infty$, for every $z$ and "
         r"$\beta\in\mathbb{R}$, for some $\rho\colon\mathbb{R}\to\mathbb{R}$",),
        r"for all $d, n$, skips $A$, weights $W$, $V$ and biases $b, e, b', e'$: if "
        r"$Ax + W_{\mathrm{down}}\,\sigma(W_{\mathrm{up}}x + b) + e = V_{\mathrm{down}}\,"
        r"\sigma(V_{\mathrm{up}}x + b') + e'$ for all $x$, then "
        r"$Ax + W_{\mathrm{down}}\,\rho(W_{\mathrm{up}}x) = V_{\mathrm{down}}\,"
        r"\rho(V_{\mathrm{up}}x)$ for all $x$ (the biases drop out in the large-scale limit)"),
    *(LibraryStatement(f"biasedAbsorbable_{name}_iff", "beyond_biases", None,
                       (activation, _NONDEGENERATE), _BIASED_IFF)
      for name, activation in (("relu", _RELU), ("gelu", _GELU), ("geluTanh", _GELU_TANH),
                               ("swish", _SWISH), ("softplus", _SOFTPLUS))),
    LibraryStatement("eq_zero_of_biasedAbsorbable_of_bounded", "beyond_biases", None,
                     (_BOUNDED,), _BIASED_NEVER),
    LibraryStatement("not_biasedAbsorbable_tanh", "beyond_biases", None, (_TANH,),
                     _BIASED_NEVER),
    LibraryStatement("not_biasedAbsorbable_sigmoid", "beyond_biases", None, (_SIGMOID,),
                     _BIASED_NEVER),
    # -- activations a z + b |z| (recession.md §6): Thm 8's proof carries over ----------------
    LibraryStatement(
        "absorbable_iff_of_parts", "beyond_leaky", None,
        (r"$\sigma(z) - \sigma(-z) = c\,z$ for all $z\in\mathbb{R}$, with $c\neq 0$",
         r"$\sigma(z) + \sigma(-z) = k\,\lvert z\rvert$ for all $z\in\mathbb{R}$, with "
         r"$k\neq 0$", _NONDEGENERATE),
        r"the block $B_W$ absorbs the identity skip if and only if some "
        r"$S\subseteq\lbrace 1,\dots,n\rbrace$ satisfies "
        r"$W_{\mathrm{down}}\,D_S\,W_{\mathrm{up}} = -\tfrac{1}{c}\,I_d$ (the proof of "
        r"Thm 8 of the paper, with the even part $k\lvert z\rvert$ in place of ReLU's)"),
    LibraryStatement(
        "absorbable_leakyRelu_iff", "beyond_leaky", None,
        (r"$\sigma(z) = \max(z, z/100)$ (Leaky ReLU of slope $1/100$)", _NONDEGENERATE),
        r"the block $B_W$ absorbs the identity skip if and only if some "
        r"$S\subseteq\lbrace 1,\dots,n\rbrace$ satisfies "
        r"$W_{\mathrm{down}}\,D_S\,W_{\mathrm{up}} = -\tfrac{100}{101}\,I_d$"),
)

BY_NAME: dict[str, LibraryStatement] = {s.full_name: s for s in LIBRARY_STATEMENTS}


#: Where a catalog family's Lean definition is not the SymPy expression (no ``rfl`` bridge
#: theorem ties them), keyed by the library definition; LaTeX text as above.
DEFINITION_NOTES: dict[str, str] = {
    "gelu": (
        r"In Lean, this activation is $z\,\Phi(z)$ with $\Phi$ the cumulative distribution "
        r"function of the standard normal law, as Mathlib defines it "
        r"(cdf (gaussianReal 0 1)). The SymPy catalog writes "
        r"$\Phi(z) = \tfrac12\bigl(1 + \operatorname{erf}(z/\sqrt{2})\bigr)$: a standard "
        r"identity that is not proved in the Lean library (Mathlib has no erf), so no Lean "
        r"theorem ties the two forms."),
}

GENERIC_DEFINITION_NOTE = (
    r"The Lean library defines this activation itself; no Lean theorem ties that definition "
    r"to the SymPy expression shown.")


def definition_note(library_definition: str | None, has_bridge: bool) -> str | None:
    """The note for a family whose Lean definition differs from the SymPy one (else None)."""
    if library_definition is None or has_bridge:
        return None
    return DEFINITION_NOTES.get(library_definition, GENERIC_DEFINITION_NOTE)


#: Where the Lean statements of a group are more general than the paper's: said once, after the
#: group's heading, in every export. LaTeX text as the entries.
GROUP_NOTES: dict[str, str] = {
    "degree": (
        r"The paper assumes the block positively homogeneous of a degree $k > 0$, $k\neq 1$; "
        r"the Lean statements allow every degree other than $1$ ($k\neq 1$ for an activation, "
        r"$m\neq 0$ for a gate, natural or real)."),
    "linearisation": (
        r"The paper assumes the gate $g$ differentiable at $0$ with $g(0) = 0$; the Lean "
        r"statements need only that $g$ is continuous at $0$ and $g(0) = 0$. The paper compares "
        r"stacks of the same depth $L$; the Lean statements allow any depths $L\geq 0$ and "
        r"$L'\geq 1$."),
    "relu_characterisation": (
        r"The paper assumes $d\geq 2$; the Lean statements hold for every $d$ (those on "
        r"measure zero for every $d\geq 1$)."),
}

#: Each entry's title: what the statement says, LaTeX text as the entries (no commas or colons:
#: its plain form, :func:`plain_text`, names the node of the blueprint's dependency graph); the
#: exports add the paper's reference.
TITLES: dict[str, str] = {
    "not_absorbable_of_posHomogeneous":
        r"A homogeneous $\sigma$ of natural degree $k\neq 1$ absorbs no skip $A\neq 0$",
    "not_gatedAbsorbable_of_posHomogeneous":
        r"A homogeneous gate of natural degree $m\neq 0$ absorbs no skip $A\neq 0$",
    "isLittleO_of_posHomogeneous": r"A homogeneous $\sigma$ of degree $k > 1$ is $o(z)$ at $0$",
    "not_absorbable_of_isLittleO":
        r"An activation that is $o(z)$ at $0$ does not absorb the identity",
    "not_absorbable_of_isLittleO_of_isUnit":
        r"An activation that is $o(z)$ at $0$ absorbs no invertible skip",
    "not_mlpStack_eq_of_isLittleO":
        r"Residual stacks with $\sigma(z) = o(z)$ are not residual-free stacks",
    "not_gatedAbsorbable_of_tendsto":
        r"A gate continuous at $0$ with $g(0) = 0$ does not absorb the identity",
    "not_gatedAbsorbable_of_tendsto_of_isUnit":
        r"A gate continuous at $0$ with $g(0) = 0$ absorbs no invertible skip",
    "not_gatedMlpStack_eq_of_tendsto":
        r"Residual gated stacks with $g(0) = 0$ are not residual-free stacks",
    "not_absorbable_of_even": "An even activation does not absorb the identity",
    "not_absorbable_of_even_of_ne_zero": r"An even activation absorbs no skip $A\neq 0$",
    "absorbable_of_sCondition": "The S-condition gives an absorbing block",
    "not_absorbable_of_posHomogeneous_rpow":
        r"A homogeneous $\sigma$ of real degree $k\neq 1$ absorbs no skip $A\neq 0$",
    "not_gatedAbsorbable_of_posHomogeneous_rpow":
        r"A homogeneous gate of real degree $m\neq 0$ absorbs no skip $A\neq 0$",
    "exists_sCondition_of_absorbable_relu":
        "A nondegenerate ReLU block that absorbs the identity satisfies the S-condition",
    "absorbable_relu_iff":
        "A nondegenerate ReLU block absorbs the identity if and only if the S-condition holds",
    "absorbable_relu_iff_of_isUnit_det":
        r"A nondegenerate ReLU block absorbs an invertible $A$ if and only if the "
        r"S-condition with $-A$ holds",
    "card_le_of_sCondition": r"The S-condition needs at least $d$ units",
    "volume_sCondition_eq_zero":
        "For a fixed up-projection the S-condition holds on a null set",
    "volume_sCondition_joint_eq_zero": "The S-condition holds on a null set of weights",
    "not_residual_eq_of_bounded_norm":
        r"No continuous function of a bounded normalisation absorbs the pre-norm residual",
    "not_residual_eq_of_not_injective":
        r"No function of a normalisation that is not injective absorbs the pre-norm residual",
    "absorbableWithWidth_add_of_linearIndependent": r"Width $n + d$ always absorbs the identity",
    "exists_rank_le_of_absorbableWithWidth":
        r"Absorbing at a width $n'$ bounds $n'$ below by $n$ plus a rank",
    "exists_sCondition_of_absorbableWithWidth_self":
        r"The width bound at $n' = n$ gives the S-condition again",
    "le_width_of_absorbableWithWidth": r"Under (ND) absorbing needs width $n + d$",
    "absorbableWithWidth_relu_iff": r"Under (ND) the least absorbing width is $n + d$",
    "not_injective_mlp_relu_of_lt_two_mul": r"A ReLU block of width $n < 2d$ is not injective",
    "injective_add_of_lipschitzWith": "A contracting residual map is injective",
    "injective_resStack": "A stack of contracting residual maps is injective",
    "resStack_ne_plainStack_of_lt_two_mul":
        r"A contracting residual stack is no plain stack with a first block narrower than $2d$",
    "resStack_eq_plainStack_width_two":
        r"A scalar residual ReLU stack is a plain stack of width $2$",
    "resStack_eq_plainStack_width_one_iff":
        r"A scalar residual ReLU stack is a plain stack of width $1$ if and only if it "
        r"vanishes on a half-line",
    # the large-scale limit (issue 22)
    "absorbable_gelu_iff":
        "A nondegenerate GELU block absorbs the identity if and only if the S-condition holds",
    "absorbable_gelu_iff_of_isUnit_det":
        r"A nondegenerate GELU block absorbs an invertible $A$ if and only if the "
        r"S-condition with $-A$ holds",
    "absorbable_of_tendsto_div":
        r"An absorbing identity passes to the large-scale limit $\rho$ of $\sigma$",
    "eq_zero_of_absorbable_of_tendsto_div_zero":
        r"An activation with $\sigma(tz)/t\to 0$ absorbs no skip $A\neq 0$",
    "eq_zero_of_absorbable_of_bounded": r"A bounded activation absorbs no skip $A\neq 0$",
    "not_absorbable_tanh": r"A tanh block absorbs no skip $A\neq 0$",
    "not_absorbable_sigmoid": r"A sigmoid block absorbs no skip $A\neq 0$",
    "exists_sCondition_of_absorbable_of_tendsto_div_relu":
        r"With large-scale limit ReLU an absorbed identity forces the S-condition",
    "absorbable_iff_of_tendsto_div_relu":
        r"With large-scale limit ReLU and odd part $z$ the S-condition decides",
    "absorbable_iff_of_tendsto_div_relu_of_isUnit_det":
        r"With large-scale limit ReLU and odd part $z$ the S-condition with $-A$ decides an "
        r"invertible skip $A$",
    "absorbable_geluTanh_iff":
        "A nondegenerate GELU-tanh block absorbs the identity if and only if the S-condition "
        "holds",
    "absorbable_swish_iff":
        "A nondegenerate SiLU block absorbs the identity if and only if the S-condition holds",
    "absorbable_softplus_iff":
        "A nondegenerate softplus block absorbs the identity if and only if the S-condition "
        "holds",
    "absorbable_geluTanh_iff_of_isUnit_det":
        r"A nondegenerate GELU-tanh block absorbs an invertible $A$ if and only if the "
        r"S-condition with $-A$ holds",
    "absorbable_swish_iff_of_isUnit_det":
        r"A nondegenerate SiLU block absorbs an invertible $A$ if and only if the "
        r"S-condition with $-A$ holds",
    "absorbable_softplus_iff_of_isUnit_det":
        r"A nondegenerate softplus block absorbs an invertible $A$ if and only if the "
        r"S-condition with $-A$ holds",
    "gatedAbsorbable_of_gateParity":
        r"A gate with $g(z) + g(-z) = c\neq 0$ absorbs $A$ under the S-condition",
    "gatedAbsorbable_sigmoid_of_sCondition":
        "A GLU block absorbs the skip under the S-condition with the value weights",
    "biasedAbsorbable_of_sCondition":
        "The S-condition gives an absorbing block with biases",
    "absorbable_of_biasedAbsorbable_of_tendsto":
        "The biases drop out of an absorbing identity in the large-scale limit",
    "biasedAbsorbable_relu_iff":
        "With biases a nondegenerate ReLU block absorbs the identity if and only if the "
        "S-condition holds",
    "biasedAbsorbable_gelu_iff":
        "With biases a nondegenerate GELU block absorbs the identity if and only if the "
        "S-condition holds",
    "biasedAbsorbable_geluTanh_iff":
        "With biases a nondegenerate GELU-tanh block absorbs the identity if and only if the "
        "S-condition holds",
    "biasedAbsorbable_swish_iff":
        "With biases a nondegenerate SiLU block absorbs the identity if and only if the "
        "S-condition holds",
    "biasedAbsorbable_softplus_iff":
        "With biases a nondegenerate softplus block absorbs the identity if and only if the "
        "S-condition holds",
    "eq_zero_of_biasedAbsorbable_of_bounded":
        r"A bounded activation with biases absorbs no skip $A\neq 0$",
    "not_biasedAbsorbable_tanh": r"A tanh block with biases absorbs no skip $A\neq 0$",
    "not_biasedAbsorbable_sigmoid": r"A sigmoid block with biases absorbs no skip $A\neq 0$",
    "absorbable_iff_of_parts":
        r"With odd part $cz$ and even part $k\lvert z\rvert$ the S-condition decides",
    "absorbable_leakyRelu_iff":
        "A nondegenerate Leaky ReLU block absorbs the identity if and only if the S-condition "
        "holds",
}

#: Informal proofs for the blueprint: the paper's argument (as the research notes reconstruct
#: it) in a few lines, or the note's for the results beyond the paper. LaTeX text as the entries.
PROOFS: dict[str, str] = {
    "absorbable_gelu_iff": (
        r"Sufficiency: $\sigma(z) - \sigma(-z) = z\,(\Phi(z) + \Phi(-z)) = z$, so negating "
        r"the rows of $W_{\mathrm{up}}$ in $S$ adds $-W_{\mathrm{down}}D_SW_{\mathrm{up}}x = x$. "
        r"Necessity, by the large-scale limit rather than the paper's ridge-function argument: "
        r"$\sigma(tz)/t = z\,\Phi(tz)\to\max(z, 0)$ as $t\to\infty$, so evaluating "
        r"$x + B_W(x) = B_V(x)$ at $tx$ and dividing by $t$ gives the same identity for ReLU "
        r"blocks with the same weights; Thm 8 (ReLU, nondegenerate weights) then gives the "
        r"S-condition."),
    "absorbable_gelu_iff_of_isUnit_det": (
        r"Lemma 4 of the paper: $Ax + B_W(x) = A\bigl(x + B_{W'}(x)\bigr)$ with "
        r"$W'_{\mathrm{down}} = A^{-1}W_{\mathrm{down}}$, which keeps the weights "
        r"nondegenerate; the identity case above then gives "
        r"$A^{-1}W_{\mathrm{down}}D_SW_{\mathrm{up}} = -I_d$, that is "
        r"$W_{\mathrm{down}}D_SW_{\mathrm{up}} = -A$."),
    "not_residual_eq_of_bounded_norm": (
        r"The outputs of $N$ lie in the closed ball of radius $R$, which is compact; the "
        r"continuous map $G - F$ is bounded on it, by $C$ say. If $h + F(N(h)) = G(N(h))$ for "
        r"all $h$, then $h = (G - F)(N(h))$ has norm at most $C$ for every $h$, which fails for "
        r"the constant vector with entries $\lvert C\rvert + 1$ (here $d\geq 1$ is used)."),
    "not_residual_eq_of_not_injective": (
        r"If $h + F(N(h)) = G(N(h))$ for all $h$ and $N(h_1) = N(h_2)$, then "
        r"$h_1 + F(N(h_2)) = G(N(h_2)) = h_2 + F(N(h_2))$, so $h_1 = h_2$."),
    "not_absorbable_of_posHomogeneous": (
        r"The degree argument. Replace $x$ by $tx$ with $t > 0$ in $Ax + B_W(x) = B_V(x)$: both "
        r"blocks are homogeneous of degree $k$, so $t\,Ax + t^k B_W(x) = t^k B_V(x)$, that is "
        r"$t^{1-k}Ax = B_V(x) - B_W(x)$ for every $t > 0$. Since $k\neq 1$ the left side "
        r"varies with $t$ unless $Ax = 0$; so $Ax = 0$ for every $x$ and $A = 0$."),
    "not_gatedAbsorbable_of_posHomogeneous": (
        r"As for an activation: a gated block with a gate of degree $m$ is homogeneous of "
        r"degree $m + 1\neq 1$ (the value path adds one), and the degree argument applies."),
    "isLittleO_of_posHomogeneous": (
        r"For $z > 0$, $\sigma(z) = z^k\sigma(1)$, and for $z < 0$, "
        r"$\sigma(z) = \lvert z\rvert^k\sigma(-1)$; so "
        r"$\lvert\sigma(z)\rvert\leq C\lvert z\rvert^k$ and $z^k = o(z)$ as $k > 1$."),
    "not_absorbable_of_isLittleO": (
        r"The linearisation argument. If $\sigma(z) = o(z)$ then every block $B_V$ is "
        r"$o(\lVert x\rVert)$ at $0$, so its derivative at $0$ is $0$; the residual side "
        r"$x + B_W(x)$ has derivative $I_d\neq 0$ at $0$ (as $d\geq 1$). The two sides differ "
        r"to first order along some ray."),
    "not_absorbable_of_isLittleO_of_isUnit": (
        r"Lemma 4 of the paper: $Ax + B_W(x) = A\bigl(x + B_{W'}(x)\bigr)$ with "
        r"$W'_{\mathrm{down}} = A^{-1}W_{\mathrm{down}}$, and multiplying a block by $A^{-1}$ "
        r"changes only its down-projection; so absorbing $A$ is absorbing the identity, which "
        r"the previous part excludes."),
    "not_mlpStack_eq_of_isLittleO": (
        r"Both compositions fix $0$. Near $0$ each residual block is $x + o(\lVert x\rVert)$, "
        r"so the residual stack is $x + o(\lVert x\rVert)$; the first residual-free block is "
        r"$o(\lVert x\rVert)$ and the later ones are continuous and fix $0$, so the plain stack "
        r"is $o(\lVert x\rVert)$. The two differ to first order (Cor 7 of the paper)."),
    "not_gatedAbsorbable_of_tendsto": (
        r"Each hidden unit $g(w_i\cdot x)\,(v_i\cdot x)$ is the product of a term tending to "
        r"$g(0) = 0$ and a linear term, so every gated block is $o(\lVert x\rVert)$ at $0$ while "
        r"$x + B_W(x)$ has derivative $I_d$ there: the linearisation argument of the paper "
        r"(which assumes $g$ differentiable at $0$; continuity suffices)."),
    "not_gatedAbsorbable_of_tendsto_of_isUnit": (
        r"Lemma 4 of the paper reduces an invertible skip to the identity skip (the "
        r"down-projection absorbs $A^{-1}$); the previous part applies."),
    "not_gatedMlpStack_eq_of_tendsto": (
        r"As for activations that are $o(z)$: the gated residual stack is "
        r"$x + o(\lVert x\rVert)$ at $0$, every residual-free gated stack is "
        r"$o(\lVert x\rVert)$ (Cor 7 of the paper)."),
    "not_absorbable_of_even": (
        r"With $\sigma$ even, every block satisfies $B_V(-x) = B_V(x)$; then "
        r"$x + B_W(x) = B_V(x)$ at $x$ and at $-x$ gives $2x = 0$ for every $x$, impossible "
        r"for $d\geq 1$."),
    "not_absorbable_of_even_of_ne_zero": (
        r"The same comparison of $x$ and $-x$ gives $2Ax = 0$ for every $x$, so $A = 0$."),
    "absorbable_of_sCondition": (
        r"Negate the rows of $W_{\mathrm{up}}$ indexed by $S$ and keep $W_{\mathrm{down}}$. "
        r"Since $\sigma(-z) = \sigma(z) - cz$, each flipped unit $i$ contributes "
        r"$w_i\sigma(u_i\cdot x) - c\,w_i(u_i\cdot x)$, so "
        r"$B_V(x) = B_W(x) - c\,W_{\mathrm{down}}D_S W_{\mathrm{up}}x = B_W(x) + x$."),
    "not_absorbable_of_posHomogeneous_rpow": (
        r"The degree argument, with $t^{1-k}$ for a real exponent: it is not constant in "
        r"$t > 0$ since $k\neq 1$."),
    "not_gatedAbsorbable_of_posHomogeneous_rpow": (
        r"The degree argument for the gated block, homogeneous of real degree $m + 1\neq 1$."),
    "exists_sCondition_of_absorbable_relu": (
        r"The kink argument of the paper. The ReLU block is smooth off the hyperplanes "
        r"$u_i^\perp$ and its gradient jumps across each of them; by nondegeneracy these "
        r"hyperplanes are distinct, so the jumps of $x + B_W(x)$ and of $B_V(x)$ must match "
        r"hyperplane by hyperplane. With the same width this pairs every unit of $V$ with one "
        r"of $W$ up to a sign and a positive scale; the units with a negative sign form $S$, "
        r"and comparing the linear parts ($\max(z, 0) - \max(-z, 0) = z$) gives "
        r"$W_{\mathrm{down}}D_S W_{\mathrm{up}} = -I_d$."),
    "absorbable_relu_iff": (
        r"Necessity is the previous part; sufficiency is the S-condition construction with "
        r"$c = 1$ (negate the rows of $W_{\mathrm{up}}$ in $S$)."),
    "absorbable_relu_iff_of_isUnit_det": (
        r"Lemma 4 of the paper: absorbing $A$ with $W$ is absorbing the identity with "
        r"$W'_{\mathrm{down}} = A^{-1}W_{\mathrm{down}}$, still nondegenerate; the S-condition "
        r"for $W'$ is $A^{-1}W_{\mathrm{down}}D_S W_{\mathrm{up}} = -I_d$, that is "
        r"$W_{\mathrm{down}}D_S W_{\mathrm{up}} = -A$."),
    "card_le_of_sCondition": (
        r"The product $W_{\mathrm{down}}D_S W_{\mathrm{up}}$ has rank at most the rank of "
        r"$D_S$, which is $\lvert S\rvert$, while $-\tfrac{1}{c}I_d$ has rank $d$."),
    "volume_sCondition_eq_zero": (
        r"For each of the finitely many $S$, the set of $W_{\mathrm{down}}$ with "
        r"$W_{\mathrm{down}}D_S W_{\mathrm{up}} = -I_d$ is an affine subspace of "
        r"$\mathbb{R}^{d\times n}$ that misses $W_{\mathrm{down}} = 0$ (as $d\geq 1$), so a "
        r"proper one, of Lebesgue measure zero; a finite union of null sets is null."),
    "volume_sCondition_joint_eq_zero": (
        r"By Fubini (Tonelli) for the product measure: for every fixed $W_{\mathrm{up}}$ the "
        r"section is null by the previous part, and the set is measurable (closed), so it is "
        r"null for the product measure."),
    "absorbableWithWidth_add_of_linearIndependent": (
        r"Theorem C of the note, sufficiency. With $A_S$ the invertible $d\times d$ block of "
        r"$W_{\mathrm{up}}$ on $d$ independent rows, "
        r"$x = A_S^{-1}\max(A_S x, 0) - A_S^{-1}\max(-A_S x, 0)$ adds $d$ units to the block "
        r"(the rows $-A_S$) and changes the down-projection of the units in $S$."),
    "exists_rank_le_of_absorbableWithWidth": (
        r"Theorem C of the note, necessity. Group the units of the wider block by kink "
        r"hyperplane: every hyperplane of $W$ carries one of its units, a foreign hyperplane "
        r"carries units in pairs that add a linear map of rank one; comparing linear parts "
        r"writes $I_d + W_{\mathrm{down}}D_S W_{\mathrm{up}}$ as a sum of at most "
        r"$n' - n$ rank-one maps."),
    "exists_sCondition_of_absorbableWithWidth_self": (
        r"At $n' = n$ the grouping behind the rank bound leaves no foreign units, so "
        r"$I_d + W_{\mathrm{down}}D_S W_{\mathrm{up}} = 0$ (the Lean proof has the paper's "
        r"Thm 8, necessity, as a second route)."),
    "le_width_of_absorbableWithWidth": (
        r"Under (ND) the matrix $I_d + W_{\mathrm{down}}D_S W_{\mathrm{up}}$ is invertible, "
        r"of rank $d$; the rank bound gives $n + d\leq n'$."),
    "absorbableWithWidth_relu_iff": (
        r"The two previous results: width $n + d$ suffices (with $d$ independent rows), and "
        r"under (ND) it is needed."),
    "not_injective_mlp_relu_of_lt_two_mul": (
        r"Lemma 1 of the note. For a generic $x$, at most $n' < 2d$ units are active at $x$ or "
        r"at $-x$ together, so one of them, $y$, has fewer than $d$ active units; near $y$ the "
        r"block is linear of rank below $d$, so it takes the same value at $y$ and at "
        r"$y + \varepsilon z$ for $z$ in a kernel."),
    "injective_add_of_lipschitzWith": (
        r"If $x + f(x) = y + f(y)$ then $\lVert x - y\rVert = \lVert f(x) - f(y)\rVert\leq "
        r"K\lVert x - y\rVert$ with $K < 1$, so $x = y$."),
    "injective_resStack": (
        r"A composition of injective maps is injective, and each residual map is, by the "
        r"previous result."),
    "resStack_ne_plainStack_of_lt_two_mul": (
        r"Theorem B of the note, for small weights: the residual stack is injective, while a "
        r"plain stack whose first block is a ReLU block of width $n' < 2d$ is not (that block "
        r"already identifies two points)."),
    "resStack_eq_plainStack_width_two": (
        r"Theorem A of the note. On $\mathbb{R}$ every such stack is $z\mapsto az$ for "
        r"$z > 0$ and $z\mapsto bz$ for $z < 0$; one ReLU block of width $2$ gives any such "
        r"map, and $z = \max(z, 0) - \max(-z, 0)$ fills the other blocks with identities."),
    "resStack_eq_plainStack_width_one_iff": (
        r"Theorem A of the note. A width-one ReLU block vanishes on a half-line, and so does "
        r"any composition ending in one; conversely a map vanishing on a half-line is "
        r"$z\mapsto a\max(\pm z, 0)$, one block of width $1$, and the other blocks are "
        r"identities on its image."),
}


@dataclass(frozen=True)
class MathlibFact:
    """A Mathlib theorem a library proof rests on: its Mathlib name (read in the Mathlib
    sources, listed in ``lean/CHECKED_NAMES.md``), what it says (LaTeX text as the entries),
    and the entries (Lean names inside the namespace) whose proofs use it."""

    name: str
    statement: str
    used_by: tuple[str, ...]

    @property
    def node_label(self) -> str:
        return "thm:Mathlib " + self.name


#: The Mathlib facts the blueprint shows (``\\mathlibok``), with the entries that use them; a
#: test checks each name occurs in the Lean proofs of its users (or the project lemmas they
#: use) and in ``lean/CHECKED_NAMES.md``.
MATHLIB_FACTS: tuple[MathlibFact, ...] = (
    MathlibFact("Matrix.mul_nonsing_inv",
                r"If $\det A$ is a unit, then $A A^{-1} = I$.",
                ("not_absorbable_of_isLittleO_of_isUnit",
                 "not_gatedAbsorbable_of_tendsto_of_isUnit")),
    MathlibFact("Asymptotics.isLittleO_pow_id",
                r"For a natural $k > 1$, $z^k = o(z)$ as $z\to 0$.",
                ("isLittleO_of_posHomogeneous",)),
    MathlibFact("Asymptotics.isLittleO_irrefl",
                r"A function that is frequently nonzero along a filter is not $o$ of itself "
                r"along it.",
                ("not_absorbable_of_isLittleO", "not_gatedAbsorbable_of_tendsto")),
    MathlibFact("Matrix.rank_mul_le_left",
                r"$\operatorname{rank}(AB)\leq\operatorname{rank}A$.",
                ("card_le_of_sCondition",)),
    MathlibFact("Matrix.rank_one",
                r"$\operatorname{rank} I_d = d$.",
                ("card_le_of_sCondition",)),
    MathlibFact("MeasureTheory.Measure.addHaar_affineSubspace",
                r"A proper affine subspace of a finite-dimensional real space has Haar "
                r"measure zero.",
                ("volume_sCondition_eq_zero",)),
    MathlibFact("MeasureTheory.Measure.measure_prod_null",
                r"A measurable set is null for a product measure if and only if almost every "
                r"section is null.",
                ("volume_sCondition_joint_eq_zero",)),
)
