"""Read the Lean sources of the Lake project: which declarations exist, where, and what they use.

A light reader, not a Lean parser: it strips comments, tracks ``namespace``/``section``/``end``
to give each ``theorem``/``lemma``/``def``/``abbrev`` its full name, and takes a declaration's
text up to the next declaration. The identifiers in that text that name other declarations of
the project are its *uses*. Good enough for the project's own, regular files; it never decides
whether a proof is correct — only Lean does that.
"""

from __future__ import annotations

import re
from dataclasses import dataclass, field
from pathlib import Path

_DECL = re.compile(
    r"^[ \t]*(?:@\[[^\]]*\][ \t]*)?(?:(?:noncomputable|private|protected|nonrec)[ \t]+)*"
    r"(theorem|lemma|def|abbrev|instance)[ \t]+([A-Za-z_][A-Za-z0-9_'.]*)",
    re.MULTILINE,
)
_SCOPE = re.compile(
    r"^[ \t]*(?:noncomputable[ \t]+)?(namespace|section|end)\b[ \t]*([A-Za-z0-9_.']*)",
    re.MULTILINE)
_IDENT = re.compile(r"[A-Za-z_][A-Za-z0-9_'.]*")
# The import header: `import A`, `public import A`, `meta import A`, `import all A` (module system).
_IMPORT = re.compile(r"^[ \t]*(?:(?:public|private|meta)[ \t]+)*import[ \t]+(?:all[ \t]+)?"
                     r"([A-Za-z_][A-Za-z0-9_.']*(?:[ \t]+[A-Za-z_][A-Za-z0-9_.']*)*)[ \t]*$",
                     re.MULTILINE)
_HEADER_END = re.compile(r"^[ \t]*(?!(?:(?:public|private|meta)[ \t]+)*import\b|module\b|prelude\b)"
                         r"\S", re.MULTILINE)
_LINE_COMMENT = re.compile(r"--[^\n]*")
_BLOCK_MARK = re.compile(r"/-|-/")


def strip_comments(text: str) -> str:
    """Remove ``/- … -/`` blocks (nested) and ``--`` line comments, keeping line breaks.

    Read left to right: ``/-`` opens a block, ``-/`` closes one if one is open (outside a block
    it is ordinary text, and its ``/`` may start a ``/-``)."""
    out: list[str] = []
    depth = start = position = 0
    while (mark := _BLOCK_MARK.search(text, position)) is not None:
        at = mark.start()
        if mark.group() == "-/" and not depth:
            position = at + 1
            continue
        piece = text[start:at]
        out.append("\n" * piece.count("\n") if depth else piece)
        depth += 1 if mark.group() == "/-" else -1
        start = position = at + 2
    piece = text[start:]
    out.append("\n" * piece.count("\n") if depth else piece)
    return _LINE_COMMENT.sub("", "".join(out))


@dataclass(frozen=True)
class LeanDeclaration:
    """A declaration found in the project's Lean sources."""

    name: str          # full name, e.g. SkipAbsorption.relu2_posHomogeneous
    kind: str          # theorem / lemma / def / abbrev / instance
    file: str          # path relative to the project
    line: int
    text: str = field(repr=False)   # its source text, comments removed

    @property
    def is_private(self) -> bool:
        """``private theorem …``: Lean names it ``_private.<Module>.0.<name>``, and other
        modules cannot refer to it."""
        head = self.text.split(self.kind, 1)[0] if self.kind in self.text else ""
        return "private" in head.split()

    @property
    def short(self) -> str:
        return self.name.rsplit(".", 1)[-1]


def _namespace_at(scopes: list[tuple[str, str]]) -> str:
    return ".".join(name for kind, name in scopes if kind == "namespace" and name)


def scan_file(path: Path, project: Path) -> list[LeanDeclaration]:
    """The declarations of one ``.lean`` file."""
    # Lean reads UTF-8 only (a file that is not fails the build); the scan goes on with the
    # undecodable bytes replaced, so the names of the file's declarations are still found.
    text = strip_comments(path.read_text(encoding="utf-8", errors="replace"))
    relative = path.relative_to(project).as_posix()
    events = sorted([(m.start(), "scope", m) for m in _SCOPE.finditer(text)]
                    + [(m.start(), "decl", m) for m in _DECL.finditer(text)],
                    key=lambda item: item[0])
    scopes: list[tuple[str, str]] = []
    found: list[tuple[int, str, str]] = []
    for _, what, match in events:
        if what == "scope":
            keyword, name = match.group(1), match.group(2)
            if keyword == "end":
                if scopes:
                    scopes.pop()
            else:
                scopes.append((keyword, name))
            continue
        namespace = _namespace_at(scopes)
        short = match.group(2)
        full = f"{namespace}.{short}" if namespace and not short.startswith("_root_.") else short
        found.append((match.start(), match.group(1), full.removeprefix("_root_.")))
    declarations = []
    for index, (start, kind, name) in enumerate(found):
        end = found[index + 1][0] if index + 1 < len(found) else len(text)
        line = text.count("\n", 0, start) + 1
        declarations.append(LeanDeclaration(name, kind, relative, line, text[start:end]))
    return declarations


def scan_project(project: Path) -> dict[str, LeanDeclaration]:
    """Every declaration of the Lake project's own sources (``.lake`` excluded), by full name."""
    declarations: dict[str, LeanDeclaration] = {}
    for path in sorted(project.rglob("*.lean")):
        if ".lake" in path.relative_to(project).parts:
            continue
        for declaration in scan_file(path, project):
            declarations.setdefault(declaration.name, declaration)
    return declarations


def short_names(known: dict[str, LeanDeclaration]) -> dict[str, list[str]]:
    """The full names of ``known`` by their last component."""
    by_short: dict[str, list[str]] = {}
    for name in known:
        by_short.setdefault(name.rsplit(".", 1)[-1], []).append(name)
    return by_short


def uses(declaration: LeanDeclaration, known: dict[str, LeanDeclaration],
         by_short: dict[str, list[str]] | None = None) -> set[str]:
    """Full names of the project declarations that ``declaration``'s text mentions
    (``by_short``: :func:`short_names` of ``known``, if the caller has it already)."""
    by_short = by_short if by_short is not None else short_names(known)
    namespace = declaration.name.rsplit(".", 1)[0] if "." in declaration.name else ""
    found: set[str] = set()
    body = declaration.text.split(None, 2)[-1] if declaration.text else ""
    for token in set(_IDENT.findall(body)):
        if token in known:
            found.add(token)
            continue
        candidates = by_short.get(token, [])
        # Resolve a short name as Lean would from inside `namespace`: innermost first.
        for prefix in _prefixes(namespace):
            full = f"{prefix}.{token}" if prefix else token
            if full in candidates:
                found.add(full)
                break
    found.discard(declaration.name)
    return found


def _prefixes(namespace: str) -> list[str]:
    parts = namespace.split(".") if namespace else []
    return [".".join(parts[:i]) for i in range(len(parts), -1, -1)]


def module_name(relative: str) -> str:
    """``SkipAbsorption/Families/Relu.lean`` → ``SkipAbsorption.Families.Relu``."""
    return relative.removesuffix(".lean").replace("/", ".")


def module_file(module: str) -> str:
    return module.replace(".", "/") + ".lean"


def imports(text: str) -> list[str]:
    """The modules a Lean file imports (its header, comments ignored)."""
    body = strip_comments(text)
    end = _HEADER_END.search(body)
    header = body[:end.start()] if end else body
    return [name for match in _IMPORT.finditer(header) for name in match.group(1).split()]


def project_imports(project: Path) -> dict[str, list[str]]:
    """``{module: imported modules}`` for every Lean file of the project (``.lake`` excluded)."""
    found: dict[str, list[str]] = {}
    for path in sorted(project.rglob("*.lean")):
        relative = path.relative_to(project)
        if ".lake" in relative.parts:
            continue
        found[module_name(relative.as_posix())] = imports(path.read_text(encoding="utf-8",
                                                                        errors="replace"))
    return found


_OPEN = {"(": ")", "{": "}", "[": "]", "⦃": "⦄"}
_CLOSE = set(_OPEN.values())


@dataclass(frozen=True)
class Binder:
    """One binder of a declaration's signature: ``(hA : A ≠ 0)`` is ``("(", ("hA",),
    "A ≠ 0")``; an instance binder ``[NormedAddCommGroup E]`` has no names."""

    bracket: str
    names: tuple[str, ...]
    type: str


def signature(text: str) -> tuple[list[Binder], str]:
    """The binders of a declaration and its type after the colon, read from its source text
    (``theorem name binders : type := …``, or ``… : type`` then ``| …`` match arms; comments
    already stripped, as :attr:`LeanDeclaration.text` is). A reader of the project's regular
    signatures, not a Lean parser: brackets are matched, and the first ``:`` outside them ends the binders."""
    header = re.split(r":=|\n[ \t]*\|", text, maxsplit=1)[0]   # the body, or match arms
    match = _DECL.search(header)
    rest = header[match.end():] if match else header
    binders: list[Binder] = []
    position = 0
    while position < len(rest):
        char = rest[position]
        if char in _OPEN:
            end = _matching(rest, position)
            inner = rest[position + 1:end]
            names, type_ = _split_binder(inner)
            binders.append(Binder(char, names, " ".join(type_.split())))
            position = end + 1
        elif char == ":":
            return binders, " ".join(rest[position + 1:].split())
        else:
            position += 1
    return binders, ""


def _matching(text: str, start: int) -> int:
    """The index of the bracket closing the one at ``start``."""
    depth = 0
    for index in range(start, len(text)):
        if text[index] in _OPEN:
            depth += 1
        elif text[index] in _CLOSE:
            depth -= 1
            if depth == 0:
                return index
    return len(text)


def _split_binder(inner: str) -> tuple[tuple[str, ...], str]:
    depth = 0
    for index, char in enumerate(inner):
        if char in _OPEN:
            depth += 1
        elif char in _CLOSE:
            depth -= 1
        elif char == ":" and depth == 0 and inner[index + 1:index + 2] != "=":
            return tuple(inner[:index].split()), inner[index + 1:]
    return (), inner


def top_level_split(text: str, separator: str) -> list[str]:
    """``text`` split at the occurrences of ``separator`` outside brackets."""
    parts, depth, start = [], 0, 0
    for index, char in enumerate(text):
        if char in _OPEN:
            depth += 1
        elif char in _CLOSE:
            depth -= 1
        elif depth == 0 and text.startswith(separator, index):
            parts.append(text[start:index])
            start = index + len(separator)
    parts.append(text[start:])
    return [part.strip() for part in parts]
