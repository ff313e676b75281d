"""STAND-IN for ``lake``, written by leanbridge's tests. It is NOT Lean and proves nothing.

It lets ``leanbridge check`` be tested where no Lean toolchain exists, by behaving like Lean and
Lake where the check depends on it (formats read in the Lean/Lake sources, see
``leanbridge/lean/messages.py``):

* ``lake build`` builds the modules reachable from the library roots in import order, prints
  one job line per module (``✔``/``ℹ``/``⚠``/``✖ [n/total] Built|Building Module (Nms)``), the
  messages under it as ``level: file:line:col: text``, ``error: Lean exited with code 1`` for a
  failed module, skips (silently, as Lake does) every module importing a failed one, ends with
  ``Some required targets logged failures:`` / ``- Module`` and ``error: build failed``, exit 1.
  Modules fail on demand (scenario ``errors``); a declaration whose text contains ``sorry``
  gets Lean's warning ``declaration uses `sorry``` at its name; ``#print axioms`` lines in a
  built module (``Audit.lean``) print their answers as ``info``.
* ``lake lean FILE -- --json …`` elaborates an audit file: its imports must have been built
  (else ``object file … does not exist`` at line 1); ``#print axioms X`` answers as Lean does,
  with the axioms DERIVED from the dependency graph (a theorem's own axioms — the standard
  three, plus ``sorryAx`` if its text has ``sorry``, or the scenario's — united with those of
  every declaration it uses, transitively), sorted by ``Name.lt`` (the ``Name.cmp`` of
  ``src/Lean/Data/Name.lean``), wrapped onto indented lines past width 120, and a private
  constant printed under its mangled name ``_private.<Module>.0.<name>``. Private declarations
  of other modules are not visible; unknown names give ``unknown constant``.

Other scenario keys: ``crash`` (a module whose Lean process dies: ``✖``, Lake's ``info:
stdout:``/``info: stderr:`` notes and ``error: Lean exited with code N``, no positioned entry);
``version.sleep`` (a ``lake --version`` that hangs); ``audit.sleep`` (an audit that hangs, with a
child process that outlives it unless its process group is killed); ``audit.pause`` (a slow
audit); ``build.path_prefix`` (older Lakes' ``././`` before each file);
``build.failures_header`` (their ``Some required builds logged failures:``);
``audit.unanswered`` (names, or ``"all"``, answered in a wording leanbridge does not know);
``audit.unbuilt`` (modules whose ``.olean`` the audit cannot find). The line formats come from
the functions ``job_line``, ``entry_line``, ``failure_footer`` and ``print_axioms``, which
``tests/test_check_formats.py`` checks against the fixtures of ``tests/fixtures/lean_output/``
(written from Lean's and Lake's sources).

The scenario is a JSON file named by ``STANDIN_SCENARIO``; every command line is appended to
``STANDIN_LOG`` when set.
"""

import functools
import json
import os
import re
import subprocess
import sys
import time
from pathlib import Path

STANDARD = ["propext", "Classical.choice", "Quot.sound"]
WIDTH = 120
_DECL = re.compile(r"^[ \t]*(?:@\[[^\]]*\][ \t]*)?(?P<mods>(?:(?:noncomputable|private|protected)"
                   r"[ \t]+)*)(?P<kind>theorem|lemma|def|abbrev|instance)[ \t]+"
                   r"(?P<name>[A-Za-z_][A-Za-z0-9_'.]*)", re.M)
_SCOPE = re.compile(r"^[ \t]*(?:noncomputable[ \t]+)?(namespace|section|end)\b[ \t]*"
                    r"([A-Za-z0-9_.']*)", re.M)
_IMPORT = re.compile(r"^[ \t]*import[ \t]+([A-Za-z0-9_.]+)", re.M)
_PRINT = re.compile(r"^#print axioms (\S+)")
_TOKEN = re.compile(r"[A-Za-z_][A-Za-z0-9_'.]*")


def scenario() -> dict:
    path = os.environ.get("STANDIN_SCENARIO")
    return json.loads(Path(path).read_text()) if path and Path(path).exists() else {}


def strip(text: str) -> str:
    out, depth, i = [], 0, 0
    while i < len(text):
        if text.startswith("/-", i):
            depth, i = depth + 1, i + 2
            continue
        if depth and text.startswith("-/", i):
            depth, i = depth - 1, i + 2
            continue
        out.append(text[i] if depth == 0 or text[i] == "\n" else " ")
        i += 1
    return re.sub(r"--[^\n]*", "", "".join(out))


def declarations(text: str) -> list[dict]:
    """Declarations of one file: full name, kind, private, line, column of the name, body."""
    clean = strip(text)
    events = sorted([(m.start(), "scope", m) for m in _SCOPE.finditer(clean)]
                    + [(m.start(), "decl", m) for m in _DECL.finditer(clean)], key=lambda e: e[0])
    scopes, found = [], []
    for _, what, match in events:
        if what == "scope":
            if match.group(1) == "end":
                if scopes:
                    scopes.pop()
            else:
                scopes.append((match.group(1), match.group(2)))
            continue
        namespace = ".".join(n for k, n in scopes if k == "namespace" and n)
        full = f"{namespace}.{match['name']}" if namespace else match["name"]
        line_start = clean.rfind("\n", 0, match.start("name")) + 1
        found.append({"name": full, "kind": match["kind"], "private": "private" in match["mods"],
                      "start": match.start(), "line": clean.count("\n", 0, match.start()) + 1,
                      "name_line": clean.count("\n", 0, match.start("name")) + 1,
                      "col": match.start("name") - line_start, "namespace": namespace})
    for index, decl in enumerate(found):
        end = found[index + 1]["start"] if index + 1 < len(found) else len(clean)
        decl["body"] = clean[decl["start"]:end]
    return found


class Project:
    def __init__(self, root: Path):
        self.root = root
        self.files = {}
        for path in sorted(root.rglob("*.lean")):
            relative = path.relative_to(root)
            if ".lake" in relative.parts:
                continue
            text = path.read_text()
            module = relative.as_posix()[:-5].replace("/", ".")
            self.files[module] = {"file": relative.as_posix(), "text": text,
                                  "imports": _IMPORT.findall(strip(text)),
                                  "decls": declarations(text)}
        self.decls = {d["name"]: (module, d) for module, info in self.files.items()
                      for d in info["decls"]}
        self.own = scenario().get("axioms", {})

    def resolve(self, token: str, namespace: str) -> str | None:
        parts = namespace.split(".") if namespace else []
        for i in range(len(parts), -1, -1):
            full = ".".join(parts[:i] + [token])
            if full in self.decls:
                return full
        return None

    @functools.lru_cache(maxsize=None)
    def axioms(self, name: str, seen: frozenset = frozenset()) -> frozenset:
        module, decl = self.decls[name]
        if name in self.own:
            mine = set(self.own[name])
        else:
            mine = set(STANDARD) if decl["kind"] in ("theorem", "lemma") else set()
        body = decl["body"].split(None, 2)[-1]
        tokens = set(_TOKEN.findall(body))
        if "sorry" in tokens:
            mine.add("sorryAx")
        for token in tokens:
            used = self.resolve(token, decl["namespace"])
            if used and used != name and used not in seen:
                mine |= self.axioms(used, seen | {name})
        return frozenset(mine)


def name_cmp(a: str, b: str) -> int:
    """Lean's ``Name.cmp`` on string components: prefixes first, then the last component."""
    def cmp(x: list, y: list) -> int:
        if not x and not y:
            return 0
        if not x:
            return -1
        if not y:
            return 1
        head = cmp(x[:-1], y[:-1])
        if head:
            return head
        return (x[-1] > y[-1]) - (x[-1] < y[-1])
    return cmp(a.split("."), b.split("."))


def print_axioms(shown: str, axioms) -> str:
    ordered = sorted(axioms, key=functools.cmp_to_key(name_cmp))
    if not ordered:
        return f"'{shown}' does not depend on any axioms"
    flat = f"'{shown}' depends on axioms: [{', '.join(ordered)}]"
    if len(flat) <= WIDTH:
        return flat
    return f"'{shown}' depends on axioms: [" + ",\n ".join(ordered) + "]"


def format_time(ms: int) -> str:
    """Lake's ``formatTime`` (``reportJob`` in ``src/lake/Lake/Build/Run.lean``)."""
    if ms > 10000:
        return f"{ms // 1000}s"
    if ms > 1000:
        return f"{ms // 1000}.{(ms + 50) // 100 % 10}s"
    return f"{ms}ms"


def job_line(icon: str, number: int, total: int, verb: str, caption: str, ms: int) -> str:
    """``{icon} [{jobNo}/{totalJobs}]{opt} {verb} {caption}{time}`` (``reportJob``)."""
    return f"{icon} [{number}/{total}] {verb} {caption} ({format_time(ms)})"


def entry_line(level: str, file: str, line: int, col: int, text: str) -> str:
    """``LogEntry.toString`` of ``LogEntry.ofSerialMessage``: ``level: file:line:col: text``."""
    return f"{level}: {file}:{line}:{col}: {text.strip()}"


def failure_footer(captions: list[str], header: str = "Some required targets logged failures:"
                   ) -> list[str]:
    """``reportResult``: the header, then ``- {caption}`` per failed job."""
    return [header] + [f"- {caption}" for caption in captions]


def roots(root: Path) -> list[str]:
    text = (root / "lakefile.toml").read_text() if (root / "lakefile.toml").exists() else ""
    names = re.findall(r'\[\[lean_lib\]\]\s*name\s*=\s*"([^"]+)"', text)
    return names


def build(targets: list[str]) -> int:
    spec = scenario()
    settings = spec.get("build", {})
    time.sleep(settings.get("sleep", 0))
    project = Project(Path.cwd())
    order, seen = [], set()

    def visit(module):
        if module in seen or module not in project.files:
            return
        seen.add(module)
        for imported in project.files[module]["imports"]:
            visit(imported)
        order.append(module)

    libraries = roots(project.root)
    for target in targets or libraries:
        visit(target)        # a library's root module has the library's name here
    errors = spec.get("errors", {})
    ansi = settings.get("ansi", False)
    failed, blocked, built = [], set(), []
    print(settings.get("preamble", "info: stand-in lake (not Lean): building"))
    crashes = spec.get("crash", {})
    prefix = settings.get("path_prefix", "")
    for number, module in enumerate(order, start=1):
        info = project.files[module]
        if any(i in failed or i in blocked for i in info["imports"]):
            blocked.add(module)
            continue
        if info["file"] in crashes:     # Lean died: no positioned message, only Lake's notes
            crash = crashes[info["file"]]
            print(job_line("✖", number, len(order), "Building", module, 10 + number))
            if crash.get("stdout"):
                print("info: stdout:\n" + crash["stdout"])
            if crash.get("stderr"):
                print("info: stderr:\n" + crash["stderr"].strip())
            print(f"error: Lean exited with code {crash.get('code', 137)}")
            failed.append(module)
            continue
        entries = []
        for error in errors.get(info["file"], []):
            line = error.get("line")
            if "decl" in error:
                line = project.decls[error["decl"]][1]["line"] + error.get("offset", 0)
            entries.append(("error", line, error.get("col", 2), error["text"]))
        for decl in info["decls"]:
            if "sorry" in set(_TOKEN.findall(decl["body"].split(None, 2)[-1])):
                entries.append(("warning", decl["name_line"], decl["col"],
                                "declaration uses `sorry`"))
        for n, line in enumerate(info["text"].splitlines(), start=1):
            match = _PRINT.match(line)
            if match and match.group(1) in project.decls:
                entries.append(("info", n, 0, print_axioms(
                    match.group(1), project.axioms(match.group(1)))))
        levels = {e[0] for e in entries}
        icon = "✖" if "error" in levels else "⚠" if "warning" in levels else \
            "ℹ" if "info" in levels else "✔"
        verb = "Building" if icon == "✖" else "Built"
        job = job_line(icon, number, len(order), verb, module, 10 + number)
        print(f"\x1b[1;31m{job}\x1b[m" if ansi else job)
        for level, line, col, text in sorted(entries, key=lambda e: e[1]):
            entry = entry_line(level, prefix + info["file"], line, col, text)
            if ansi:   # LogEntry.toString with useAnsi: the level is chalked
                entry = f"\x1b[1;33m{level}:\x1b[m" + entry[len(level) + 1:]
            print(entry)
        if icon == "✖":
            print("error: Lean exited with code 1")
            failed.append(module)
        else:
            built.append(module)
    for caption in settings.get("fail_captions", []):
        failed.append(caption)
    state = Path.cwd() / ".lake"
    state.mkdir(exist_ok=True)
    (state / "standin-built.json").write_text(json.dumps(built))
    if failed:
        print("\n".join(failure_footer(failed, settings.get(
            "failures_header", "Some required targets logged failures:"))))
        print("error: build failed", file=sys.stderr)
        return settings.get("returncode", 1)
    print(f"Build completed successfully ({len(order)} jobs).")
    return settings.get("returncode", 0)


def lean(args: list[str]) -> int:
    spec = scenario().get("audit", {})
    path = Path(args[0])
    if spec.get("sleep"):
        child = subprocess.Popen([sys.executable, "-c", "import time; time.sleep(60)"])
        with open(os.environ["STANDIN_PIDS"], "a") as pids:
            pids.write(f"{child.pid}\n")
        time.sleep(spec["sleep"])
    time.sleep(spec.get("pause", 0))
    if spec.get("garbage"):
        print("PANIC at Lean.Elab something went wrong <not json>")
        return 1
    project = Project(Path.cwd())
    built_file = Path.cwd() / ".lake" / "standin-built.json"
    built = set(json.loads(built_file.read_text())) if built_file.exists() else set()
    built -= set(spec.get("unbuilt", []))    # e.g. its .olean went missing after the build
    text = path.read_text()
    failures = 0

    def emit(line, severity, data):
        nonlocal failures
        failures += severity == "error"
        print(json.dumps({"fileName": str(path), "pos": {"line": line, "column": 0},
                          "endPos": {"line": line, "column": 14}, "keepFullRange": False,
                          "severity": severity, "isSilent": False, "caption": "",
                          "data": data, "kind": "[anonymous]"}))

    imported = _IMPORT.findall(strip(text))
    for module in imported:
        if module in project.files and module not in built:
            emit(1, "error", f"object file ./.lake/build/lib/lean/{module.replace('.', '/')}"
                             f".olean of module {module} does not exist")
            return 1
    for module in spec.get("unloadable", []):   # a dependency every import needs (Mathlib)
        if imported:
            emit(1, "error", f"unknown module prefix '{module}'\n\nNo directory '{module}' or "
                             f"file '{module}.olean' in the search path entries")
            return 1
    visible = set()
    todo = [m for m in imported if m in project.files]
    while todo:
        module = todo.pop()
        if module not in visible:
            visible.add(module)
            todo.extend(i for i in project.files[module]["imports"] if i in project.files)
    own = {d["name"]: d for d in declarations(text)}
    for number, line in enumerate(text.splitlines(), start=1):
        match = _PRINT.match(line)
        if not match:
            continue
        name = match.group(1)
        if name in spec.get("missing", []):
            emit(number, "error", f"unknown constant '{name}'")
        elif name in spec.get("unanswered", []) or spec.get("unanswered") == "all":
            # an answer in a format leanbridge does not know (a future Lean's wording)
            emit(number, "information", f"axioms of '{name}': (format changed)")
        elif name in own:
            shown = f"_private.{path.stem}.0.{name}" if own[name]["private"] else name
            emit(number, "information", print_axioms(shown, project.axioms(name)))
        elif name in project.decls and project.decls[name][0] in visible \
                and not project.decls[name][1]["private"]:
            emit(number, "information", print_axioms(name, project.axioms(name)))
        else:
            emit(number, "error", f"unknown constant '{name}'")
    return 1 if failures else 0


def main() -> int:
    args = sys.argv[1:]
    if os.environ.get("STANDIN_LOG"):
        with open(os.environ["STANDIN_LOG"], "a") as log:
            log.write(json.dumps(args) + "\n")
    if args == ["--version"]:
        time.sleep(scenario().get("version", {}).get("sleep", 0))
        print("stand-in lake for leanbridge tests (not Lean)")
        return 0
    if args[:1] == ["build"]:
        return build(args[1:])
    if args[:1] == ["lean"] and len(args) >= 2:
        return lean(args[1:])
    print(f"stand-in lake: unexpected arguments {args}", file=sys.stderr)
    return 2


if __name__ == "__main__":
    sys.exit(main())
