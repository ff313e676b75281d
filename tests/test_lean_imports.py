"""Import-all: every Lean file under ``lean/SkipAbsorption/`` is imported by the library root.

``lake build`` builds the modules its root ``lean/SkipAbsorption.lean`` imports, directly or
through other modules (``SkipAbsorption.Families`` imports the catalog's family files,
``SkipAbsorption.Beyond`` its own directory). A file that nothing imports is never built: its
errors, warnings and ``sorry`` go unseen by ``lake build --wfail``, and the kernel replay
(leanchecker) never sees it. Mathlib checks the same with ``lake exe mk_all --check`` (direct
imports in ``Mathlib.lean``); here the root imports directories through their own index files,
so the test follows imports transitively.

The tree is read as it is, not from a list: a new file anywhere under ``SkipAbsorption/`` must be
imported. The CI workflow (.github/workflows/lean.yml) runs this file as its import-all step.
"""

from __future__ import annotations

import re
from pathlib import Path

REPO = Path(__file__).resolve().parents[1]
LEAN_DIR = REPO / "lean"
LIBRARY = "SkipAbsorption"

#: An import line of a Lean 4 header, with the module system's modifiers
#: (``public import``, ``meta import``, ``import all``).
_IMPORT = re.compile(r"^\s*(?:public\s+|private\s+)?(?:meta\s+)?import\s+(?:all\s+)?([\w.'«»]+)",
                     re.MULTILINE)
_COMMENT = re.compile(r"/-.*?-/|--[^\n]*", re.DOTALL)


def module_name(project: Path, path: Path) -> str:
    """``SkipAbsorption.Beyond.Width`` for ``project/SkipAbsorption/Beyond/Width.lean``."""
    return ".".join(path.relative_to(project).with_suffix("").parts)


def imports(path: Path) -> set[str]:
    """The modules ``path`` imports (comments removed first)."""
    return set(_IMPORT.findall(_COMMENT.sub("", path.read_text(encoding="utf-8"))))


def library_files(project: Path, library: str = LIBRARY) -> dict[str, Path]:
    """Every module of the library: the root file and every ``.lean`` file below its
    directory (Lake's build directory ``.lake`` excluded)."""
    files = {library: project / f"{library}.lean"}
    for path in sorted((project / library).rglob("*.lean")):
        if ".lake" not in path.parts:
            files[module_name(project, path)] = path
    return files


def unimported(project: Path, library: str = LIBRARY) -> list[str]:
    """The library's modules that the root does not import, directly or transitively."""
    files = library_files(project, library)
    reached, stack = {library}, [library]
    while stack:
        for name in imports(files[stack.pop()]):
            if name in files and name not in reached:
                reached.add(name)
                stack.append(name)
    return sorted(set(files) - reached)


def test_the_library_has_files_in_subdirectories():
    files = library_files(LEAN_DIR)
    assert any(name.count(".") >= 2 for name in files), sorted(files)
    assert f"{LIBRARY}.Families.Relu" in files and f"{LIBRARY}.Beyond.Width" in files


def test_every_library_file_is_imported_by_the_root():
    missing = unimported(LEAN_DIR)
    assert not missing, ("not imported by lean/SkipAbsorption.lean (directly or through an "
                         f"imported module), so never built: {', '.join(missing)}")


def _tree(tmp_path: Path, files: dict[str, str]) -> Path:
    for relative, text in files.items():
        path = tmp_path / relative
        path.parent.mkdir(parents=True, exist_ok=True)
        path.write_text(text, encoding="utf-8")
    return tmp_path


def test_a_file_nothing_imports_is_found(tmp_path):
    project = _tree(tmp_path, {
        "Lib.lean": "import Lib.A\nimport Lib.Sub\n",
        "Lib/A.lean": "import Mathlib\n/-! A -/\n",
        "Lib/Sub.lean": "public import Lib.Sub.B\n",
        "Lib/Sub/B.lean": "/-! B -/\n",
        "Lib/Sub/Orphan.lean": "import Lib.A\n",
        "Lib/C.lean": "/-! C, named only in a comment of the root -/\n",
        "Lib/.lake/build/Ignored.lean": "",
    })
    (project / "Lib.lean").write_text("import Lib.A\nimport Lib.Sub\n-- import Lib.C\n",
                                      encoding="utf-8")
    assert unimported(project, "Lib") == ["Lib.C", "Lib.Sub.Orphan"]


# -- issue 22: the large-scale limit's names live where leanbridge imports them from ----------

_DECLARATION = r"^(?:@\[[^\]]*\]\s*)?(?:private\s+|protected\s+)?(?:noncomputable\s+)?" \
               r"(?:theorem|lemma|def|abbrev|structure|class)\s+{name}(?![\w'])"


def _declares(module: str, name: str) -> bool:
    path = LEAN_DIR.joinpath(*module.split(".")).with_suffix(".lean")
    text = path.read_text(encoding="utf-8") if path.exists() else ""
    return re.search(_DECLARATION.format(name=re.escape(name)), text, re.MULTILINE) is not None


def _closure(module: str) -> set[str]:
    seen, todo = set(), [module]
    while todo:
        current = todo.pop()
        if current in seen or not current.startswith(LIBRARY):
            continue
        seen.add(current)
        path = LEAN_DIR.joinpath(*current.split(".")).with_suffix(".lean")
        if path.exists():
            todo.extend(imports(path))
    return seen


def test_each_recession_name_is_declared_in_the_module_leanbridge_lists():
    """``library.RECESSION_NAMES`` says which file declares each name; the generated family
    files import that module, so a name moved to another file must move there too."""
    from leanbridge.lean import library

    wrong = [f"{name} (listed under {module})"
             for module, names in library.RECESSION_NAMES.items() for name in names
             if not _declares(module, name)]
    assert wrong == []


def test_generated_family_files_import_what_they_instantiate():
    """Every issue-22 library theorem a family file names is declared in a module the file
    imports (directly or through its imports): otherwise Lean reports an unknown identifier."""
    from leanbridge.lean import library

    families = LEAN_DIR / LIBRARY / "Families"
    checked = 0
    for path in sorted(families.glob("*.lean")):
        text = _COMMENT.sub("", path.read_text(encoding="utf-8"))
        reachable = set().union(*(_closure(m) for m in imports(path)))
        for module, names in library.RECESSION_NAMES.items():
            for name in names:
                if re.search(rf"(?<![\w.']){re.escape(name)}(?![\w'])", text):
                    checked += 1
                    assert module in reachable, (path.name, name, module)
    assert checked >= 5          # tanh, sigmoid, GELU, GELU-tanh, SiLU, softplus cite one
