"""The Lake project on disk: its pins (Lean toolchain, Mathlib rev) as its files state them."""

from __future__ import annotations

import json
import re
from dataclasses import dataclass
from pathlib import Path

_MATHLIB_REV = re.compile(r'name\s*=\s*"mathlib"[^\[]*?rev\s*=\s*"([^"]+)"', re.S)


@dataclass(frozen=True)
class Pins:
    lean_toolchain: str | None   # contents of lean-toolchain
    mathlib_rev: str | None      # the rev lakefile.toml requires
    mathlib_commit: str | None   # the commit lake-manifest.json resolved it to, if present


def _read(path: Path) -> str | None:
    try:
        return path.read_text(encoding="utf-8")
    except OSError:
        return None


def read_pins(project: Path) -> Pins:
    toolchain = _read(project / "lean-toolchain")
    rev = _MATHLIB_REV.search(_read(project / "lakefile.toml") or "")
    commit = None
    manifest = _read(project / "lake-manifest.json")
    if manifest:
        try:
            commit = next((p.get("rev") for p in json.loads(manifest).get("packages", [])
                           if p.get("name") == "mathlib"), None)
        except (json.JSONDecodeError, AttributeError):
            commit = None
    return Pins(toolchain.strip() if toolchain else None, rev.group(1) if rev else None, commit)


# -- the lakefile's options and libraries ----------------------------------------------------

_TABLE = re.compile(r"^\s*\[(?P<name>[^\]\[]+)\]\s*$|^\s*\[\[(?P<array>[^\]]+)\]\]\s*$")
_KEY = re.compile(r'^\s*(?P<key>[A-Za-z0-9_."\']+)\s*=\s*(?P<value>.+?)\s*(?:#.*)?$')


def _toml_value(text: str):
    if text.startswith("[") and text.endswith("]"):
        return [_toml_value(item.strip()) for item in text[1:-1].split(",") if item.strip()]
    if text in ("true", "false"):
        return text == "true"
    if re.fullmatch(r"-?\d+", text):
        return int(text)
    if len(text) >= 2 and text[0] == text[-1] and text[0] in "\"'":
        return text[1:-1]
    return text


def _lakefile_tables(project: Path) -> list[tuple[str, dict]]:
    """The lakefile.toml as (table name, {key: value}) in order; array tables repeat.

    A small reader for the flat tables a lakefile uses (``tomllib`` is not in Python 3.10).
    """
    text = _read(project / "lakefile.toml")
    if text is None:
        return []
    tables: list[tuple[str, dict]] = [("", {})]
    for line in text.splitlines():
        table = _TABLE.match(line)
        if table:
            tables.append(((table["name"] or table["array"]).strip(), {}))
            continue
        key = _KEY.match(line)
        if key:
            tables[-1][1][key["key"].strip("\"'")] = _toml_value(key["value"])
    return tables


def lean_options(project: Path) -> dict[str, object]:
    """The package's ``[leanOptions]`` (lakefile.toml), e.g. ``{"autoImplicit": False}``."""
    options: dict[str, object] = {}
    for name, values in _lakefile_tables(project):
        if name == "leanOptions":
            options.update(values)
    return options


def option_flags(options: dict[str, object]) -> list[str]:
    """``-Dname=value`` flags as Lake's ``LeanOption.asCliArg`` writes them
    (``src/lake/Lake/Config/LeanConfig.lean``: strings quoted, booleans ``true``/``false``)."""
    flags = []
    for name, value in options.items():
        if isinstance(value, bool):
            text = "true" if value else "false"
        elif isinstance(value, int):
            text = str(value)
        else:
            text = f'"{value}"'
        flags.append(f"-D{name}={text}")
    return flags


def library_roots(project: Path) -> list[str]:
    """Root modules of the package's ``lean_lib`` targets (a library's default root is its name)."""
    roots: list[str] = []
    for name, values in _lakefile_tables(project):
        if name == "lean_lib" and "name" in values:
            roots.append(str(values["name"]))
    return roots


def default_targets(project: Path) -> list[str]:
    """What a bare ``lake build`` builds: ``defaultTargets``, else the libraries."""
    for name, values in _lakefile_tables(project)[:1]:
        targets = values.get("defaultTargets")
        if isinstance(targets, list) and targets:
            return [str(t) for t in targets]
    return library_roots(project)
