"""Import cones of the Lean library, and the share of its theorems a first build can prove.

Lake builds nothing downstream of a module that failed, so a theorem is proved only if every
library module in its *import cone* (the module that declares it and every project module it
imports, transitively) builds. With a probability ``p`` that a module builds at the first real
``lake build`` (the reviewers' estimate is about 0.9), the expected share of theorems proved is
the mean over theorems of ``p ** (modules in its cone)``. The same figure per declaration
(``q ** (declarations in its cone)``, ``q`` about 0.97) does not reward merging files.

Issue 23 asks for the first figure to be at least 0.70 with no cone above 8 modules
(``tests/test_lean_cones.py``). Run ``python -m leanbridge.lean.cones`` for the figures.

Only the project's own modules count: Mathlib is a prebuilt dependency.
"""

from __future__ import annotations

import argparse
import json
import sys
from collections import Counter
from dataclasses import dataclass
from pathlib import Path

from leanbridge.lean.sources import module_name, project_imports, scan_project

PER_MODULE = 0.9
PER_DECLARATION = 0.97
THEOREM_KINDS = ("theorem", "lemma")


def import_cones(imports: dict[str, list[str]]) -> dict[str, frozenset[str]]:
    """``{module: its import cone}``: itself and every project module it imports, transitively
    (imports outside ``imports``, Mathlib's, are left out)."""
    cones: dict[str, frozenset[str]] = {}

    def cone(module: str, path: tuple[str, ...] = ()) -> frozenset[str]:
        if module in cones:
            return cones[module]
        if module in path:  # an import cycle: Lean rejects it; count each module once
            return frozenset({module})
        found = {module}
        for imported in imports.get(module, []):
            if imported in imports:
                found |= cone(imported, path + (module,))
        cones[module] = frozenset(found)
        return cones[module]

    for module in imports:
        cone(module)
    return cones


@dataclass(frozen=True)
class ConeFigures:
    """The figures of a Lake project (see the module docstring)."""

    theorems: int
    modules: int
    share_per_module: float        # mean over theorems of PER_MODULE ** modules in its cone
    share_per_declaration: float   # mean over theorems of PER_DECLARATION ** declarations
    largest_cone: int
    largest: tuple[str, ...]       # the modules with theorems whose cone is the largest
    cone_sizes: dict[str, int]     # modules with theorems: number of modules in their cone

    def to_dict(self) -> dict:
        return {"theorems": self.theorems, "modules": self.modules,
                "share_per_module": self.share_per_module,
                "share_per_declaration": self.share_per_declaration,
                "per_module": PER_MODULE, "per_declaration": PER_DECLARATION,
                "largest_cone": self.largest_cone, "largest": list(self.largest),
                "cone_sizes": self.cone_sizes}


def cone_figures(project: Path, per_module: float = PER_MODULE,
                 per_declaration: float = PER_DECLARATION) -> ConeFigures:
    """The figures of the Lake project at ``project`` (its ``.lean`` sources, ``.lake`` left
    out); every ``theorem``/``lemma`` counts, generated family files included."""
    imports = project_imports(project)
    cones = import_cones(imports)
    declarations = scan_project(project)
    theorems = Counter(module_name(d.file) for d in declarations.values()
                       if d.kind in THEOREM_KINDS)
    all_declarations = Counter(module_name(d.file) for d in declarations.values())
    total = sum(theorems.values())
    if not total:
        raise ValueError(f"{project}: no theorem in the Lean sources")
    share_module = sum(count * per_module ** len(cones[m]) for m, count in theorems.items())
    share_declaration = sum(count * per_declaration ** sum(all_declarations[x] for x in cones[m])
                            for m, count in theorems.items())
    sizes = {m: len(cones[m]) for m in sorted(theorems)}
    largest = max(sizes.values())
    return ConeFigures(total, len(imports), share_module / total, share_declaration / total,
                       largest, tuple(m for m, size in sizes.items() if size == largest), sizes)


def main(argv: list[str] | None = None) -> int:
    parser = argparse.ArgumentParser(
        prog="python -m leanbridge.lean.cones",
        description="Print the expected share of the Lean library's theorems that a first "
                    "`lake build` proves, if each library module builds with probability "
                    f"{PER_MODULE} (and, for comparison, each declaration with "
                    f"{PER_DECLARATION}), and the largest import cone.")
    parser.add_argument("--project", type=Path, default=Path("lean"),
                        help="the Lake project (default: ./lean)")
    parser.add_argument("--json", action="store_true", help="print the figures as JSON")
    arguments = parser.parse_args(argv)
    if not (arguments.project / "SkipAbsorption").is_dir() and not any(
            arguments.project.glob("*.lean")):
        print(f"error: {arguments.project} holds no Lean sources", file=sys.stderr)
        return 2
    try:
        figures = cone_figures(arguments.project)
    except ValueError as exc:
        print(f"error: {exc}", file=sys.stderr)
        return 2
    if arguments.json:
        print(json.dumps(figures.to_dict(), indent=2, sort_keys=True))
        return 0
    print(f"{figures.theorems} theorems in {figures.modules} modules")
    print(f"expected share proved, {PER_MODULE} per module: {figures.share_per_module:.3f}")
    print(f"expected share proved, {PER_DECLARATION} per declaration: "
          f"{figures.share_per_declaration:.3f}")
    print(f"largest import cone: {figures.largest_cone} modules ({', '.join(figures.largest)})")
    return 0


if __name__ == "__main__":
    raise SystemExit(main())
