"""The Lean library's general theorems as a paper states them: one entry per theorem.

The exports (LaTeX, Markdown, JSON, blueprint) print the general theorems from
:data:`LIBRARY_STATEMENTS` and nothing else: to export a new theorem of ``lean/SkipAbsorption``,
add one :class:`LibraryStatement` here (its Lean name, the group it belongs to, the paper
result, its hypotheses and its conclusion). ``tests/test_export.py`` checks that every entry
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
    "gelu_characterisation": "GELU: the S-condition is necessary and sufficient",
    "beyond_width": "Beyond the paper: width",
    "beyond_depth": "Beyond the paper: depth",
    "beyond_recession": "Beyond the paper: the large-scale limit",
    "beyond_biases": "Beyond the paper: biases",
}

#: The groups whose theorems are not in the paper (they come from this project's research note,
#: ``deep-stacks.md``). The exports print them after the paper's results, under the heading
#: "Beyond the paper", with the note's results that are not formalised
#: (:mod:`leanbridge.beyond`). They are the last groups of :data:`GROUPS`.
BEYOND_GROUPS: tuple[str, ...] = ("beyond_width", "beyond_depth", "beyond_recession",
                                  "beyond_biases")

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
    def sentence(self) -> str:
        """The statement as one sentence: "If H1, and H2, then C."."""
        if not self.hypotheses:
            return self.conclusion[:1].upper() + self.conclusion[1:] + "."
        return f"If {', and '.join(self.hypotheses)}, then {self.conclusion}."

    def to_dict(self) -> dict:
        return {"lean_name": self.full_name, "group": self.group, "paper": self.paper,
                "label": self.label, "hypotheses": list(self.hypotheses),
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
_LITTLE_O = r"$\sigma(z) = o(z)$ as $z\to 0$"
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
_TENDSTO = r"$g(z)\to 0$ as $z\to 0$"
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
         r"$W_{\mathrm{down}}\,D_S\,W_{\mathrm{val}} = -\tfrac{1}{c}\,I_d$"),
        r"the gated block $B_W$ with gate $g$ absorbs the identity skip: "
        r"$V_{\mathrm{down}}$ and $V_{\mathrm{gate}}$ equal to $W_{\mathrm{down}}$ with the "
        r"columns in $S$ negated and $W_{\mathrm{gate}}$ with the rows in $S$ negated, and "
        r"$V_{\mathrm{val}} = W_{\mathrm{val}}$, give $x + B_W(x) = B_V(x)$ (gate parity; "
        r"whether the condition is also necessary is open)"),
    LibraryStatement(
        "gatedAbsorbable_sigmoid_of_sCondition", "beyond_recession", None,
        (r"$g(z) = 1/(1 + e^{-z})$ (GLU)",
         r"$S\subseteq\lbrace 1,\dots,n\rbrace$ satisfies "
         r"$W_{\mathrm{down}}\,D_S\,W_{\mathrm{val}} = -I_d$"),
        r"the gated block $B_W$ with gate $g$ absorbs the identity skip"),
    # -- biases (R4) -----------------------------------------------------------------------
    LibraryStatement(
        "biasedAbsorbable_of_sCondition", "beyond_biases", None,
        (r"$\sigma(z) - \sigma(-z) = c\,z$ for all $z\in\mathbb{R}$, with $c\neq 0$",
         r"$S\subseteq\lbrace 1,\dots,n\rbrace$ satisfies "
         r"$W_{\mathrm{down}}\,D_S\,W_{\mathrm{up}} = -\tfrac{1}{c}\,I_d$"),
        r"for all $b\in\mathbb{R}^n$ and $e\in\mathbb{R}^d$, "
        r"$x + W_{\mathrm{down}}\,\sigma(W_{\mathrm{up}}x + b) + e = "
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
