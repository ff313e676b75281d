"""Static hygiene checks on the Lean library in ``lean/`` (run everywhere, no Lean needed).

The Lean code cannot be compiled on machines without a Lean toolchain, so these tests check
what can be checked by reading the files:

* no forbidden tokens (holes, escape hatches, unbounded heartbeats) in ``lean/**/*.lean``;
* every ``.lean`` file opens (after its ``import`` lines) with a module docstring ``/-!``;
* every public name fixed by issue 3 is declared;
* the toolchain and Mathlib pins;
* ``Audit.lean`` prints the axioms of every theorem of the library.

The scanning logic lives in small functions that take a directory, so that the tests below
can show that it really catches planted bad files.
"""

from __future__ import annotations

import re
from pathlib import Path

import pytest

REPO = Path(__file__).resolve().parents[1]
LEAN_DIR = REPO / "lean"
LIB_DIR = LEAN_DIR / "SkipAbsorption"

# Word-bounded patterns; `#print axioms` is fine (plural), an `axiom` declaration is not.
FORBIDDEN_PATTERNS: dict[str, re.Pattern[str]] = {
    "sorry": re.compile(r"\bsorry\b"),
    "sorryAx": re.compile(r"\bsorryAx\b"),
    "admit": re.compile(r"\badmit\b"),
    "axiom": re.compile(r"\baxiom\b"),
    "native_decide": re.compile(r"\bnative_decide\b"),
    "maxHeartbeats 0": re.compile(r"\bmaxHeartbeats\s+0\b"),
}

# Public names fixed by issue 3 and by the code generator's expectations.
PUBLIC_DEFS = [
    "mlp",
    "gatedMlp",
    "Absorbable",
    "GatedAbsorbable",
    "resStack",
    "plainStack",
    "relu",
    "relu2",
    "relu3",
    "swish",
    "gelu",
    # CatalogActivations: bodies fixed by the SymPy -> Lean printer
    "leakyRelu",
    "softplus",
    "geluTanh",
    "absAct",
    "identityGate",
    # Beyond the paper (issue 13): blocks on the line
    "scalarReluBlock",
    "VanishesOnHalfLine",
    # Beyond the paper (issue 13): width
    "AbsorbableWithWidth",
]

PUBLIC_THEOREMS = [
    # Reduction (paper Lemma 4)
    "absorbable_iff_of_isUnit_det",
    "gatedAbsorbable_iff_of_isUnit_det",
    # Degree (paper Proposition 5)
    "not_linear_add_eq_of_posHomogeneous",
    "not_absorbable_of_posHomogeneous",
    "not_gatedAbsorbable_of_posHomogeneous",
    # Linearisation (paper Proposition 6)
    "not_add_eq_of_isLittleO",
    "not_gatedAbsorbable_of_tendsto",
    "not_absorbable_of_isLittleO",
    # Depth (paper Corollary 7)
    "not_stack_eq_of_isLittleO",
    "isLittleO_of_posHomogeneous",
    "not_mlpStack_eq_of_isLittleO",
    "not_mlpStack_eq_of_posHomogeneous",
    "not_gatedMlpStack_eq_of_tendsto",
    # Parity (paper Theorems 8/10, sufficiency)
    "not_absorbable_of_even",
    "absorbable_of_sCondition",
    # Activations: premise lemmas
    "relu_sub_relu_neg",
    "gelu_sub_gelu_neg",
    "swish_sub_swish_neg",
    "relu_posHomogeneous",
    "relu2_posHomogeneous",
    "relu3_posHomogeneous",
    "swish_tendsto_zero",
    "gelu_tendsto_zero",
    "relu_tendsto_zero",
    "relu2_isLittleO",
    "relu3_isLittleO",
    # CatalogActivations: premise lemmas
    "leakyRelu_sub_leakyRelu_neg",
    "softplus_sub_softplus_neg",
    "geluTanh_sub_geluTanh_neg",
    "absAct_neg",
    "identityGate_posHomogeneous",
    "identityGate_tendsto_zero",
    # Beyond the paper (issue 13): Theorems B' and A of deep-stacks.md
    "not_injective_mlp_relu_of_lt_two_mul",
    "injective_add_of_lipschitzWith",
    "injective_resStack",
    "resStack_ne_plainStack_of_lt_two_mul",
    "eq_relu_add_relu_neg_of_posHomogeneous",
    "resStack_eq_plainStack_width_two",
    "resStack_eq_plainStack_width_one_iff",
    # Beyond the paper (issue 13): width, Theorem C and the rank bound of deep-stacks.md
    "absorbableWithWidth_self_iff",
    "absorbableWithWidth_add_of_isUnit_det",
    "absorbableWithWidth_add_of_linearIndependent",
    "exists_rank_le_of_absorbableWithWidth",
    "card_le_width_of_absorbableWithWidth",
    "exists_sCondition_of_absorbableWithWidth_self",
    "le_width_of_absorbableWithWidth",
    "absorbableWithWidth_relu_iff",
    # Beyond the paper (issue 20): pre-norm blocks
    "not_residual_eq_of_bounded_norm",
    "not_residual_eq_of_not_injective",
]

DECL_RE = re.compile(
    r"^[ \t]*(?:@\[[^\]]*\][ \t]*)?(?:(?:noncomputable|private|protected|nonrec)[ \t]+)*"
    r"(theorem|lemma|def|abbrev)[ \t]+([A-Za-z_][A-Za-z0-9_'.]*)",
    re.MULTILINE,
)


def lean_files(root: Path) -> list[Path]:
    """All ``.lean`` files under ``root``, skipping Lake's build directory ``.lake``."""
    return sorted(p for p in root.rglob("*.lean") if ".lake" not in p.relative_to(root).parts)


def forbidden_tokens(text: str) -> list[str]:
    """Names of the forbidden tokens occurring in ``text`` (comments included)."""
    return [name for name, pat in FORBIDDEN_PATTERNS.items() if pat.search(text)]


def starts_with_module_docstring(text: str) -> bool:
    """True if the first thing after the ``import`` header (and blank or comment lines) is a
    module docstring ``/-!``."""
    rest = text
    while True:
        stripped = rest.lstrip()
        if stripped.startswith("--"):
            rest = stripped.split("\n", 1)[1] if "\n" in stripped else ""
            continue
        if stripped.startswith("/-") and not stripped.startswith("/-!") and not stripped.startswith("/--"):
            end = stripped.find("-/")
            if end < 0:
                return False
            rest = stripped[end + 2 :]
            continue
        if re.match(r"(public\s+)?import\s", stripped) or stripped.startswith("module\n"):
            rest = stripped.split("\n", 1)[1] if "\n" in stripped else ""
            continue
        return stripped.startswith("/-!")


def declared_names(root: Path) -> set[str]:
    """Names declared with ``theorem``/``lemma``/``def``/``abbrev`` in the files under ``root``."""
    names: set[str] = set()
    for path in lean_files(root):
        names.update(m.group(2) for m in DECL_RE.finditer(path.read_text(encoding="utf-8")))
    return names


def scan_lean_dir(root: Path) -> list[str]:
    """Hygiene problems of the ``.lean`` files under ``root``, as readable strings."""
    problems: list[str] = []
    files = lean_files(root)
    if not files:
        problems.append(f"no .lean files under {root}")
    for path in files:
        text = path.read_text(encoding="utf-8")
        rel = path.relative_to(root)
        for token in forbidden_tokens(text):
            problems.append(f"{rel}: forbidden token {token!r}")
        if not starts_with_module_docstring(text):
            problems.append(f"{rel}: does not start with a module docstring '/-!'")
    return problems


def audit_missing(lib_dir: Path, audit_file: Path) -> list[str]:
    """Theorems declared in ``lib_dir`` (generated ``Families`` excluded) that ``audit_file``
    does not pass to ``#print axioms``."""
    audit = audit_file.read_text(encoding="utf-8")
    printed = set(re.findall(r"#print\s+axioms\s+(?:SkipAbsorption\.)?([A-Za-z0-9_'.]+)", audit))
    missing = []
    for path in lean_files(lib_dir):
        if "Families" in path.relative_to(lib_dir).parts or path == audit_file:
            continue
        for m in DECL_RE.finditer(path.read_text(encoding="utf-8")):
            if m.group(1) in ("theorem", "lemma") and m.group(2) not in printed:
                missing.append(f"{path.name}: {m.group(2)}")
    return missing


# `first | a | b` stops at the first alternative that *succeeds*, closed goal or not (review B of
# 2026-12-03, risk 3): an alternative that ends in a bare `rw`/`simp only` can succeed leaving a
# goal, and the fallback is then never tried. Such an alternative must finish what it starts
# (`(rw [...]; done)`, `(simp only [...]; done)`, or end in the tactic that closes the step).

_FIRST_LINE = re.compile(r"^([ \t]*)(?:·[ \t]+)?(first)[ \t]*$")
_REWRITE = re.compile(r"^(?:rw|rewrite|erw|nth_rw|nth_rewrite|simp_rw|simp[ \t]+only)\b")
_OPENING, _CLOSING = "([{⟨", ")]}⟩"


def _indentation(line: str) -> int:
    return len(line) - len(line.lstrip(" "))


def _top_level_tactics(text: str) -> list[str]:
    """The tactics of a tactic sequence, split at `;` and line breaks outside brackets; a
    sequence in parentheses `( … )` is read inside."""
    text = text.strip()
    if text.startswith("("):
        depth = 0
        for at, char in enumerate(text):
            depth += char in _OPENING
            depth -= char in _CLOSING
            if depth == 0:
                if not text[at + 1:].strip():
                    return _top_level_tactics(text[1:at])
                break
    parts, depth, current = [], 0, []
    for char in text:
        depth += char in _OPENING
        depth -= char in _CLOSING
        if char in ";\n" and depth == 0:
            parts.append("".join(current))
            current = []
        else:
            current.append(char)
    parts.append("".join(current))
    return [part.strip() for part in parts if part.strip()]


def bare_rewrite_alternatives(text: str) -> list[tuple[int, str]]:
    """``(line, alternative)`` for every alternative of a multi-line ``first`` whose last
    tactic is a bare ``rw``/``simp only`` (or ``erw``, ``nth_rw``, ``simp_rw``) when a
    fallback follows it (it is not the last alternative) or further tactics follow the
    ``first`` in its block (comments ignored)."""
    from leanbridge.lean.sources import strip_comments

    lines = strip_comments(text).split("\n")
    found: list[tuple[int, str]] = []
    i = 0
    while i < len(lines):
        match = _FIRST_LINE.match(lines[i])
        if not match:
            i += 1
            continue
        base, column = _indentation(lines[i]), match.start(2)
        alternatives: list[list] = []  # [line number, text, indentation of its `|`]
        j = i + 1
        while j < len(lines):
            line = lines[j]
            if line.strip():
                indent, stripped = _indentation(line), line.strip()
                if stripped.startswith("|") and indent >= base and (
                        not alternatives or indent <= alternatives[-1][2]):
                    alternatives.append([j + 1, stripped[1:].strip(), indent])
                elif alternatives and indent > alternatives[-1][2]:
                    alternatives[-1][1] += "\n" + stripped
                else:
                    break
            j += 1
        further = j < len(lines) and _indentation(lines[j]) == column
        for k, (number, body, _) in enumerate(alternatives):
            tactics = _top_level_tactics(body)
            if tactics and _REWRITE.match(tactics[-1]) and (further or k < len(alternatives) - 1):
                found.append((number, body.split("\n")[0]))
        i = max(j, i + 1)
    return found


def unfinished_alternatives(root: Path) -> list[str]:
    """:func:`bare_rewrite_alternatives` of every ``.lean`` file under ``root``."""
    return [f"{path.relative_to(root)}:{line}: | {text}"
            for path in lean_files(root)
            for line, text in bare_rewrite_alternatives(path.read_text(encoding="utf-8"))]


# ---------------------------------------------------------------------------------------------
# The real library


def test_lean_library_exists():
    assert (LEAN_DIR / "SkipAbsorption.lean").is_file()
    assert LIB_DIR.is_dir()
    assert len(lean_files(LEAN_DIR)) >= 10


def test_no_hygiene_problems_in_lean_library():
    assert scan_lean_dir(LEAN_DIR) == []


@pytest.mark.parametrize("name", PUBLIC_DEFS + PUBLIC_THEOREMS)
def test_public_name_is_declared(name):
    assert name in declared_names(LEAN_DIR), f"{name} is not declared in lean/"


def test_public_names_are_declared_as_the_right_kind():
    kinds: dict[str, str] = {}
    for path in lean_files(LEAN_DIR):
        for m in DECL_RE.finditer(path.read_text(encoding="utf-8")):
            kinds[m.group(2)] = m.group(1)
    for name in PUBLIC_DEFS:
        assert kinds.get(name) in ("def", "abbrev"), name
    for name in PUBLIC_THEOREMS:
        assert kinds.get(name) in ("theorem", "lemma"), name


#: Suffixes that are projections or dot notation on a checked name (`h.mp`, `ht.le`).
_PROJECTIONS = re.compile(r"\.(mp|mpr|symm|trans|le|lt|ne|ne'|1|2|elim|resolve_left|"
                          r"resolve_right)$")


def qualified_names(lean_dir: Path) -> dict[str, str]:
    """Qualified names (`Matrix.mulVec`, `Real.tanh_neg`) the hand-written library's code uses
    (comments, imports and `#print axioms` lines left out), with a file that uses each."""
    from leanbridge.lean.sources import strip_comments

    found: dict[str, str] = {}
    for path in lean_files(lean_dir):
        if "Families" in path.parts:
            continue  # generated; tests/test_certificates.py checks their names
        code = "\n".join(line for line in strip_comments(path.read_text(encoding="utf-8"))
                         .splitlines() if not line.startswith(("import ", "#print")))
        for name in re.findall(r"(?<![\w.'])[A-Z][A-Za-z0-9]*(?:\.[A-Za-z_][\w']*)+", code):
            while _PROJECTIONS.search(name):
                name = _PROJECTIONS.sub("", name)
            found.setdefault(name, path.name)
    return found


#: What tells where a name was read: a Lean source path, a commit or index id, Lean core, or a
#: reference to the row above ("same") — in the row itself or in the heading of its section.
_SOURCE = re.compile(r"\.lean\b|\bNT\b|\bids? \d|index id|commit|\bcore\b|\bsame\b|as above|"
                     r"\busage\b|Init/", re.IGNORECASE)
_CODE_SPAN = re.compile(r"`([^`]+)`")
_IDENTIFIER = re.compile(r"[A-Za-z_][\w'.₀-₉]*")


def checked_names(checked: str) -> set[str]:
    """The names ``CHECKED_NAMES.md`` lists as checked, by its reading rule: an identifier in a
    code span of the **first cell of a table row** whose source is given (in another cell of
    the row, or in the heading of its section), outside the section "Not used (deliberately
    avoided)". A name in prose, in a signature cell, or in a row without a source does not
    count."""
    names: set[str] = set()
    heading, avoided = "", False
    for line in checked.splitlines():
        if line.startswith("#"):
            heading, avoided = line, "Not used" in line
            continue
        if avoided or not line.startswith("|"):
            continue
        cells = [cell.strip() for cell in re.split(r"(?<!\\)\|", line.strip().strip("|"))]
        if len(cells) < 2 or set(cells[0]) <= set("-: "):
            continue  # not a row, or the separator under a header
        rest = " ".join(cells[1:])
        if not rest.strip() or not (_SOURCE.search(rest) or _SOURCE.search(heading)):
            continue
        for span in _CODE_SPAN.findall(cells[0]):
            names.update(_IDENTIFIER.findall(span))
    return names


def _is_checked(name: str, checked: set[str], declared: set[str]) -> bool:
    """``name`` as written in a proof is a checked name: itself, under an opened namespace
    (`Measure.map_apply` for `MeasureTheory.Measure.map_apply`), the namespace of a checked name
    (`Ne` of `Ne.symm`, left by stripping a projection), dot notation on a local variable
    (`K.card` for `Finset.card`) or on a checked constant (`Finset.univ.filter`), or a
    declaration of the project."""
    if name in checked or any(c.endswith("." + name) or c.startswith(name + ".")
                              for c in checked):
        return True
    if f"SkipAbsorption.{name}" in declared or any(d.endswith("." + name) for d in declared):
        return True
    head, _, rest = name.partition(".")
    if len(head) <= 2 and rest and any(c == rest or c.endswith("." + rest) for c in checked):
        return True
    # dot notation on a checked constant: `Finset.univ.filter` is `Finset.filter Finset.univ`
    parts = name.split(".")
    return len(parts) >= 3 and ".".join(parts[:-1]) in checked and (
        f"{parts[0]}.{parts[-1]}" in checked)


def unchecked_names(lean_dir: Path, checked: str) -> list[str]:
    """The qualified names of :func:`qualified_names` that the CHECKED_NAMES text ``checked``
    does not list as checked (:func:`checked_names`)."""
    from leanbridge.lean.sources import scan_project

    names = checked_names(checked)
    declared = set(scan_project(lean_dir))
    return sorted(f"{name} ({file})" for name, file in qualified_names(lean_dir).items()
                  if not name.startswith("SkipAbsorption.")
                  and not _is_checked(name, names, declared))


def test_every_qualified_name_of_the_library_is_listed_as_checked():
    """Every Mathlib/Lean name the hand-written library writes qualified was read in the
    sources and listed in lean/CHECKED_NAMES.md (the before-stop hook's rule, as a test)."""
    checked = (LEAN_DIR / "CHECKED_NAMES.md").read_text(encoding="utf-8")
    assert unchecked_names(LEAN_DIR, checked) == []


def test_the_name_check_sees_an_unlisted_name(tmp_path):
    (tmp_path / "A.lean").write_text("/-! doc -/\n-- `Foo.bar` in a comment\n"
                                     "theorem t : True := Matrix.madeUp_lemma.mp trivial\n",
                                     encoding="utf-8")
    row = "| `Matrix.madeUp_lemma` | `(x) : …` | `Mathlib/Foo.lean` (index id 1) |"
    assert unchecked_names(tmp_path, "| `Real.exp` | … | core |") == [
        "Matrix.madeUp_lemma (A.lean)"]
    assert unchecked_names(tmp_path, row) == []
    avoided = "## Not used (deliberately avoided)\n" + row + "\n## Next\n"
    assert unchecked_names(tmp_path, avoided) == ["Matrix.madeUp_lemma (A.lean)"]


@pytest.mark.parametrize("text", [
    # in prose, not in a table
    "Read `Matrix.madeUp_lemma` in `Mathlib/Foo.lean`.\n",
    # in a table row, but in the signature cell, not the name cell
    "| `Matrix.other` | uses `Matrix.madeUp_lemma` | `Mathlib/Foo.lean` |\n",
    # in the name cell of a row that gives no source (and no source in the heading)
    "## Misc\n| `Matrix.madeUp_lemma` | `(x) : …` | |\n",
    "## Misc\n| `Matrix.madeUp_lemma` | `(x) : …` | read somewhere |\n",
])
def test_a_name_counts_as_checked_only_in_the_name_cell_of_a_row_with_its_source(text):
    assert "Matrix.madeUp_lemma" not in checked_names(text)


@pytest.mark.parametrize("text", [
    "| `Matrix.madeUp_lemma` | `(x) : …` | `Mathlib/Foo.lean`, NT `0ba78898` |\n",
    "| `Matrix.madeUp_lemma`, `Matrix.other` | `(x) : …` | index id 123 |\n",
    # the source in the heading of the section, as in the file's older tables
    "## Matrices (`Mathlib/Data/Matrix/Mul.lean`, NT `09983a71`)\n"
    "| name | signature | used in |\n|---|---|---|\n| `Matrix.madeUp_lemma` | `(x) : …` | Kink |\n",
])
def test_a_name_in_the_name_cell_of_a_row_with_its_source_counts(text):
    assert "Matrix.madeUp_lemma" in checked_names(text)


def test_checked_names_reads_the_real_file():
    names = checked_names((LEAN_DIR / "CHECKED_NAMES.md").read_text(encoding="utf-8"))
    assert {"Matrix.mulVec", "Real.tanh_neg", "MeasureTheory.Measure.map_apply"} <= names
    assert "polyrith" not in names and "HasFDerivAtFilter" not in names


def test_root_file_imports_every_library_file():
    root = (LEAN_DIR / "SkipAbsorption.lean").read_text(encoding="utf-8")
    imported = set(re.findall(r"^import\s+SkipAbsorption\.(\S+)", root, re.MULTILINE))
    for path in LIB_DIR.glob("*.lean"):
        assert path.stem in imported, f"SkipAbsorption.lean does not import {path.stem}"


def test_toolchain_pin():
    assert (LEAN_DIR / "lean-toolchain").read_text(encoding="utf-8") == "leanprover/lean4:v4.35.0\n"


def test_lakefile_pins():
    text = (LEAN_DIR / "lakefile.toml").read_text(encoding="utf-8")
    assert re.search(r'^defaultTargets\s*=\s*\["SkipAbsorption"\]\s*$', text, re.MULTILINE)
    assert re.search(r"^autoImplicit\s*=\s*false\s*$", text, re.MULTILINE)
    try:
        import tomllib  # Python >= 3.11
    except ModuleNotFoundError:  # pragma: no cover - Python 3.10
        tomllib = None
    if tomllib is not None:
        data = tomllib.loads(text)
        assert data["defaultTargets"] == ["SkipAbsorption"]
        assert data["leanOptions"]["autoImplicit"] is False
        assert data["require"] == [
            {"name": "mathlib", "scope": "leanprover-community", "rev": "v4.35.0"}
        ]
        assert [lib["name"] for lib in data["lean_lib"]] == ["SkipAbsorption"]
    else:
        assert re.search(r'^name\s*=\s*"mathlib"\s*$', text, re.MULTILINE)
        assert re.search(r'^scope\s*=\s*"leanprover-community"\s*$', text, re.MULTILINE)
        assert re.search(r'^rev\s*=\s*"v4\.35\.0"\s*$', text, re.MULTILINE)


def test_audit_prints_axioms_of_every_theorem():
    assert audit_missing(LIB_DIR, LIB_DIR / "Audit.lean") == []


def test_audit_prints_only_declared_names():
    """An undeclared name after `#print axioms` is an error of the Audit module (found once: a
    docstring line beginning with "lemma with" taken for a declaration named `with`)."""
    from leanbridge.lean.sources import scan_project
    declared = scan_project(LEAN_DIR)
    audit = (LIB_DIR / "Audit.lean").read_text(encoding="utf-8")
    printed = re.findall(r"^#print axioms (\S+)$", audit, re.MULTILINE)
    assert printed and [name for name in printed if name not in declared] == []


def test_audit_covers_every_public_theorem():
    audit = (LIB_DIR / "Audit.lean").read_text(encoding="utf-8")
    for name in PUBLIC_THEOREMS:
        assert f"#print axioms SkipAbsorption.{name}\n" in audit, name


# ---------------------------------------------------------------------------------------------
# The scanner catches planted problems

GOOD_FILE = """import Mathlib.Data.Real.Basic

/-! # A good file -/

theorem good_one : (1 : Nat) = 1 := rfl
"""


def _write(root: Path, rel: str, text: str) -> Path:
    path = root / rel
    path.parent.mkdir(parents=True, exist_ok=True)
    path.write_text(text, encoding="utf-8")
    return path


def test_scanner_accepts_a_good_file(tmp_path):
    _write(tmp_path, "Good.lean", GOOD_FILE)
    assert scan_lean_dir(tmp_path) == []
    assert declared_names(tmp_path) == {"good_one"}


@pytest.mark.parametrize(
    "body, token",
    [
        ("theorem bad : 1 = 2 := by sorry\n", "sorry"),
        ("theorem bad : 1 = 2 := by admit\n", "admit"),
        ("axiom bad : 1 = 2\n", "axiom"),
        ("theorem bad : 2 + 2 = 4 := by native_decide\n", "native_decide"),
        ("set_option maxHeartbeats 0 in\ntheorem bad : 1 = 1 := rfl\n", "maxHeartbeats 0"),
        ("-- a comment that says sorry\ntheorem ok : 1 = 1 := rfl\n", "sorry"),
    ],
)
def test_scanner_flags_forbidden_tokens(tmp_path, body, token):
    _write(tmp_path, "Good.lean", GOOD_FILE)
    _write(tmp_path, "Sub/Bad.lean", "import Mathlib\n\n/-! # bad -/\n\n" + body)
    problems = scan_lean_dir(tmp_path)
    assert problems == [f"{Path('Sub/Bad.lean')}: forbidden token {token!r}"]


def test_scanner_allows_print_axioms_and_larger_heartbeats(tmp_path):
    _write(
        tmp_path,
        "Audit.lean",
        "import Good\n\n/-! # audit -/\n\nset_option maxHeartbeats 400000 in\n"
        "#print axioms good_one\n",
    )
    assert scan_lean_dir(tmp_path) == []


def test_scanner_flags_missing_module_docstring(tmp_path):
    _write(tmp_path, "NoDoc.lean", "import Mathlib\n\ntheorem t : 1 = 1 := rfl\n")
    _write(tmp_path, "DeclDoc.lean", "import Mathlib\n\n/-- not a module doc -/\ndef x := 1\n")
    problems = scan_lean_dir(tmp_path)
    assert sorted(problems) == [
        "DeclDoc.lean: does not start with a module docstring '/-!'",
        "NoDoc.lean: does not start with a module docstring '/-!'",
    ]


def test_docstring_check_skips_header_comments():
    text = "/- Copyright -/\n-- note\nimport A\nimport B\n\n/-! # Title -/\n"
    assert starts_with_module_docstring(text)
    assert not starts_with_module_docstring("import A\n/- plain comment -/\ndef x := 1\n")


def test_scanner_ignores_lake_build_directory(tmp_path):
    _write(tmp_path, "Good.lean", GOOD_FILE)
    _write(tmp_path, ".lake/packages/mathlib/Bad.lean", "theorem bad : 1 = 2 := sorry\n")
    assert scan_lean_dir(tmp_path) == []


def test_audit_check_flags_unprinted_theorem(tmp_path):
    lib = tmp_path / "SkipAbsorption"
    _write(lib, "A.lean", GOOD_FILE + "\ntheorem other : (2 : Nat) = 2 := rfl\n")
    _write(lib, "Families/Gen.lean", GOOD_FILE.replace("good_one", "generated_one"))
    audit = _write(lib, "Audit.lean", "import A\n\n/-! # audit -/\n\n#print axioms good_one\n")
    assert audit_missing(lib, audit) == ["A.lean: other"]


def test_every_first_alternative_finishes_what_it_starts():
    """No `first` alternative of the library (generated files included) ends in a bare
    `rw`/`simp only` while a fallback or further tactics follow (issue 23, item 2)."""
    assert unfinished_alternatives(LEAN_DIR) == []


_PLANTED = """import Mathlib

/-! # planted -/

theorem t (a b : ℕ) (h : a = b) : a + 0 = b := by
  first
  | rw [Nat.add_zero]
  | simp
  exact h
"""


def test_hygiene_flags_a_planted_bare_rw_alternative(tmp_path):
    _write(tmp_path, "Planted.lean", _PLANTED)
    assert unfinished_alternatives(tmp_path) == ["Planted.lean:7: | rw [Nat.add_zero]"]


@pytest.mark.parametrize("alternatives, flagged", [
    # the fixed forms: each alternative closes (or fails) inside its parentheses
    ("  first\n  | (rw [h]; done)\n  | simp [h]\n", []),
    ("  first\n    | (rw [h]\n       done)\n    | simp [h]\n", []),
    ("  first\n  | (rw [h]; exact rfl)\n  | simp only [h]\n", []),
    # the last alternative, nothing after the `first`: there is no fallback to skip
    ("  first\n  | exact h\n  | rw [h]\n", []),
    # a bare rewrite before a fallback, on one or several lines, in parentheses or not
    ("  first\n  | rw [h,\n      Nat.add_zero]\n  | simp [h]\n", ["5: | rw [h,"]),
    ("  first\n    | (have e := h\n       rw [e])\n    | simp [h]\n", ["5: | (have e := h"]),
    ("  first\n  | simp only [h]\n  | exact h\n", ["5: | simp only [h]"]),
    # the last alternative, but further tactics follow the `first`
    ("  first\n  | show a = b\n  | simp only [Nat.add_zero]\n  exact h\n",
     ["6: | simp only [Nat.add_zero]"]),
    # in a bullet: the further tactic is at the column of `first`
    ("  · first\n      | rw [h]\n      | simp\n    rfl\n", ["5: | rw [h]"]),
    # `--` comments do not count as alternatives or tactics
    ("  first\n  | exact h -- rw [h]\n  | simp\n", []),
])
def test_bare_rewrite_alternatives_cases(alternatives, flagged):
    text = "import Mathlib\n/-! # t -/\ntheorem t : True := by\n" + alternatives
    assert [f"{line}: | {body}" for line, body in bare_rewrite_alternatives(text)] == flagged
