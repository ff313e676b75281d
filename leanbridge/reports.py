"""Reports of a check, all from one :class:`~leanbridge.check.CheckResult`.

* a terminal summary (family × argument × verdict, then the library, then the theorems
  stated modulo a premise SymPy verified and Lean did not, then what Lean did — modules that
  failed or were not built, names leanbridge references that ``lean/`` lacks);
* JSON (schema ``leanbridge.check/1``, see ``leanbridge/schemas/check-1.schema.json``);
* JUnit XML (one test case per declaration; a ``modules`` suite for modules that did not
  build, a ``names`` suite for missing Lean names). A theorem stated modulo a premise carries
  one ``<property name="premise:hσ" value="…"/>`` per premise and a ``<system-out>`` saying
  it is verified by SymPy, not by Lean; it fails (type ``premise_unverified``) if SymPy did
  not verify the premise in the run;
* GitHub Actions annotations (``::error file=…,line=…::…``; ``::notice`` for a theorem proved
  modulo a premise) and a Markdown step summary.

Report files are written atomically.
"""

from __future__ import annotations

import json
import sys
from pathlib import Path

from leanbridge.atomic import atomic_write
from leanbridge.check import CheckResult
from leanbridge.premises import FAILED as PREMISE_FAILED
from leanbridge.results import (
    FAILURES,
    NOT_RUN,
    PROVED,
    PROVED_MODULO_PREMISE,
    SORRY,
    DeclarationResult,
    summary,
)

_SYMBOL = {PROVED: "✅", PROVED_MODULO_PREMISE: "☑️", SORRY: "⚠️", NOT_RUN: "·"}
#: What every report says of a premise hypothesis.
NOT_BY_LEAN = "verified by SymPy, not by Lean"


def _family_records(result: CheckResult) -> list[DeclarationResult]:
    return [r for r in result.records if r.family is not None]


def _argument(record: DeclarationResult) -> str:
    if record.argument:
        return record.argument
    return "sympy = lean" if record.role == "bridge" else record.role


def terminal(result: CheckResult) -> str:
    """The human summary printed at the end of ``leanbridge check``."""
    lines = []
    bad_files = [f for f in result.generated_files if f["status"] not in ("ok", "unmanaged")]
    lines.append("Generated files: " + ("all current" if not bad_files else
                                         f"{len(bad_files)} not current"))
    lines.extend(f"  {f['status']:9s} {f['path']} {f['detail']}".rstrip() for f in bad_files)
    premise_counts: dict[str, int] = {}
    for premise in result.premises:
        premise_counts[premise.status] = premise_counts.get(premise.status, 0) + 1
    lines.append("Symbolic premises (SymPy): " + ", ".join(
        f"{n} {status}" for status, n in sorted(premise_counts.items())))
    lines.extend(f"  FAILED {p.family} {p.argument}: {p.statement}" for p in result.premises
                 if p.status == PREMISE_FAILED)
    rows = [(r.family or "", _argument(r), r.decl.rsplit(".", 1)[-1]
             + (f" (rule {r.certificate_rule})" if r.certificate_rule else ""), r.verdict)
            for r in _family_records(result)]
    if rows:
        widths = [max(len(row[i]) for row in rows + [("family", "argument", "declaration",
                                                          "verdict")]) for i in range(3)]
        lines.append("")
        header = ("family", "argument", "declaration", "verdict")
        for row in [header, *rows]:
            lines.append("  ".join(cell.ljust(width) for cell, width in zip(row, widths))
                         + "  " + row[3])
    library = [r for r in result.records if r.family is None]
    counts = summary(library)
    lines.append("")
    lines.append(f"Library theorems: {len(library)} (" + ", ".join(
        f"{n} {verdict}" for verdict, n in counts.items() if n and verdict != "total") + ")")
    for record in result.records:
        if record.verdict in FAILURES:
            where = f"{record.file}:{record.line}" if record.line else record.file
            lines.append(f"  {record.verdict:15s} {record.decl} ({where}): {record.detail}")
    lines.extend(_modulo_lines(result))
    if result.missing_names:
        lines.append("")
        lines.append(f"Missing Lean names: {len(result.missing_names)}")
        lines.extend(f"  missing   {name}" for name in result.missing_names)
    if result.modules:
        lines.append("")
        lines.append(f"Modules not built: {len(result.modules)}")
        lines.extend(f"  {m.status:9s} {m.module or '(build)'}: {m.detail}"
                     for m in result.modules)
    lines.append("")
    if result.lean_status == NOT_RUN:
        lines.append(f"Lean: {result.lean_note}")
    else:
        lines.append(f"Lean: {result.lean_note} (toolchain {result.toolchain.lean_toolchain}, "
                     f"Mathlib {result.toolchain.mathlib_rev})")
    total = summary(result.records)
    lines.append("Verdicts: " + ", ".join(f"{n} {v}" for v, n in total.items()
                                          if n and v != "total") + f" — exit {result.exit_code}")
    return "\n".join(lines)


def _premise_text(premise) -> str:
    if premise.verified:
        return f"{premise.describe()} — {NOT_BY_LEAN}"
    return (f"{premise.describe()} — NOT verified by SymPy in this run ({premise.sympy_status}: "
            f"{premise.sympy_statement}); not by Lean either")


def _modulo_lines(result: CheckResult) -> list[str]:
    """The theorems stated modulo a premise: proved by Lean (or not run), each premise named
    with its SymPy status in this run."""
    modulo = [r for r in result.records if r.premises]
    if not modulo:
        return []
    verified = [r for r in modulo if not r.unverified_premises]
    lines = [""]
    proved = [r for r in verified if r.verdict == PROVED_MODULO_PREMISE]
    if proved:
        lines.append(f"{len(proved)} proved modulo a SymPy-verified premise "
                     "(Lean proved the theorem; the premise is verified by SymPy, not by Lean)")
    rest = [r for r in verified if r.verdict != PROVED_MODULO_PREMISE]
    if rest:
        lines.append(f"{len(rest)} stated modulo a SymPy-verified premise, not proved by Lean "
                     "here (see their verdicts)")
    unverified = [r for r in modulo if r.unverified_premises]
    if unverified:
        lines.append(f"{len(unverified)} stated modulo a premise SymPy did NOT verify in this "
                     "run: not green (exit 1)")
    for record in modulo:
        lines.append(f"  {record.verdict:21s} {record.decl}")
        lines.extend(f"      {_premise_text(p)}" for p in record.premises)
    return lines


def to_json(result: CheckResult) -> str:
    return json.dumps(result.to_dict(), indent=2, ensure_ascii=False) + "\n"


def to_junit(result: CheckResult) -> str:
    """JUnit XML: one suite for the family theorems, one for the library."""
    import xml.etree.ElementTree as ET  # only for --junit

    root = ET.Element("testsuites", name="leanbridge check")
    groups = (("families", [r for r in result.records if r.family is not None]),
              ("library", [r for r in result.records if r.family is None]))
    for name, records in groups:
        failures = sum(r.verdict in FAILURES or (r.verdict != NOT_RUN
                                                 and bool(r.unverified_premises))
                       for r in records)
        skipped = sum(r.verdict == NOT_RUN for r in records)
        suite = ET.SubElement(root, "testsuite", name=name, tests=str(len(records)),
                              failures=str(failures), errors="0", skipped=str(skipped))
        for record in records:
            case = ET.SubElement(suite, "testcase", name=record.decl,
                                 classname=f"{name}.{record.family or record.role}",
                                 file=record.file, time=f"{record.time_s or 0:.3f}")
            if record.line:
                case.set("line", str(record.line))
            if record.premises or record.certificate_rule:
                properties = ET.SubElement(case, "properties")
                if record.certificate_rule:
                    ET.SubElement(properties, "property", name="certificate_rule",
                                  value=record.certificate_rule)
                for premise in record.premises:
                    ET.SubElement(properties, "property", name=f"premise:{premise.binder}",
                                  value=f"{premise.statement} ({premise.kind}; sympy: "
                                        f"{premise.sympy_status}; not verified by Lean)")
            if record.verdict == NOT_RUN:
                ET.SubElement(case, "skipped", message=f"not run: {record.detail}")
            elif record.verdict in FAILURES:
                failure = ET.SubElement(case, "failure", type=record.verdict,
                                        message=record.detail or record.verdict)
                failure.text = "\n".join(m.text for m in record.messages) or record.detail
            elif record.unverified_premises:
                premise = record.unverified_premises[0]
                ET.SubElement(case, "failure", type="premise_unverified",
                              message=_premise_text(premise))
            if record.premises:
                ET.SubElement(case, "system-out").text = "\n".join(
                    f"stated modulo {_premise_text(p)}" for p in record.premises)
    if result.modules:
        suite = ET.SubElement(root, "testsuite", name="modules", tests=str(len(result.modules)),
                              failures=str(len(result.modules)), errors="0", skipped="0")
        for module in result.modules:
            case = ET.SubElement(suite, "testcase", name=module.module or "lake build",
                                 classname=f"modules.{module.status}", file=module.file,
                                 time="0.000")
            failure = ET.SubElement(case, "failure", type=module.status, message=module.detail)
            failure.text = "\n".join(m.text for m in module.messages) or module.detail
    if result.missing_names:
        suite = ET.SubElement(root, "testsuite", name="names",
                              tests=str(len(result.missing_names)),
                              failures=str(len(result.missing_names)), errors="0", skipped="0")
        for name in result.missing_names:
            case = ET.SubElement(suite, "testcase", name=name.split(" ", 1)[0],
                                 classname="names.missing", time="0.000")
            ET.SubElement(case, "failure", type="missing_name", message=name)
    ET.indent(root)
    return ET.tostring(root, encoding="unicode", xml_declaration=True) + "\n"


def _escape_data(text: str) -> str:
    return text.replace("%", "%25").replace("\r", "%0D").replace("\n", "%0A")


def _escape_property(text: str) -> str:
    return _escape_data(text).replace(":", "%3A").replace(",", "%2C")


def github_annotations(result: CheckResult, root: str = "") -> list[str]:
    """``::error``/``::warning`` workflow commands for the failures, at Lean's positions."""
    prefix = root.rstrip("/") + "/" if root else ""
    out = []
    for record in result.records:
        if record.premises and record.verdict not in FAILURES:
            out.append(_modulo_annotation(record, prefix))
        if record.verdict not in FAILURES:
            continue
        level = "warning" if record.verdict == SORRY else "error"
        errors = [m for m in record.messages if m.severity == "error"]
        line = errors[0].line if errors else record.line
        properties = [f"file={_escape_property(prefix + record.file)}"]
        if line:
            properties.append(f"line={line}")
        if errors and errors[0].end_line:
            properties.append(f"endLine={errors[0].end_line}")
        properties.append(f"title={_escape_property('leanbridge: ' + record.verdict)}")
        text = errors[0].text if errors else record.detail or record.verdict
        out.append(f"::{level} {','.join(properties)}::{_escape_data(record.decl + ': ' + text)}")
    for module in result.modules:
        properties = [f"file={_escape_property(prefix + module.file)}"] if module.file else []
        first = module.messages[0] if module.messages else None
        if first is not None:
            properties.append(f"line={first.line}")
        properties.append(f"title={_escape_property('leanbridge: module ' + module.status)}")
        text = first.text if first is not None else module.detail
        out.append(f"::error {','.join(properties)}::"
                   f"{_escape_data((module.module or 'lake build') + ': ' + text)}")
    for name in result.missing_names:
        out.append(f"::error title=leanbridge%3A missing Lean name::{_escape_data(name)}")
    for premise in result.premises:
        if premise.status == PREMISE_FAILED:
            out.append(f"::error title=leanbridge premise::{_escape_data(premise.family)} "
                       f"{_escape_data(premise.argument)}: {_escape_data(premise.statement)}")
    return out


def _modulo_annotation(record: DeclarationResult, prefix: str) -> str:
    """``::notice`` naming the premise of a theorem proved (or not run) modulo it; ``::error``
    when SymPy did not verify the premise in this run."""
    level = "error" if record.unverified_premises else "notice"
    properties = [f"file={_escape_property(prefix + record.file)}"]
    if record.line:
        properties.append(f"line={record.line}")
    title = ("leanbridge: premise not verified" if record.unverified_premises else
             f"leanbridge: {record.verdict}")
    properties.append(f"title={_escape_property(title)}")
    text = "; ".join(f"modulo {_premise_text(p)}" for p in record.premises)
    return f"::{level} {','.join(properties)}::{_escape_data(record.decl + ': ' + text)}"


def step_summary(result: CheckResult) -> str:
    """A Markdown table (family × argument) for ``$GITHUB_STEP_SUMMARY``."""
    lines = ["## leanbridge check", "",
             f"Lean: {result.lean_note}", "",
             "| family | argument | declaration | verdict |", "|---|---|---|---|"]
    for record in _family_records(result):
        mark = _SYMBOL.get(record.verdict, "❌")
        modulo = "".join(f" (modulo `{p.binder}`: {NOT_BY_LEAN})" for p in record.premises)
        lines.append(f"| {record.family} | {_argument(record)} | "
                     f"`{record.decl.rsplit('.', 1)[-1]}` | {mark} {record.verdict}{modulo} |")
    if result.modules:
        lines += ["", "### Modules that did not build", "", "| module | status | detail |",
                  "|---|---|---|"]
        lines += [f"| `{m.module or 'lake build'}` | {m.status} | "
                  f"{m.detail.replace('|', '∣')} |" for m in result.modules]
    if result.missing_names:
        lines += ["", "### Lean names missing from lean/", ""]
        lines += [f"- {name}" for name in result.missing_names]
    counts = summary(result.records)
    lines += ["", "Totals: " + ", ".join(f"{n} {v}" for v, n in counts.items()
                                         if n and v != "total") + f"; exit {result.exit_code}."]
    return "\n".join(lines) + "\n"


def write_reports(result: CheckResult, json_path: str | None, junit_path: str | None) -> None:
    """Each report to its file (atomically), or to standard output for ``-``."""
    for path, render in ((json_path, to_json), (junit_path, to_junit)):
        if path == "-":
            text = render(result)
            sys.stdout.write(text if text.endswith("\n") else text + "\n")
            sys.stdout.flush()
        elif path:
            atomic_write(Path(path), render(result))

