"""Issue 9 §2: user activations get premise proofs that follow the analysis — or named hypotheses.

A corpus of user activations (the issue's list and more: polynomials, piecewise, leaky variants,
scaled atoms, sums, gates with log and division, real degrees). For each one:

* the analysis' verdict and arguments;
* for each premise, the certificate rule that proves it, or ``outside`` (then the theorems take
  it as a named hypothesis, recorded in ``Declaration.premise_hypotheses``);
* the printed Lean definition, read back into SymPy by the reader (Lean's precedences), means
  the SymPy expression — and so do the premise statements' coefficients;
* every Lean name the file uses is declared in ``lean/`` or listed in ``lean/CHECKED_NAMES.md``;
* no binder of the generated proofs captures the family's name;
* lines stay within 100 characters; no ``sorry``.

Nothing here runs Lean (no toolchain on these machines); the proofs are checked by Lean only
where ``leanbridge check`` finds one.
"""

from __future__ import annotations

import re
from functools import lru_cache
from pathlib import Path

import pytest
import sympy as sp

from leanbridge.analysis import analyse
from leanbridge.certificates import Certificate, Outside, certify
from leanbridge.certificates.terms import OutsideFragment, branches
from leanbridge.expression import user_family
from leanbridge.families import Z
from leanbridge.generate import user_output
from leanbridge.lean import library
from leanbridge.lean.reader import means, read_lean
from leanbridge.lean.sources import scan_project, strip_comments
from leanbridge.premises import FAILED, premise_checks
from leanbridge.render import build_family_file, render_family

ROOT = Path(__file__).resolve().parents[1]
LEAN = ROOT / "lean"

E, O, H, L = "even_parity", "odd_linear_parity", "degree", "linearisation"
#: the large-scale limit (issue 22): its premise is always a named hypothesis `hρ`
Z0, R = "recession", "recession_relu"
OUT = "outside"

# (expression, gated, verdict, arguments, {argument: rule or "outside"})
CORPUS = [
    # -- issue 9's list ---------------------------------------------------------------------
    ("(1+sqrt(2))*Max(z,0)", False, "conditional", "odd_linear_parity", {O: "parity"}),
    ("sqrt(2)*Max(z,0)", False, "conditional", "odd_linear_parity", {O: "parity"}),
    ("2*z*sigmoid(2*z)", False, "conditional", "odd_linear_parity", {O: "parity"}),
    ("z*tanh(2*z)", False, "never", "linearisation,even_parity",
     {E: "parity", L: "little_o_product"}),
    ("z*atan(z)", False, "never", "linearisation,even_parity",
     {E: "parity", L: "little_o_product"}),
    ("log(1+exp(z))-log(2)", True, "never", "linearisation", {L: "tendsto_continuous"}),
    ("log(1+exp(z))-log(2)", False, "conditional", "odd_linear_parity,recession_relu",
     {O: OUT, R: OUT}),
    ("z/(1+Abs(z))", True, "never", "linearisation", {L: "tendsto_continuous"}),
    ("z/(1+Abs(z))", False, "never", "recession", {Z0: OUT}),
    ("Max(z**3, 0)", False, "never", "degree,linearisation",
     {H: "homogeneous_cases", L: "little_o_homogeneous"}),
    ("Max(z,0)**3 + Max(z,0)**2", False, "never", "linearisation", {L: "little_o_sum"}),
    ("Max(z,0)**(3/2)", False, "never", "degree,linearisation",
     {H: "homogeneous_rpow", L: OUT}),
    ("(1+pi)*z/2+Abs(z)", False, "conditional", "odd_linear_parity", {O: "parity"}),
    ("Max(z,0)+z*sqrt(2)", False, "conditional", "odd_linear_parity", {O: "parity"}),
    # -- polynomials ------------------------------------------------------------------------
    ("z**2", False, "never", "degree,linearisation,even_parity",
     {H: "homogeneous_cases", L: "little_o_homogeneous", E: "parity"}),
    ("z**3 + z", False, "undetermined", "", {}),
    ("z**4 - z**2", False, "never", "linearisation,even_parity",
     {L: "little_o_sum", E: "parity"}),
    ("3*z**2", False, "never", "degree,linearisation,even_parity",
     {H: "homogeneous_cases", L: "little_o_homogeneous", E: "parity"}),
    ("z**3", False, "never", "degree,linearisation",
     {H: "homogeneous_cases", L: "little_o_homogeneous"}),
    ("z**2 + z**3", False, "never", "linearisation", {L: "little_o_sum"}),
    ("z", False, "conditional", "odd_linear_parity", {O: "parity"}),
    ("-z", False, "conditional", "odd_linear_parity", {O: "parity"}),
    ("2*z", False, "conditional", "odd_linear_parity", {O: "parity"}),
    ("z**2", True, "never", "degree,linearisation",
     {H: "homogeneous_cases", L: "tendsto_continuous"}),
    ("z**3", True, "never", "degree,linearisation",
     {H: "homogeneous_cases", L: "tendsto_continuous"}),
    # -- piecewise --------------------------------------------------------------------------
    ("Max(z,0)", False, "conditional", "odd_linear_parity,recession_relu",
     {O: "parity", R: OUT}),
    ("Max(z,0)**2", False, "never", "degree,linearisation",
     {H: "homogeneous_cases", L: "little_o_homogeneous"}),
    ("Max(z,0)**4", False, "never", "degree,linearisation",
     {H: "homogeneous_cases", L: "little_o_homogeneous"}),
    ("Abs(z)", False, "never", "even_parity", {E: "parity"}),
    ("Abs(z)**3", False, "never", "degree,linearisation,even_parity",
     {H: "homogeneous_cases", L: "little_o_homogeneous", E: "parity"}),
    ("Min(z,0)", False, "conditional", "odd_linear_parity", {O: "parity"}),
    ("Max(z,-z)", False, "never", "even_parity", {E: "parity"}),
    ("z + Abs(z)", False, "conditional", "odd_linear_parity", {O: "parity"}),
    ("Max(z,0) + Min(z,0)/3", False, "conditional", "odd_linear_parity", {O: "parity"}),
    ("Piecewise((z, z > 0), (0, True))", False, "conditional",
     "odd_linear_parity,recession_relu", {O: "parity", R: OUT}),
    ("Piecewise((z, z > 0), (z/10, True))", False, "conditional", "odd_linear_parity",
     {O: "parity"}),
    ("Abs(z)*z", False, "never", "degree,linearisation",
     {H: "homogeneous_cases", L: "little_o_homogeneous"}),
    ("Abs(z)*z", True, "never", "degree,linearisation",
     {H: "homogeneous_cases", L: "tendsto_continuous"}),
    ("Max(z,0)", True, "never", "degree,linearisation",
     {H: "homogeneous_cases", L: "tendsto_continuous"}),
    ("Max(z,0)**2", True, "never", "degree,linearisation",
     {H: "homogeneous_cases", L: "tendsto_continuous"}),
    ("Abs(z)", True, "never", "degree,linearisation",
     {H: "homogeneous_cases", L: "tendsto_continuous"}),
    ("Max(z, 2*z)", False, "conditional", "odd_linear_parity", {O: "parity"}),
    ("Max(z,0) - Max(-z,0)/2", False, "conditional", "odd_linear_parity", {O: "parity"}),
    ("Abs(z+1) + Abs(z-1) - 2", False, "never", "linearisation,even_parity",
     {E: "parity", L: OUT}),
    ("Max(z+1,0)-1", False, "undetermined", "", {}),
    ("Max(z**2, 0)", False, "never", "degree,linearisation,even_parity",
     {H: "homogeneous_cases", L: "little_o_homogeneous", E: "parity"}),
    ("Min(z**3, 0)", False, "never", "degree,linearisation",
     {H: "homogeneous_cases", L: "little_o_homogeneous"}),
    ("Max(z, 0)*Abs(z)", False, "never", "degree,linearisation",
     {H: "homogeneous_cases", L: "little_o_homogeneous"}),
    ("2*Max(z,0) - z", False, "never", "even_parity", {E: "parity"}),
    # -- leaky variants ---------------------------------------------------------------------
    ("Max(z, z/5)", False, "conditional", "odd_linear_parity", {O: "parity"}),
    ("Max(z, z/100)", False, "conditional", "odd_linear_parity", {O: "parity"}),
    ("Max(z, -z/10)", False, "conditional", "odd_linear_parity", {O: "parity"}),
    ("Max(z, sqrt(2)*z/2)", False, "conditional", "odd_linear_parity", {O: OUT}),
    ("Piecewise((z, z >= 0), (z/20, True))", False, "conditional", "odd_linear_parity",
     {O: "parity"}),
    ("-(1+sqrt(2))*Max(z,0)", False, "conditional", "odd_linear_parity",
     {O: "parity"}),
    # c = √2 − 1: σ z − σ (−z) = z/(1+√2) needs 1/(1+√2) = √2 − 1, which ring1 does not
    # know; and c ≠ 0 is not in a shape `positivity` recognises: two named hypotheses
    ("Max(z,0)/(1+sqrt(2))", False, "conditional", "odd_linear_parity",
     {O: OUT, "nonzero": OUT}),
    # -- scaled atoms -----------------------------------------------------------------------
    # the library's `not_absorbable_tanh` applies to σ = Real.tanh: no premise to state
    ("tanh(z)", False, "never", "recession", {}),
    ("z*tanh(z)", False, "never", "linearisation,even_parity",
     {E: "parity", L: "little_o_product"}),
    ("z*tanh(z)", True, "never", "linearisation", {L: "tendsto_continuous"}),
    ("tanh(z)", True, "never", "linearisation", {L: "tendsto_continuous"}),
    ("z*sigmoid(z)", False, "conditional", "odd_linear_parity,recession_relu",
     {O: "parity", R: OUT}),
    ("z*sigmoid(z)", True, "never", "linearisation", {L: "tendsto_continuous"}),
    ("sigmoid(z) - 1/2", True, "never", "linearisation", {L: "tendsto_continuous"}),
    ("sigmoid(z) - 1/2", False, "never", "recession", {Z0: OUT}),
    ("z*sigmoid(3*z/2)", False, "conditional", "odd_linear_parity,recession_relu",
     {O: "parity", R: OUT}),
    ("sinh(z)", False, "undetermined", "", {}),
    ("cosh(z) - 1", False, "never", "linearisation,even_parity", {E: "parity", L: OUT}),
    ("cosh(z) - 1", True, "never", "linearisation", {L: "tendsto_continuous"}),
    ("z*cos(z)", True, "never", "linearisation", {L: "tendsto_continuous"}),
    ("z*cos(z)", False, "undetermined", "", {}),
    ("sin(z)", True, "never", "linearisation", {L: "tendsto_continuous"}),
    ("atan(z)", True, "never", "linearisation", {L: "tendsto_continuous"}),
    ("exp(z) + exp(-z) - 2", False, "never", "linearisation,even_parity",
     {E: "parity", L: OUT}),
    ("exp(z) - exp(-z)", False, "undetermined", "", {}),
    ("z*sinh(z)", False, "never", "linearisation,even_parity",
     {E: "parity", L: "little_o_product"}),
    ("z*tanh(z**3)", False, "never", "linearisation,even_parity",
     {E: "parity", L: "little_o_product"}),
    ("tanh(z)*Abs(z)", False, "never", "linearisation", {L: OUT}),
    ("z**2*tanh(z)", False, "never", "linearisation", {L: "little_o_product"}),
    # -- sums and mixtures ------------------------------------------------------------------
    ("z + tanh(z)", False, "undetermined", "", {}),
    ("Max(z,0) + z*tanh(z)", False, "conditional", "odd_linear_parity", {O: "parity"}),
    # -- gates with log and division --------------------------------------------------------
    ("log(1+z**2)", True, "never", "linearisation", {L: "tendsto_continuous"}),
    ("z/(1+z**2)", True, "never", "linearisation", {L: "tendsto_continuous"}),
    ("z*exp(-z**2)", True, "never", "linearisation", {L: "tendsto_continuous"}),
    ("z/(2+exp(z))", True, "never", "linearisation", {L: "tendsto_continuous"}),
    ("log(1+Abs(z))", True, "never", "linearisation", {L: "tendsto_continuous"}),
    ("Max(z,0)/(1+Abs(z))", True, "never", "linearisation", {L: "tendsto_continuous"}),
    # -- real degrees; flat but not homogeneous ---------------------------------------------
    ("Abs(z)**(5/2)", False, "never", "degree,linearisation,even_parity",
     {H: "homogeneous_rpow", E: "parity", L: OUT}),
    ("2*Max(z,0)**(3/2)", False, "never", "degree,linearisation",
     {H: "homogeneous_rpow", L: OUT}),
    ("Max(z,0)**(1/2)", True, "never", "degree,linearisation", {H: OUT, L: OUT}),
    ("Max(z,0)**(3/2)", True, "never", "degree,linearisation",
     {H: "homogeneous_rpow", L: OUT}),
    ("Max(z,0)**4 + z**2", False, "never", "linearisation", {L: "little_o_sum"}),
    # -- σ = h·z with h → 0 (rule little_o_product) ------------------------------------
    ("z**2*exp(z)", False, "never", "linearisation", {L: "little_o_product"}),
    ("z*(exp(z) - 1)", False, "never", "linearisation", {L: "little_o_product"}),
    ("z*sigmoid(z) - z/2", False, "never", "linearisation,even_parity",
     {E: "parity", L: "little_o_product"}),
    ("z*log(1 + z**2)", False, "never", "linearisation", {L: "little_o_product"}),
    ("z*sin(z)/(2 + cos(z))", False, "never", "linearisation,even_parity",
     {E: "parity", L: OUT}),
    # -- a lone `if` as a piece or as σ: every statement brackets it ----------------------
    ("Piecewise((z**2, z > 0), (0, True)) + z**3", False, "never", "linearisation",
     {L: "little_o_sum"}),
    ("Piecewise((z**2, z > 0), (0, True)) + Piecewise((z**3, z < 0), (0, True))", False,
     "never", "linearisation", {L: "little_o_sum"}),
    ("Piecewise((z**3, z > 0), (0, True))", False, "never", "degree,linearisation",
     {H: "homogeneous_cases", L: "little_o_homogeneous"}),
    ("Piecewise((z, z > 0), (0, True))", True, "never", "degree,linearisation",
     {H: "homogeneous_cases", L: OUT}),
]

_KIND_TO_ARGUMENT = {"even": E, "odd": O, "homogeneous": H, "isLittleO": L, "tendsto": L,
                     "nonzero": "nonzero", "tendsto_div_zero": Z0, "tendsto_div_relu": R}
IDS = [f"{'gate ' if g else ''}{e}" for e, g, *_ in CORPUS]


def test_the_corpus_has_at_least_60_activations():
    assert len(CORPUS) >= 60
    assert len({(e, g) for e, g, *_ in CORPUS}) == len(CORPUS)


@lru_cache(maxsize=None)
def _plan(index: int):
    expr, gated = CORPUS[index][:2]
    family = user_family(expr, f"act{index}", gated)
    plan = build_family_file(family)
    return plan, render_family(plan)


@lru_cache(maxsize=1)
def _declared() -> frozenset[str]:
    names = set()
    for full in scan_project(LEAN):
        parts = full.split(".")
        names.update(".".join(parts[i:]) for i in range(len(parts)))
    return frozenset(names)


@lru_cache(maxsize=1)
def _checked() -> frozenset[str]:
    """Names CHECKED_NAMES.md lists as read (its "Not used (deliberately avoided)" section and
    rows marked "not emitted" do not count)."""
    text = (LEAN / "CHECKED_NAMES.md").read_text(encoding="utf-8")
    text = re.sub(r"## Not used \(deliberately avoided\).*?(?=\n## )", "", text, flags=re.DOTALL)
    text = "\n".join(line for line in text.splitlines() if "(not emitted)" not in line)
    names = set()
    for span in re.findall(r"`([^`]+)`", text):
        names.update(re.findall(r"[A-Za-z_][A-Za-z0-9_'.₀-₉ₛₗ]*", span))
    return frozenset(names)


@pytest.mark.parametrize("index", range(len(CORPUS)), ids=IDS)
def test_verdict_arguments_and_rules(index):
    expr, gated, verdict, arguments, rules = CORPUS[index]
    plan, _ = _plan(index)
    assert plan.analysis.verdict == verdict
    assert ",".join(plan.analysis.argument_names) == arguments
    found = {}
    for declaration in plan.declarations:
        if declaration.role == "premise":
            assert declaration.generated_proof and declaration.certificate
            found[declaration.argument] = declaration.certificate
    for hypothesis in plan.premise_hypotheses:
        found[_KIND_TO_ARGUMENT[hypothesis.kind]] = OUT
        assert hypothesis.reason and hypothesis.statement
    assert found == rules
    # one theorem set per argument; a premise no rule proves is a hypothesis, never dropped
    stated = {d.argument for d in plan.theorems if d.role == "argument"}
    assert stated == set(plan.analysis.argument_names)
    if verdict != "undetermined":
        assert plan.theorems and not plan.not_formalised


@pytest.mark.parametrize("index", range(len(CORPUS)), ids=IDS)
def test_the_printed_terms_mean_the_sympy_expressions(index):
    plan, text = _plan(index)
    assert means(plan.lean_term, plan.family.expr), plan.lean_term
    c = plan.analysis.facts.odd_coefficient
    for declaration in plan.declarations:
        statement = declaration.signature
        match = re.search(r"\(-z\) = (.+)$", statement)
        if declaration.name.endswith("_sub_" + plan.symbol + "_neg") and match:
            assert means(match.group(1), c * Z), statement
        match = re.search(r"-\((.+)⁻¹\) • \(1 : Matrix", statement)
        if match:
            assert means(match.group(1), c), statement
        for hypothesis in declaration.premise_hypotheses:
            if hypothesis.kind == "odd":
                assert means(hypothesis.statement.split("= ", 1)[1], c * Z)


# Lean syntax and tactic words the files use besides declaration names.
_SYNTAX = frozenset({
    "import", "open", "scoped", "noncomputable", "section", "namespace", "end", "theorem",
    "def", "by", "fun", "have", "show", "from", "at", "with", "if", "then", "else", "using",
    "first", "try", "all_goals", "intro", "exact", "rw", "simp", "simpa", "only", "split_ifs",
    "subst", "unfold", "refine", "congr", "funext", "norm_num", "positivity", "fun_prop",
    "continuity", "linarith", "nlinarith", "ring1", "disch", "rfl", "done", "Mathlib",
    "SkipAbsorption", "Families", "Filter", "Topology", "Real"})
#: dot notation `h.name`: the declaration it resolves to, by the type of `h`
_FIELDS = {"le": "LT.lt.le", "ne'": "LT.lt.ne'", "tendsto'": "Continuous.tendsto'",
           "add": "Asymptotics.IsLittleO.add", "congr_left": "Asymptotics.IsLittleO.congr_left",
           "trans": "Eq.trans", "symm": "Eq.symm", "det": "Matrix.det", "map": "List.map",
           "div": "Continuous.div", "mul": "Continuous.mul"}


def test_names_in_the_avoided_section_do_not_count_as_checked():
    assert "HasFDerivAtFilter" not in _checked() and "polyrith" not in _checked()
    assert "Real.tanh_neg" in _checked()


def _known(name: str) -> bool:
    return name in _declared() or name in _checked()


def _binders(body: str) -> set[str]:
    names = set()
    ident = r"[A-Za-zσ_][A-Za-z0-9_']*"
    for pattern in (rf"\bintro ((?:{ident} ?)+)", rf"\bhave ({ident}) ",
                    rf"\bfun ({ident})(?: :[^=]*)? =>", rf"∀ ({ident})(?: :[^,]*)?,",
                    rf"[({{]((?:{ident} )*{ident}) :(?!=)", rf"\bobtain ({ident}) "):
        for match in re.finditer(pattern, body):
            names.update(n for n in re.split(r"\s+", match.group(1)) if n)
    return {n for n in names if re.fullmatch(r"[A-Za-zσ_][A-Za-z0-9_']*", n)} - _SYNTAX


@pytest.mark.parametrize("index", range(len(CORPUS)), ids=IDS)
def test_every_lean_name_is_declared_or_checked_and_no_binder_captures(index):
    plan, text = _plan(index)
    body = "\n".join(line for line in strip_comments(text).splitlines()
                     if not re.match(r"(import|namespace|end) ", line))
    own = {d.name for d in plan.declarations} | {plan.symbol}
    binders = _binders(body)
    # no binder captures the family's name (or one of its declarations)
    assert not (binders & own), binders & own
    allowed = set(library.TEMPLATE_BINDERS)
    stray = {b for b in binders - allowed
             if not re.fullmatch(library.TEMPLATE_BINDER_PATTERN, b)}
    assert not stray, stray
    missing = set()
    for match in re.finditer(r"(?<![A-Za-z0-9_'.₀-₉])(\.)?([A-Za-z_][A-Za-z0-9_'.₀-₉]*)", body):
        dotted, name = match.group(1), match.group(2)
        if dotted:
            name = _FIELDS.get(name.split(".")[0], name)
        head = name.split(".")[0]
        if (name in _SYNTAX or name in own or head in binders or head in allowed
                or name in ("ℝ", "ℕ")):
            continue
        if _known(name):
            continue
        prefix, _, field = name.rpartition(".")
        if prefix and field in _FIELDS and _known(prefix) and _known(_FIELDS[field]):
            continue  # `Real.continuous_sinh.div`: a declaration, then dot notation
        missing.add(name)
    assert not missing, f"names neither declared in lean/ nor listed in CHECKED_NAMES.md: {missing}"


def _unbracketed_if_equations(text: str) -> list[str]:
    """Lines where an `if … then … else …` not opened by `(` is followed, in its `else`
    branch, by ` = ` at the same bracket depth: Lean reads `if c then a else (b = rhs)`, an
    ill-typed `if` (issue 9 review: a lone `if` piece in `little_o_sum`)."""
    found = []
    for line in text.splitlines():
        for start in (i for i in range(len(line)) if line.startswith("if ", i)):
            if start > 0 and line[start - 1] == "(":
                continue
            otherwise = line.find(" else ", start)
            depth = 0
            for i in range(otherwise + 6 if otherwise >= 0 else len(line), len(line)):
                depth += {"(": 1, ")": -1}.get(line[i], 0)
                if depth < 0:
                    break
                if depth == 0 and line.startswith(" = ", i):
                    found.append(line.strip())
                    break
    return found


def test_the_bracket_check_sees_the_reviewed_failure():
    bad = "      if (t * z) > 0 then (t * z) ^ 2 else 0 = t ^ 2 * (if z > 0 then z ^ 2 else 0)"
    assert _unbracketed_if_equations(bad) == [bad.strip()]
    good = "      (if (t * z) > 0 then (t * z) ^ 2 else 0) = t ^ 2 * (if z > 0 then z ^ 2 else 0)"
    assert _unbracketed_if_equations(good) == []


@pytest.mark.parametrize("index", range(len(CORPUS)), ids=IDS)
def test_no_statement_is_swallowed_by_an_if(index):
    _, text = _plan(index)
    assert not _unbracketed_if_equations(text)


@pytest.mark.parametrize("index", range(len(CORPUS)), ids=IDS)
def test_files_are_tidy_and_honest(index):
    plan, text = _plan(index)
    assert "sorry" not in text and "admit" not in text
    long = [line for line in text.splitlines() if len(line) > 100]
    assert not long, long
    # a named hypothesis is said in the file, with its reason
    for hypothesis in plan.premise_hypotheses:
        assert f"`{hypothesis.binder} : {hypothesis.statement}`" in " ".join(text.split())
    if plan.analysis.verdict != "undetermined":
        assert "No theorem for this family" not in text
    # every certified premise lemma says its rule, and every argument theorem that takes a
    # hypothesis says so in its docstring
    for declaration in plan.declarations:
        if declaration.premise_hypotheses:
            assert "Stated modulo" in declaration.doc
    # SymPy's symbolic premise checks agree with every argument stated
    assert not [c for c in premise_checks(analyse(plan.family)) if c.status == FAILED]
    # the file `generate --expr` writes is the plan rendered
    assert user_output(plan.family).body == text


def test_corpus_summary_proved_by_rule_versus_named_hypothesis():
    """Most premises of the corpus are proved by a rule; the rest are named hypotheses."""
    by_rule, by_hypothesis = 0, 0
    for index in range(len(CORPUS)):
        plan, _ = _plan(index)
        by_rule += sum(1 for d in plan.declarations if d.role == "premise")
        by_hypothesis += len(plan.premise_hypotheses)
    assert by_rule >= 3 * by_hypothesis > 0


# -- the certificates themselves --------------------------------------------------------------

def test_the_issue_9_false_statement_is_gone():
    plan, text = _plan(0)  # (1+sqrt(2))*Max(z,0)
    assert "act0 z - act0 (-z) = (1 + Real.sqrt 2) * z" in text
    assert "-((1 + Real.sqrt 2 : ℝ)⁻¹) • (1 : Matrix (Fin d) (Fin d) ℝ)" in text
    assert "= 1 + Real.sqrt 2 * z" not in text


def test_an_irrational_c_closes_the_one_point_case():
    """`sqrt(2)*Max(z,0)`: on z ≤ 0 ∧ −z ≤ 0 the goal is √2·0 − √2·0 = √2·z; only z = 0
    closes it, which the certificate finds and the script uses (issue 9, G2)."""
    certificate = certify(sp.sqrt(2) * sp.Max(Z, 0), "odd", c=sp.sqrt(2))
    assert isinstance(certificate, Certificate) and certificate.rule == "parity"
    closers = certificate.context["closers"]
    assert "(have hz : z = 0 := (by linarith); subst hz; ring1)" in closers
    assert "linarith" in closers and closers[0] == "ring1"
    kinds = {case["closer"] for case in certificate.context["cases"]}
    assert kinds == {"ring1", "linarith", "z = 0, ring1"}


def test_symmetry_lemmas_are_stated_for_the_argument_as_unfold_leaves_it():
    """`2 * -z` is no literal `f (-x)`: the rewrite states `Real.tanh (2 * (-z))` and
    rewrites the argument by `ring1` first (issue 9, G3)."""
    certificate = certify(Z * sp.tanh(2 * Z), "even")
    (rewrite,) = certificate.context["rewrites"]
    assert rewrite["lhs"] == "Real.tanh (2 * (-z))"
    assert rewrite["rhs"] == "-Real.tanh (2 * z)"
    assert rewrite["arg_lhs"] == "2 * (-z)" and rewrite["lemma"] == "Real.tanh_neg"
    sigmoid = certify(2 * Z * sp.Function("sigmoid")(2 * Z), "odd", c=sp.Integer(2))
    assert isinstance(sigmoid, Outside)  # an unknown function is never guessed


def test_arctan_is_in_the_lemma_table():
    certificate = certify(Z * sp.atan(Z), "even")
    assert "Real.arctan_neg" in certificate.lean_names


def test_a_premise_outside_every_rule_is_refused_not_guessed():
    outside = certify(sp.log(1 + sp.exp(Z)) - sp.log(2), "odd", c=sp.Integer(1))
    assert isinstance(outside, Outside) and "log" in outside.reason
    assert isinstance(certify(sp.tanh(Z) * sp.Abs(Z), "isLittleO"), Outside)
    # σ = h·z needs h free of 1/z and h(0) = 0
    assert "divides by z" in certify(sp.tanh(Z) * sp.Abs(Z), "isLittleO").reason
    # a wrong c is caught by the certificate itself (SymPy re-derives every case)
    wrong = certify(sp.Max(Z, 0), "odd", c=sp.Integer(2))
    assert isinstance(wrong, Outside)
    wrong_degree = certify(sp.Max(Z, 0) ** 3, "homogeneous", degree=sp.Integer(2))
    assert isinstance(wrong_degree, Outside)


def test_the_product_rule_states_h_and_its_module():
    certificate = certify(Z * sp.tanh(2 * Z), "isLittleO")
    assert certificate.rule == "little_o_product"
    assert certificate.context["body"] == "Real.tanh (2 * z)"
    assert certificate.modules == ("SkipAbsorption.LittleO",)
    plan, text = _plan(next(i for i, row in enumerate(CORPUS) if row[0] == "z*tanh(2*z)"))
    assert "import SkipAbsorption.LittleO" in text
    assert ("refine (isLittleO_mul_self_of_tendsto ht).congr_left (fun z => ?_)\n"
            "  first\n    | show (Real.tanh (2 * z)) * z = act") in text
    # h·z = σ is checked as ring1 sees it, atoms opaque: exp(z + 1) is not e·exp(z) to ring1
    from leanbridge.certificates.little_o import _opaque
    table: dict = {}
    assert sp.expand(_opaque(sp.exp(Z + 1) * Z, table) - _opaque(Z * sp.E * sp.exp(Z), table))
    assert not sp.expand(_opaque(sp.tanh(2 * Z) * Z, table) - _opaque(Z * sp.tanh(2 * Z), table))


def test_homogeneity_hints_follow_the_condition_degrees():
    """`max (z ^ 3) 0`: the mismatched cases need `0 < t ^ 3` (issue 9, G6)."""
    certificate = certify(sp.Max(Z**3, 0), "homogeneous", degree=sp.Integer(3))
    assert certificate.rule == "homogeneous_cases"
    assert "nlinarith [ht, pow_pos ht 3]" in certificate.context["closers"]


def test_real_degree_uses_the_rpow_theorems():
    plan, text = _plan(next(i for i, row in enumerate(CORPUS)
                            if row[:2] == ("Max(z,0)**(3/2)", False)))
    assert "t ^ (3 / 2 : ℝ) * act" in text
    assert "not_absorbable_of_posHomogeneous_rpow (by norm_num)" in text
    assert "SkipAbsorption.not_absorbable_of_posHomogeneous_rpow" in \
        library.GENERAL_THEOREMS["not_absorbable_of_posHomogeneous_rpow"].full_name


def test_a_flat_non_homogeneous_activation_gets_the_linearisation_theorems():
    plan, text = _plan(next(i for i, row in enumerate(CORPUS)
                            if row[0] == "Max(z,0)**3 + Max(z,0)**2"))
    names = [d.name for d in plan.theorems]
    assert any(n.endswith("_not_absorbable_identity") for n in names)
    assert "refine (h1.add h2).congr_left (fun z => ?_)" in text
    assert "No theorem for this family" not in text


def test_branches_follow_max_def():
    """`max a b = if a ≤ b then b else a` (Mathlib's `max_def`), in the printer's order."""
    cases = branches(sp.Max(Z, 0))
    assert [(str(b.value), str(b.decisions[0].relation), b.decisions[0].holds)
            for b in cases] == [("0", "z <= 0", True), ("z", "z <= 0", False)]


def test_too_many_cases_are_outside():
    expr = sum(sp.Abs(Z - k) for k in range(12))
    with pytest.raises(OutsideFragment):
        branches(expr)


@pytest.mark.parametrize("text", ["(max z 0) ^ 3", "z * Real.tanh (2 * z)",
                                  "if z > 0 then z else z / 10", "|z - 1| / 3 + -z ^ 2"])
def test_reader_reads_the_printer(text):
    assert read_lean(text) is not None


@pytest.mark.parametrize("marker, expr, name", [
    ("proved", "Max(z**3, 0)", "relu_cube_in"),
    ("hypothesis", "log(1+exp(z))-log(2)", "shifted_softplus")])
def test_the_readme_examples_are_what_generate_writes(marker, expr, name):
    readme = (ROOT / "README.md").read_text(encoding="utf-8")
    block = readme.split(f"<!-- readme-example: {marker} -->\n```lean\n")[1].split("```")[0]
    text = render_family(build_family_file(user_family(expr, name, False)))
    assert block.strip() in text


def test_prose_brackets_a_sum_coefficient_and_a_fractional_degree():
    """The text beside the Lean (analysis reasons, SymPy premise checks, docstrings) means what
    the Lean says: `(1 + sqrt(2))·z`, not `1 + sqrt(2)·z`; `t^(3/2)`, not `t^3/2`."""
    plan, text = _plan(next(i for i, row in enumerate(CORPUS)
                            if row[0] == "(1+sqrt(2))*Max(z,0)"))
    flat = " ".join(text.split())
    assert "σ(z) − σ(−z) = (1 + sqrt(2))·z for all z (SymPy)" in flat
    assert "Premise: σ z - σ (-z) = (1 + sqrt(2)) · z (SymPy)" in flat
    assert "- act0 (-z) = (1 + Real.sqrt 2) * z`" in flat      # the theorem's docstring
    assert "= 1 + sqrt(2)" not in flat and "= 1 + Real.sqrt 2 *" not in flat
    checks = premise_checks(plan.analysis)
    assert any(c.statement == "σ(z) − σ(−z) = (1 + sqrt(2))·z for all z" for c in checks)
    degree = analyse(user_family("Max(z,0)**(3/2)", "act", False))
    assert any("σ(t·z) = t^(3/2)·σ(z)" in r for r in degree.reasons)
    assert not any("t^3/2" in r for r in degree.reasons)


def test_an_activation_undefined_at_zero_gets_no_lean_file(tmp_path):
    """Lean's `z ^ 3 / |z|` is total (`0 / 0 = 0`): a file for it would be about another
    function, and its closing comment claimed "none of the four arguments applies"."""
    from click.testing import CliRunner

    from leanbridge.cli import main

    project = tmp_path / "lean"
    (project / "SkipAbsorption" / "Families").mkdir(parents=True)
    (project / "lakefile.toml").write_text("name = \"x\"\n")
    for expr, gated in (("z**3/Abs(z)", ["--gated"]), ("log(z)", [])):
        result = CliRunner().invoke(main, ["generate", "--project", str(project), "--expr",
                                           expr, "--name", "bad", *gated])
        assert result.exit_code == 2, result.output
        assert "no Lean file is written" in result.output
        assert len(result.output.strip().splitlines()) == 1
    assert not list((project / "SkipAbsorption" / "Families").iterdir())


@pytest.mark.parametrize("expr", ["sinh(z)", "exp(z) - exp(-z)", "z**3 + z"])
def test_an_undetermined_file_lists_what_was_tried(expr):
    text = render_family(build_family_file(user_family(expr, "act", False)))
    comment = text.split("-- Tried (SymPy analysis):\n", 1)[1].split("\n\n", 1)[0]
    assert comment.startswith("-- * ") and "not used" not in comment
    assert "SymPy established the premise of none of the arguments" in text


@pytest.mark.parametrize("index", range(len(CORPUS)), ids=IDS)
def test_generated_first_alternatives_finish_what_they_start(index):
    """The certificate templates obey the library's hygiene rule (issue 23): no `first`
    alternative of a generated file ends in a bare `rw`/`simp only` while a fallback or
    further tactics follow it."""
    from test_lean_hygiene import bare_rewrite_alternatives

    _, text = _plan(index)
    assert bare_rewrite_alternatives(text) == []


def test_a_theorem_stated_modulo_two_premises_says_premises():
    """σ(z) = z·sigmoid(z) written by hand: its R3 characterisation is stated modulo hρ (the
    large-scale limit) and hσ (the odd part), and its docstring says so in the plural."""
    text = render_family(build_family_file(user_family("z/(1+exp(-z))", "swishy", False)))
    flat = " ".join(text.split())
    assert ("Stated modulo `hρ`, `hσ`: premises SymPy verified but no certificate rule proves "
            "in Lean.") in flat
    assert "Stated modulo `hσ`: a premise SymPy verified but no certificate rule proves" in flat


def test_no_docstring_line_starts_with_a_binary_operator():
    """`tanh_relu z - tanh_relu (-z)` wrapped before its `-` began a line with "- ", which the
    Markdown of doc-gen reads as a list item: the operator now stays with the word before it."""
    text = render_family(build_family_file(user_family("z*(1+tanh(z))/2", "tanh_relu", False)))
    continued = [line for line in text.splitlines() if re.match(r"^\s+[-+*] ", line)]
    assert continued == []
    assert "tanh_relu\n  z - tanh_relu (-z) = z`" in text
